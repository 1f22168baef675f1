// PTX special registers written with one '%' in inline asm that has
// operands: nvcc passes them through, clang 22 rejects them ("invalid %
// escape in inline assembly string"). cuda-nvcc-only-construct reports a
// remark and offers '%%', which both compilers read as the register (the
// fixed file parses with clang and builds with nvcc). Operand references and
// '%%' are left alone; an unknown escape stays clang's error.
// RUN: %check_cuda_tidy --checks=cuda-nvcc-only-construct --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__device__ unsigned long long globalTime() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %globaltimer;" : "=l"(t));
  // remark@-1:29 {{PTX register '%globaltimer' is written with one '%' in an asm statement with operands: an nvcc extension clang rejects; write '%%globaltimer'}}
  // FIXED: asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Two registers in one string: both get '%%' (clang stops at the first).
__device__ unsigned smAndLane() {
  unsigned sm, lane;
  asm("mov.u32 %0, %smid;\n\tmov.u32 %1, %laneid;" : "=r"(sm), "=r"(lane));
  // remark@-1 {{PTX register '%smid'}}
  // FIXED: asm("mov.u32 %0, %%smid;\n\tmov.u32 %1, %%laneid;" : "=r"(sm), "=r"(lane));
  return sm * 32 + lane;
}

// Already right: '%%' and operand references.
__device__ unsigned clockLow() {
  unsigned c;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(c));
  return c;
}

__global__ void stamp(unsigned long long *out) {
  out[threadIdx.x] = globalTime() + smAndLane() + clockLow();
}
