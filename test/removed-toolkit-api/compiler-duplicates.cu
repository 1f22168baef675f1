// One warning per use with the compiler's diagnostics shown too (as the
// cuda-tidy driver shows them): the compiler's "'double4' is deprecated"
// goes where the check reports the same use with its replacement, and a
// graph instantiation that the headers' inline overload still accepts, with
// the same behaviour, is not reported.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api,clang-diagnostic-deprecated-declarations %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

__global__ void scale(double4 *v, double s) {
  // warning@-1:23 {{'double4' is deprecated since CUDA 13.0; use 'double4_16a'}} [cuda-removed-toolkit-api]
  // note@-2 {{'double4_32a'}}
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  v[i].x *= s;
}

// The user's alias of 'double4': the check reports the spelling, where the
// fix goes; the compiler's "'Vec' is deprecated" at each use of the alias
// goes.
typedef double4 Vec;
// warning@-1:9 {{'double4' is deprecated since CUDA 13.0; use 'double4_16a'}} [cuda-removed-toolkit-api]
// note@-2 {{'double4_32a'}}
__device__ double sum(const Vec &v) { return v.x + v.y + v.z + v.w; }
__global__ void sums(const Vec *v, double *out) {
  out[threadIdx.x] = sum(v[threadIdx.x]);
}

void copyIn(cudaArray_t dst, const float *src, size_t bytes) {
  cudaMemcpyToArray(dst, 0, 0, src, bytes, cudaMemcpyHostToDevice);
  // warning@-1 {{'cudaMemcpyToArray' is deprecated since CUDA 10.1}} [cuda-removed-toolkit-api]
  // note@-2 {{if the copy stays within one row of the array, it is a 2D copy}}
}

// The user's own deprecated declaration is not the check's: the compiler's
// warning stays.
__attribute__((deprecated("use newer"))) int older(int x);
// note@-1 {{'older' has been explicitly marked deprecated here}}
int callsOlder() { return older(1); }
// warning@-1 {{'older' is deprecated: use newer}} [clang-diagnostic-deprecated-declarations]

// The CUDA 11 form with no error node and no log: cuda_runtime.h keeps it
// for C++ as an inline overload that calls the new form with flags 0, so it
// builds and behaves the same.
cudaError_t instantiate(cudaGraphExec_t *exec, cudaGraph_t graph) {
  return cudaGraphInstantiate(exec, graph, NULL, NULL, 0);
}

// Asking for the error node or the log: the overload builds but leaves them
// as they were, which the caller does not expect.
cudaError_t instantiateLogged(cudaGraphExec_t *exec, cudaGraph_t graph,
                              char *log, size_t size) {
  return cudaGraphInstantiate(exec, graph, NULL, log, size);
  // warning@-1 {{'cudaGraphInstantiate' no longer returns the error node or the log since CUDA 12.0; they are left as they were}} [cuda-removed-toolkit-api]
  // note@-2 {{without the error node and the log}}
}
