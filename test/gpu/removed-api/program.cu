// Pre-CUDA-12 code in the shapes cuda-removed-toolkit-api rewrites: texture
// references bound to linear memory, to a CUDA array and to pitched memory,
// with settings in the declaration and before the binding, read as element
// types and as normalized floats; removed cudaDeviceProp fields; a
// cudaThread* call and a deprecated vector type. CUDA 13 rejects it as
// written. run.sh fixes it with the check, runs the fixed program and
// compares every result with a reference computed here on the host (and,
// for the device attributes, with the driver API's answer).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstring>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err = (call);                                                  \
    if (err != cudaSuccess) {                                                  \
      std::printf("%s: %s\n", #call, cudaGetErrorString(err));                 \
      return 1;                                                                \
    }                                                                          \
  } while (0)

static int Failures = 0;
static void report(const char *what, bool right) {
  std::printf("%s: %s\n", what, right ? "right" : "WRONG");
  if (!right)
    ++Failures;
}

// 1. Linear memory, tex1Dfetch, default settings.
texture<float, 1, cudaReadModeElementType> texLinear;

__global__ void scaleLinear(float *out, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = factor * tex1Dfetch(texLinear, i);
}

static int runLinear() {
  const int n = 1000;
  float host[n], got[n];
  for (int i = 0; i < n; ++i)
    host[i] = 0.25f * i - 7.0f;
  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, host, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaBindTexture(0, texLinear, in, n * sizeof(float)));
  scaleLinear<<<(n + 127) / 128, 128>>>(out, n, 3.0f);
  CHECK(cudaGetLastError());
  CHECK(cudaThreadSynchronize());
  CHECK(cudaUnbindTexture(texLinear));
  CHECK(cudaMemcpy(got, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  bool right = true;
  for (int i = 0; i < n; ++i)
    right &= got[i] == 3.0f * host[i];
  report("tex1Dfetch linear float", right);
  cudaFree(in);
  cudaFree(out);
  return 0;
}

// 2. A CUDA array of uchar4 read as normalized floats, normalized
// coordinates, linear filtering, wrapping in x and clamping in y (set
// before the binding).
texture<uchar4, cudaTextureType2D, cudaReadModeNormalizedFloat> texImage;

__global__ void sampleImage(float4 *out, const float2 *at, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    out[i] = tex2D(texImage, at[i].x, at[i].y);
}

static const int W = 8, H = 4;
static unsigned char texel(int x, int y, int c) {
  return (unsigned char)((x * 29 + y * 53 + c * 71) & 0xff);
}
// The reference: bilinear filtering of normalized texels, x wrapped,
// y clamped, at normalized coordinates (u, v).
static float reference(float u, float v, int c) {
  float x = u * W - 0.5f, y = v * H - 0.5f;
  int x0 = (int)std::floor(x), y0 = (int)std::floor(y);
  float a = x - x0, b = y - y0;
  auto at = [&](int xi, int yi) {
    xi = ((xi % W) + W) % W;
    yi = yi < 0 ? 0 : (yi >= H ? H - 1 : yi);
    return texel(xi, yi, c) / 255.0f;
  };
  return (1 - a) * (1 - b) * at(x0, y0) + a * (1 - b) * at(x0 + 1, y0) +
         (1 - a) * b * at(x0, y0 + 1) + a * b * at(x0 + 1, y0 + 1);
}

static int runImage() {
  uchar4 pixels[W * H];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x)
      pixels[y * W + x] = make_uchar4(texel(x, y, 0), texel(x, y, 1),
                                      texel(x, y, 2), texel(x, y, 3));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
  cudaArray_t array;
  CHECK(cudaMallocArray(&array, &desc, W, H));
  CHECK(cudaMemcpy2DToArray(array, 0, 0, pixels, W * sizeof(uchar4),
                            W * sizeof(uchar4), H, cudaMemcpyHostToDevice));
  // Texel centres, midpoints between texels (weights of one half, exact in
  // the hardware's 8-bit fraction), and points that wrap or clamp.
  const int count = 8;
  float2 at[count] = {{0.5f / W, 0.5f / H}, {3.5f / W, 2.5f / H},
                      {1.0f / W, 0.5f / H}, {2.0f / W, 2.0f / H},
                      {0.0f, 1.5f / H},     {1.0f, 0.5f / H},
                      {0.5f / W, -0.5f},    {5.5f / W, 1.5f}};
  float2 *dAt;
  float4 *dOut, got[count];
  CHECK(cudaMalloc(&dAt, sizeof(at)));
  CHECK(cudaMalloc(&dOut, sizeof(got)));
  CHECK(cudaMemcpy(dAt, at, sizeof(at), cudaMemcpyHostToDevice));
  texImage.normalized = true;
  texImage.filterMode = cudaFilterModeLinear;
  texImage.addressMode[0] = cudaAddressModeWrap;
  texImage.addressMode[1] = cudaAddressModeClamp;
  CHECK(cudaBindTextureToArray(texImage, array));
  sampleImage<<<1, count>>>(dOut, dAt, count);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(got, dOut, sizeof(got), cudaMemcpyDeviceToHost));
  CHECK(cudaUnbindTexture(texImage));
  bool right = true;
  for (int i = 0; i < count; ++i) {
    float g[4] = {got[i].x, got[i].y, got[i].z, got[i].w};
    for (int c = 0; c < 4; ++c)
      if (std::fabs(g[c] - reference(at[i].x, at[i].y, c)) > 2e-3f) {
        std::printf("  sample %d channel %d: %f, reference %f\n", i, c, g[c],
                    reference(at[i].x, at[i].y, c));
        right = false;
      }
  }
  report("tex2D array uchar4 normalized linear wrap/clamp", right);
  cudaFreeArray(array);
  cudaFree(dAt);
  cudaFree(dOut);
  return 0;
}

// 3. Pitched memory read with unnormalized coordinates and point
// filtering; out-of-range reads return the border (zero), as the
// declaration's address mode says. Plus doubles fetched as int2 from linear
// memory, both read by one kernel template.
texture<float, 2> texPitched(0, cudaFilterModePoint, cudaAddressModeBorder);
texture<int2, 1> texDoubles;

template <int Sign>
__global__ void combine(double *out, int width, int height) {
  int x = threadIdx.x - 1, y = blockIdx.x - 1;
  int2 v = tex1Dfetch(texDoubles, threadIdx.x);
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      Sign * __hiloint2double(v.y, v.x) + tex2D(texPitched, x + 0.5f, y + 0.5f);
}

static int runCombine() {
  const int width = 6, height = 3;
  float grid[height][width];
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x)
      grid[y][x] = 10.0f * y + x + 1;
  float *dGrid;
  size_t pitch;
  CHECK(cudaMallocPitch(&dGrid, &pitch, width * sizeof(float), height));
  CHECK(cudaMemcpy2D(dGrid, pitch, grid, width * sizeof(float),
                     width * sizeof(float), height, cudaMemcpyHostToDevice));
  const int threads = width + 2, blocks = height + 2;
  double values[threads];
  for (int i = 0; i < threads; ++i)
    values[i] = 1.0 / 3.0 + i * 1e-12;
  double *dValues, *dOut;
  CHECK(cudaMalloc(&dValues, sizeof(values)));
  CHECK(cudaMalloc(&dOut, 2 * threads * blocks * sizeof(double)));
  CHECK(cudaMemcpy(dValues, values, sizeof(values), cudaMemcpyHostToDevice));
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  CHECK(cudaBindTexture2D(0, texPitched, dGrid, desc, width, height, pitch));
  CHECK(cudaBindTexture(0, texDoubles, dValues, sizeof(values)));
  combine<1><<<blocks, threads>>>(dOut, width, height);
  combine<-1><<<blocks, threads>>>(dOut + threads * blocks, width, height);
  CHECK(cudaGetLastError());
  double got[2 * threads * blocks];
  CHECK(cudaMemcpy(got, dOut, sizeof(got), cudaMemcpyDeviceToHost));
  CHECK(cudaUnbindTexture(texPitched));
  CHECK(cudaUnbindTexture(texDoubles));
  bool right = true;
  for (int s = 0; s < 2; ++s)
    for (int b = 0; b < blocks; ++b)
      for (int t = 0; t < threads; ++t) {
        int x = t - 1, y = b - 1;
        double border = x < 0 || y < 0 || x >= width || y >= height
                            ? 0.0
                            : (double)grid[y][x];
        double want = (s ? -1 : 1) * values[t] + border;
        right &= got[(s * blocks + b) * threads + t] == want;
      }
  report("tex2D pitched border + tex1Dfetch int2 doubles", right);
  cudaFree(dGrid);
  cudaFree(dValues);
  cudaFree(dOut);
  return 0;
}

// 4. Removed device properties, read after cudaGetDeviceProperties; the
// reference is the driver API's attribute query.
static int runProperties() {
  int dev = 0;
  CHECK(cudaGetDevice(&dev));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  CUdevice cu;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&cu, dev) != CUDA_SUCCESS) {
    std::printf("driver API unavailable\n");
    return 1;
  }
  struct {
    const char *name;
    int got;
    CUdevice_attribute attr;
  } fields[] = {
      {"clockRate", prop.clockRate, CU_DEVICE_ATTRIBUTE_CLOCK_RATE},
      {"memoryClockRate", prop.memoryClockRate,
       CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE},
      {"deviceOverlap", prop.deviceOverlap, CU_DEVICE_ATTRIBUTE_GPU_OVERLAP},
      {"computeMode", prop.computeMode, CU_DEVICE_ATTRIBUTE_COMPUTE_MODE},
      {"kernelExecTimeoutEnabled", prop.kernelExecTimeoutEnabled,
       CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT},
      {"maxTexture1DLinear", prop.maxTexture1DLinear,
       CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH},
      {"singleToDoublePrecisionPerfRatio",
       prop.singleToDoublePrecisionPerfRatio,
       CU_DEVICE_ATTRIBUTE_SINGLE_TO_DOUBLE_PRECISION_PERF_RATIO},
  };
  bool right = true;
  for (const auto &f : fields) {
    int want = -1;
    cuDeviceGetAttribute(&want, f.attr, cu);
    std::printf("  %s = %d (driver API: %d)\n", f.name, f.got, want);
    right &= f.got == want;
  }
  // Plausible values for any GPU CUDA 13 supports.
  right &= prop.clockRate > 100000 && prop.memoryClockRate > 100000;
  report("removed cudaDeviceProp fields", right);
  return 0;
}

// 5. A deprecated vector type in device memory: the layout stays.
__global__ void sumVectors(const double4 *in, double *out) {
  double4 v = in[threadIdx.x];
  out[threadIdx.x] = v.x + v.y + v.z + v.w;
}

static int runVectors() {
  double4 host[32];
  for (int i = 0; i < 32; ++i)
    host[i] = make_double4(i, 2.0 * i, 0.5, -1.0 * i);
  double4 *in;
  double *out, got[32];
  CHECK(cudaMalloc(&in, sizeof(host)));
  CHECK(cudaMalloc(&out, sizeof(got)));
  CHECK(cudaMemcpy(in, host, sizeof(host), cudaMemcpyHostToDevice));
  sumVectors<<<1, 32>>>(in, out);
  CHECK(cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost));
  bool right = sizeof(double4) == 32;
  for (int i = 0; i < 32; ++i)
    right &= got[i] == 2.0 * i + 0.5;
  report("double4 layout and sums", right);
  cudaFree(in);
  cudaFree(out);
  return 0;
}

int main() {
  if (runLinear() || runImage() || runCombine() || runProperties() ||
      runVectors())
    return 1;
  std::printf("%s\n", Failures ? "FAILURES" : "all right");
  return Failures ? 1 : 0;
}
