// One statement reading two rings that one wait leaves in flight (the CUDA
// samples' `Csub += As[j][ty][k] * Bs[j][k][tx]` after a consumer_wait()
// five stages behind): one defect, one warning, the second buffer on a
// note. Reads on separate statements stay separate warnings.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80 -std=c++17
#include <cuda/pipeline>

constexpr int Block = 16;
constexpr int S = 4;

__global__ void fiveStagesTwoRings(float *c, const float *a, const float *b,
                                   int n) {
  __shared__ float As[S][Block][Block];
  __shared__ float Bs[S][Block][Block];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int tx = threadIdx.x, ty = threadIdx.y;
  float Csub = 0.f;
  for (int i = 0, fetch = 0; i < n; ++i) {
    for (; fetch <= i + S; ++fetch) {
      if (fetch < n) {
        const int j = fetch % S;
        pipe.producer_acquire();
        cuda::memcpy_async(&As[j][ty][tx], &a[fetch * 256 + ty * 16 + tx],
                           sizeof(float), pipe);
        cuda::memcpy_async(&Bs[j][ty][tx], &b[fetch * 256 + ty * 16 + tx],
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    const int j = i % S;
    for (int k = 0; k < Block; ++k)
      Csub += As[j][ty][k] * Bs[j][k][tx];
    // warning@-1:15 {{'As' is read while the group of its asynchronous copy may still be in flight}}
    // note@-13:9 {{the asynchronous copy into 'As' is issued here}}
    // note@-7:5 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
    // note@-7:5 {{'__syncthreads' orders the threads, not the copy}}
    // note@-5:30 {{'Bs' is read in the same statement, with its asynchronous copy in flight for the same reason}}
    // note@-15:9 {{the asynchronous copy into 'Bs' is issued here}}
    pipe.consumer_release();
    __syncthreads();
  }
  c[blockIdx.x * Block + tx] = Csub;
}

// Silent: `fetch < i + S`, four stages in four slots; the wait completes
// stage i, whose slot both rings read.
__global__ void fourStagesTwoRings(float *c, const float *a, const float *b,
                                   int n) {
  __shared__ float As[S][Block][Block];
  __shared__ float Bs[S][Block][Block];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int tx = threadIdx.x, ty = threadIdx.y;
  float Csub = 0.f;
  for (int i = 0, fetch = 0; i < n; ++i) {
    for (; fetch < i + S; ++fetch) {
      if (fetch < n) {
        const int j = fetch % S;
        pipe.producer_acquire();
        cuda::memcpy_async(&As[j][ty][tx], &a[fetch * 256 + ty * 16 + tx],
                           sizeof(float), pipe);
        cuda::memcpy_async(&Bs[j][ty][tx], &b[fetch * 256 + ty * 16 + tx],
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    const int j = i % S;
    for (int k = 0; k < Block; ++k)
      Csub += As[j][ty][k] * Bs[j][k][tx];
    pipe.consumer_release();
    __syncthreads();
  }
  c[blockIdx.x * Block + tx] = Csub;
}

// Two statements behind the same wait: one cause, one warning, the second
// read a note (as one-wait-one-warning.cu).
__global__ void fiveStagesTwoStatements(float *c, const float *a,
                                        const float *b, int n) {
  __shared__ float As[S][Block][Block];
  __shared__ float Bs[S][Block][Block];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  const int tx = threadIdx.x, ty = threadIdx.y;
  float Csub = 0.f;
  for (int i = 0, fetch = 0; i < n; ++i) {
    for (; fetch <= i + S; ++fetch) {
      if (fetch < n) {
        const int j = fetch % S;
        pipe.producer_acquire();
        cuda::memcpy_async(&As[j][ty][tx], &a[fetch * 256 + ty * 16 + tx],
                           sizeof(float), pipe);
        cuda::memcpy_async(&Bs[j][ty][tx], &b[fetch * 256 + ty * 16 + tx],
                           sizeof(float), pipe);
        pipe.producer_commit();
      }
    }
    pipe.consumer_wait();
    __syncthreads();
    const int j = i % S;
    float x = 0.f, y = 0.f;
    for (int k = 0; k < Block; ++k)
      x += As[j][ty][k];
    // warning@-1:12 {{'As' is read while the group of its asynchronous copy may still be in flight}}
    // note@-14:9 {{the asynchronous copy into 'As' is issued here}}
    // note@-8:5 {{'consumer_wait' completes only the oldest stage not yet consumed; the copy's stage is newer}}
    // note@-8:5 {{'__syncthreads' orders the threads, not the copy}}
    for (int k = 0; k < Block; ++k)
      y += Bs[j][k][tx];
    // note@-1:12 {{'Bs' is read here too, its copy left in flight by the same wait}}
    // note@-18:9 {{the asynchronous copy into 'Bs' is issued here}}
    Csub += x * y;
    pipe.consumer_release();
    __syncthreads();
  }
  c[blockIdx.x * Block + tx] = Csub;
}
