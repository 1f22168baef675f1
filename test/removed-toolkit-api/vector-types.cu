// The 4-wide 64-bit vector types CUDA 13 deprecated ("use double4_16a or
// double4_32a"): every spelling in the file, and their make_ functions,
// become the _16a form, which has the same size and 16-byte alignment, so
// arrays, structures and device memory keep their layout. The _32a form is
// offered on a note only, since it changes the layout. The fixed file
// builds with nvcc and is clean.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

struct Particle {
  double4 position;
  // warning@-1:3 {{'double4' is deprecated since CUDA 13.0; use 'double4_16a'}} [cuda-removed-toolkit-api]
  // note@-2 {{'double4_32a' (32-byte aligned) would change the layout of arrays and structures that hold it; 'double4_16a' keeps it}}
  // FIXED: {{^}}  double4_16a position;
  long4 cell;
  // warning@-1 {{'long4' is deprecated since CUDA 13.0; use 'long4_16a'}}
  // note@-2 {{'long4_32a' (32-byte aligned)}}
  // FIXED: {{^}}  long4_16a cell;
};
static_assert(sizeof(Particle) == 64, "two 32-byte members");

__global__ void advance(Particle *p, const double4 *velocity, double dt) {
  // warning@-1:44 {{'double4' is deprecated since CUDA 13.0}}
  // note@-2 {{'double4_32a'}}
  // FIXED: __global__ void advance(Particle *p, const double4_16a *velocity, double dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  double4 v = velocity[i];
  // warning@-1 {{'double4' is deprecated since CUDA 13.0}}
  // note@-2 {{'double4_32a'}}
  p[i].position = make_double4(p[i].position.x + v.x * dt,
  // warning@-1:19 {{'make_double4' is deprecated since CUDA 13.0; use 'make_double4_16a'}}
  // note@-2 {{'make_double4_32a' (32-byte aligned)}}
                               p[i].position.y + v.y * dt,
                               p[i].position.z + v.z * dt, 0.0);
  // FIXED: double4_16a v = velocity[i];
  // FIXED: p[i].position = make_double4_16a(p[i].position.x + v.x * dt,
}

// In a template argument, a cast and sizeof.
template <class T> __device__ T load(const void *p) {
  return *static_cast<const T *>(p);
}
__global__ void sum(const void *in, long long *out) {
  longlong4 q = load<longlong4>(in);
  // warning@-1:3 {{'longlong4' is deprecated since CUDA 13.0; use 'longlong4_16a'}}
  // note@-2 {{'longlong4_32a'}}
  // warning@-3:22 {{'longlong4' is deprecated since CUDA 13.0; use 'longlong4_16a'}}
  // note@-4 {{'longlong4_32a'}}
  // FIXED: longlong4_16a q = load<longlong4_16a>(in);
  out[threadIdx.x] = q.x + q.y + q.z + q.w + sizeof(longlong4);
  // warning@-1 {{'longlong4' is deprecated since CUDA 13.0}}
  // note@-2 {{'longlong4_32a'}}
  // FIXED: out[threadIdx.x] = q.x + q.y + q.z + q.w + sizeof(longlong4_16a);
}

// Spelled in the body of the project's macro: renamed once, in the
// definition, which every expansion shares.
#define WIDE_KEY ulonglong4
// warning@-1:18 {{'ulonglong4' is deprecated since CUDA 13.0; use 'ulonglong4_16a'}}
// note@-2:18 {{'ulonglong4_32a'}}
// FIXED: #define WIDE_KEY ulonglong4_16a
__device__ unsigned long long firstKey(WIDE_KEY k) { return k.x; }
__device__ WIDE_KEY sameKey(WIDE_KEY k) { return k; }

// The _16a and _32a forms and the 2-wide types are not deprecated.
__device__ double2 fine(double4_16a a, double4_32a b) {
  double2 r;
  r.x = a.x + b.x;
  r.y = a.y + b.y;
  return r;
}
