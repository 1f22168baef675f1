// Hermetic mbarrier primitives for cuda-tidy's tests: the shape of the
// toolkit's cuda_awbarrier_primitives.h (declarations only). Written for
// cuda-tidy; not the toolkit's text.
#pragma once
#pragma clang system_header

#include <cuda_runtime.h>
#include <stdint.h>

typedef uint64_t __mbarrier_t;
typedef uint64_t __mbarrier_token_t;

__device__ void __mbarrier_init(__mbarrier_t *barrier, uint32_t expected_count);
__device__ __mbarrier_token_t __mbarrier_arrive(__mbarrier_t *barrier);
__device__ bool __mbarrier_test_wait(__mbarrier_t *barrier,
                                     __mbarrier_token_t token);
__device__ bool __mbarrier_try_wait(__mbarrier_t *barrier,
                                    __mbarrier_token_t token,
                                    uint32_t max_sleep_nanosec);
__device__ bool __mbarrier_try_wait_parity(__mbarrier_t *barrier,
                                           bool phase_parity,
                                           uint32_t max_sleep_nanosec);
