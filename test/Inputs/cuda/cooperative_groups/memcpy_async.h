// Hermetic cooperative_groups::memcpy_async for cuda-tidy's tests: the shape
// of the toolkit's API (a group-wide copy that commits its own batch, wait
// and wait_prior, which also sync the group). Written for cuda-tidy; not the
// toolkit's text.
#pragma once
#pragma clang system_header

#include <cooperative_groups.h>

namespace cooperative_groups {

template <class GroupT, class T, class SizeT>
__device__ void memcpy_async(const GroupT &group, T *__restrict__ dst,
                             const T *__restrict__ src, const SizeT &count);

template <unsigned Stage, class GroupT>
__device__ void wait_prior(const GroupT &group);

template <class GroupT> __device__ void wait(const GroupT &group);

} // namespace cooperative_groups
