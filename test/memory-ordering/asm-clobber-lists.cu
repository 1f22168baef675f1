// A clobber list that lacks "memory" gets it appended. nvcc accepts no other
// clobber in device code, so this file is not compiled with nvcc; clang
// accepts "cc" and the edit is the same for any list.
// RUN: %check_cuda_tidy --fix --checks=cuda-memory-ordering %s %t \
// RUN:   -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void membarWithCc(int *flag, int *data) {
  data[threadIdx.x] = 1;
  asm volatile("membar.gl;" : : : "cc");
  // warning@-1:16 {{inline asm 'membar.gl' has no "memory" clobber}}
  // FIXED: asm volatile("membar.gl;" : : : "cc", "memory");
  asm volatile("fence.sc.gpu;"
               :
               :
               : "cc" /* condition codes */);
  // warning@-4:16 {{inline asm 'fence.sc.gpu'}}
  // FIXED: : "cc", "memory" /* condition codes */);
  flag[0] = 1;
}

// In a macro: the statement is the user's, but the edit would change every
// use of the macro; the fix goes on a note.
#define BAR_SYNC(id) asm volatile("bar.sync " #id ";")
__global__ void macroBarrier(int *data) {
  data[threadIdx.x] = 1;
  BAR_SYNC(3);
  // warning@-1:3 {{inline asm 'bar.sync' has no "memory" clobber}}
  // note@-2:3 {{add "memory" to the clobber list (no automatic fix: the asm statement is written in a macro)}}
  data[threadIdx.x] += data[threadIdx.x ^ 1];
}

// Basic asm (no operand sections) passes '%' through: adding ':::' would make
// '%laneid' an operand reference, so the fix goes on a note.
__global__ void basicAsmPercent(int *data) {
  data[threadIdx.x] = 1;
  asm volatile("{ .reg .u32 t; mov.u32 t, %laneid; bar.sync 0; }");
  // warning@-1:16 {{inline asm 'bar.sync' has no "memory" clobber}}
  // note@-2:16 {{add "memory" to the clobber list (no automatic fix: the string's '%' would have to be written '%%' once the statement has operand sections)}}
  data[threadIdx.x] += data[threadIdx.x ^ 1];
}
