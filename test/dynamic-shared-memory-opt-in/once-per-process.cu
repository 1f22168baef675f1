// cudaFuncSetAttribute applies to the current device only. An opt-in
// guarded to run once per process leaves every other GPU without it; one
// that runs per device, or every time, is fine.
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %s %t -- %cuda_args --cuda-gpu-arch=sm_90 -std=c++17
// RUN: %check_cuda_tidy --checks=cuda-dynamic-shared-memory-opt-in %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only -std=c++17
#include <cuda_runtime.h>
#include <stdlib.h>
#include <mutex>

template <int Case> __global__ void gemm(float *o) {
  extern __shared__ float tile[];
  tile[threadIdx.x] = Case;
  o[threadIdx.x] = tile[threadIdx.x];
}

// A static flag checked and set around the opt-in.
void flagged(float *o) {
  static bool done = false;
  if (!done) {
    cudaFuncSetAttribute(gemm<1>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         96 * 1024);
    done = true;
  }
  gemm<1><<<1, 256, 96 * 1024>>>(o);
  // warning@-1:3 {{'gemm<1>' is launched with 98304 bytes of dynamic shared memory but its opt-in runs once per process, for one device}} [cuda-dynamic-shared-memory-opt-in]
  // note@-6:5 {{the opt-in is set here}}
  // note@-8:3 {{the flag 'done' makes the opt-in run only once}}
  // note@-4:3 {{'cudaFuncSetAttribute' applies to the current device only}}
}

// The same flag as an early return, at file scope.
static bool gInitialised = false;
static void initKernels() {
  if (gInitialised)
    return;
  gInitialised = true;
  cudaFuncSetAttribute(gemm<2>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       64 * 1024);
}
void earlyReturn(float *o) {
  initKernels();
  gemm<2><<<1, 256, 64 * 1024>>>(o);
  // warning@-1:3 {{'gemm<2>' is launched with 65536 bytes of dynamic shared memory but its opt-in runs once per process}}
  // note@-7:3 {{the opt-in is set here}}
  // note@-11:3 {{the flag 'gInitialised' makes the opt-in run only once}}
  // note@-4:3 {{applies to the current device only}}
}

// std::call_once.
static std::once_flag gOnce;
void callOnce(float *o) {
  std::call_once(gOnce, [] {
    cudaFuncSetAttribute(gemm<3>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         80 * 1024);
  });
  gemm<3><<<1, 256, 80 * 1024>>>(o);
  // warning@-1:3 {{'gemm<3>' is launched with 81920 bytes of dynamic shared memory but its opt-in runs once per process}}
  // note@-5:5 {{the opt-in is set here}}
  // note@-7:3 {{'std::call_once' makes the opt-in run only once}}
  // note@-4:3 {{applies to the current device only}}
}

// A function-local static initialised by the opt-in, directly or through a
// lambda called there.
void staticInit(float *o) {
  static bool ok = (cudaFuncSetAttribute(gemm<4>,
                                         cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         72 * 1024),
                    true);
  (void)ok;
  gemm<4><<<1, 256, 72 * 1024>>>(o);
  // warning@-1:3 {{'gemm<4>' is launched with 73728 bytes of dynamic shared memory but its opt-in runs once per process}}
  // note@-7:21 {{the opt-in is set here}}
  // note@-8:15 {{the initialiser of 'static ok' makes the opt-in run only once}}
  // note@-4:3 {{applies to the current device only}}
}
void staticLambda(float *o) {
  static const int ready = [] {
    cudaFuncSetAttribute(gemm<5>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         72 * 1024);
    return 0;
  }();
  (void)ready;
  gemm<5><<<1, 256, 72 * 1024>>>(o);
  // warning@-1:3 {{'gemm<5>' is launched with 73728 bytes of dynamic shared memory but its opt-in runs once per process}}
  // note@-7:5 {{the opt-in is set here}}
  // note@-9:20 {{the initialiser of 'static ready' makes the opt-in run only once}}
  // note@-4:3 {{applies to the current device only}}
}

// A wrapper called under the guard: the note names the wrapper call.
template <class K> void allowSmem(K k, int bytes) {
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
}
void guardedWrapper(float *o) {
  static bool once = false;
  if (!once) {
    allowSmem(gemm<6>, 100 * 1024);
    once = true;
  }
  gemm<6><<<1, 256, 100 * 1024>>>(o);
  // warning@-1:3 {{'gemm<6>' is launched with 102400 bytes of dynamic shared memory but its opt-in runs once per process}}
  // note@-5:5 {{the opt-in is set here, through 'allowSmem'}}
  // note@-7:3 {{the flag 'once' makes the opt-in run only once}}
  // note@-4:3 {{applies to the current device only}}
}

// Silent: a flag per device.
void perDevice(float *o, int device) {
  static bool done[64] = {};
  if (!done[device]) {
    cudaFuncSetAttribute(gemm<7>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         96 * 1024);
    done[device] = true;
  }
  gemm<7><<<1, 256, 96 * 1024>>>(o);
}

// Silent: unguarded, the opt-in runs before every launch.
void everyTime(float *o) {
  cudaFuncSetAttribute(gemm<8>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       96 * 1024);
  gemm<8><<<1, 256, 96 * 1024>>>(o);
}

// Silent: thread_local state is taken as per device (one host thread per
// GPU). Known false negative when one thread switches devices.
void perThread(float *o) {
  thread_local bool done = false;
  if (!done) {
    cudaFuncSetAttribute(gemm<9>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         96 * 1024);
    done = true;
  }
  gemm<9><<<1, 256, 96 * 1024>>>(o);
}

// Silent: a guarded opt-in and an unguarded one; the unguarded one covers
// every device.
void bothKinds(float *o) {
  static bool warmed = false;
  if (!warmed) {
    cudaFuncSetAttribute(gemm<10>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                         96 * 1024);
    warmed = true;
  }
  cudaFuncSetAttribute(gemm<10>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       96 * 1024);
  gemm<10><<<1, 256, 96 * 1024>>>(o);
}
