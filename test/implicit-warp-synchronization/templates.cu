// Template kernels as headers hold them: patterns the translation unit never
// instantiates are analysed as written (a template parameter is the same in
// every thread; an expression whose value depends on one is not evaluated),
// and instantiated templates through their instantiations, each hazard
// reported once at its spelling. A fix is offered when it is the same text
// for the pattern and every instantiation the translation unit has (the
// statement runs on the same lanes in each instantiation that runs it), and
// it edits the template's spelling once; the temporary of a split keeps the
// type as the pattern spells it. (templates-no-fix.cu: where it is not.)
// RUN: %check_cuda_tidy --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

// Never instantiated here: the warp tail of a block-size templated
// reduction. `BlockSize >= 64` is the same for the whole block.
template <int BlockSize>
__device__ void warpTail(volatile float *s, int tid) {
  if (BlockSize >= 64) s[tid] += s[tid + 32];
  if (BlockSize >= 32) s[tid] += s[tid + 16];
  // warning@-1:34 {{lanes of a warp exchange data through shared memory 's' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
  // note@-3:24 {{lane 16 writes the element here}}
  // note@-3:34 {{lane 0 reads it here, and no barrier orders the two}}
  // note@+15:17 {{shared memory 's' is passed to 'warpTail' here}}
  // note@-5:34 {{independent thread scheduling}}
  //
  if (BlockSize >= 16) s[tid] += s[tid + 8];
  // note@-1:34 {{and lane 0 reads it here with no barrier between}}
  // note@-10:24 {{the same exchange again: lane 8 writes the element here}}
  //
}

template <int BlockSize>
__global__ void reduceT(const float *in, float *out) {
  __shared__ float s[BlockSize];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * BlockSize + tid];
  __syncthreads();
  if (tid < 32) warpTail<BlockSize>(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

// The same tail with a __syncwarp between each read and write: silent.
template <int BlockSize>
__device__ void warpTailSynced(volatile float *s, int tid) {
  float v = s[tid];
  for (int o = 32; o > 0; o /= 2) {
    if (BlockSize >= 2 * o)
      v += s[tid + o];
    __syncwarp();
    s[tid] = v;
    __syncwarp();
  }
}

template <int BlockSize>
__global__ void reduceTSynced(const float *in, float *out) {
  __shared__ float s[BlockSize];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * BlockSize + tid];
  __syncthreads();
  if (tid < 32) warpTailSynced<BlockSize>(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

// An offset that depends on the template parameter cannot be evaluated in
// the pattern: silent until instantiated (a known false negative).
template <int Width>
__global__ void dependentOffset(float *io) {
  __shared__ float s[64];
  int lane = threadIdx.x & 31;
  s[lane] = io[lane];
  s[lane] += s[lane ^ (Width / 2)];
  io[lane] = s[lane];
}





















// The SDK's way to get typed dynamic shared memory: a struct whose
// conversion operator returns an extern __shared__ array.
template <class T> struct SharedMemory {
  __device__ operator T *() {
    extern __shared__ int smemWords[];
    return (T *)smemWords;
  }
};

template <class T, unsigned BlockSize>
__global__ void reduceWarpTail(const T *in, T *out) {
  T *sdata = SharedMemory<T>();
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BlockSize + tid];
  __syncthreads();
  for (unsigned s = BlockSize / 2; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile T *v = sdata;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16];
    // warning@-1:15 {{lanes of a warp exchange data through shared memory 'smemWords' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
    // note@-3:5 {{lane 16 writes the element here}}
    // note@-3:15 {{lane 0 reads it here, and no barrier orders the two}}
    // note@-4:15 {{independent thread scheduling}}
    //
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}
template __global__ void reduceWarpTail<int, 256>(const int *, int *);
// A second instantiation: still one report per spelling.
template __global__ void reduceWarpTail<float, 128>(const float *, float *);

// The same tail with shuffles after one exchange ordered by __syncwarp.
template <class T, unsigned BlockSize>
__global__ void reduceWarpTailSynced(const T *in, T *out) {
  T *sdata = SharedMemory<T>();
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * BlockSize + tid];
  __syncthreads();
  if (tid < 32) {
    T sum = sdata[tid] + sdata[tid + 32];
    for (int o = 16; o > 0; o /= 2)
      sum += __shfl_down_sync(0xffffffff, sum, o);
    if (tid == 0)
      out[blockIdx.x] = sum;
  }
}
template __global__ void reduceWarpTailSynced<int, 64>(const int *, int *);


// A radix sort's split step in a header, never instantiated here: each warp
// ranks its keys by one digit bit with a warp-synchronous scan of flags.
template <typename Key, int Bit>
__device__ unsigned warpSplitRank(volatile unsigned *flags, Key key) {
  unsigned lane = threadIdx.x & 31;
  unsigned set = (key >> Bit) & 1;
  flags[threadIdx.x] = set;
  for (unsigned d = 1; d < 32; d <<= 1) {
    unsigned v = lane >= d ? flags[threadIdx.x - d] : 0;
    // warning@-1:30 {{lanes of a warp exchange data through shared memory 'flags' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
    // note@-4:3 {{lane 0 writes the element here}}
    // note@-3:30 {{lane 1 reads it here, and no barrier orders the two}}
    // note@+12:13 {{shared memory 'flags' is passed to 'warpSplitRank' here}}
    // note@-5:30 {{independent thread scheduling}}
    //
    flags[threadIdx.x] += v;
  }
  return flags[threadIdx.x] - set;
}

template <typename Key, int Bit>
__global__ void splitByBit(const Key *in, unsigned *rank) {
  __shared__ unsigned flags[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  rank[i] = warpSplitRank<Key, Bit>(flags, in[i]);
}

// The same split with __syncwarp around each step's write: silent.
template <typename Key, int Bit>
__device__ unsigned warpSplitRankSynced(unsigned *flags, Key key) {
  unsigned lane = threadIdx.x & 31;
  unsigned set = (key >> Bit) & 1;
  flags[threadIdx.x] = set;
  __syncwarp();
  for (unsigned d = 1; d < 32; d <<= 1) {
    unsigned v = lane >= d ? flags[threadIdx.x - d] : 0;
    __syncwarp();
    flags[threadIdx.x] += v;
    __syncwarp();
  }
  return flags[threadIdx.x] - set;
}

template <typename Key, int Bit>
__global__ void splitByBitSynced(const Key *in, unsigned *rank) {
  __shared__ unsigned flags[256];
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  rank[i] = warpSplitRankSynced<Key, Bit>(flags, in[i]);
}

// FIXED: {{^}}  if (BlockSize >= 64) { s[tid] += s[tid + 32]; __syncwarp(0xffffffff); }{{$}}
// FIXED-NEXT: {{^}}  if (BlockSize >= 32) { float v = s[tid] + s[tid + 16]; __syncwarp(0xffffffff); s[tid] = v; __syncwarp(0xffffffff); }{{$}}
// FIXED: {{^}}  if (BlockSize >= 16) { float v = s[tid] + s[tid + 8]; __syncwarp(0xffffffff); s[tid] = v; __syncwarp(0xffffffff); }{{$}}
// FIXED: {{^}}    v[tid] += v[tid + 32];{{$}}
// FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}    T v2 = v[tid] + v[tid + 16];{{$}}
// FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}    v[tid] = v2;{{$}}
// FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
// FIXED: {{^}}  flags[threadIdx.x] = set;{{$}}
// FIXED-NEXT: {{^}}  __syncwarp(0xffffffff);{{$}}
// FIXED-NEXT: {{^}}  for (unsigned d = 1; d < 32; d <<= 1) {{{$}}
// FIXED-NEXT: {{^}}    unsigned v = lane >= d ? flags[threadIdx.x - d] : 0;{{$}}
// FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
// FIXED: {{^}}    flags[threadIdx.x] += v;{{$}}
// FIXED-NEXT: {{^}}    __syncwarp(0xffffffff);{{$}}
