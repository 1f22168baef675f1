__global__ void broadcastC(int *out) {
  out[threadIdx.x] = __shfl(out[threadIdx.x], 0);
}
