// Inline asm that waits or orders memory with no "memory" clobber: without
// it the compiler may keep a value in a register across the asm, or move a
// load or store across it (the PTX ISA's inline-asm rules). The fix adds the
// clobber in every shape of asm statement; the fixed file assembles for
// sm_90 (griddepcontrol and mbarrier.try_wait need it) and is silent.
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ --nvcc=%nvcc --nvcc-arch=sm_90 %} \
// RUN:   --checks=cuda-memory-ordering %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// No colon section at all.
__global__ void namedBarrier(int *data) {
  data[threadIdx.x] = 1;
  asm volatile("bar.sync 1, 64;");
  // warning@-1:16 {{inline asm 'bar.sync' has no "memory" clobber; the compiler may move memory accesses across it}} [cuda-memory-ordering]
  // FIXED: asm volatile("bar.sync 1, 64;" ::: "memory");
  data[threadIdx.x + 64] = data[63 - threadIdx.x];
}

// A grid-dependency wait: the consumer's loads must stay after it.
__global__ void consumer(const float *in, float *out) {
  asm volatile("griddepcontrol.wait;");
  // warning@-1:16 {{inline asm 'griddepcontrol.wait' has no "memory" clobber}}
  // FIXED: asm volatile("griddepcontrol.wait;" ::: "memory");
  out[threadIdx.x] = in[threadIdx.x];
}

// Inputs but no clobber list.
__device__ void arriveNamed(int id, int count) {
  asm volatile("bar.arrive %0, %1;" : : "r"(id), "r"(count));
  // warning@-1:16 {{inline asm 'bar.arrive'}}
  // FIXED: asm volatile("bar.arrive %0, %1;" : : "r"(id), "r"(count) : "memory");
}

// An mbarrier wait loop with an output only, written over several lines.
__device__ bool tryWait(unsigned long long *bar, unsigned parity) {
  unsigned ok;
  asm volatile("{\n\t"
               ".reg .pred p;\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n\t"
               // warning@-3:16 {{inline asm 'mbarrier.try_wait.parity.shared::cta.b64'}}
               "selp.u32 %0, 1, 0, p;\n\t"
               "}"
               : "=r"(ok)
               : "l"(bar), "r"(parity));
  // FIXED: : "l"(bar), "r"(parity) : "memory");
  return ok != 0;
}

// Outputs, no inputs.
__device__ unsigned fenceAndClock() {
  unsigned t;
  asm volatile("fence.acq_rel.gpu; mov.u32 %0, %%clock;" : "=r"(t));
  // warning@-1:16 {{inline asm 'fence.acq_rel.gpu'}}
  // FIXED: asm volatile("fence.acq_rel.gpu; mov.u32 %0, %%clock;" : "=r"(t) : : "memory");
  return t;
}

// An empty clobber list, and a predicated wait.
__device__ void waitGroup() {
  asm volatile("{ .reg .pred p; setp.eq.u32 p, 1, 1; @!p cp.async.wait_group 0; }" :::);
  // warning@-1:16 {{inline asm 'cp.async.wait_group'}}
  // FIXED: asm volatile("{ .reg .pred p; setp.eq.u32 p, 1, 1; @!p cp.async.wait_group 0; }" ::: "memory");
}

__global__ void users(int *data) {
  arriveNamed(1, 64);
  data[0] = tryWait(nullptr, 0) + fenceAndClock();
  waitGroup();
}

// Silent: the clobber is there.
__global__ void clobbered(int *data) {
  data[threadIdx.x] = 1;
  asm volatile("bar.sync 0;" ::: "memory");
  asm volatile("griddepcontrol.wait;" : : : "memory");
  data[threadIdx.x] += data[threadIdx.x ^ 1];
}

// Silent: not an instruction that waits or orders memory.
__global__ void arithmetic(int *data) {
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  data[threadIdx.x] = lane;
}

// Silent: nothing in memory is read or written around the barrier, here or
// in the only caller.
__device__ void bareBarrier() { asm volatile("bar.sync 2;"); }
__global__ void onlyBarriers() { bareBarrier(); }

// In a device lambda: its call operator is a function of its own, walked
// from the kernel that holds it.
__global__ void inLambda(int *data) {
  auto sync = [&]() {
    data[threadIdx.x] = 2;
    asm volatile("bar.sync 2, 64;");
    // warning@-1:18 {{inline asm 'bar.sync' has no "memory" clobber}}
    // FIXED: asm volatile("bar.sync 2, 64;" ::: "memory");
    return data[63 - threadIdx.x];
  };
  data[threadIdx.x + 64] = sync();
}
