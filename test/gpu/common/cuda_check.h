// The GPU suites' harnesses: CHECK(call) stops the harness with exit status
// 2 (a harness failure, not a wrong result) when a CUDA runtime call fails.
#ifndef CUDA_TIDY_TEST_GPU_CUDA_CHECK_H
#define CUDA_TIDY_TEST_GPU_CUDA_CHECK_H
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t Err = (call);                                                  \
    if (Err != cudaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                  \
                   cudaGetErrorString(Err));                                   \
      std::exit(2);                                                            \
    }                                                                          \
  } while (0)

#endif
