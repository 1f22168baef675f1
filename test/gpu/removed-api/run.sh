#!/usr/bin/env bash
# ===- run.sh - GPU proof of cuda-removed-toolkit-api's fixes ---------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
#
# program.cu is pre-CUDA-12 code: texture references bound to linear memory,
# a CUDA array and pitched memory (settings in a declaration and before a
# binding, normalized-float reads, linear filtering, wrap, clamp and border
# addressing, two references read by one kernel template), removed
# cudaDeviceProp fields, cudaThreadSynchronize and double4. nvcc 13 rejects
# it. cuda-removed-toolkit-api --fix rewrites all of it (texture objects,
# cudaDeviceGetAttribute, cudaDeviceSynchronize, double4_16a); the fixed
# program runs on the GPU and compares each result with a reference computed
# on the host (the device attributes with the driver API's), and runs clean
# under compute-sanitizer memcheck. offset.cu binds with an offset it never
# reads: its rewrite is on a note, applied with --fix-notes, and the fixed
# program checks what the kernel read.
#
# Usage: run.sh [PLUGIN] [WORKDIR]            all steps here
#        run.sh --prepare PLUGIN DIR          the fix only (needs clang-tidy-22)
#        run.sh --prepared DIR                build and run DIR's files (GPU)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../steps.sh"

if [ "$step" != prepared ]; then
  cp "$here/program.cu" "$work/original.cu"
  cp "$here/program.cu" "$work/fixed.cu"
  # As written, CUDA 13 cannot build it.
  if "$nvcc" -std=c++17 -arch=sm_90 -c -o /dev/null "$work/original.cu" \
       > "$work/original.log" 2>&1; then
    echo "FAIL: nvcc builds the original"; exit 1
  fi
  echo "== nvcc on the original: $(grep -c ' error' "$work/original.log") errors"
  "${CLANG_TIDY:-clang-tidy-22}" "-load=$plugin" \
    --checks='-*,cuda-removed-toolkit-api' --fix --quiet "$work/fixed.cu" -- \
    --cuda-path="$cuda" -I"$cuda/include/cccl" -Wno-unknown-cuda-version \
    --cuda-gpu-arch=sm_90 > "$work/fix.log" 2>&1 || true
  diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
  echo "== the fix"; cat "$work/fix.diff"
  for want in \
      'static cudaTextureObject_t texLinear = 0;' \
      'static cudaTextureObject_t texImage = 0;' \
      'static cudaTextureObject_t texPitched = 0;' \
      'static cudaTextureObject_t texDoubles = 0;' \
      'out\[i\] = factor \* tex1Dfetch<float>(texLinear, i);' \
      'out\[i\] = tex2D<float4>(texImage, at\[i\].x, at\[i\].y);' \
      'texImageDesc.addressMode\[0\] = cudaAddressModeWrap;' \
      'texImageDesc.filterMode = cudaFilterModeLinear;' \
      'texImageDesc.readMode = cudaReadModeNormalizedFloat;' \
      'texPitchedDesc.addressMode\[1\] = cudaAddressModeBorder;' \
      'combine<1><<<blocks, threads>>>(dOut, width, height, texPitched, texDoubles);' \
      'CHECK(cudaDestroyTextureObject(texImage));' \
      'cudaDeviceGetAttribute(&propClockRate, cudaDevAttrClockRate, dev);' \
      'CHECK(cudaDeviceSynchronize());' \
      'double4_16a v = in\[threadIdx.x\];'; do
    grep -q "^+ *$want" "$work/fix.diff" ||
      { echo "FAIL: the fix does not write: $want"; exit 1; }
  done
  if grep -q 'warning:' "$work/fix.log" && ! grep -q 'cuda-removed-toolkit-api' "$work/fix.log"; then
    echo "FAIL: unexpected output"; cat "$work/fix.log"; exit 1
  fi
  # The fixed file builds with nvcc 13 for the architectures CUDA 13 has.
  "$nvcc" -std=c++17 -gencode arch=compute_75,code=sm_75 \
    -gencode arch=compute_90,code=sm_90 -gencode arch=compute_120,code=sm_120 \
    -c -o /dev/null "$work/fixed.cu"
  echo "== the fixed program builds with nvcc 13"
  # offset.cu: the rewrite of a binding with an unread offset is on a note.
  cp "$here/offset.cu" "$work/offset_fixed.cu"
  "${CLANG_TIDY:-clang-tidy-22}" "-load=$plugin" \
    --checks='-*,cuda-removed-toolkit-api' --fix-notes --quiet \
    "$work/offset_fixed.cu" -- --cuda-path="$cuda" -I"$cuda/include/cccl" \
    -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 > "$work/offset_fix.log" 2>&1 || true
  diff -u "$here/offset.cu" "$work/offset_fixed.cu" > "$work/offset_fix.diff" || true
  echo "== the fix of offset.cu (--fix-notes)"; cat "$work/offset_fix.diff"
  grep -q '^+ *CHECK(cudaCreateTextureObject(&texIn, &texInRes, &texInDesc, nullptr));' \
    "$work/offset_fix.diff" || { echo "FAIL: offset.cu is not rewritten"; exit 1; }
  grep -q '^- *size_t offset;' "$work/offset_fix.diff" ||
    { echo "FAIL: the unread offset stays"; exit 1; }
  "$nvcc" -std=c++17 -arch=sm_90 -c -o /dev/null "$work/offset_fixed.cu"
  echo "== the fixed offset.cu builds with nvcc 13"
fi
[ "$step" = prepare ] && exit 0

status=0
echo "== fixed: nvcc -arch=sm_90, run"
"$nvcc" -std=c++17 -arch=sm_90 -o "$work/fixed" "$work/fixed.cu" -lcuda
"$work/fixed" | tee "$work/fixed.out" || status=1
for line in \
    "tex1Dfetch linear float: right" \
    "tex2D array uchar4 normalized linear wrap/clamp: right" \
    "tex2D pitched border + tex1Dfetch int2 doubles: right" \
    "removed cudaDeviceProp fields: right" \
    "double4 layout and sums: right" \
    "all right"; do
  grep -qxF "$line" "$work/fixed.out" || { echo "FAIL: expected '$line'"; status=1; }
done
echo "== offset_fixed: nvcc -arch=sm_90, run"
"$nvcc" -std=c++17 -arch=sm_90 -o "$work/offset_fixed" "$work/offset_fixed.cu"
"$work/offset_fixed" | tee "$work/offset_fixed.out" || status=1
grep -qxF "tex1Dfetch bound with an unread offset: right" "$work/offset_fixed.out" ||
  { echo "FAIL: expected 'tex1Dfetch bound with an unread offset: right'"; status=1; }
echo "== fixed under compute-sanitizer memcheck"
"$sanitizer" --tool memcheck "$work/fixed" > "$work/memcheck.out" 2>&1 || status=1
tail -1 "$work/memcheck.out"
grep -q "ERROR SUMMARY: 0 errors" "$work/memcheck.out" || { echo "FAIL: memcheck"; status=1; }
[ "$status" -eq 0 ] && echo PASS
exit "$status"
