// Benchmark input: a Monte Carlo option pricing engine in the style of a
// production host library (many host functions, configuration structs,
// launch helpers and wrappers, a few kernels), written for cuda-tidy's
// bench/run_bench.py. It includes curand's device API, one of the heaviest
// toolkit headers, and exercises the launch model: kernels held in
// variables, configurations built by helpers, opt-ins through wrappers.
#include <cuda_runtime.h>
#include <curand_kernel.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace mc {

enum class Payoff { Call, Put, AsianCall, AsianPut, Digital };

struct Option {
  Payoff Kind = Payoff::Call;
  float Spot = 100.f, Strike = 100.f, Rate = 0.05f, Vol = 0.2f;
  float Maturity = 1.f;
  int Steps = 64;
};

struct EngineConfig {
  unsigned PathsPerThread = 16;
  unsigned BlockSize = 256;
  unsigned Blocks = 264;
  unsigned long long Seed = 1234;
  bool UseSharedReduction = true;
};

struct Result {
  double Price = 0, StdError = 0;
};

__device__ float payoff(Payoff kind, float s, float avg, float k) {
  switch (kind) {
  case Payoff::Call:
    return fmaxf(s - k, 0.f);
  case Payoff::Put:
    return fmaxf(k - s, 0.f);
  case Payoff::AsianCall:
    return fmaxf(avg - k, 0.f);
  case Payoff::AsianPut:
    return fmaxf(k - avg, 0.f);
  case Payoff::Digital:
    return s > k ? 1.f : 0.f;
  }
  return 0.f;
}

__global__ void setupStates(curandStatePhilox4_32_10_t *states,
                            unsigned long long seed) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

// Each block reduces its paths' payoffs in dynamic shared memory (two
// arrays of BlockSize doubles: sum and sum of squares).
__global__ void simulate(curandStatePhilox4_32_10_t *states, Option opt,
                         unsigned pathsPerThread, double *blockSums,
                         double *blockSquares) {
  extern __shared__ double partial[];
  double *sums = partial;
  double *squares = partial + blockDim.x;
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  curandStatePhilox4_32_10_t state = states[id];
  float dt = opt.Maturity / opt.Steps;
  float drift = (opt.Rate - 0.5f * opt.Vol * opt.Vol) * dt;
  float diffusion = opt.Vol * sqrtf(dt);
  double sum = 0, square = 0;
  for (unsigned p = 0; p < pathsPerThread; ++p) {
    float s = opt.Spot, avg = 0.f;
    for (int t = 0; t < opt.Steps; ++t) {
      s *= expf(drift + diffusion * curand_normal(&state));
      avg += s;
    }
    avg /= opt.Steps;
    float v = payoff(opt.Kind, s, avg, opt.Strike);
    sum += v;
    square += double(v) * v;
  }
  states[id] = state;
  sums[threadIdx.x] = sum;
  squares[threadIdx.x] = square;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) {
      sums[threadIdx.x] += sums[threadIdx.x + k];
      squares[threadIdx.x] += squares[threadIdx.x + k];
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    blockSums[blockIdx.x] = sums[0];
    blockSquares[blockIdx.x] = squares[0];
  }
}

// Greeks by bumping: many small host helpers around the same kernels.
static Option bumped(Option o, float dSpot, float dVol, float dRate) {
  o.Spot += dSpot;
  o.Vol += dVol;
  o.Rate += dRate;
  return o;
}

static cudaLaunchConfig_t simulateConfig(const EngineConfig &cfg,
                                         cudaStream_t stream) {
  cudaLaunchConfig_t launch = {};
  launch.gridDim = dim3(cfg.Blocks);
  launch.blockDim = dim3(cfg.BlockSize);
  launch.dynamicSmemBytes = 2 * sizeof(double) * cfg.BlockSize;
  launch.stream = stream;
  return launch;
}

static void fillSetupConfig(cudaLaunchConfig_t *launch, unsigned blocks,
                            unsigned threads) {
  launch->gridDim = dim3(blocks);
  launch->blockDim = dim3(threads);
  launch->dynamicSmemBytes = 0;
  launch->stream = nullptr;
  launch->attrs = nullptr;
  launch->numAttrs = 0;
}

template <class K> static cudaError_t allowSmem(K kernel, int bytes) {
  return cudaFuncSetAttribute(kernel,
                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                              bytes);
}

static bool check(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return true;
  std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
  return false;
}

class DeviceBuffer {
public:
  explicit DeviceBuffer(size_t bytes) {
    if (!check(cudaMalloc(&Ptr, bytes), "cudaMalloc"))
      Ptr = nullptr;
  }
  ~DeviceBuffer() { cudaFree(Ptr); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  template <class T> T *as() const { return static_cast<T *>(Ptr); }

private:
  void *Ptr = nullptr;
};

class Engine {
public:
  explicit Engine(EngineConfig cfg) : Cfg(cfg) {
    unsigned threads = Cfg.Blocks * Cfg.BlockSize;
    States = std::make_unique<DeviceBuffer>(
        threads * sizeof(curandStatePhilox4_32_10_t));
    Sums = std::make_unique<DeviceBuffer>(Cfg.Blocks * sizeof(double));
    Squares = std::make_unique<DeviceBuffer>(Cfg.Blocks * sizeof(double));
    cudaLaunchConfig_t setup;
    fillSetupConfig(&setup, Cfg.Blocks, Cfg.BlockSize);
    check(cudaLaunchKernelEx(&setup, setupStates,
                             States->as<curandStatePhilox4_32_10_t>(),
                             Cfg.Seed),
          "setupStates");
    allowSmem(simulate, int(2 * sizeof(double) * Cfg.BlockSize));
  }

  Result price(const Option &opt, cudaStream_t stream = nullptr) {
    cudaLaunchConfig_t launch = simulateConfig(Cfg, stream);
    auto kernel = simulate;
    check(cudaLaunchKernelEx(&launch, kernel,
                             States->as<curandStatePhilox4_32_10_t>(), opt,
                             Cfg.PathsPerThread, Sums->as<double>(),
                             Squares->as<double>()),
          "simulate");
    std::vector<double> sums(Cfg.Blocks), squares(Cfg.Blocks);
    check(cudaMemcpyAsync(sums.data(), Sums->as<double>(),
                          sums.size() * sizeof(double),
                          cudaMemcpyDeviceToHost, stream),
          "copy sums");
    check(cudaMemcpyAsync(squares.data(), Squares->as<double>(),
                          squares.size() * sizeof(double),
                          cudaMemcpyDeviceToHost, stream),
          "copy squares");
    check(cudaStreamSynchronize(stream), "sync");
    return summarise(opt, sums, squares);
  }

  double delta(const Option &opt) {
    float h = 0.01f * opt.Spot;
    return (price(bumped(opt, h, 0, 0)).Price -
            price(bumped(opt, -h, 0, 0)).Price) /
           (2 * h);
  }
  double gamma(const Option &opt) {
    float h = 0.01f * opt.Spot;
    return (price(bumped(opt, h, 0, 0)).Price - 2 * price(opt).Price +
            price(bumped(opt, -h, 0, 0)).Price) /
           (h * h);
  }
  double vega(const Option &opt) {
    return (price(bumped(opt, 0, 0.01f, 0)).Price -
            price(bumped(opt, 0, -0.01f, 0)).Price) /
           0.02;
  }
  double rho(const Option &opt) {
    return (price(bumped(opt, 0, 0, 0.0001f)).Price -
            price(bumped(opt, 0, 0, -0.0001f)).Price) /
           0.0002;
  }

private:
  Result summarise(const Option &opt, const std::vector<double> &sums,
                   const std::vector<double> &squares) const {
    double n = double(Cfg.Blocks) * Cfg.BlockSize * Cfg.PathsPerThread;
    double sum = 0, square = 0;
    for (size_t i = 0; i < sums.size(); ++i) {
      sum += sums[i];
      square += squares[i];
    }
    double mean = sum / n;
    double var = std::max(0.0, square / n - mean * mean);
    double discount = std::exp(-double(opt.Rate) * opt.Maturity);
    return {discount * mean, discount * std::sqrt(var / n)};
  }

  EngineConfig Cfg;
  std::unique_ptr<DeviceBuffer> States, Sums, Squares;
};

// A book of options priced in turn, with a report.
struct Position {
  std::string Name;
  Option Opt;
  double Quantity = 1;
};

static std::vector<Position> sampleBook() {
  std::vector<Position> book;
  const char *names[] = {"call", "put", "asian-call", "asian-put", "digital"};
  for (int k = 0; k < 5; ++k)
    for (int strike = 80; strike <= 120; strike += 10) {
      Position p;
      p.Name = std::string(names[k]) + "-" + std::to_string(strike);
      p.Opt.Kind = Payoff(k);
      p.Opt.Strike = float(strike);
      p.Quantity = 1 + strike % 3;
      book.push_back(p);
    }
  return book;
}

static std::map<std::string, Result> priceBook(Engine &engine,
                                               const std::vector<Position> &book) {
  std::map<std::string, Result> out;
  for (const Position &p : book)
    out[p.Name] = engine.price(p.Opt);
  return out;
}

static void report(const std::vector<Position> &book,
                   const std::map<std::string, Result> &prices) {
  double total = 0;
  for (const Position &p : book) {
    auto it = prices.find(p.Name);
    if (it == prices.end())
      continue;
    total += p.Quantity * it->second.Price;
    std::printf("%-16s %10.4f +- %.4f\n", p.Name.c_str(), it->second.Price,
                it->second.StdError);
  }
  std::printf("book value %.4f\n", total);
}

} // namespace mc

int main() {
  mc::EngineConfig cfg;
  mc::Engine engine(cfg);
  std::vector<mc::Position> book = mc::sampleBook();
  report(book, priceBook(engine, book));
  mc::Option atm;
  std::printf("delta %.4f gamma %.4f vega %.4f rho %.4f\n", engine.delta(atm),
              engine.gamma(atm), engine.vega(atm), engine.rho(atm));
  return 0;
}
