// A header of the project that uses a deprecated vector type.
#pragma once
#include <cuda_runtime.h>
__device__ long4 shiftCell(long4 cell);
