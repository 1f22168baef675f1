// Kernels with shared-memory races between warps, in the shapes of real
// code, and their correct counterparts. run.sh makes the fixed form with
// cuda-shared-memory-race --fix; never edit the fixed copy by hand. The
// host functions launch each kernel with the shape the harness uses, so the
// check sees the shapes too. All data are ints: results compare exactly.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define TILE 16

// Tiled matrix multiply without the barrier after the reads.
__global__ void gemmRacy(const int *A, const int *B, int *C, int n) {
  __shared__ int As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  int sum = 0;
  for (int k = 0; k < n / TILE; ++k) {
    As[ty][tx] = A[row * n + k * TILE + tx];
    Bs[ty][tx] = B[(k * TILE + ty) * n + col];
    __syncthreads();
    for (int i = 0; i < TILE; ++i)
      sum += As[ty][i] * Bs[i][tx];
  }
  C[row * n + col] = sum;
}

// Tree reduction with the barrier hoisted out of the loop.
__global__ void reduceRacy(const int *in, int *out) {
  __shared__ int sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void reduceSync(const int *in, int *out) {
  __shared__ int sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

// Thread 0 loads the block's factor that every thread reads.
__global__ void broadcastRacy(const int *scale, const int *in, int *out) {
  __shared__ int s;
  if (threadIdx.x == 0)
    s = scale[blockIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] =
      in[blockIdx.x * blockDim.x + threadIdx.x] * s;
}

// A 3-point stencil over a tile with halo.
__global__ void stencilRacy(const int *in, int *out, int n) {
  __shared__ int tile[256 + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x + 1;
  tile[t] = in[i];
  if (threadIdx.x == 0)
    tile[0] = i > 0 ? in[i - 1] : 0;
  if (threadIdx.x == blockDim.x - 1)
    tile[t + 1] = i + 1 < n ? in[i + 1] : 0;
  out[i] = tile[t - 1] + tile[t] + tile[t + 1];
}

__global__ void stencilSync(const int *in, int *out, int n) {
  __shared__ int tile[256 + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x + 1;
  tile[t] = in[i];
  if (threadIdx.x == 0)
    tile[0] = i > 0 ? in[i - 1] : 0;
  if (threadIdx.x == blockDim.x - 1)
    tile[t + 1] = i + 1 < n ? in[i + 1] : 0;
  __syncthreads();
  out[i] = tile[t - 1] + tile[t] + tile[t + 1];
}

// Transpose through a 32 x 33 tile, blocks of 32 x 8 threads.
__global__ void transposeRacy(const int *in, int *out, int w) {
  __shared__ int tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}

// A histogram whose bins are zeroed and counted into with no barrier.
__global__ void histogramRacy(const unsigned char *data, int n,
                              unsigned *bins) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
    atomicAdd(&h[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

__global__ void histogramSync(const unsigned char *data, int n,
                              unsigned *bins) {
  __shared__ unsigned h[256];
  h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256)
    atomicAdd(&h[data[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

// One buffer refilled each chunk, read in reverse: no barrier after the
// reads.
__global__ void chunksRacy(const int *in, int *out, int chunks) {
  __shared__ int buf[256];
  int acc = 0;
  for (int c = 0; c < chunks; ++c) {
    buf[threadIdx.x] = in[(blockIdx.x * chunks + c) * 256 + threadIdx.x];
    __syncthreads();
    acc += buf[255 - threadIdx.x] * (c + 1);
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// Double buffering with one barrier per chunk: correct.
__global__ void chunksDoubleBuffered(const int *in, int *out, int chunks) {
  __shared__ int buf[2][256];
  buf[0][threadIdx.x] = in[blockIdx.x * chunks * 256 + threadIdx.x];
  __syncthreads();
  int acc = 0;
  for (int c = 0; c < chunks; ++c) {
    int cur = c % 2;
    if (c + 1 < chunks)
      buf[1 - cur][threadIdx.x] =
          in[(blockIdx.x * chunks + c + 1) * 256 + threadIdx.x];
    acc += buf[cur][255 - threadIdx.x] * (c + 1);
    __syncthreads();
  }
  out[blockIdx.x * 256 + threadIdx.x] = acc;
}

// Partners 32 apart (another warp), no launch shape known to the check.
__global__ void butterflyRacy(int *data) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = data[blockIdx.x * blockDim.x + t];
  int other = s[t ^ 32];
  data[blockIdx.x * blockDim.x + t] = s[t] * 3 + other;
}

// Helpers that store and read a neighbour's value.
__device__ void store(int *s, int v) { s[threadIdx.x] = v; }
__device__ int neighbour(const int *s) {
  return s[(threadIdx.x + 32) % blockDim.x];
}

__global__ void helpersRacy(const int *in, int *out) {
  __shared__ int s[256];
  store(s, in[blockIdx.x * blockDim.x + threadIdx.x]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = neighbour(s);
}

__global__ void helpersGroupSync(const int *in, int *out) {
  __shared__ int s[256];
  cg::thread_block block = cg::this_thread_block();
  store(s, in[blockIdx.x * blockDim.x + threadIdx.x]);
  block.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = neighbour(s);
}

// A block sum in the shape of LLM kernels' blockReduce: each warp's total
// through shared memory, a barrier, every warp reads the totals back; the
// barrier at the end only on request.
__device__ int warpSumInt(int v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, o);
  return v;
}
__device__ int blockSum(int *scratch, int v, bool finalSync = false) {
  v = warpSumInt(v);
  if (threadIdx.x % 32 == 0)
    scratch[threadIdx.x / 32] = v;
  __syncthreads();
  v = threadIdx.x % 32 < blockDim.x / 32 ? scratch[threadIdx.x % 32] : 0;
  v = warpSumInt(v);
  if (finalSync)
    __syncthreads();
  return v;
}

// Two sums through one scratch with no barrier between the calls.
__global__ void sumTwiceRacy(const int *in, int *out) {
  __shared__ int scratch[32];
  const int x = in[blockIdx.x * 256 + threadIdx.x];
  const int total = blockSum(scratch, x);
  const int squares = blockSum(scratch, x * x);
  out[blockIdx.x * 256 + threadIdx.x] = squares - total;
}

__global__ void sumTwiceSync(const int *in, int *out) {
  __shared__ int scratch[32];
  const int x = in[blockIdx.x * 256 + threadIdx.x];
  const int total = blockSum(scratch, x);
  __syncthreads();
  const int squares = blockSum(scratch, x * x);
  out[blockIdx.x * 256 + threadIdx.x] = squares - total;
}

// One sum per row, four rows per block, in a loop.
__global__ void rowSumsRacy(const int *in, int *out) {
  __shared__ int scratch[32];
  for (int r = 0; r < 4; ++r) {
    const int i = (blockIdx.x * 4 + r) * 256 + threadIdx.x;
    const int total = blockSum(scratch, in[i]);
    out[i] = in[i] * 256 - total;
  }
}

__global__ void rowSumsFinalSync(const int *in, int *out) {
  __shared__ int scratch[32];
  for (int r = 0; r < 4; ++r) {
    const int i = (blockIdx.x * 4 + r) * 256 + threadIdx.x;
    const int total = blockSum(scratch, in[i], true);
    out[i] = in[i] * 256 - total;
  }
}

// Dot products of a row with ncols columns, one reduction per column; the
// barrier closing a column under a condition the loop's test implies.
__global__ void columnsGuarded(const int *x, const int *y, int *dst, int n,
                               int ncols) {
  __shared__ int partial[32];
  for (int j = 0; j < ncols; ++j) {
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      s += x[blockIdx.x * n + i] * y[j * n + i];
    s = warpSumInt(s);
    if (threadIdx.x % 32 == 0)
      partial[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
      s = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0;
      s = warpSumInt(s);
      if (threadIdx.x == 0)
        dst[blockIdx.x * ncols + j] = s;
    }
    if (j < ncols)
      __syncthreads();
  }
}

// The same closing barrier only for the first nvalid columns.
__global__ void columnsSomeRacy(const int *x, const int *y, int *dst, int n,
                                int ncols, int nvalid) {
  __shared__ int partial[32];
  for (int j = 0; j < ncols; ++j) {
    int s = 0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      s += x[blockIdx.x * n + i] * y[j * n + i];
    s = warpSumInt(s);
    if (threadIdx.x % 32 == 0)
      partial[threadIdx.x / 32] = s;
    __syncthreads();
    if (threadIdx.x < 32) {
      s = threadIdx.x < blockDim.x / 32 ? partial[threadIdx.x] : 0;
      s = warpSumInt(s);
      if (threadIdx.x == 0)
        dst[blockIdx.x * ncols + j] = s;
    }
    if (j < nvalid)
      __syncthreads();
  }
}

// A thread_group made from a 32-thread tile: its sync waits for one warp.
__global__ void groupTileRacy(const int *in, int *out) {
  __shared__ int s[256];
  cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 32);
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  tile.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 32) % 256];
}

// A thread_group made from the block: its sync is the block's.
__global__ void groupBlockSync(const int *in, int *out) {
  __shared__ int s[256];
  cg::thread_group g = cg::this_thread_block();
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  g.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 32) % 256];
}

// The launches, with the harness's shapes (n a multiple of 256).
void launchGemm(const int *A, const int *B, int *C, int n, bool sync) {
  (void)sync;
  gemmRacy<<<dim3(n / TILE, n / TILE), dim3(TILE, TILE)>>>(A, B, C, n);
}
void launchReduce(const int *in, int *out, int blocks, bool sync) {
  if (sync)
    reduceSync<<<blocks, 256>>>(in, out);
  else
    reduceRacy<<<blocks, 256>>>(in, out);
}
void launchBroadcast(const int *scale, const int *in, int *out, int blocks) {
  broadcastRacy<<<blocks, 256>>>(scale, in, out);
}
void launchStencil(const int *in, int *out, int n, bool sync) {
  if (sync)
    stencilSync<<<n / 256, 256>>>(in, out, n);
  else
    stencilRacy<<<n / 256, 256>>>(in, out, n);
}
void launchTranspose(const int *in, int *out, int w) {
  transposeRacy<<<dim3(w / 32, w / 32), dim3(32, 8)>>>(in, out, w);
}
void launchHistogram(const unsigned char *data, int n, unsigned *bins,
                     int blocks, bool sync) {
  if (sync)
    histogramSync<<<blocks, 256>>>(data, n, bins);
  else
    histogramRacy<<<blocks, 256>>>(data, n, bins);
}
void launchChunks(const int *in, int *out, int blocks, int chunks, bool db) {
  if (db)
    chunksDoubleBuffered<<<blocks, 256>>>(in, out, chunks);
  else
    chunksRacy<<<blocks, 256>>>(in, out, chunks);
}
void launchHelpers(const int *in, int *out, int blocks, bool sync) {
  if (sync)
    helpersGroupSync<<<blocks, 256>>>(in, out);
  else
    helpersRacy<<<blocks, 256>>>(in, out);
}
void launchSumTwice(const int *in, int *out, int blocks, bool sync) {
  if (sync)
    sumTwiceSync<<<blocks, 256>>>(in, out);
  else
    sumTwiceRacy<<<blocks, 256>>>(in, out);
}
void launchRowSums(const int *in, int *out, int blocks, bool sync) {
  if (sync)
    rowSumsFinalSync<<<blocks, 256>>>(in, out);
  else
    rowSumsRacy<<<blocks, 256>>>(in, out);
}
void launchColumns(const int *x, const int *y, int *dst, int blocks, int n,
                   int ncols, bool guarded) {
  if (guarded)
    columnsGuarded<<<blocks, 256>>>(x, y, dst, n, ncols);
  else
    columnsSomeRacy<<<blocks, 256>>>(x, y, dst, n, ncols, 1);
}
void launchGroups(const int *in, int *out, int blocks, bool block) {
  if (block)
    groupBlockSync<<<blocks, 256>>>(in, out);
  else
    groupTileRacy<<<blocks, 256>>>(in, out);
}
