// Benchmark input: a user-code-heavy translation unit of small kernels
// (block reductions, warp scans, tile transposes, histograms), written for
// cuda-tidy's bench/run_bench.py. Every kernel is correct CUDA 9+ code; the
// file measures the cost of the lane and uniformity models per kernel.
#include <cuda_runtime.h>

__device__ __forceinline__ float opSum_float(float a, float b) { return a + b; }

__global__ void reduceSum_float(const float *in, float *out, int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (float)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opSum_float(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceSum_float(const float *in, float *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : (float)0;
  for (int o = 16; o > 0; o /= 2)
    v = opSum_float(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanSum_float(float *io, int n) {
  __shared__ float s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (float)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    float x = lane >= d ? s[lane - d] : (float)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opSum_float(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanSum_float(float *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? io[i] : (float)0;
  for (int d = 1; d < 32; d <<= 1) {
    float up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opSum_float(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ float opMax_float(float a, float b) { return a > b ? a : b; }

__global__ void reduceMax_float(const float *in, float *out, int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (float)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opMax_float(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceMax_float(const float *in, float *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : (float)0;
  for (int o = 16; o > 0; o /= 2)
    v = opMax_float(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanMax_float(float *io, int n) {
  __shared__ float s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (float)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    float x = lane >= d ? s[lane - d] : (float)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opMax_float(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanMax_float(float *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? io[i] : (float)0;
  for (int d = 1; d < 32; d <<= 1) {
    float up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opMax_float(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ float opMin_float(float a, float b) { return a < b ? a : b; }

__global__ void reduceMin_float(const float *in, float *out, int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (float)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opMin_float(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceMin_float(const float *in, float *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : (float)0;
  for (int o = 16; o > 0; o /= 2)
    v = opMin_float(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanMin_float(float *io, int n) {
  __shared__ float s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (float)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    float x = lane >= d ? s[lane - d] : (float)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opMin_float(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanMin_float(float *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? io[i] : (float)0;
  for (int d = 1; d < 32; d <<= 1) {
    float up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opMin_float(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ int opSum_int(int a, int b) { return a + b; }

__global__ void reduceSum_int(const int *in, int *out, int n) {
  __shared__ int s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (int)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opSum_int(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceSum_int(const int *in, int *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : (int)0;
  for (int o = 16; o > 0; o /= 2)
    v = opSum_int(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanSum_int(int *io, int n) {
  __shared__ int s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (int)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    int x = lane >= d ? s[lane - d] : (int)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opSum_int(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanSum_int(int *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? io[i] : (int)0;
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opSum_int(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ int opMax_int(int a, int b) { return a > b ? a : b; }

__global__ void reduceMax_int(const int *in, int *out, int n) {
  __shared__ int s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (int)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opMax_int(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceMax_int(const int *in, int *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : (int)0;
  for (int o = 16; o > 0; o /= 2)
    v = opMax_int(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanMax_int(int *io, int n) {
  __shared__ int s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (int)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    int x = lane >= d ? s[lane - d] : (int)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opMax_int(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanMax_int(int *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? io[i] : (int)0;
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opMax_int(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ int opMin_int(int a, int b) { return a < b ? a : b; }

__global__ void reduceMin_int(const int *in, int *out, int n) {
  __shared__ int s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (int)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opMin_int(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceMin_int(const int *in, int *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : (int)0;
  for (int o = 16; o > 0; o /= 2)
    v = opMin_int(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanMin_int(int *io, int n) {
  __shared__ int s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (int)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    int x = lane >= d ? s[lane - d] : (int)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opMin_int(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanMin_int(int *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? io[i] : (int)0;
  for (int d = 1; d < 32; d <<= 1) {
    int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opMin_int(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ double opSum_double(double a, double b) { return a + b; }

__global__ void reduceSum_double(const double *in, double *out, int n) {
  __shared__ double s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (double)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opSum_double(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceSum_double(const double *in, double *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? in[i] : (double)0;
  for (int o = 16; o > 0; o /= 2)
    v = opSum_double(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanSum_double(double *io, int n) {
  __shared__ double s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (double)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    double x = lane >= d ? s[lane - d] : (double)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opSum_double(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanSum_double(double *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? io[i] : (double)0;
  for (int d = 1; d < 32; d <<= 1) {
    double up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opSum_double(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ double opMax_double(double a, double b) { return a > b ? a : b; }

__global__ void reduceMax_double(const double *in, double *out, int n) {
  __shared__ double s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (double)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opMax_double(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceMax_double(const double *in, double *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? in[i] : (double)0;
  for (int o = 16; o > 0; o /= 2)
    v = opMax_double(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanMax_double(double *io, int n) {
  __shared__ double s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (double)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    double x = lane >= d ? s[lane - d] : (double)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opMax_double(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanMax_double(double *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? io[i] : (double)0;
  for (int d = 1; d < 32; d <<= 1) {
    double up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opMax_double(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ double opMin_double(double a, double b) { return a < b ? a : b; }

__global__ void reduceMin_double(const double *in, double *out, int n) {
  __shared__ double s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (double)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opMin_double(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceMin_double(const double *in, double *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? in[i] : (double)0;
  for (int o = 16; o > 0; o /= 2)
    v = opMin_double(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanMin_double(double *io, int n) {
  __shared__ double s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (double)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    double x = lane >= d ? s[lane - d] : (double)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opMin_double(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanMin_double(double *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  double v = i < n ? io[i] : (double)0;
  for (int d = 1; d < 32; d <<= 1) {
    double up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opMin_double(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ unsigned opSum_unsigned(unsigned a, unsigned b) { return a + b; }

__global__ void reduceSum_unsigned(const unsigned *in, unsigned *out, int n) {
  __shared__ unsigned s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (unsigned)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opSum_unsigned(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceSum_unsigned(const unsigned *in, unsigned *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? in[i] : (unsigned)0;
  for (int o = 16; o > 0; o /= 2)
    v = opSum_unsigned(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanSum_unsigned(unsigned *io, int n) {
  __shared__ unsigned s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (unsigned)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    unsigned x = lane >= d ? s[lane - d] : (unsigned)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opSum_unsigned(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanSum_unsigned(unsigned *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? io[i] : (unsigned)0;
  for (int d = 1; d < 32; d <<= 1) {
    unsigned up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opSum_unsigned(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ unsigned opMax_unsigned(unsigned a, unsigned b) { return a > b ? a : b; }

__global__ void reduceMax_unsigned(const unsigned *in, unsigned *out, int n) {
  __shared__ unsigned s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (unsigned)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opMax_unsigned(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceMax_unsigned(const unsigned *in, unsigned *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? in[i] : (unsigned)0;
  for (int o = 16; o > 0; o /= 2)
    v = opMax_unsigned(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanMax_unsigned(unsigned *io, int n) {
  __shared__ unsigned s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (unsigned)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    unsigned x = lane >= d ? s[lane - d] : (unsigned)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opMax_unsigned(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanMax_unsigned(unsigned *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? io[i] : (unsigned)0;
  for (int d = 1; d < 32; d <<= 1) {
    unsigned up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opMax_unsigned(v, up);
  }
  if (i < n)
    io[i] = v;
}

__device__ __forceinline__ unsigned opMin_unsigned(unsigned a, unsigned b) { return a < b ? a : b; }

__global__ void reduceMin_unsigned(const unsigned *in, unsigned *out, int n) {
  __shared__ unsigned s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : (unsigned)0;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (tid < k)
      s[tid] = opMin_unsigned(s[tid], s[tid + k]);
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

__global__ void warpReduceMin_unsigned(const unsigned *in, unsigned *out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? in[i] : (unsigned)0;
  for (int o = 16; o > 0; o /= 2)
    v = opMin_unsigned(v, __shfl_down_sync(0xffffffffu, v, o));
  if ((threadIdx.x & 31) == 0)
    out[i / 32] = v;
}

__global__ void scanMin_unsigned(unsigned *io, int n) {
  __shared__ unsigned s[64];
  unsigned lane = threadIdx.x & 31;
  unsigned i = blockIdx.x * 32 + lane;
  s[lane] = i < n ? io[i] : (unsigned)0;
  __syncwarp();
  for (int d = 1; d < 32; d *= 2) {
    unsigned x = lane >= d ? s[lane - d] : (unsigned)0;
    __syncwarp();
    if (lane >= d)
      s[lane] = opMin_unsigned(s[lane], x);
    __syncwarp();
  }
  if (i < n)
    io[i] = s[lane];
}

__global__ void shflScanMin_unsigned(unsigned *io, int n) {
  unsigned lane = threadIdx.x % 32;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned v = i < n ? io[i] : (unsigned)0;
  for (int d = 1; d < 32; d <<= 1) {
    unsigned up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v = opMin_unsigned(v, up);
  }
  if (i < n)
    io[i] = v;
}

__global__ void transpose16_float(float *odata, const float *idata, int w, int h) {
  __shared__ float tile[16][16 + 1];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = idata[y * w + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  if (x < h && y < w)
    odata[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void copy16_float(float *odata, const float *idata, int w, int h) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h)
    odata[y * w + x] = idata[y * w + x];
}

__global__ void transpose32_float(float *odata, const float *idata, int w, int h) {
  __shared__ float tile[32][32 + 1];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = idata[y * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < h && y < w)
    odata[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void copy32_float(float *odata, const float *idata, int w, int h) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h)
    odata[y * w + x] = idata[y * w + x];
}

__global__ void transpose16_int(int *odata, const int *idata, int w, int h) {
  __shared__ int tile[16][16 + 1];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = idata[y * w + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  if (x < h && y < w)
    odata[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void copy16_int(int *odata, const int *idata, int w, int h) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h)
    odata[y * w + x] = idata[y * w + x];
}

__global__ void transpose32_int(int *odata, const int *idata, int w, int h) {
  __shared__ int tile[32][32 + 1];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = idata[y * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < h && y < w)
    odata[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void copy32_int(int *odata, const int *idata, int w, int h) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h)
    odata[y * w + x] = idata[y * w + x];
}

__global__ void transpose16_double(double *odata, const double *idata, int w, int h) {
  __shared__ double tile[16][16 + 1];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = idata[y * w + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  if (x < h && y < w)
    odata[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void copy16_double(double *odata, const double *idata, int w, int h) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h)
    odata[y * w + x] = idata[y * w + x];
}

__global__ void transpose32_double(double *odata, const double *idata, int w, int h) {
  __shared__ double tile[32][32 + 1];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = idata[y * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < h && y < w)
    odata[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void copy32_double(double *odata, const double *idata, int w, int h) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h)
    odata[y * w + x] = idata[y * w + x];
}

__global__ void transpose16_unsigned(unsigned *odata, const unsigned *idata, int w, int h) {
  __shared__ unsigned tile[16][16 + 1];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = idata[y * w + x];
  __syncthreads();
  x = blockIdx.y * 16 + threadIdx.x;
  y = blockIdx.x * 16 + threadIdx.y;
  if (x < h && y < w)
    odata[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void copy16_unsigned(unsigned *odata, const unsigned *idata, int w, int h) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < w && y < h)
    odata[y * w + x] = idata[y * w + x];
}

__global__ void transpose32_unsigned(unsigned *odata, const unsigned *idata, int w, int h) {
  __shared__ unsigned tile[32][32 + 1];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h)
    tile[threadIdx.y][threadIdx.x] = idata[y * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  if (x < h && y < w)
    odata[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void copy32_unsigned(unsigned *odata, const unsigned *idata, int w, int h) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  if (x < w && y < h)
    odata[y * w + x] = idata[y * w + x];
}

__global__ void histogram16_u8(const unsigned char *in, unsigned *bins, int n) {
  __shared__ unsigned local[16];
  for (int b = threadIdx.x; b < 16; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 16], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 16; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count16_u8(const unsigned char *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 16) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram16_u16(const unsigned short *in, unsigned *bins, int n) {
  __shared__ unsigned local[16];
  for (int b = threadIdx.x; b < 16; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 16], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 16; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count16_u16(const unsigned short *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 16) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram16_u32(const unsigned *in, unsigned *bins, int n) {
  __shared__ unsigned local[16];
  for (int b = threadIdx.x; b < 16; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 16], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 16; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count16_u32(const unsigned *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 16) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram32_u8(const unsigned char *in, unsigned *bins, int n) {
  __shared__ unsigned local[32];
  for (int b = threadIdx.x; b < 32; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 32], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 32; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count32_u8(const unsigned char *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 32) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram32_u16(const unsigned short *in, unsigned *bins, int n) {
  __shared__ unsigned local[32];
  for (int b = threadIdx.x; b < 32; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 32], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 32; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count32_u16(const unsigned short *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 32) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram32_u32(const unsigned *in, unsigned *bins, int n) {
  __shared__ unsigned local[32];
  for (int b = threadIdx.x; b < 32; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 32], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 32; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count32_u32(const unsigned *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 32) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram64_u8(const unsigned char *in, unsigned *bins, int n) {
  __shared__ unsigned local[64];
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 64], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count64_u8(const unsigned char *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 64) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram64_u16(const unsigned short *in, unsigned *bins, int n) {
  __shared__ unsigned local[64];
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 64], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count64_u16(const unsigned short *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 64) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram64_u32(const unsigned *in, unsigned *bins, int n) {
  __shared__ unsigned local[64];
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 64], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 64; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count64_u32(const unsigned *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 64) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram128_u8(const unsigned char *in, unsigned *bins, int n) {
  __shared__ unsigned local[128];
  for (int b = threadIdx.x; b < 128; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 128], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 128; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count128_u8(const unsigned char *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 128) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram128_u16(const unsigned short *in, unsigned *bins, int n) {
  __shared__ unsigned local[128];
  for (int b = threadIdx.x; b < 128; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 128], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 128; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count128_u16(const unsigned short *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 128) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram128_u32(const unsigned *in, unsigned *bins, int n) {
  __shared__ unsigned local[128];
  for (int b = threadIdx.x; b < 128; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 128], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 128; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count128_u32(const unsigned *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 128) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram256_u8(const unsigned char *in, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 256], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count256_u8(const unsigned char *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 256) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram256_u16(const unsigned short *in, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 256], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count256_u16(const unsigned short *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 256) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void histogram256_u32(const unsigned *in, unsigned *bins, int n) {
  __shared__ unsigned local[256];
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    atomicAdd(&local[in[i] % 256], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < 256; b += blockDim.x)
    atomicAdd(&bins[b], local[b]);
}

__global__ void count256_u32(const unsigned *in, unsigned *total, int n) {
  unsigned c = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += gridDim.x * blockDim.x)
    c += (in[i] % 256) == 0;
  c += __shfl_xor_sync(0xffffffffu, c, 16);
  c += __shfl_xor_sync(0xffffffffu, c, 8);
  c += __shfl_xor_sync(0xffffffffu, c, 4);
  c += __shfl_xor_sync(0xffffffffu, c, 2);
  c += __shfl_xor_sync(0xffffffffu, c, 1);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(total, c);
}

__global__ void saxpy0(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 0.0f;
}

__global__ void blockSum0(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 1.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy1(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 1.0f;
}

__global__ void blockSum1(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 2.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy2(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 2.0f;
}

__global__ void blockSum2(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 3.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy3(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 3.0f;
}

__global__ void blockSum3(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 4.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy4(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 4.0f;
}

__global__ void blockSum4(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 5.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy5(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 5.0f;
}

__global__ void blockSum5(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 6.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy6(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 6.0f;
}

__global__ void blockSum6(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 7.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy7(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 7.0f;
}

__global__ void blockSum7(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 8.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy8(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 8.0f;
}

__global__ void blockSum8(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 9.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy9(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 9.0f;
}

__global__ void blockSum9(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 10.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy10(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 10.0f;
}

__global__ void blockSum10(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 11.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy11(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 11.0f;
}

__global__ void blockSum11(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 12.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy12(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 12.0f;
}

__global__ void blockSum12(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 13.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy13(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 13.0f;
}

__global__ void blockSum13(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 14.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy14(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 14.0f;
}

__global__ void blockSum14(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 15.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy15(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 15.0f;
}

__global__ void blockSum15(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 16.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy16(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 16.0f;
}

__global__ void blockSum16(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 17.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy17(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 17.0f;
}

__global__ void blockSum17(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 18.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy18(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 18.0f;
}

__global__ void blockSum18(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 19.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy19(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 19.0f;
}

__global__ void blockSum19(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 20.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy20(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 20.0f;
}

__global__ void blockSum20(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 21.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy21(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 21.0f;
}

__global__ void blockSum21(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 22.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy22(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 22.0f;
}

__global__ void blockSum22(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 23.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy23(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 23.0f;
}

__global__ void blockSum23(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 24.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy24(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 24.0f;
}

__global__ void blockSum24(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 25.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy25(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 25.0f;
}

__global__ void blockSum25(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 26.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy26(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 26.0f;
}

__global__ void blockSum26(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 27.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy27(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 27.0f;
}

__global__ void blockSum27(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 28.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy28(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 28.0f;
}

__global__ void blockSum28(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 29.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}

__global__ void saxpy29(float a, const float *x, float *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i] + 29.0f;
}

__global__ void blockSum29(const float *x, float *out, int n) {
  __shared__ float warpSums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += x[i] * 30.0f;
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, o);
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  if (lane == 0)
    warpSums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (blockDim.x + 31) / 32 ? warpSums[lane] : 0.0f;
    for (int o = 16; o > 0; o >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, o);
    if (lane == 0)
      atomicAdd(out, v);
  }
}
