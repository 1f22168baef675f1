#!/usr/bin/env bash
# ===- run.sh - GPU proof for cuda-launch-resources -------------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
#
# program.cu launches every shape cuda-launch-resources flags, each beside a
# counterpart that fits: registers over an SM (72 registers x 1024 threads;
# 68 x 960, which only the allocation granularity makes fail), more threads
# than __launch_bounds__, blocks and grids over the limits, in the runtime
# API's forms and the driver API's. The check reads the register counts from
# the object file nvcc builds from program.cu (cuda.ResourceUsage). As
# written, every flagged launch must fail with the error its warning names
# and every counterpart must run; after --fix (__launch_bounds__ on the two
# register-heavy kernels) those two launches run too. bounds.cu holds launch
# bounds the check flags per architecture: ptxas must call each one "out of
# range" for that architecture, and nothing else. The cluster cases print
# what the runtime does with a cluster of 16 blocks of 200 KiB (issue 26,
# point 5): measured, not required.
#
# Usage: run.sh [PLUGIN] [WORKDIR]            all steps here
#        run.sh --prepare PLUGIN DIR          the check and the fix (needs
#                                             clang-tidy-22 and nvcc)
#        run.sh --prepared DIR                build and run DIR's files (GPU)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# steps.sh insists on compute-sanitizer, which this proof does not use.
export COMPUTE_SANITIZER="${COMPUTE_SANITIZER:-/bin/true}"
source "$here/../steps.sh"

status=0
fail() { echo "FAIL: $*"; status=1; }

# Launch bounds per architecture: ptxas's own warnings, compared with the
# check's (nvcc only, so it runs in every mode).
check_ptxas() { # ARCH KERNEL... (the kernels ptxas must warn about)
  local arch=$1; shift
  local got="" k
  for k in wide manyBlocks twoBig oddBlock fits full; do
    "$nvcc" -std=c++17 -arch="$arch" -DCASE_$k -c "$here/bounds.cu" \
      -o "$work/bounds-$arch-$k.o" > "$work/ptxas-$arch-$k.log" 2>&1 ||
      { fail "bounds.cu ($k) does not build for $arch"; continue; }
    grep -q 'out of range' "$work/ptxas-$arch-$k.log" && got="$got $k"
  done
  [ "$got" = " $*" ] || fail "ptxas on $arch warns about '$got', the check about ' $*'"
  echo "ptxas $arch: out of range for:$got"
}
echo "== ptxas on bounds.cu"
check_ptxas sm_90 manyBlocks oddBlock
check_ptxas sm_120 wide manyBlocks twoBig oddBlock
# The check on the same kernels (needs clang-tidy-22).
check_tidy() { # ARCH KERNEL... (the kernels the check must flag)
  local arch=$1; shift
  local got="" k
  for k in wide manyBlocks twoBig oddBlock fits full; do
    "${CLANG_TIDY:-clang-tidy-22}" "-load=$plugin" --checks='-*,cuda-launch-resources' \
      --quiet "$here/bounds.cu" -- --cuda-path="$cuda" -Wno-unknown-cuda-version \
      --cuda-gpu-arch="$arch" -DCASE_$k > "$work/tidy-$arch-$k.log" 2>&1 || true
    grep -q "warning: '__launch_bounds__'" "$work/tidy-$arch-$k.log" && got="$got $k"
  done
  [ "$got" = " $*" ] || fail "the check on $arch flags '$got', expected ' $*'"
  echo "cuda-launch-resources $arch: flags:$got"
}
if [ "$step" != prepared ]; then
  check_tidy sm_90 wide manyBlocks oddBlock
  check_tidy sm_120 wide manyBlocks twoBig oddBlock
fi

if [ "$step" != prepared ]; then
  cp "$here/program.cu" "$work/original.cu"
  cp "$here/program.cu" "$work/fixed.cu"
  # The build: its object file holds the register counts.
  "$nvcc" -std=c++17 -arch=sm_90 -c "$work/original.cu" -o "$work/original.o"
  config="{CheckOptions: {cuda.ResourceUsage: '$work/original.o'}}"
  tidy() {
    "${CLANG_TIDY:-clang-tidy-22}" "-load=$plugin" --checks='-*,cuda-launch-resources' \
      --config="$config" --quiet "$@" -- --cuda-path="$cuda" -I"$cuda/include/cccl" \
      -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90
  }
  tidy "$work/original.cu" > "$work/warnings.log" 2>&1 || true
  tidy --fix "$work/fixed.cu" > "$work/fix.log" 2>&1 || true
  echo "== the warnings"; grep 'warning:' "$work/warnings.log" || true
  # One warning per flagged launch, naming the error the GPU must give.
  for want in \
      "'gemm' with 1024 threads fails with cudaErrorLaunchOutOfResources: it uses 72 registers" \
      "'stencil' with 960 threads fails with cudaErrorLaunchOutOfResources: it uses 68 registers" \
      "'scale' with 512 threads fails with cudaErrorInvalidValue" \
      "'touch' with 1025 threads per block fails with cudaErrorInvalidValue" \
      "'touch' with a block of (1, 1, 65) fails with cudaErrorInvalidValue" \
      "'touch' with a grid of (1, 65536, 1) fails with cudaErrorInvalidValue" \
      "'touch' with a grid of (2147483648, 1, 1) fails with cudaErrorInvalidValue" \
      "'touch' with 2048 threads per block fails with cudaErrorInvalidValue" \
      "'touch' with a grid of (1, 1, 65536) fails with cudaErrorInvalidValue" \
      "'f' with 1025 threads per block fails with CUDA_ERROR_INVALID_VALUE"; do
    grep -qF "$want" "$work/warnings.log" || fail "no warning: $want"
  done
  [ "$(grep -c 'warning:' "$work/warnings.log")" -eq 11 ] ||
    fail "expected 11 warnings (the flagged launches), got $(grep -c 'warning:' "$work/warnings.log")"
  diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
  echo "== the fix"; cat "$work/fix.diff"
  for want in '__global__ void __launch_bounds__(1024) gemm(' \
              '__global__ void __launch_bounds__(960) stencil('; do
    grep -qF "+$want" "$work/fix.diff" || fail "the fix does not insert: $want"
  done
  [ "$(grep -c '^+[^+]' "$work/fix.diff")" -eq 2 ] || fail "the fix changes more than the two kernels"
  # Rebuilt, the fixed file's kernels fit: only the other nine remain.
  "$nvcc" -std=c++17 -arch=sm_90 -c "$work/fixed.cu" -o "$work/fixed.o"
  config="{CheckOptions: {cuda.ResourceUsage: '$work/fixed.o'}}"
  tidy "$work/fixed.cu" > "$work/warnings-fixed.log" 2>&1 || true
  ! grep -q 'cudaErrorLaunchOutOfResources' "$work/warnings-fixed.log" ||
    fail "the fixed file, rebuilt, still has register warnings"
  [ "$(grep -c 'warning:' "$work/warnings-fixed.log")" -eq 9 ] ||
    fail "expected 9 warnings on the fixed file, got $(grep -c 'warning:' "$work/warnings-fixed.log")"
fi
[ "$step" = prepare ] && { [ "$status" -eq 0 ] && echo PASS; exit "$status"; }

expect() { # FILE LINE
  grep -qxF "$2" "$1" || fail "expected '$2' in $(basename "$1")"
}
for side in original fixed; do
  echo "== $side: nvcc -arch=sm_90, run"
  "$nvcc" -std=c++17 -arch=sm_90 -o "$work/$side" "$work/$side.cu" \
    -L"$cuda/lib64/stubs" -lcuda
  "$work/$side" | tee "$work/$side.out"
done
for side in original fixed; do
  out="$work/$side.out"
  for ok in regs-256 granularity-896 bounds-256 block-1024 block-16x1x64 \
            grid-y65535 grid-x2^20 launchkernel-1024 cooperative-8 \
            launchkernelex-512; do
    expect "$out" "$ok: cudaSuccess"
  done
  expect "$out" "culaunchkernel-1024: CUDA_SUCCESS"
  for bad in bounds-512 block-1025 block-z65 grid-y65536 grid-x2^31 \
             launchkernel-2048 cooperative-z65536 launchkernelex-2048; do
    expect "$out" "$bad: cudaErrorInvalidValue"
  done
  expect "$out" "culaunchkernel-1025: CUDA_ERROR_INVALID_VALUE"
done
expect "$work/original.out" "regs-1024: cudaErrorLaunchOutOfResources"
expect "$work/original.out" "granularity-960: cudaErrorLaunchOutOfResources"
expect "$work/fixed.out" "regs-1024: cudaSuccess"
expect "$work/fixed.out" "granularity-960: cudaSuccess"
echo "== measured (issue 26, point 5)"
grep '^cluster' "$work/original.out" || fail "no cluster measurement"
[ "$status" -eq 0 ] && echo PASS
exit "$status"
