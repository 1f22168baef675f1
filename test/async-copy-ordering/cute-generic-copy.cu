// CuTe's generic copy(atom, src, dst) is an asynchronous copy only when the
// copy operation's name says so (SM80_CP_ASYNC*, SM90_TMA_*); tensors are
// followed to the __shared__ buffer they view, at a slot the analysis does
// not compare. A minimal CuTe of the test's own (the shapes of its API,
// not its text) keeps the test hermetic.
// RUN: %check_cuda_tidy --checks=cuda-async-copy-ordering %s %t -- \
// RUN:   %cuda_args --cuda-gpu-arch=sm_80 -std=c++17
#include <cuda_runtime.h>

namespace cute {
template <class T> struct SM80_CP_ASYNC_CACHEALWAYS {};
struct UniversalCopy {};
template <class Operation, class T> struct Copy_Atom {};
template <class T> struct smem_ptr { T *p; };
template <class T> struct gmem_ptr { const T *p; };
template <class T> __device__ smem_ptr<T> make_smem_ptr(T *p) { return {p}; }
template <class T> __device__ gmem_ptr<T> make_gmem_ptr(const T *p) {
  return {p};
}
template <class Ptr> struct Tensor {
  Ptr data;
  // A slice of the tensor, still a view of the same memory.
  __device__ Tensor operator()(int) const { return *this; }
};
template <class Ptr> __device__ Tensor<Ptr> make_tensor(Ptr p) { return {p}; }
template <class Atom, class Src, class Dst>
__device__ void copy(const Atom &atom, const Src &src, Dst &&dst);
__device__ void cp_async_fence();
template <int N> __device__ void cp_async_wait();
} // namespace cute

using namespace cute;
constexpr int Tile = 256;
using AsyncAtom = Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>;
using PlainAtom = Copy_Atom<UniversalCopy, float>;

// No cp_async_wait anywhere: the tile copied with the cp.async atom is read
// (through a plain shared-to-register copy) with nothing completing it.
__global__ void cuteNoWait(const float *in, float *out) {
  __shared__ float smem[Tile];
  float reg[1];
  Tensor gA = make_tensor(make_gmem_ptr(in + blockIdx.x * Tile));
  Tensor sA = make_tensor(make_smem_ptr(smem));
  Tensor rA = make_tensor(reg);
  copy(AsyncAtom{}, gA(threadIdx.x), sA(threadIdx.x));
  cp_async_fence();
  __syncthreads();
  copy(PlainAtom{}, sA(Tile - 1 - threadIdx.x), rA(0));
  // warning@-1:3 {{'smem' is read before the asynchronous copy into it completes}}
  // note@-5:3 {{the asynchronous copy into 'smem' is issued here}}
  // note@-6:3 {{no wait in this kernel completes copies of this kind}}
  // note@-5:3 {{'__syncthreads' orders the threads, not the copy}}
  // note@-8:3 {{wait for the copy with 'cute::cp_async_wait<0>()' in every issuing thread before the block barrier that precedes the access}}
  out[blockIdx.x * Tile + threadIdx.x] = reg[0];
}

// Silent: cp_async_wait<0> before the barrier completes the copy.
__global__ void cuteWaited(const float *in, float *out) {
  __shared__ float smem[Tile];
  float reg[1];
  Tensor gA = make_tensor(make_gmem_ptr(in + blockIdx.x * Tile));
  Tensor sA = make_tensor(make_smem_ptr(smem));
  Tensor rA = make_tensor(reg);
  copy(AsyncAtom{}, gA(threadIdx.x), sA(threadIdx.x));
  cp_async_fence();
  cp_async_wait<0>();
  __syncthreads();
  copy(PlainAtom{}, sA(Tile - 1 - threadIdx.x), rA(0));
  out[blockIdx.x * Tile + threadIdx.x] = reg[0];
}

// Silent: a copy with a plain (synchronous) atom is no asynchronous copy.
__global__ void cutePlainCopy(const float *in, float *out) {
  __shared__ float smem[Tile];
  float reg[1];
  Tensor gA = make_tensor(make_gmem_ptr(in + blockIdx.x * Tile));
  Tensor sA = make_tensor(make_smem_ptr(smem));
  Tensor rA = make_tensor(reg);
  copy(PlainAtom{}, gA(threadIdx.x), sA(threadIdx.x));
  __syncthreads();
  copy(PlainAtom{}, sA(Tile - 1 - threadIdx.x), rA(0));
  out[blockIdx.x * Tile + threadIdx.x] = reg[0];
}
