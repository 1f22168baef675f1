// A file parsed with a precompiled header (CMake's precompiled headers, the
// cuda-tidy driver's shared CUDA headers): clang replaces the predefines
// when it loads the PCH, after the check has added its declarations of the
// removed APIs there. The check then gives them as a force-included file
// the PCH lacks, which clang includes after the PCH: the removed APIs are
// still declared, reported and fixed, and the file parses.
// REQUIRES: clangxx
// RUN: %clangxx -x cuda %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only -S \
// RUN:   -Xclang -emit-pch -o %t.pch %S/../launch-resources/Inputs/pch-prefix.h
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --fix %s %t -- %cuda_args \
// RUN:   --cuda-gpu-arch=sm_90 --cuda-host-only -Xclang -include-pch -Xclang %t.pch
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> texIn;
// warning@-1:44 {{texture reference 'texIn' needs the texture reference API, removed in CUDA 12.0; use a texture object}} [cuda-removed-toolkit-api]

void wait() {
  cudaThreadSynchronize();
  // warning@-1:3 {{'cudaThreadSynchronize' was removed in CUDA 13.0; use 'cudaDeviceSynchronize'}} [cuda-removed-toolkit-api]
  // FIXED: cudaDeviceSynchronize();
}
