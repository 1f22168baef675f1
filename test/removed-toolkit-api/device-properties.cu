// cudaDeviceProp fields CUDA 13 removed, read after cudaGetDeviceProperties
// in the same function: each field's value comes from cudaDeviceGetAttribute
// for the same device, into a local declared once right after the
// properties call, and every read of that field is replaced. Under the CUDA
// 13 headers these reads are clang errors ("no member named"); the check
// takes them over and reports them as its warnings. The fixed file builds
// with nvcc and is clean.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

extern "C" int printf(const char *format, ...);

#define CHECK(call)                                                            \
  do {                                                                         \
    if ((call) != cudaSuccess)                                                 \
      return -1;                                                               \
  } while (0)

int describe(int dev) {
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, dev));
  // FIXED: CHECK(cudaGetDeviceProperties(&prop, dev));
  // FIXED-NEXT: {{^}}  int propClockRate = 0;
  // FIXED-NEXT: {{^}}  cudaDeviceGetAttribute(&propClockRate, cudaDevAttrClockRate, dev);
  // FIXED-NEXT: {{^}}  int propMemoryClockRate = 0;
  // FIXED-NEXT: {{^}}  cudaDeviceGetAttribute(&propMemoryClockRate, cudaDevAttrMemoryClockRate, dev);
  // FIXED-NEXT: {{^}}  int propComputeMode = 0;
  // FIXED-NEXT: {{^}}  cudaDeviceGetAttribute(&propComputeMode, cudaDevAttrComputeMode, dev);
  printf("%s: %d SMs at %d kHz, memory at %d kHz\n", prop.name,
         prop.multiProcessorCount, prop.clockRate, prop.memoryClockRate);
  // warning@-1:41 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0; use 'cudaDeviceGetAttribute' with 'cudaDevAttrClockRate'}} [cuda-removed-toolkit-api]
  // warning@-2:57 {{'cudaDeviceProp::memoryClockRate' was removed in CUDA 13.0; use 'cudaDeviceGetAttribute' with 'cudaDevAttrMemoryClockRate'}}
  // FIXED: prop.multiProcessorCount, propClockRate, propMemoryClockRate);
  double peak = 2.0 * prop.clockRate * prop.multiProcessorCount;
  // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
  // FIXED: double peak = 2.0 * propClockRate * prop.multiProcessorCount;
  if (prop.computeMode == cudaComputeModeProhibited)
    // warning@-1 {{'cudaDeviceProp::computeMode' was removed in CUDA 13.0; use 'cudaDeviceGetAttribute' with 'cudaDevAttrComputeMode'}}
    // FIXED: if (propComputeMode == cudaComputeModeProhibited)
    return 0;
  return static_cast<int>(peak);
}

// Every removed field with an attribute; the device is a constant.
void flags(int *out) {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  // FIXED: {{^}}  int pDeviceOverlap = 0;
  // FIXED-NEXT: {{^}}  cudaDeviceGetAttribute(&pDeviceOverlap, cudaDevAttrGpuOverlap, 0);
  out[0] = p.deviceOverlap;
  // warning@-1 {{'cudaDeviceProp::deviceOverlap' was removed in CUDA 13.0; use 'cudaDeviceGetAttribute' with 'cudaDevAttrGpuOverlap'}}
  out[1] = p.kernelExecTimeoutEnabled;
  // warning@-1 {{'cudaDeviceProp::kernelExecTimeoutEnabled' was removed in CUDA 13.0; use 'cudaDeviceGetAttribute' with 'cudaDevAttrKernelExecTimeout'}}
  out[2] = p.maxTexture1DLinear;
  // warning@-1 {{'cudaDeviceProp::maxTexture1DLinear' was removed in CUDA 13.0; use 'cudaDeviceGetAttribute' with 'cudaDevAttrMaxTexture1DLinearWidth'}}
  out[3] = p.singleToDoublePrecisionPerfRatio;
  // warning@-1 {{'cudaDeviceProp::singleToDoublePrecisionPerfRatio' was removed in CUDA 13.0; use 'cudaDeviceGetAttribute' with 'cudaDevAttrSingleToDoublePrecisionPerfRatio'}}
  // FIXED: out[0] = pDeviceOverlap;
  // FIXED: out[1] = pKernelExecTimeoutEnabled;
  // FIXED: out[2] = pMaxTexture1DLinear;
  // FIXED: out[3] = pSingleToDoublePrecisionPerfRatio;
}

// In a loop over the devices: the local goes after the call, in the loop's
// body, where the loop variable is the device.
int fastestClock() {
  int count = 0, best = 0;
  cudaGetDeviceCount(&count);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp props;
    cudaGetDeviceProperties(&props, d);
    // FIXED: {{^}}    int propsClockRate = 0;
    // FIXED-NEXT: {{^}}    cudaDeviceGetAttribute(&propsClockRate, cudaDevAttrClockRate, d);
    if (props.clockRate > best)
      // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
      best = props.clockRate;
    // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
    // FIXED: if (propsClockRate > best)
    // FIXED: best = propsClockRate;
  }
  return best;
}

// A name already taken: the local gets a number.
int taken(int propClockRate) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  // FIXED: {{^}}  int propClockRate2 = 0;
  return prop.clockRate + propClockRate;
  // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
  // FIXED: return propClockRate2 + propClockRate;
}

// Filled twice, for two devices: each read takes the values of the call
// before it.
int twice() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int first = prop.clockRate;
  // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
  // FIXED: cudaGetDeviceProperties(&prop, 0);
  // FIXED-NEXT: {{^}}  int propClockRate = 0;
  // FIXED-NEXT: {{^}}  cudaDeviceGetAttribute(&propClockRate, cudaDevAttrClockRate, 0);
  // FIXED: int first = propClockRate;
  cudaGetDeviceProperties(&prop, 1);
  return first + prop.clockRate;
  // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
  // FIXED: cudaGetDeviceProperties(&prop, 1);
  // FIXED-NEXT: {{^}}  int propClockRate2 = 0;
  // FIXED-NEXT: {{^}}  cudaDeviceGetAttribute(&propClockRate2, cudaDevAttrClockRate, 1);
  // FIXED: return first + propClockRate2;
}

// As NVIDIA's samples' helper_cuda.h chooses a device: two loops, each
// filling the properties of the device it looks at; and the properties
// read where the call succeeded, after being cleared (a change before the
// call does not matter: the call overwrites it).
void clearProps(cudaDeviceProp *p);
int bestDevice(int count) {
  cudaDeviceProp deviceProp;
  int best = 0;
  unsigned long long bestPerf = 0;
  for (int d = 0; d < count; ++d) {
    cudaGetDeviceProperties(&deviceProp, d);
    if (deviceProp.computeMode == cudaComputeModeProhibited)
      // warning@-1 {{'cudaDeviceProp::computeMode' was removed in CUDA 13.0}}
      continue;
    // FIXED: {{^}}    int devicePropComputeMode = 0;
    // FIXED-NEXT: {{^}}    cudaDeviceGetAttribute(&devicePropComputeMode, cudaDevAttrComputeMode, d);
  }
  for (int d = 0; d < count; ++d) {
    clearProps(&deviceProp);
    if (cudaSuccess == cudaGetDeviceProperties(&deviceProp, d)) {
      unsigned long long perf =
          (unsigned long long)deviceProp.multiProcessorCount * deviceProp.clockRate;
      // warning@-1 {{'cudaDeviceProp::clockRate' was removed in CUDA 13.0}}
      // FIXED: if (cudaSuccess == cudaGetDeviceProperties(&deviceProp, d)) {
      // FIXED-NEXT: {{^}}      int devicePropClockRate = 0;
      // FIXED-NEXT: {{^}}      cudaDeviceGetAttribute(&devicePropClockRate, cudaDevAttrClockRate, d);
      // FIXED: (unsigned long long)deviceProp.multiProcessorCount * devicePropClockRate;
      if (perf > bestPerf) {
        bestPerf = perf;
        best = d;
      }
    }
  }
  return best;
}

// The fields CUDA 13 kept are not reported.
int kept() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  return prop.major * 10 + prop.minor + prop.l2CacheSize;
}
