// Launch bounds an architecture cannot honour, checked per architecture of
// the job with the limits table: more than 1024 threads (no GPU), minimum
// blocks over the blocks an SM holds, minimum blocks times the threads of a
// block (in whole warps) over the threads an SM holds, clusters over the
// largest the architecture runs. ptxas only warns ("out of range") and
// ignores the request. Kernels within the limits are silent.
// RUN: %check_cuda_tidy --checks=cuda-launch-resources %s %t.90 -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --expect-prefix=SM120 --checks=cuda-launch-resources %s %t.120 -- %cuda_args --cuda-gpu-arch=sm_120
// RUN: %check_cuda_tidy --expect-prefix=SM75 --checks=cuda-launch-resources %s %t.75 -- %cuda_args --cuda-gpu-arch=sm_75
// One job that stands for several architectures (the cuda-tidy driver's
// __CUDA_TIDY_GPU_ARCHS__) reports what each would.
// RUN: %check_cuda_tidy --expect-prefix=BOTH --checks=cuda-launch-resources %s %t.both -- %cuda_args --cuda-gpu-arch=sm_90 -D__CUDA_TIDY_GPU_ARCHS__=sm_90,sm_120
// The host side knows no architecture: only what holds on every GPU (and
// clang drops the cluster argument there).
// RUN: %check_cuda_tidy --expect-prefix=HOST --checks=cuda-launch-resources %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

__global__ void __launch_bounds__(2048) wide(float *x) { x[threadIdx.x] = 0; }
// warning@-1:17 {{'__launch_bounds__' allows 2048 threads per block, but no GPU runs a block of more than 1024}} [cuda-launch-resources]
// note@-2:17 {{ptxas accepts the bound where an SM holds that many threads and ignores it elsewhere}}
// SM120-warning@-3:17 {{'__launch_bounds__' allows 2048 threads per block}}
// SM120-note@-4:17 {{ptxas accepts the bound}}
// SM75-warning@-5:17 {{'__launch_bounds__' allows 2048 threads per block}}
// SM75-note@-6:17 {{ptxas accepts the bound}}
// BOTH-warning@-7:17 {{'__launch_bounds__' allows 2048 threads per block}}
// BOTH-note@-8:17 {{ptxas accepts the bound}}
// HOST-warning@-9:17 {{'__launch_bounds__' allows 2048 threads per block}}
// HOST-note@-10:17 {{ptxas accepts the bound}}

__global__ void __launch_bounds__(256, 40) manyBlocks(float *x) {
  x[threadIdx.x] = 0;
}
// warning@-3:17 {{'__launch_bounds__' asks for 40 resident blocks per SM, more than the 32 an SM of 'sm_90' holds}}
// note@-4:17 {{ptxas ignores the minimum ('minnctapersm out of range')}}
// SM120-warning@-5:17 {{'__launch_bounds__' asks for 40 resident blocks per SM, more than the 24 an SM of 'sm_120' holds}}
// SM120-note@-6:17 {{ptxas ignores the minimum}}
// SM75-warning@-7:17 {{more than the 16 an SM of 'sm_75' holds}}
// SM75-note@-8:17 {{ptxas ignores the minimum}}
// BOTH-warning@-9:17 {{more than the 32 an SM of 'sm_90' holds}}
// BOTH-note@-10:17 {{ptxas ignores the minimum}}
// BOTH-warning@-11:17 {{more than the 24 an SM of 'sm_120' holds}}
// BOTH-note@-12:17 {{ptxas ignores the minimum}}

// 2 blocks of 1024 threads: 2048 threads fit an SM of sm_90, not of sm_120
// (1536) or sm_75 (1024).
__global__ void __launch_bounds__(1024, 2) twoBig(float *x) {
  x[threadIdx.x] = 0;
}
// SM120-warning@-3:17 {{'__launch_bounds__' asks for 2 resident blocks of 1024 threads per SM, 2048 threads, more than the 1536 an SM of 'sm_120' holds}}
// SM120-note@-4:17 {{ptxas ignores the minimum ('threads per SM out of range')}}
// SM75-warning@-5:17 {{2048 threads, more than the 1024 an SM of 'sm_75' holds}}
// SM75-note@-6:17 {{ptxas ignores the minimum}}
// BOTH-warning@-7:17 {{more than the 1536 an SM of 'sm_120' holds}}
// BOTH-note@-8:17 {{ptxas ignores the minimum}}

// Blocks count in whole warps: 100 threads take 4 warps, 20 blocks 80 warps,
// over sm_90's 64; 96 threads take 3, 21 blocks 63 warps fit.
__global__ void __launch_bounds__(100, 20) oddBlock(float *x) {
  x[threadIdx.x] = 0;
}
// warning@-3:17 {{'__launch_bounds__' asks for 20 resident blocks of 100 threads per SM, 2560 threads, more than the 2048 an SM of 'sm_90' holds}}
// note@-4:17 {{blocks count in whole warps of 32 threads}}
// SM120-warning@-5:17 {{more than the 1536 an SM of 'sm_120' holds}}
// SM120-note@-6:17 {{blocks count in whole warps}}
// SM75-warning@-7:17 {{asks for 20 resident blocks per SM, more than the 16 an SM of 'sm_75' holds}}
// SM75-note@-8:17 {{ptxas ignores the minimum}}
// BOTH-warning@-9:17 {{more than the 2048 an SM of 'sm_90' holds}}
// BOTH-note@-10:17 {{blocks count in whole warps}}
// BOTH-warning@-11:17 {{more than the 1536 an SM of 'sm_120' holds}}
// BOTH-note@-12:17 {{blocks count in whole warps}}
__global__ void __launch_bounds__(96, 21) fitsSm90(float *x) {
  x[threadIdx.x] = 0;
}
// SM120-warning@-3:17 {{'__launch_bounds__' asks for 21 resident blocks of 96 threads per SM, 2016 threads, more than the 1536 an SM of 'sm_120' holds}}
// SM120-note@-4:17 {{blocks count in whole warps}}
// SM75-warning@-5:17 {{more than the 16 an SM of 'sm_75' holds}}
// SM75-note@-6:17 {{ptxas ignores the minimum}}
// BOTH-warning@-7:17 {{more than the 1536 an SM of 'sm_120' holds}}
// BOTH-note@-8:17 {{blocks count in whole warps}}

// Silent everywhere: within every limit.
__global__ void __launch_bounds__(256, 4) modest(float *x) { x[threadIdx.x] = 0; }
__global__ void __launch_bounds__(1024) full(float *x) { x[threadIdx.x] = 0; }

// Per instantiation, reported once at the attribute.
template <int Threads, int Blocks>
__global__ void __launch_bounds__(Threads, Blocks) templ(float *x) {
  x[threadIdx.x] = 0;
}
// warning@-3:17 {{'__launch_bounds__' asks for 64 resident blocks per SM, more than the 32 an SM of 'sm_90' holds}}
// note@-4:17 {{ptxas ignores the minimum}}
// SM120-warning@-5:17 {{more than the 24 an SM of 'sm_120' holds}}
// SM120-note@-6:17 {{ptxas ignores the minimum}}
// SM75-warning@-7:17 {{more than the 16 an SM of 'sm_75' holds}}
// SM75-note@-8:17 {{ptxas ignores the minimum}}
// BOTH-warning@-9:17 {{more than the 32 an SM of 'sm_90' holds}}
// BOTH-note@-10:17 {{ptxas ignores the minimum}}
// BOTH-warning@-11:17 {{more than the 24 an SM of 'sm_120' holds}}
// BOTH-note@-12:17 {{ptxas ignores the minimum}}
template __global__ void templ<64, 64>(float *);
template __global__ void templ<64, 2>(float *);

void launchAll(float *x) {
  wide<<<1, 256>>>(x);
  manyBlocks<<<1, 256>>>(x);
  twoBig<<<1, 1024>>>(x);
  oddBlock<<<1, 100>>>(x);
  fitsSm90<<<1, 96>>>(x);
  modest<<<1, 256>>>(x);
  full<<<1, 1024>>>(x);
}

// The third argument, the largest cluster the kernel is launched with: over
// the 16 blocks any GPU runs (with the non-portable opt-in). clang keeps it
// only on the device side of a target with clusters (not on sm_75, not on
// the host side).
__global__ void __launch_bounds__(128, 1, 32) hugeCluster(float *x) {
  x[threadIdx.x] = 0;
}
// warning@-3:17 {{'__launch_bounds__' allows clusters of 32 blocks, but no GPU runs a cluster of more than 16}}
// note@-4:17 {{clusters of more than 8 blocks need the non-portable cluster size opt-in}}
// SM120-warning@-5:17 {{'__launch_bounds__' allows clusters of 32 blocks}}
// SM120-note@-6:17 {{clusters of more than 8 blocks}}
// BOTH-warning@-7:17 {{'__launch_bounds__' allows clusters of 32 blocks}}
// BOTH-note@-8:17 {{clusters of more than 8 blocks}}
__global__ void __launch_bounds__(128, 1, 16) bigCluster(float *x) {
  x[threadIdx.x] = 0;
}
