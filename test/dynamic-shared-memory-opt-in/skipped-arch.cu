// An architecture the limits table does not know is named once per run, with
// the reason, however many files, checks and launches meet it; the 48 KiB
// opt-in rule, which needs no architecture, is still checked. Known
// architectures give no such message.
// RUN: cp %s %t.copy.cu
// RUN: %clang_tidy -load=%plugin --checks='-*,cuda-dynamic-shared-memory-opt-in,cuda-static-shared-memory-limit' \
// RUN:   --quiet %s %t.copy.cu -- %cuda_args --cuda-gpu-arch=sm_72 2>&1 | FileCheck %s --check-prefix=SM72 \
// RUN:   --implicit-check-not='limits are not checked'
// RUN: %clang_tidy -load=%plugin --checks='-*,cuda-dynamic-shared-memory-opt-in' \
// RUN:   --quiet %s -- %cuda_args --cuda-gpu-arch=sm_52 2>&1 | FileCheck %s --check-prefix=SM52 \
// RUN:   --implicit-check-not='limits are not checked'
// RUN: %clang_tidy -load=%plugin --checks='-*,cuda-dynamic-shared-memory-opt-in' \
// RUN:   --quiet %s -- %cuda_args --cuda-gpu-arch=sm_87 2>&1 | FileCheck %s --check-prefix=KNOWN \
// RUN:   --implicit-check-not='limits are not checked'
// SM72: warning: per-architecture shared memory limits are not checked for 'sm_72': compute capability 7.2 is not in cuda-tidy's limits table (set the option 'cuda.TargetArch' to check them for another architecture) [clang-tidy-config]
// SM72-COUNT-4: warning: 'kernel' is launched with 307200 bytes
// SM52: warning: per-architecture shared memory limits are not checked for 'sm_52': compute capability 5.2 is older than Volta (7.0), where cuda-tidy's limits table starts, and clang analyses for sm_52 when the compilation names no '--cuda-gpu-arch'
// SM52-COUNT-2: warning: 'kernel' is launched with 307200 bytes
// KNOWN: warning: 'kernel' needs 307200 bytes of shared memory per block, more than the 166912 bytes 'sm_87' allows
#include <cuda_runtime.h>

__global__ void kernel(float *out) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = buf[0];
}

void run(float *out) {
  kernel<<<1, 128, 300 * 1024>>>(out);
  kernel<<<1, 128, 300 * 1024>>>(out);
}
