// The radix-sort warp scan (see radix-scan.cu) written over a template
// element type, as the SDK lineage does: instantiated (levels 0 to 2 bound
// by the template argument; the chained assignment `s[idx] = t = t + ...`
// is not split, so no fix), and in a template the translation unit never
// instantiates (a header's form), where the element's type is a template
// parameter: its accesses are counted in elements, and the fix goes on a
// note since the type is not known.
// RUN: %check_cuda_tidy %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

#define WARP 32

// Levels 0 to maxlevel, a template argument; instantiated for 2 only, so
// the last two levels never run.
template <class T, int maxlevel>
__device__ T scanLevels(T val, volatile T *s) {
  int idx = 2 * threadIdx.x - (threadIdx.x & (WARP - 1));
  s[idx] = 0;
  idx += WARP;
  T t = s[idx] = val;
  if (0 <= maxlevel) { s[idx] = t = t + s[idx - 1]; }
  if (1 <= maxlevel) { s[idx] = t = t + s[idx - 2]; }
  if (2 <= maxlevel) { s[idx] = t = t + s[idx - 4]; }
  if (3 <= maxlevel) { s[idx] = t = t + s[idx - 8]; }
  if (4 <= maxlevel) { s[idx] = t = t + s[idx - 16]; }
  return s[idx] - val;
}

__device__ unsigned scanBlock(unsigned v) {
  extern __shared__ unsigned window[];
  unsigned r = scanLevels<unsigned, 2>(v, window);
  __syncthreads();
  return r;
}

__global__ void sortStep(unsigned *io) {
  io[threadIdx.x] = scanBlock(io[threadIdx.x]);
}

// A header's form: the scan and its kernel are templates of the element
// type that this translation unit never instantiates.
template <class T, int maxlevel>
__device__ T scanPattern(T val, volatile T *s) {
  int idx = 2 * threadIdx.x - (threadIdx.x & (WARP - 1));
  s[idx] = 0;
  idx += WARP;
  s[idx] = val;
  if (0 <= maxlevel) { s[idx] += s[idx - 1]; }
  if (1 <= maxlevel) { s[idx] += s[idx - 2]; }
  return s[idx] - val;
}

template <class T>
__device__ T scanPatternBlock(T v) {
  extern __shared__ unsigned raw[];
  return scanPattern<T, 4>(v, (volatile T *)raw);
}

template <class T>
__global__ void sortPattern(T *io) {
  io[threadIdx.x] = scanPatternBlock(io[threadIdx.x]);
}

// Correct counterparts: each step reads, synchronises, then writes.
template <class T, int maxlevel>
__device__ T scanLevelsSynced(T val, volatile T *s) {
  int idx = 2 * threadIdx.x - (threadIdx.x & (WARP - 1));
  s[idx] = 0;
  idx += WARP;
  s[idx] = val;
  __syncwarp();
  T t = val;
  if (0 <= maxlevel) { t = t + s[idx - 1]; __syncwarp(); s[idx] = t; __syncwarp(); }
  if (1 <= maxlevel) { t = t + s[idx - 2]; __syncwarp(); s[idx] = t; __syncwarp(); }
  if (2 <= maxlevel) { t = t + s[idx - 4]; __syncwarp(); s[idx] = t; __syncwarp(); }
  return t - val;
}

__global__ void sortStepSynced(unsigned *io) {
  extern __shared__ unsigned window[];
  io[threadIdx.x] = scanLevelsSynced<unsigned, 2>(io[threadIdx.x], window);
}

template <class T>
__global__ void sortPatternSynced(T *io) {
  extern __shared__ unsigned raw[];
  io[threadIdx.x] = scanLevelsSynced<T, 4>(io[threadIdx.x], (volatile T *)raw);
}

// Each lane reads back only its own element of the window: silent.
template <class T>
__device__ T ownElement(T val, volatile T *s) {
  int idx = 2 * threadIdx.x - (threadIdx.x & (WARP - 1)) + WARP;
  s[idx] = val;
  s[idx] += s[idx];
  return s[idx];
}

template <class T>
__global__ void ownPattern(T *io) {
  extern __shared__ unsigned raw[];
  io[threadIdx.x] = ownElement<T>(io[threadIdx.x], (volatile T *)raw);
}

void launch(unsigned *p) {
  sortStep<<<4, 256, 512 * sizeof(unsigned)>>>(p);
  sortStepSynced<<<4, 256, 512 * sizeof(unsigned)>>>(p);
}

// Instantiated: levels 0 to 2 (3 and 4 are left out by the argument);
// then the pattern's two levels, in elements of T.
// warning@21:41 {{lanes of a warp exchange data through shared memory 'window' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
// note@18:3 {{lane 31 writes the element here}}
// note@21:41 {{lane 0 reads it here, and no barrier orders the two}}
// note@31:16 {{shared memory 'window' is passed to 'scanLevels' here}}
// note@37:21 {{'scanBlock' is called here}}
// note@21:41 {{independent thread scheduling}}
// note@21:41 {{no automatic fix: the statement is not a plain assignment}}
// note@18:3 {{the same exchange again: lane 30 writes the element here}}
// note@22:41 {{and lane 0 reads it here with no barrier between}}
// note@18:3 {{the same exchange again: lane 28 writes the element here}}
// note@23:41 {{and lane 0 reads it here with no barrier between}}
// warning@48:34 {{lanes of a warp exchange data through shared memory 'raw' with no '__syncwarp' between the write and the read}} [cuda-implicit-warp-synchronization]
// note@45:3 {{lane 31 writes the element here}}
// note@48:34 {{lane 0 reads it here, and no barrier orders the two}}
// note@56:10 {{shared memory 'raw' is passed to 'scanPattern' here}}
// note@48:34 {{independent thread scheduling}}
// note@48:34 {{no automatic fix: the element's type depends on a template parameter that the translation unit does not instantiate}}
// note@45:3 {{the same exchange again: lane 30 writes the element here}}
// note@49:34 {{and lane 0 reads it here with no barrier between}}
