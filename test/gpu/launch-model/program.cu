// GPU proof for the launch model of cuda-dynamic-shared-memory-opt-in and
// cuda-cluster-size-portability: launches whose shared memory or cluster
// size is set away from the launch. Each case prints "NAME: ERROR" with the
// launch's CUDA error name; run.sh compares them before and after --fix.
#include <cstdio>
#include <cuda_runtime.h>

// Static plus dynamic: 16 KiB of __shared__ + 36 KiB dynamic = 52 KiB.
__global__ void stencil(const float *in, float *out) {
  __shared__ float halo[4096];
  extern __shared__ float tile[];
  tile[threadIdx.x] = in[threadIdx.x];
  halo[threadIdx.x] = tile[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = halo[(threadIdx.x + 1) % blockDim.x];
}

__global__ void tiled(float *o) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];
}

__global__ void configured(float *o) {
  extern __shared__ float buf[];
  buf[threadIdx.x] = 2.f * threadIdx.x;
  __syncthreads();
  o[threadIdx.x] = buf[threadIdx.x];
}

__global__ void clustered(float *o) { o[blockIdx.x] = blockIdx.x; }

template <class K> void allowSmem(K k, int bytes) {
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}

static cudaLaunchConfig_t configFor(size_t bytes) {
  cudaLaunchConfig_t c = {};
  c.gridDim = dim3(4);
  c.blockDim = dim3(128);
  c.dynamicSmemBytes = bytes;
  return c;
}

static void setCluster(cudaLaunchAttribute &a, unsigned x) {
  a.id = cudaLaunchAttributeClusterDimension;
  a.val.clusterDim.x = x;
  a.val.clusterDim.y = 1;
  a.val.clusterDim.z = 1;
}

static bool report(const char *name, cudaError_t e) {
  std::printf("%s: %s\n", name, cudaGetErrorName(e));
  return e == cudaSuccess;
}

void runStencil(const float *in, float *out) {
  stencil<<<1, 256, 36 * 1024>>>(in, out);
}

void runWrapped(float *o) {
  allowSmem(tiled, 100 * 1024);
  tiled<<<1, 256, 100 * 1024>>>(o);
}

cudaError_t runConfigured(float *o) {
  cudaLaunchConfig_t cfg = configFor(72 * 1024);
  return cudaLaunchKernelEx(&cfg, configured, o);
}

cudaError_t runClustered(float *o) {
  cudaLaunchAttribute attr[1];
  setCluster(attr[0], 16);
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(64);
  cfg.blockDim = dim3(128);
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  return cudaLaunchKernelEx(&cfg, clustered, o);
}

int main() {
  float *in = nullptr, *out = nullptr;
  cudaMalloc(&in, 1024 * sizeof(float));
  cudaMalloc(&out, 1024 * sizeof(float));
  float host[256];
  for (int i = 0; i < 256; ++i)
    host[i] = float(i);
  cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice);

  runStencil(in, out);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess)
    e = cudaDeviceSynchronize();
  if (report("stencil", e)) {
    cudaMemcpy(host, out, sizeof(host), cudaMemcpyDeviceToHost);
    bool right = true;
    for (int i = 0; i < 256; ++i)
      right = right && host[i] == float((i + 1) % 256);
    std::printf("stencil result: %s\n", right ? "right" : "WRONG");
  }
  runWrapped(out);
  e = cudaGetLastError();
  report("wrapper", e == cudaSuccess ? cudaDeviceSynchronize() : e);
  e = runConfigured(out);
  report("config-helper", e == cudaSuccess ? cudaDeviceSynchronize() : e);
  e = runClustered(out);
  report("cluster-helper", e == cudaSuccess ? cudaDeviceSynchronize() : e);
  cudaFree(in);
  cudaFree(out);
  return 0;
}
