// Macros that a precompiled header holds (a PCH, clangd's preamble): the
// checks ask the preprocessor for a macro, which loads its definition from
// the PCH; the identifier table alone does not have it until something
// asks. Here the cuda-tidy driver's __CUDA_TIDY_GPU_ARCHS__ is defined when
// the PCH is made, and each architecture's limits are still reported.
// REQUIRES: clangxx
// RUN: %clangxx -x cuda %cuda_args --cuda-gpu-arch=sm_90 --cuda-device-only -S \
// RUN:   -D__CUDA_TIDY_GPU_ARCHS__=sm_90,sm_120 -Xclang -emit-pch -o %t.pch %S/Inputs/pch-prefix.h
// RUN: %check_cuda_tidy --checks=cuda-launch-resources %s %t -- %cuda_args --cuda-gpu-arch=sm_90 \
// RUN:   --cuda-device-only -D__CUDA_TIDY_GPU_ARCHS__=sm_90,sm_120 -Xclang -include-pch -Xclang %t.pch

__global__ void __launch_bounds__(256, 40) manyBlocks(float *x) { x[threadIdx.x] = 0; }
// warning@-1:17 {{'__launch_bounds__' asks for 40 resident blocks per SM, more than the 24 an SM of 'sm_120' holds}} [cuda-launch-resources]
// note@-2:17 {{ptxas ignores the minimum ('minnctapersm out of range')}}
// warning@-3:17 {{'__launch_bounds__' asks for 40 resident blocks per SM, more than the 32 an SM of 'sm_90' holds}} [cuda-launch-resources]
// note@-4:17 {{ptxas ignores the minimum ('minnctapersm out of range')}}
