// A heavy translation unit for the overhead benchmark: thrust algorithms on
// device vectors, which pull in most of thrust and cub.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>
#include <thrust/functional.h>
#include <thrust/sequence.h>

struct Saxpy {
  float A;
  __host__ __device__ float operator()(float X, float Y) const {
    return A * X + Y;
  }
};

float pipeline(int N) {
  thrust::device_vector<float> X(N), Y(N);
  thrust::sequence(X.begin(), X.end());
  thrust::fill(Y.begin(), Y.end(), 1.0f);
  thrust::transform(X.begin(), X.end(), Y.begin(), Y.begin(), Saxpy{2.0f});
  thrust::sort(Y.begin(), Y.end(), thrust::greater<float>());
  thrust::inclusive_scan(Y.begin(), Y.end(), X.begin());
  return thrust::reduce(X.begin(), X.end(), 0.0f, thrust::plus<float>());
}
