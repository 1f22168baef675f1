// Texture references in shapes the rewrite does not take: each is reported
// with what stops the fix, and the file is left as it is. Surface
// references are reported with what to do.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Bound twice: one object per binding is a design decision.
texture<float, 1> twice;
// warning@-1 {{texture reference 'twice' needs the texture reference API, removed in CUDA 12.0; use a texture object}}
__global__ void readTwice(float *out) { out[threadIdx.x] = tex1Dfetch(twice, threadIdx.x); }
// warning@-1 {{'tex1Dfetch' of a texture reference was removed in CUDA 12.0}}
// note@8:19 {{texture reference 'twice' declared here}}
void runTwice(const float *a, const float *b, float *out) {
  cudaBindTexture(0, twice, a, 32 * sizeof(float));
  // warning@-1 {{'cudaBindTexture' was removed in CUDA 12.0}}
  // note@8:19 {{texture reference 'twice' declared here}}
  readTwice<<<1, 32>>>(out);
  cudaBindTexture(0, twice, b, 32 * sizeof(float));
  // warning@-1 {{'cudaBindTexture' was removed in CUDA 12.0}}
  // note@-2 {{no automatic fix: it is bound more than once; create one texture object per binding and pass the one each launch needs}}
  // note@8:19 {{texture reference 'twice' declared here}}
  readTwice<<<1, 32>>>(out + 32);
}

// Read in a device function the kernel calls: the object would have to be
// passed through it.
texture<float, 1> viaHelper;
// warning@-1 {{texture reference 'viaHelper' needs the texture reference API}}
__device__ float fetch(int i) { return tex1Dfetch(viaHelper, i); }
// warning@-1 {{'tex1Dfetch' of a texture reference was removed in CUDA 12.0}}
// note@-2 {{no automatic fix: it is read in device function 'fetch'; pass the texture object to it as a parameter}}
// note@27:19 {{texture reference 'viaHelper' declared here}}
__global__ void useHelper(float *out) { out[threadIdx.x] = fetch(threadIdx.x); }
void runHelper(const float *in, float *out) {
  cudaBindTexture(0, viaHelper, in, 32 * sizeof(float));
  // warning@-1 {{'cudaBindTexture' was removed in CUDA 12.0}}
  // note@27:19 {{texture reference 'viaHelper' declared here}}
  useHelper<<<1, 32>>>(out);
}

// Bound with an offset the program then uses.
texture<float, 1> shifted;
// warning@-1 {{texture reference 'shifted' needs the texture reference API}}
__global__ void readShifted(float *out, int offset) { out[threadIdx.x] = tex1Dfetch(shifted, threadIdx.x + offset); }
// warning@-1 {{'tex1Dfetch' of a texture reference was removed in CUDA 12.0}}
// note@42:19 {{texture reference 'shifted' declared here}}
void runShifted(const float *in, float *out) {
  size_t offset = 0;
  cudaBindTexture(&offset, shifted, in + 1, 32 * sizeof(float));
  // warning@-1 {{'cudaBindTexture' was removed in CUDA 12.0}}
  // note@-2 {{no automatic fix: the binding asks for an offset; a texture object needs memory aligned to 'textureAlignment' and has no offset}}
  // note@42:19 {{texture reference 'shifted' declared here}}
  readShifted<<<1, 32>>>(out, (int)(offset / sizeof(float)));
}

// A setting changed in another function than the binding's.
texture<float, 2> filtered;
// warning@-1 {{texture reference 'filtered' needs the texture reference API}}
__global__ void readFiltered(float *out) { out[threadIdx.x] = tex2D(filtered, threadIdx.x, 0.5f); }
// warning@-1 {{'tex2D' of a texture reference was removed in CUDA 12.0}}
// note@57:19 {{texture reference 'filtered' declared here}}
void setup() { filtered.filterMode = cudaFilterModeLinear; }
// note@-1:16 {{no automatic fix: 'filtered.filterMode' is set other than in the block of the binding, before it}}
void runFiltered(cudaArray_t array, float *out) {
  setup();
  cudaBindTextureToArray(filtered, array);
  // warning@-1 {{'cudaBindTextureToArray' was removed in CUDA 12.0}}
  // note@57:19 {{texture reference 'filtered' declared here}}
  readFiltered<<<1, 32>>>(out);
}

// The kernel is also launched through cudaLaunchKernel, whose argument
// array the fix would have to extend.
texture<int, 1> launched;
// warning@-1 {{texture reference 'launched' needs the texture reference API}}
__global__ void readLaunched(int *out) { out[threadIdx.x] = tex1Dfetch(launched, threadIdx.x); }
// warning@-1 {{'tex1Dfetch' of a texture reference was removed in CUDA 12.0}}
// note@74:17 {{texture reference 'launched' declared here}}
void runLaunched(const int *in, int *out) {
  cudaBindTexture(0, launched, in, 32 * sizeof(int));
  // warning@-1 {{'cudaBindTexture' was removed in CUDA 12.0}}
  // note@74:17 {{texture reference 'launched' declared here}}
  void *args[] = {&out};
  cudaLaunchKernel((const void *)readLaunched, dim3(1), dim3(32), args, 0, 0);
  // note@-1:34 {{no automatic fix: kernel 'readLaunched' is referred to other than by launches; the texture object would have to be passed there too}}
}

// Never bound in this file.
texture<float4, 2> unbound;
// warning@-1 {{texture reference 'unbound' needs the texture reference API}}
// note@-2 {{no automatic fix: it is not bound in this file}}
__global__ void readUnbound(float4 *out) { out[0] = tex2D(unbound, 0.5f, 0.5f); }
// warning@-1 {{'tex2D' of a texture reference was removed in CUDA 12.0}}
// note@89:20 {{texture reference 'unbound' declared here}}

// A surface reference: reported with what to do.
surface<void, 2> canvas;
// warning@-1 {{surface reference 'canvas' needs the surface reference API, removed in CUDA 12.0; use a surface object}}
// note@-2 {{no automatic fix: surface references are not rewritten; create a surface object with 'cudaCreateSurfaceObject' where the reference is bound, pass it to the kernels, and read and write through it}}
__global__ void paint() { surf2Dwrite(1.0f, canvas, threadIdx.x * 4, 0); }
// warning@-1 {{'surf2Dwrite' of a surface reference was removed in CUDA 12.0; use a surface object}}
// note@97:18 {{surface reference 'canvas' declared here}}
void runPaint(cudaArray_t array) {
  cudaBindSurfaceToArray(canvas, array);
  // warning@-1 {{'cudaBindSurfaceToArray' was removed in CUDA 12.0}}
  // note@97:18 {{surface reference 'canvas' declared here}}
  paint<<<1, 32>>>();
}

// Texture objects are what the fix writes: not reported.
__global__ void objects(cudaTextureObject_t tex, float *out) {
  out[threadIdx.x] = tex1Dfetch<float>(tex, threadIdx.x) + tex2D<float>(tex, 0.5f, 0.5f);
}
