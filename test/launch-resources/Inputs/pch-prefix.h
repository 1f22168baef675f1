// The prefix header of pch-macros.cu, made into a precompiled header.
#include <cuda_runtime.h>
