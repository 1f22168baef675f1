// Hermetic asynchronous-copy primitives for cuda-tidy's tests: the shape of
// the toolkit's cuda_pipeline.h (the `__pipeline_*` functions at global
// scope). Written for cuda-tidy; not the toolkit's text.
#pragma once
#pragma clang system_header

#include <cuda_runtime.h>

__device__ void __pipeline_memcpy_async(void *__restrict__ dst_shared,
                                        const void *__restrict__ src_global,
                                        size_t size_and_align,
                                        size_t zfill = 0);
__device__ void __pipeline_commit();
__device__ void __pipeline_wait_prior(size_t prior);
