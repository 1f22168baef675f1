// A non-portable cluster size allowed once per process covers one device
// only: cudaFuncSetAttribute applies to the current device. No fix.
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability %s %t -- %cuda_args --cuda-gpu-arch=sm_90
// RUN: %check_cuda_tidy --checks=cuda-cluster-size-portability %s %t.host -- %cuda_args --cuda-gpu-arch=sm_90 --cuda-host-only
#include <cuda_runtime.h>

template <int Case> __global__ void reduce(const float *in, float *out) {
  out[blockIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x] + Case;
}

template <class K> void allowLargeClusters(K k) {
  cudaFuncSetAttribute(k, cudaFuncAttributeNonPortableClusterSizeAllowed, 1);
}
template <class K> void requireWidth(K k, int width) {
  cudaFuncSetAttribute(k, cudaFuncAttributeRequiredClusterWidth, width);
}

void allowedOnce(const float *in, float *out) {
  static bool ready = false;
  if (!ready) {
    allowLargeClusters(reduce<3>);
    ready = true;
  }
  requireWidth(reduce<3>, 16);
  reduce<3><<<128, 128>>>(in, out);
  // warning@-1:3 {{'reduce<3>' is launched with a cluster of 16 blocks but allows non-portable cluster sizes once per process, for one device}}
  // note@-3:3 {{the cluster shape (16, 1, 1) is set here}}
  // note@-7:5 {{non-portable cluster sizes are allowed here}}
  // note@-9:3 {{the flag 'ready' makes the call run only once}}
  // note@-5:3 {{applies to the current device only}}
}

// Silent: allowed once per device, through a per-device flag array.
void allowedPerDevice(const float *in, float *out, int device) {
  static bool ready[64] = {};
  if (!ready[device]) {
    allowLargeClusters(reduce<4>);
    ready[device] = true;
  }
  requireWidth(reduce<4>, 16);
  reduce<4><<<128, 128>>>(in, out);
}
