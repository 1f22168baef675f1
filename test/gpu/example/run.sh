#!/usr/bin/env bash
# ===- run.sh - GPU proof for the README example's migration ---------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
#
# examples/legacy_reduce.cu as written does not build for sm_90 with CUDA 13.
# Its --fix output (cuda-legacy-warp-intrinsics) must build, compute the right
# sum and vote count, and run clean under compute-sanitizer's racecheck and
# synccheck.
#
# Usage: run.sh [PLUGIN] [WORKDIR]            all steps here
#        run.sh --prepare PLUGIN DIR          the fix only (needs clang-tidy-22)
#        run.sh --prepared DIR                build and run DIR's files (GPU)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../steps.sh"
sanitizer="${COMPUTE_SANITIZER:-$cuda/bin/compute-sanitizer}"

if [ "$step" != prepared ]; then
  cp "$root/examples/legacy_reduce.cu" "$work/original.cu"
  cp "$root/examples/legacy_reduce.cu" "$work/fixed.cu"
  "${CLANG_TIDY:-clang-tidy-22}" "-load=$plugin" --checks='-*,cuda-*' --fix --quiet \
    "$work/fixed.cu" -- --cuda-path="$cuda" -I"$cuda/include/cccl" \
    -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 > "$work/fix.log" 2>&1 || true
  diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
  echo "== the fix"; cat "$work/fix.diff"
fi
[ "$step" = prepare ] && exit 0

status=0
echo "== original: nvcc -arch=sm_90 (expected to fail)"
if "$nvcc" -arch=sm_90 -o "$work/original" "$work/original.cu" > "$work/original.nvcc" 2>&1; then
  echo "FAIL: the legacy example built"; status=1
else
  grep -E "error" "$work/original.nvcc" | head -5
fi
echo "== fixed: nvcc -arch=sm_90 -lineinfo, run"
"$nvcc" -arch=sm_90 -lineinfo -o "$work/fixed" "$work/fixed.cu"
out=$("$work/fixed")
echo "   $out"
# 2^20 elements, -1 at multiples of 7 and +1 elsewhere; every warp of 32
# consecutive elements holds a multiple of 7.
expected="sum = 748982, warps with a negative element = 32768"
[ "$out" = "$expected" ] || { echo "FAIL: expected '$expected'"; status=1; }
for tool in racecheck synccheck; do
  "$sanitizer" --tool "$tool" "$work/fixed" > "$work/fixed.$tool" 2>&1 || true
  summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$work/fixed.$tool" | tail -1)
  echo "   $tool: ${summary:-no summary}"
  echo "$summary" | grep -qE "ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards" ||
    { echo "FAIL: $tool reports problems"; status=1; }
done
[ "$status" -eq 0 ] && echo PASS
exit "$status"
