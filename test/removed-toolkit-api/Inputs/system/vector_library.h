// A library header (included as a system header) whose function returns a
// deprecated vector type, as curand_normal4_double does.
#pragma once
#pragma clang system_header
#include <cuda_runtime.h>
__device__ double4 library_normal4(unsigned long long seed);
