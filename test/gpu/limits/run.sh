#!/bin/sh
# Builds the GPU limit tests with nvcc for sm_90 and runs them on the GPU of
# this machine (an H100 for the recorded results). Prints each case's CUDA
# error and a summary; exits non-zero when a case does not behave as the
# checks' documentation says.
#   test/gpu/limits/run.sh [BUILD_DIR]   (NVCC overrides the compiler)
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${TMPDIR:-/tmp}/cuda-tidy-gpu-limits}
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
mkdir -p "$out"
failed=0
for test in dynamic_smem cluster; do
  echo "== $test"
  if ! "$nvcc" -std=c++17 -arch=sm_90 -o "$out/$test" "$here/$test.cu"; then
    echo "$test: build failed"
    failed=$((failed + 1))
    continue
  fi
  if ! "$out/$test"; then
    failed=$((failed + 1))
  fi
done
echo "== summary: $failed of 2 programs failed"
[ "$failed" -eq 0 ]
