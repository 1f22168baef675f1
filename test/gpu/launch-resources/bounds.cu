// Launch bounds cuda-launch-resources flags per architecture, built by
// run.sh with nvcc one kernel at a time (-DCASE_<name>; ptxas's "threads per
// SM" and "maxntid" warnings do not name the kernel): ptxas must say "out of
// range" for exactly the kernels the check flags on that architecture
// (sm_90: manyBlocks, oddBlock; sm_120: wide, manyBlocks, twoBig, oddBlock)
// and for none of the others. ptxas says nothing about wide on sm_90 (an SM
// holds 2048 threads); the check flags it everywhere, as no block of 2048
// threads launches.
#if defined(CASE_wide)
__global__ void __launch_bounds__(2048) wide(float *x) { x[threadIdx.x] = 0; }
#elif defined(CASE_manyBlocks)
__global__ void __launch_bounds__(256, 40) manyBlocks(float *x) {
  x[threadIdx.x] = 0;
}
#elif defined(CASE_twoBig)
__global__ void __launch_bounds__(1024, 2) twoBig(float *x) {
  x[threadIdx.x] = 0;
}
#elif defined(CASE_oddBlock)
__global__ void __launch_bounds__(100, 20) oddBlock(float *x) {
  x[threadIdx.x] = 0;
}
#elif defined(CASE_fits)
// Within every limit.
__global__ void __launch_bounds__(96, 16) fits(float *x) { x[threadIdx.x] = 0; }
#elif defined(CASE_full)
__global__ void __launch_bounds__(1024) full(float *x) { x[threadIdx.x] = 0; }
#else
#error "compile with -DCASE_<kernel>"
#endif
