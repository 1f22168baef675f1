"""Writes a kernel of N unrolled warp-scan steps (a read and a write of
shared memory each, no __syncwarp anywhere): N exchanges, one per step."""
import sys

steps = int(sys.argv[1])
out = ["#include <cuda_runtime.h>",
       "__global__ void unrolled(float *io) {",
       "  __shared__ float s[1024];",
       "  int t = threadIdx.x;",
       "  int lane = t & 31;",
       "  s[t] = io[t];"]
for i in range(steps):
    k = 1 << (i % 5)
    out.append(f"  if (lane >= {k}) s[t] += s[t - {k}];")
out += ["  io[t] = s[t];", "}"]
sys.stdout.write("\n".join(out) + "\n")
