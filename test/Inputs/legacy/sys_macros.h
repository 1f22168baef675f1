// A third-party header installed as a system header: its macro expands to a
// legacy intrinsic in the user's code.
#pragma once
#pragma clang system_header
#define SYS_BROADCAST(v) __shfl((v), 0)
// Legacy calls inside a system header's own functions are never reported.
__device__ inline int sys_reduce(int v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down(v, o);
  return v;
}
