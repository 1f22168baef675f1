// A heavy translation unit for the overhead benchmark: cub's block- and
// warp-level primitives instantiated in kernels, plus a device-wide sort.
#include <cub/cub.cuh>
#include <cuda/functional>

template <int BlockThreads, int ItemsPerThread>
__global__ void blockSumScan(const int *In, int *Sums, int *Scanned) {
  using Load = cub::BlockLoad<int, BlockThreads, ItemsPerThread,
                              cub::BLOCK_LOAD_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, BlockThreads>;
  using Scan = cub::BlockScan<int, BlockThreads>;
  __shared__ union {
    typename Load::TempStorage Load;
    typename Reduce::TempStorage Reduce;
    typename Scan::TempStorage Scan;
  } Temp;
  int Items[ItemsPerThread];
  int Offset = blockIdx.x * BlockThreads * ItemsPerThread;
  Load(Temp.Load).Load(In + Offset, Items);
  __syncthreads();
  int Sum = Reduce(Temp.Reduce).Sum(Items);
  __syncthreads();
  Scan(Temp.Scan).ExclusiveSum(Items, Items);
  if (threadIdx.x == 0)
    Sums[blockIdx.x] = Sum;
  for (int I = 0; I < ItemsPerThread; ++I)
    Scanned[Offset + threadIdx.x * ItemsPerThread + I] = Items[I];
}

__global__ void warpMax(const float *In, float *Out) {
  using WarpReduce = cub::WarpReduce<float>;
  __shared__ typename WarpReduce::TempStorage Temp[4];
  int Warp = threadIdx.x / 32;
  float V = In[blockIdx.x * blockDim.x + threadIdx.x];
  float M = WarpReduce(Temp[Warp]).Reduce(V, ::cuda::maximum<>{});
  if (threadIdx.x % 32 == 0)
    Out[blockIdx.x * 4 + Warp] = M;
}

void run(const int *In, int *Sums, int *Scanned, const float *F, float *G,
         unsigned *Keys, unsigned *SortedKeys, int N) {
  blockSumScan<128, 4><<<N / 512, 128>>>(In, Sums, Scanned);
  blockSumScan<256, 2><<<N / 512, 256>>>(In, Sums, Scanned);
  warpMax<<<N / 128, 128>>>(F, G);
  void *TempStorage = nullptr;
  size_t TempBytes = 0;
  cub::DeviceRadixSort::SortKeys(TempStorage, TempBytes, Keys, SortedKeys, N);
}
