// Texture references (removed in CUDA 12.0) in the shapes old code uses,
// rewritten into texture objects: the reference becomes a file-scope
// 'cudaTextureObject_t' of the same name, created where it was bound with
// descriptors that reproduce the binding and the reference's settings,
// passed to each kernel that reads it as a new last parameter (every
// declaration and launch updated), read with the texel type as template
// argument, and destroyed where it was unbound. The fixed file builds with
// nvcc for sm_75 to sm_120 and is clean.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess)                                                    \
      return err;                                                              \
  } while (0)

// 1. Linear memory read with tex1Dfetch, bound inside an error-check macro.
texture<float, 1, cudaReadModeElementType> texIn;
// warning@-1:44 {{texture reference 'texIn' needs the texture reference API, removed in CUDA 12.0; use a texture object}} [cuda-removed-toolkit-api]
// FIXED: {{^}}static cudaTextureObject_t texIn = 0;

__global__ void scale(float *out, int n, float factor);
// FIXED: __global__ void scale(float *out, int n, float factor, cudaTextureObject_t texIn);
__global__ void scale(float *out, int n, float factor) {
  // FIXED: __global__ void scale(float *out, int n, float factor, cudaTextureObject_t texIn) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = factor * tex1Dfetch(texIn, i);
  // warning@-1:23 {{'tex1Dfetch' of a texture reference was removed in CUDA 12.0; read through a texture object}}
  // note@20:44 {{the fix of texture reference 'texIn' declared here rewrites it}}
  // FIXED: out[i] = factor * tex1Dfetch<float>(texIn, i);
}

cudaError_t runScale(const float *in, float *out, int n) {
  CHECK(cudaBindTexture(0, texIn, in, n * sizeof(float)));
  // warning@-1:9 {{'cudaBindTexture' was removed in CUDA 12.0; use 'cudaCreateTextureObject'}}
  // note@20:44 {{the fix of texture reference 'texIn' declared here rewrites it}}
  // FIXED: {{^}}  cudaResourceDesc texInRes = {};
  // FIXED-NEXT: {{^}}  texInRes.resType = cudaResourceTypeLinear;
  // FIXED-NEXT: {{^}}  texInRes.res.linear.devPtr = (void *)(in);
  // FIXED-NEXT: {{^}}  texInRes.res.linear.desc = cudaCreateChannelDesc<float>();
  // FIXED-NEXT: {{^}}  texInRes.res.linear.sizeInBytes = n * sizeof(float);
  // FIXED-NEXT: {{^}}  cudaTextureDesc texInDesc = {};
  // FIXED-NEXT: {{^}}  texInDesc.addressMode[0] = cudaAddressModeClamp;
  // FIXED-NEXT: {{^}}  texInDesc.addressMode[1] = cudaAddressModeClamp;
  // FIXED-NEXT: {{^}}  texInDesc.addressMode[2] = cudaAddressModeClamp;
  // FIXED-NEXT: {{^}}  texInDesc.filterMode = cudaFilterModePoint;
  // FIXED-NEXT: {{^}}  texInDesc.readMode = cudaReadModeElementType;
  // FIXED-NEXT: {{^}}  texInDesc.normalizedCoords = 0;
  // FIXED-NEXT: {{^}}  CHECK(cudaCreateTextureObject(&texIn, &texInRes, &texInDesc, nullptr));
  scale<<<(n + 255) / 256, 256>>>(out, n, 2.0f);
  // FIXED: scale<<<(n + 255) / 256, 256>>>(out, n, 2.0f, texIn);
  CHECK(cudaGetLastError());
  return cudaUnbindTexture(texIn);
  // warning@-1:10 {{'cudaUnbindTexture' was removed in CUDA 12.0; use 'cudaDestroyTextureObject'}}
  // note@20:44 {{the fix of texture reference 'texIn' declared here rewrites it}}
  // FIXED: return cudaDestroyTextureObject(texIn);
}

// 2. A CUDA array read with tex2D through normalized coordinates, with
// linear filtering and wrapping set before the binding; 8-bit texels read
// as normalized floats.
texture<uchar4, cudaTextureType2D, cudaReadModeNormalizedFloat> image;
// warning@-1 {{texture reference 'image' needs the texture reference API}}
// FIXED: {{^}}static cudaTextureObject_t image = 0;

__global__ void sample(float4 *out, int width, int height) {
  // FIXED: __global__ void sample(float4 *out, int width, int height, cudaTextureObject_t image) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height)
    out[y * width + x] = tex2D(image, (x + 0.5f) / width, (y + 0.5f) / height);
  // warning@-1 {{'tex2D' of a texture reference was removed in CUDA 12.0}}
  // note@65:65 {{the fix of texture reference 'image' declared here rewrites it}}
  // FIXED: out[y * width + x] = tex2D<float4>(image, (x + 0.5f) / width, (y + 0.5f) / height);
}

cudaError_t runSample(cudaArray_t pixels, float4 *out, int width,
                      int height) {
  image.normalized = true;
  image.filterMode = cudaFilterModeLinear;
  image.addressMode[0] = cudaAddressModeWrap;
  image.addressMode[1] = cudaAddressModeWrap;
  // FIXED: cudaError_t runSample(cudaArray_t pixels, float4 *out, int width,
  // FIXED-NEXT: int height) {
  // FIXED-NOT: image.
  // FIXED: {{^}}  cudaResourceDesc imageRes = {};
  // FIXED-NEXT: {{^}}  imageRes.resType = cudaResourceTypeArray;
  // FIXED-NEXT: {{^}}  imageRes.res.array.array = pixels;
  // FIXED-NEXT: {{^}}  cudaTextureDesc imageDesc = {};
  // FIXED-NEXT: {{^}}  imageDesc.addressMode[0] = cudaAddressModeWrap;
  // FIXED-NEXT: {{^}}  imageDesc.addressMode[1] = cudaAddressModeWrap;
  // FIXED-NEXT: {{^}}  imageDesc.addressMode[2] = cudaAddressModeClamp;
  // FIXED-NEXT: {{^}}  imageDesc.filterMode = cudaFilterModeLinear;
  // FIXED-NEXT: {{^}}  imageDesc.readMode = cudaReadModeNormalizedFloat;
  // FIXED-NEXT: {{^}}  imageDesc.normalizedCoords = true;
  // FIXED-NEXT: {{^}}  cudaError_t err = cudaCreateTextureObject(&image, &imageRes, &imageDesc, nullptr);
  cudaError_t err = cudaBindTextureToArray(image, pixels);
  // warning@-1 {{'cudaBindTextureToArray' was removed in CUDA 12.0; use 'cudaCreateTextureObject'}}
  // note@65:65 {{the fix of texture reference 'image' declared here rewrites it}}
  if (err != cudaSuccess)
    return err;
  dim3 block(16, 16), grid((width + 15) / 16, (height + 15) / 16);
  sample<<<grid, block>>>(out, width, height);
  // FIXED: sample<<<grid, block>>>(out, width, height, image);
  cudaUnbindTexture(image);
  // warning@-1 {{'cudaUnbindTexture' was removed in CUDA 12.0}}
  // note@65:65 {{the fix of texture reference 'image' declared here rewrites it}}
  // FIXED: cudaDestroyTextureObject(image);
  return cudaGetLastError();
}

// 3. Two references read by one kernel template: both become parameters,
// in the order they are declared, and every launch passes both. One is
// pitched 2D memory bound through the C API with an explicit format; the
// other holds doubles as int2, set up in its declaration.
texture<int2, 1> texPairs;
// warning@-1 {{texture reference 'texPairs' needs the texture reference API}}
// FIXED: {{^}}static cudaTextureObject_t texPairs = 0;
texture<float, 2> texGrid(0, cudaFilterModePoint, cudaAddressModeBorder);
// warning@-1 {{texture reference 'texGrid' needs the texture reference API}}
// note@119:18 {{rewritten by the fix of texture reference 'texPairs' declared here, which is read by the same kernel}}
// FIXED: {{^}}static cudaTextureObject_t texGrid = 0;

template <int Scale>
__global__ void combine(double *out, int pitchElems) {
  // FIXED: __global__ void combine(double *out, int pitchElems, cudaTextureObject_t texPairs, cudaTextureObject_t texGrid) {
  int i = threadIdx.x;
  int2 v = tex1Dfetch(texPairs, i);
  // warning@-1 {{'tex1Dfetch' of a texture reference was removed in CUDA 12.0}}
  // note@119:18 {{the fix of texture reference 'texPairs' declared here rewrites it}}
  // FIXED: int2 v = tex1Dfetch<int2>(texPairs, i);
  out[i] = Scale * __hiloint2double(v.y, v.x) + tex2D(texGrid, i, 0);
  // warning@-1 {{'tex2D' of a texture reference was removed in CUDA 12.0}}
  // note@119:18 {{the fix of texture reference 'texPairs' declared here rewrites it}}
  // FIXED: out[i] = Scale * __hiloint2double(v.y, v.x) + tex2D<float>(texGrid, i, 0);
}

cudaError_t runCombine(const int2 *pairs, const float *grid, size_t pitch,
                       double *out, int n) {
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  CHECK(cudaBindTexture(nullptr, texPairs, pairs, n * sizeof(int2)));
  // warning@-1 {{'cudaBindTexture' was removed in CUDA 12.0}}
  // note@119:18 {{the fix of texture reference 'texPairs' declared here rewrites it}}
  CHECK(cudaBindTexture2D(0, &texGrid, grid, &desc, n, 1, pitch));
  // warning@-1 {{'cudaBindTexture2D' was removed in CUDA 12.0}}
  // note@119:18 {{the fix of texture reference 'texPairs' declared here rewrites it}}
  // FIXED: {{^}}  texGridRes.res.pitch2D.devPtr = (void *)(grid);
  // FIXED-NEXT: {{^}}  texGridRes.res.pitch2D.desc = desc;
  // FIXED-NEXT: {{^}}  texGridRes.res.pitch2D.width = n;
  // FIXED-NEXT: {{^}}  texGridRes.res.pitch2D.height = 1;
  // FIXED-NEXT: {{^}}  texGridRes.res.pitch2D.pitchInBytes = pitch;
  // FIXED: {{^}}  texGridDesc.addressMode[0] = cudaAddressModeBorder;
  combine<1><<<1, n>>>(out, pitch / sizeof(float));
  combine<2><<<1, n>>>(out + n, pitch / sizeof(float));
  // FIXED: combine<1><<<1, n>>>(out, pitch / sizeof(float), texPairs, texGrid);
  // FIXED: combine<2><<<1, n>>>(out + n, pitch / sizeof(float), texPairs, texGrid);
  CHECK(cudaUnbindTexture(texPairs));
  // warning@-1 {{'cudaUnbindTexture' was removed in CUDA 12.0}}
  // note@119:18 {{the fix of texture reference 'texPairs' declared here rewrites it}}
  return cudaUnbindTexture(&texGrid);
  // warning@-1 {{'cudaUnbindTexture' was removed in CUDA 12.0}}
  // note@119:18 {{the fix of texture reference 'texPairs' declared here rewrites it}}
  // FIXED: return cudaDestroyTextureObject(texGrid);
}

// Declared and never used: the declaration goes.
texture<float, 1> unusedRef;
// warning@-1 {{texture reference 'unusedRef' needs the texture reference API, removed in CUDA 12.0; use a texture object}}
// FIXED-NOT: unusedRef
