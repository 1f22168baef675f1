// The fixes the check offers on notes only, because they assume something
// it cannot prove, applied with --fix-notes: a removed cudaDeviceProp field
// read through a pointer becomes the current device's attribute, a
// deprecated array copy becomes the 2D copy of one row, and a graph
// instantiation that asked for the error node drops it, and a texture
// reference bound with an offset the program never reads becomes a texture
// object. --fix leaves them.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --fix --fixed-prefix=FIX %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --fix-notes --fixed-prefix=NOTES --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

int clock(const cudaDeviceProp *p) {
  return p->clockRate;
  // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
  // note@-2 {{no automatic fix: the field is not read from a local 'cudaDeviceProp' variable}}
  // note@-3 {{if the properties are those of the current device, read its attribute}}
  // FIX: return p->clockRate;
  // NOTES: return [] { int Value = 0, Device = 0; cudaGetDevice(&Device); cudaDeviceGetAttribute(&Value, cudaDevAttrClockRate, Device); return Value; }();
}

cudaError_t upload(cudaArray_t array, const float *row, size_t width) {
  return cudaMemcpyToArray(array, 0, 0, row, width * sizeof(float),
                           cudaMemcpyHostToDevice);
  // warning@-2 {{'cudaMemcpyToArray' is deprecated since CUDA 10.1; use 'cudaMemcpy2DToArray'}}
  // note@-3 {{if the copy stays within one row of the array, it is a 2D copy 'width * sizeof(float)' bytes wide and 1 high}}
  // FIX: return cudaMemcpyToArray(array, 0, 0, row, width * sizeof(float),
  // NOTES: return cudaMemcpy2DToArray(array, 0, 0, row, width * sizeof(float), width * sizeof(float), 1,
}

cudaError_t download(float *row, cudaArray_const_t array, size_t bytes) {
  return cudaMemcpyFromArray(row, array, 0, 0, bytes, cudaMemcpyDeviceToHost);
  // warning@-1 {{'cudaMemcpyFromArray' is deprecated since CUDA 10.1; use 'cudaMemcpy2DFromArray'}}
  // note@-2 {{it is a 2D copy 'bytes' bytes wide and 1 high}}
  // NOTES: return cudaMemcpy2DFromArray(row, bytes, array, 0, 0, bytes, 1, cudaMemcpyDeviceToHost);
}

cudaError_t instantiate(cudaGraphExec_t *exec, cudaGraph_t graph) {
  cudaGraphNode_t failed;
  char log[256];
  return cudaGraphInstantiate(exec, graph, &failed, log, sizeof(log));
  // warning@-1 {{'cudaGraphInstantiate' no longer returns the error node or the log since CUDA 12.0; they are left as they were}}
  // note@-2 {{without the error node and the log, which 'cudaGraphInstantiate' no longer returns ('cudaGraphInstantiateWithParams' returns the error node)}}
  // FIX: return cudaGraphInstantiate(exec, graph, &failed, log, sizeof(log));
  // NOTES: return cudaGraphInstantiate(exec, graph, 0);
}

// A texture reference bound with an offset the program never reads: the
// texture object reads the same texels when the memory is aligned (the
// offset is then 0), which the check cannot prove.
texture<float, 1> texOffset;
// warning@-1:19 {{texture reference 'texOffset' needs the texture reference API, removed in CUDA 12.0; use a texture object}}
// FIX: {{^}}texture<float, 1> texOffset;
// NOTES: {{^}}static cudaTextureObject_t texOffset = 0;
__global__ void copyOffset(float *out) { out[threadIdx.x] = tex1Dfetch(texOffset, threadIdx.x); }
// warning@-1 {{'tex1Dfetch' of a texture reference was removed in CUDA 12.0; read through a texture object}}
// note@-6:19 {{texture reference 'texOffset' declared here}}
// NOTES: {{^}}__global__ void copyOffset(float *out, cudaTextureObject_t texOffset) { out[threadIdx.x] = tex1Dfetch<float>(texOffset, threadIdx.x); }
void runOffset(const float *in, float *out) {
  size_t offset;
  cudaBindTexture(&offset, texOffset, in, 32 * sizeof(float));
  // warning@-1 {{'cudaBindTexture' was removed in CUDA 12.0; use 'cudaCreateTextureObject'}}
  // note@-2 {{no automatic fix: the binding asks for an offset; a texture object needs memory aligned to 'textureAlignment' and has no offset}}
  // note@-3 {{if the bound memory is aligned to 'textureAlignment' (memory from 'cudaMalloc' is), the offset is 0 and the texture object reads the same texels}}
  // note@-14:19 {{texture reference 'texOffset' declared here}}
  // FIX: {{^}}  size_t offset;
  // NOTES-NOT: size_t offset;
  // NOTES: {{^}}  cudaResourceDesc texOffsetRes = {};
  // NOTES: {{^}}  cudaCreateTextureObject(&texOffset, &texOffsetRes, &texOffsetDesc, nullptr);
  copyOffset<<<1, 32>>>(out);
  // NOTES: {{^}}  copyOffset<<<1, 32>>>(out, texOffset);
  cudaUnbindTexture(texOffset);
  // warning@-1 {{'cudaUnbindTexture' was removed in CUDA 12.0; use 'cudaDestroyTextureObject'}}
  // note@-23:19 {{texture reference 'texOffset' declared here}}
  // NOTES: {{^}}  cudaDestroyTextureObject(texOffset);
}
