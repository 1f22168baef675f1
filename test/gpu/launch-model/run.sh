#!/usr/bin/env bash
# ===- run.sh - GPU proof for the launch model ------------------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
#
# program.cu launches kernels whose shared memory or cluster size is set away
# from the launch: static plus dynamic shared memory over 48 KiB, a
# configuration returned by a helper, a cluster attribute set by a helper,
# and an opt-in made through a wrapper. As written, the first three fail at
# launch (cudaErrorInvalidValue, cudaErrorInvalidClusterSize) and the
# wrapper's launch runs. After cuda-tidy's --fix all four run and the
# stencil computes the right result.
#
# Usage: run.sh [PLUGIN] [WORKDIR]            all steps here
#        run.sh --prepare PLUGIN DIR          the fix only (needs clang-tidy-22)
#        run.sh --prepared DIR                build and run DIR's files (GPU)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# steps.sh insists on compute-sanitizer, which this proof does not use.
export COMPUTE_SANITIZER="${COMPUTE_SANITIZER:-/bin/true}"
source "$here/../steps.sh"

if [ "$step" != prepared ]; then
  cp "$here/program.cu" "$work/original.cu"
  cp "$here/program.cu" "$work/fixed.cu"
  "${CLANG_TIDY:-clang-tidy-22}" "-load=$plugin" \
    --checks='-*,cuda-dynamic-shared-memory-opt-in,cuda-cluster-size-portability' \
    --fix --quiet "$work/fixed.cu" -- --cuda-path="$cuda" -I"$cuda/include/cccl" \
    -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 > "$work/fix.log" 2>&1 || true
  diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
  echo "== the fix"; cat "$work/fix.diff"
  # One opt-in per flagged launch, and none for the wrapper's launch.
  for want in \
      'cudaFuncSetAttribute(stencil, cudaFuncAttributeMaxDynamicSharedMemorySize, 36 \* 1024);' \
      'cudaFuncSetAttribute(configured, cudaFuncAttributeMaxDynamicSharedMemorySize, cfg.dynamicSmemBytes);' \
      'cudaFuncSetAttribute(clustered, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);'; do
    grep -q "^+ *$want" "$work/fix.diff" ||
      { echo "FAIL: the fix does not insert: $want"; exit 1; }
  done
  if grep -q '^+.*(tiled,' "$work/fix.diff"; then
    echo "FAIL: the wrapper's opt-in was not recognised"; exit 1
  fi
fi
[ "$step" = prepare ] && exit 0

status=0
expect() { # FILE LINE
  grep -qxF "$2" "$1" || { echo "FAIL: expected '$2' in $(basename "$1")"; status=1; }
}
for side in original fixed; do
  echo "== $side: nvcc -arch=sm_90, run"
  "$nvcc" -std=c++17 -arch=sm_90 -o "$work/$side" "$work/$side.cu"
  "$work/$side" | tee "$work/$side.out"
done
expect "$work/original.out" "stencil: cudaErrorInvalidValue"
expect "$work/original.out" "config-helper: cudaErrorInvalidValue"
expect "$work/original.out" "cluster-helper: cudaErrorInvalidClusterSize"
expect "$work/original.out" "wrapper: cudaSuccess"
for name in stencil wrapper config-helper cluster-helper; do
  expect "$work/fixed.out" "$name: cudaSuccess"
done
expect "$work/fixed.out" "stencil result: right"
[ "$status" -eq 0 ] && echo PASS
exit "$status"
