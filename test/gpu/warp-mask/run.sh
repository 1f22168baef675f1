#!/usr/bin/env bash
# ===- run.sh - GPU proof for cuda-warp-mask-correctness's fixes ----------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===---------------------------------------------------------------------===#
#
# Fixes a copy of kernels.cu with the check's --fix, builds the original and
# the fixed form with nvcc, runs each kernel of each form plainly and under
# compute-sanitizer synccheck. Passes when the check warns on the original,
# not on the fixed form, and every fixed kernel gives the right results with
# no synccheck error.
#
# Usage: run.sh [PLUGIN] [WORKDIR], or run.sh --prepare PLUGIN DIR here and
# run.sh --prepared DIR on a GPU machine without clang-tidy-22.
# Environment: CLANG_TIDY (clang-tidy-22), CUDA_PATH, ARCH (sm_90).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../steps.sh"
tidy="${CLANG_TIDY:-clang-tidy-22}"
arch="${ARCH:-sm_90}"

if [ "$step" = prepared ]; then
  read -r warnings left < "$work/counts"
else
  cp "$here/kernels.cu" "$work/original.cu"
  cp "$here/kernels.cu" "$work/fixed.cu"
  cp "$here/harness.cu" "$work/harness.cu"
  args=(-xcuda "--cuda-gpu-arch=$arch" "--cuda-path=$cuda"
        "-I$cuda/include/cccl" -Wno-unknown-cuda-version)
  "$tidy" "-load=$plugin" --checks='-*,cuda-warp-mask-correctness' --quiet \
    --fix "$work/fixed.cu" -- "${args[@]}" > "$work/fix.log" 2>&1
  warnings=$(grep -c 'warning:.*cuda-warp-mask-correctness' "$work/fix.log" || true)
  "$tidy" "-load=$plugin" --checks='-*,cuda-warp-mask-correctness' --quiet \
    "$work/fixed.cu" -- "${args[@]}" > "$work/recheck.log" 2>&1
  left=$(grep -c 'warning:' "$work/recheck.log" || true)
  diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
  echo "$warnings $left" > "$work/counts"
  echo "check: $warnings warnings on the original, $left on the fixed form"
fi
[ "$step" = prepare ] && exit 0

status=0
for form in original fixed; do
  "$nvcc" -arch="$arch" -lineinfo -o "$work/$form" \
    -DKERNELS_FILE="\"$work/$form.cu\"" "$work/harness.cu"
  for k in halfWarpBroadcast upperPairs; do
    rc=0; "$work/$form" "$k" > "$work/$form.$k.run" 2>&1 || rc=$?
    "$sanitizer" --tool synccheck "$work/$form" "$k" > "$work/$form.$k.sync" 2>&1 || true
    errors=$(grep -E 'ERROR SUMMARY' "$work/$form.$k.sync" | tail -1)
    echo "$form $k: run rc=$rc ($(cat "$work/$form.$k.run" | tr '\n' ' ')); synccheck: ${errors:-no summary}"
    if [ "$form" = fixed ]; then
      [ "$rc" -eq 0 ] || { echo "FAIL: fixed $k gives wrong results"; status=1; }
      grep -q 'ERROR SUMMARY: 0 errors' "$work/$form.$k.sync" ||
        { echo "FAIL: synccheck reports errors in fixed $k"; status=1; }
    fi
  done
done
[ "$warnings" -gt 0 ] || { echo "FAIL: the check found nothing"; status=1; }
[ "$left" -eq 0 ] || { echo "FAIL: the fixed form still warns"; status=1; }
[ "$status" -eq 0 ] && echo "PASS"
exit "$status"
