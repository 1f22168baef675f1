// Where the host code is visible, a read before the wait is a hazard only
// when a kernel launched earlier in the stream, and perhaps still running,
// may write the buffer (a write: when it may touch it). Buffers are followed
// from the launch's arguments to the kernel's parameters and fields.
// RUN: %check_cuda_tidy --checks=cuda-programmatic-dependent-launch \
// RUN:   %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

static void allowOverlap(cudaLaunchAttribute &attr) {
  attr.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attr.val.programmaticStreamSerializationAllowed = 1;
}

// Reads the weights, writes the activation.
__global__ void producer(const float *weights, float *act) {
  cudaTriggerProgrammaticLaunchCompletion();
  act[threadIdx.x] = weights[threadIdx.x] * 2.f;
}

__global__ void readsActivation(const float *act, float *out) {
  float v = act[threadIdx.x]; // warning@21:13 {{'act' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@22:3 {{'readsActivation' waits for the previous kernel here}}
  out[threadIdx.x] = v; // note@48:3 {{'producer', launched here earlier in the stream, may still run when 'readsActivation' starts, and write what 'readsActivation' reads through 'act'}}
} // note@50:3 {{'readsActivation' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}

__global__ void readsWeights(const float *weights, const float *act,
                             float *out) {
  // Silent: the kernels that may still run (readsActivation, and producer
  // before it) only read the weights; reading them early is what PDL is for.
  float w = weights[threadIdx.x];
  cudaGridDependencySynchronize();
  out[threadIdx.x] = w * act[threadIdx.x];
}

__global__ void clearsOutput(float *out) { // note@50:3 {{'clearsOutput' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}
  out[threadIdx.x] = 0.f; // warning@36:3 {{'out' is written before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@37:3 {{'clearsOutput' waits for the previous kernel here}}
} // note@58:3 {{'readsWeights', launched here earlier in the stream, may still run when 'clearsOutput' starts, and access what 'clearsOutput' writes through 'out'}}

__global__ void clearsScratch(float *scratch) {
  // Silent: no kernel before it in its stream touches the scratch buffer.
  scratch[threadIdx.x] = 0.f;
  cudaGridDependencySynchronize();
}

void forward(const float *weights, float *act, float *out, float *scratch,
             cudaStream_t stream) {
  producer<<<1, 128, 0, stream>>>(weights, act);
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(128);
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, readsActivation, (const float *)act, out);
  cudaLaunchKernelEx(&config, readsWeights, weights, (const float *)act, out);
  cudaLaunchKernelEx(&config, clearsOutput, out);
  cudaLaunchKernelEx(&config, clearsScratch, scratch);
}

// A table copied, or set, before the launches: no kernel writes it.
__global__ void readsTable(const int *table, const float *act, float *out) {
  // Silent: the table is written by a copy, which is no kernel.
  int t = table[threadIdx.x];
  cudaGridDependencySynchronize();
  out[threadIdx.x] = act[t];
}

__global__ void readsCounters(const int *counters, float *out) {
  // Silent: set by cudaMemsetAsync.
  int c = counters[blockIdx.x];
  cudaGridDependencySynchronize();
  out[threadIdx.x] = c;
}

void lookup(const int *hostTable, int *table, int *counters,
            const float *weights, float *act, float *out,
            cudaStream_t stream) {
  cudaMemcpyAsync(table, hostTable, 128 * sizeof(int),
                  cudaMemcpyHostToDevice, stream);
  cudaMemsetAsync(counters, 0, 128 * sizeof(int), stream);
  producer<<<1, 128, 0, stream>>>(weights, act);
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, readsTable, (const int *)table,
                     (const float *)act, out);
  cudaLaunchKernelEx(&config, readsCounters, (const int *)counters, out);
}

// A buffer the host code does not show: the device rule holds.
float *scratchBuffer();

__global__ void readsUntraced(const float *buf, float *out) {
  float v = buf[threadIdx.x]; // warning@100:13 {{'buf' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@101:3 {{'readsUntraced' waits for the previous kernel here}}
  out[threadIdx.x] = v; // note@107:3 {{'readsUntraced' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}
} // note@112:46 {{this argument cannot be followed to a buffer of the host code, so 'buf' is taken to be written by the kernel before 'readsUntraced'}}

void untraced(float *out, cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, readsUntraced, (const float *)scratchBuffer(),
                     out);
}

// The wait orders a kernel after its direct predecessor only; a
// predecessor that waits on every path and never triggers early lets the
// next kernel start only after the one before it has finished.
__global__ void waitsFirst(const float *in, float *out) {
  cudaGridDependencySynchronize();
  out[threadIdx.x] = in[threadIdx.x];
}

__global__ void triggersFirst(const float *in, float *out) {
  cudaTriggerProgrammaticLaunchCompletion();
  cudaGridDependencySynchronize();
  out[threadIdx.x] = in[threadIdx.x];
}

__global__ void readsBehindWaiter(const float *a, float *b) {
  // Silent: producer has finished before waitsFirst lets this kernel start.
  float v = a[threadIdx.x];
  cudaGridDependencySynchronize();
  b[threadIdx.x] = v;
}

__global__ void readsBehindTrigger(const float *a, float *b) {
  float v = a[threadIdx.x]; // warning@138:13 {{'a' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@139:3 {{'readsBehindTrigger' waits for the previous kernel here}}
  b[threadIdx.x] = v; // note@163:3 {{'producer', launched here earlier in the stream, may still run when 'readsBehindTrigger' starts, and write what 'readsBehindTrigger' reads through 'a'}}
} // note@158:3 {{'readsBehindTrigger' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}

void chain(const float *w, float *a, float *b, float *c, cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  producer<<<1, 128, 0, stream>>>(w, a);
  cudaLaunchKernelEx(&config, waitsFirst, (const float *)b, c);
  cudaLaunchKernelEx(&config, readsBehindWaiter, (const float *)a, b);
}

void chainTriggered(const float *w, float *a, float *b, float *c,
                    cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  producer<<<1, 128, 0, stream>>>(w, a);
  cudaLaunchKernelEx(&config, triggersFirst, (const float *)b, c);
  cudaLaunchKernelEx(&config, readsBehindTrigger, (const float *)a, b);
}

// Metadata in a parameter struct (flashinfer's fmhaReduction shape).
struct Params {
  const int *seqLens;
  float *partial;
  float *out;
};

__global__ void partials(const Params p) {
  p.partial[threadIdx.x] = p.seqLens[0];
}

template <int Tile> __global__ void reduceTile(const Params p) {
  // Silent: no kernel that may still run writes the sequence lengths
  // (reduceEarly writes only p.out, and waits before partials can be
  // running).
  int len = p.seqLens[blockIdx.x];
  cudaGridDependencySynchronize();
  p.out[threadIdx.x] = p.partial[len * Tile];
}

__global__ void reduceEarly(const Params p) {
  float v = p.partial[threadIdx.x]; // warning@189:13 {{'p.partial' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@190:3 {{'reduceEarly' waits for the previous kernel here}}
  p.out[threadIdx.x] = v; // note@195:3 {{'partials', launched here earlier in the stream, may still run when 'reduceEarly' starts, and write what 'reduceEarly' reads through 'p.partial'}}
} // note@197:17 {{'reduceEarly' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}

void attention(const Params &p, int tile, bool pdl, cudaStream_t stream) {
  partials<<<1, 128, 0, stream>>>(p);
  cudaLaunchAttribute attrs[1];
  attrs[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attrs[0].val.programmaticStreamSerializationAllowed = pdl ? 1 : 0;
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  // The kernel chosen through a local pointer: each one assigned counts.
  void (*kernel)(const Params) = nullptr;
  if (tile == 64)
    kernel = &reduceTile<64>;
  else
    kernel = &reduceTile<128>;
  cudaLaunchKernelEx(&config, reduceEarly, p);
  cudaLaunchKernelEx(&config, kernel, p);
}

// A field the host points at a buffer an earlier kernel writes.
__global__ void readsField(const Params p) {
  float v = p.partial[threadIdx.x]; // warning@215:13 {{'p.partial' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@216:3 {{'readsField' waits for the previous kernel here}}
  p.out[threadIdx.x] = v; // note@222:3 {{'producer', launched here earlier in the stream, may still run when 'readsField' starts, and write what 'readsField' reads through 'p.partial'}}
} // note@228:3 {{'readsField' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}

void assembled(const float *w, float *partial, float *out,
               cudaStream_t stream) {
  producer<<<1, 128, 0, stream>>>(w, partial);
  Params p;
  p.seqLens = nullptr;
  p.partial = partial;
  p.out = out;
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, readsField, p);
}

// A launch in a loop follows its own previous launch.
__global__ void accumulate(const float *in, float *acc) {
  float v = acc[threadIdx.x]; // warning@238:13 {{'acc' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@239:3 {{'accumulate' waits for the previous kernel here}}
  acc[threadIdx.x] = v + in[threadIdx.x]; // note@251:5 {{'accumulate', launched here earlier in the stream, may still run when 'accumulate' starts, and write what 'accumulate' reads through 'acc'}}
} // note@245:3 {{'accumulate' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}

void steps(const float *in, float *acc, int n, cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  for (int i = 0; i < n; ++i)
    cudaLaunchKernelEx(&config, accumulate, in, acc);
}

// A helper that launches kernels before the launch.
void launchProducer(const float *w, float *a, cudaStream_t stream) {
  producer<<<1, 128, 0, stream>>>(w, a);
}

__global__ void readsAfterHelper(const float *a, float *out) {
  float v = a[threadIdx.x]; // warning@260:13 {{'a' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@261:3 {{'readsAfterHelper' waits for the previous kernel here}}
  out[threadIdx.x] = v; // note@279:3 {{this call launches kernels earlier in the stream that may still run when 'readsAfterHelper' starts}}
} // note@274:3 {{'readsAfterHelper' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}

__global__ void readsAfterSync(const float *a, float *out) {
  // Silent: cudaDeviceSynchronize() has finished every earlier kernel.
  float v = a[threadIdx.x];
  cudaGridDependencySynchronize();
  out[threadIdx.x] = v;
}

void helped(const float *w, float *a, float *out, cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  launchProducer(w, a, stream);
  cudaLaunchKernelEx(&config, readsAfterHelper, (const float *)a, out);
}

void synced(const float *w, float *a, float *out, cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  producer<<<1, 128, 0, stream>>>(w, a);
  cudaDeviceSynchronize();
  cudaLaunchKernelEx(&config, readsAfterSync, (const float *)a, out);
}


// Launched in a helper: the walk goes on in the helper's callers.
__global__ void readsInHelper(const float *a, float *out) {
  float v = a[threadIdx.x]; // warning@298:13 {{'a' is read before this thread waits for the previous kernel}}
  cudaGridDependencySynchronize(); // note@299:3 {{'readsInHelper' waits for the previous kernel here}}
  out[threadIdx.x] = v; // note@314:3 {{'producer', launched here earlier in the stream, may still run when 'readsInHelper' starts, and write what 'readsInHelper' reads through 'a'}}
} // note@305:3 {{'readsInHelper' is launched with programmatic stream serialization here, so it may start before the previous kernel in the stream finishes}}

void launchReader(const float *a, float *out, cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, readsInHelper, a, out);
}

void pipeline(const float *w, float *a, float *out, cudaStream_t stream) {
  producer<<<1, 128, 0, stream>>>(w, a);
  launchReader(a, out, stream);
}

// A library entry point: no kernel before the launch in this translation
// unit; kernels its callers launched elsewhere are not seen.
__global__ void readsLengths(const int *lens, float *out) {
  // Silent: nothing launched before it here writes the lengths.
  int n = lens[blockIdx.x];
  cudaGridDependencySynchronize();
  out[threadIdx.x] = n;
}

void launchLibrary(const int *lens, float *out, cudaStream_t stream) {
  cudaLaunchAttribute attrs[1];
  allowOverlap(attrs[0]);
  cudaLaunchConfig_t config = {};
  config.stream = stream;
  config.attrs = attrs;
  config.numAttrs = 1;
  cudaLaunchKernelEx(&config, readsLengths, lens, out);
}
