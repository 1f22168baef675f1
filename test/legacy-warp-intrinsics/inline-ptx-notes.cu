// Legacy warp instructions in inline PTX that get no automatic fix: the whole
// warp is not proven to reach the asm statement (a full mask could hang), or
// the asm string is spelled in a macro. Nothing changes, even on --fix-notes.
// RUN: %check_cuda_tidy --checks=cuda-legacy-warp-intrinsics %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void halfWarp(int *out) {
  int v = out[threadIdx.x], r = v;
  if (threadIdx.x % 32 < 16)
    // note@-1:7 {{the whole warp is not proven to reach the asm statement, so a full member mask could hang or read lanes that are absent: the condition depends on 'threadIdx.x'}}
    asm volatile("shfl.down.b32 %0, %1, 1, 0x1f;" : "=r"(r) : "r"(v));
  // warning@-1:19 {{'shfl.down.b32' without '.sync' is not supported on sm_70 and later; use 'shfl.sync.down.b32' with a member mask}}
  // note@-2:19 {{add the mask of the lanes that execute it as the last operand of 'shfl.sync.down.b32' (for example from 'activemask.b32')}}
  out[threadIdx.x] = r;
}

// A helper called from a divergent branch: its callers decide.
__device__ unsigned ballotOf(int p) {
  unsigned r;
  asm volatile("{ .reg .pred q; setp.ne.u32 q, %1, 0; vote.ballot.b32 %0, q; }"
               // warning@-1:55 {{'vote.ballot.b32' without '.sync'}}
               // note@-2:55 {{add the mask of the lanes that execute it}}
               : "=r"(r) : "r"(p));
  return r;
}

__global__ void tail(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = ballotOf(out[i] > 0);
  // note@-1:14 {{the whole warp is not proven to reach the asm statement}}
}

// The instruction text comes from a macro: edited nowhere, reported once at
// the instruction in the macro, with a note at the first asm statement.
#define SHFL_XOR_ASM "shfl.bfly.b32 %0, %1, %2, 0x1f;"
// warning@-1:23 {{'shfl.bfly.b32' without '.sync'}}
// note@-2:23 {{no automatic fix: the asm string is spelled in a macro}}
__global__ void fromMacro(int *out) {
  int r, s;
  asm volatile(SHFL_XOR_ASM : "=r"(r) : "r"(out[threadIdx.x]), "r"(1));
  // note@-1:3 {{the asm statement that uses it}}
  asm volatile(SHFL_XOR_ASM : "=r"(s) : "r"(out[threadIdx.x]), "r"(2));
  out[threadIdx.x] = r + s;
}

// Two instructions in the string of an asm statement in a macro's body.
#define WARP_VOTE_ALL_ANY(r, p)                                                \
  asm volatile("{ .reg .pred a, b; setp.ne.u32 a, %1, 0; "                     \
               "vote.all.pred b, a; selp.s32 %0, 1, 0, b; "                    \
               "vote.any.pred b, a; selp.s32 %0, 2, %0, b; }"                  \
               : "=r"(r)                                                       \
               : "r"(p))
// warning@-4:17 {{'vote.all.pred' without '.sync'}}
// note@-5:17 {{no automatic fix: the asm string is spelled in a macro}}
// warning@-5:17 {{'vote.any.pred' without '.sync'}}
// note@-6:17 {{no automatic fix: the asm string is spelled in a macro}}
__global__ void fromMacroBody(int *out) {
  int r;
  WARP_VOTE_ALL_ANY(r, out[threadIdx.x]);
  // note@-1:3 {{the asm statement that uses it}}
  // note@-2:3 {{the asm statement that uses it}}
  out[threadIdx.x] = r;
}

// An instruction whose ';' is not in the string: nowhere to add the mask.
__global__ void noSemicolon(int *out) {
  int r;
  asm volatile("shfl.idx.b32 %0, %1, 0, 0x1f" : "=r"(r) : "r"(out[threadIdx.x]));
  // warning@-1:17 {{'shfl.idx.b32' without '.sync'}}
  // note@-2:17 {{no automatic fix: its operands are not followed by a ';' in this asm string}}
  out[threadIdx.x] = r;
}
