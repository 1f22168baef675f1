// Runtime functions whose parameter lists CUDA 12 and 13 changed: the old
// argument lists do not compile any more. Managed-memory hints take a
// cudaMemLocation instead of a device ordinal (cudaCpuDeviceId meaning the
// host), graph queries and updates take an edge-data array ('nullptr' keeps
// default edges, as before), and cudaGraphInstantiate takes flags. The new
// forms are not reported. The fixed file builds with nvcc and is clean.
// RUN: %check_cuda_tidy --checks=cuda-removed-toolkit-api --fix --recheck %if nvcc %{ %nvcc_fixed %} %s %t -- %cuda_args --cuda-gpu-arch=sm_90
#include <cuda_runtime.h>

void prefetch(float *data, size_t bytes, int device, cudaStream_t stream) {
  cudaMemPrefetchAsync(data, bytes, 0, stream);
  // warning@-1 {{'cudaMemPrefetchAsync' takes other parameters since CUDA 13.0}}
  // note@-2 {{it takes a 'cudaMemLocation' and flags instead of a device ordinal}}
  // FIXED: cudaMemPrefetchAsync(data, bytes, cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0, stream);
  cudaMemPrefetchAsync(data, bytes, cudaCpuDeviceId);
  // warning@-1 {{'cudaMemPrefetchAsync' takes other parameters since CUDA 13.0}}
  // note@-2 {{it takes a 'cudaMemLocation' and flags}}
  // FIXED: cudaMemPrefetchAsync(data, bytes, cudaMemLocation{cudaMemLocationTypeHost, 0}, 0);
  cudaMemPrefetchAsync(data, bytes, device, stream);
  // warning@-1 {{'cudaMemPrefetchAsync' takes other parameters since CUDA 13.0}}
  // note@-2 {{it takes a 'cudaMemLocation' and flags}}
  // FIXED: cudaMemPrefetchAsync(data, bytes, cudaMemLocation{device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice, device}, 0, stream);
  cudaMemAdvise(data, bytes, cudaMemAdviseSetPreferredLocation, device);
  // warning@-1 {{'cudaMemAdvise' takes other parameters since CUDA 13.0}}
  // note@-2 {{it takes a 'cudaMemLocation' instead of a device ordinal}}
  // FIXED: cudaMemAdvise(data, bytes, cudaMemAdviseSetPreferredLocation, cudaMemLocation{device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice, device});
  cudaMemAdvise(data, bytes, cudaMemAdviseSetReadMostly, 0);
  // warning@-1 {{'cudaMemAdvise' takes other parameters since CUDA 13.0}}
  // note@-2 {{it takes a 'cudaMemLocation'}}
  // FIXED: cudaMemAdvise(data, bytes, cudaMemAdviseSetReadMostly, cudaMemLocation{cudaMemLocationTypeDevice, 0});

  // Already the CUDA 13 form.
  cudaMemLocation loc{cudaMemLocationTypeDevice, device};
  cudaMemPrefetchAsync(data, bytes, loc, 0, stream);
  cudaMemAdvise(data, bytes, cudaMemAdviseSetAccessedBy, loc);
}

cudaError_t graphs(cudaGraph_t graph, cudaGraphNode_t a, cudaGraphNode_t b,
                   cudaGraphExec_t *exec, cudaStream_t stream) {
  cudaGraphAddDependencies(graph, &a, &b, 1);
  // warning@-1 {{'cudaGraphAddDependencies' takes other parameters since CUDA 13.0}}
  // note@-2 {{the edge data array comes before the count; 'nullptr' keeps default edges}}
  // FIXED: cudaGraphAddDependencies(graph, &a, &b, nullptr, 1);
  size_t edges = 0;
  cudaGraphGetEdges(graph, nullptr, nullptr, &edges);
  // warning@-1 {{'cudaGraphGetEdges' takes other parameters since CUDA 13.0}}
  // note@-2 {{with 'nullptr' the call fails with 'cudaErrorLossyQuery' where an edge has data, as before}}
  // FIXED: cudaGraphGetEdges(graph, nullptr, nullptr, nullptr, &edges);
  size_t deps = 0;
  cudaGraphNodeGetDependencies(b, nullptr, &deps);
  // warning@-1 {{'cudaGraphNodeGetDependencies' takes other parameters since CUDA 13.0}}
  // note@-2 {{the edge data array comes before the count}}
  // FIXED: cudaGraphNodeGetDependencies(b, nullptr, nullptr, &deps);
  cudaGraphNodeGetDependentNodes(a, nullptr, &deps);
  // warning@-1 {{'cudaGraphNodeGetDependentNodes' takes other parameters since CUDA 13.0}}
  // note@-2 {{the edge data array comes before the count}}
  // FIXED: cudaGraphNodeGetDependentNodes(a, nullptr, nullptr, &deps);
  cudaGraphRemoveDependencies(graph, &a, &b, 1);
  // warning@-1 {{'cudaGraphRemoveDependencies' takes other parameters since CUDA 13.0}}
  // note@-2 {{'nullptr' keeps default edges}}
  // FIXED: cudaGraphRemoveDependencies(graph, &a, &b, nullptr, 1);
  cudaStreamCaptureStatus status;
  unsigned long long id = 0;
  cudaGraph_t captured;
  const cudaGraphNode_t *nodes = nullptr;
  size_t count = 0;
  cudaStreamGetCaptureInfo(stream, &status, &id, &captured, &nodes, &count);
  // warning@-1 {{'cudaStreamGetCaptureInfo' takes other parameters since CUDA 13.0}}
  // note@-2 {{the edge data output comes before the count}}
  // FIXED: cudaStreamGetCaptureInfo(stream, &status, &id, &captured, &nodes, nullptr, &count);
  cudaStreamUpdateCaptureDependencies(stream, &a, 1, 0);
  // warning@-1 {{'cudaStreamUpdateCaptureDependencies' takes other parameters since CUDA 13.0}}
  // note@-2 {{'nullptr' keeps default edges}}
  // FIXED: cudaStreamUpdateCaptureDependencies(stream, &a, nullptr, 1, 0);
  // A short capture query is still valid.
  cudaStreamGetCaptureInfo(stream, &status);
  // The CUDA 11 form without the error node and the log still builds and
  // behaves the same: cuda_runtime.h keeps it for C++ as an inline overload
  // that calls the new form with flags 0.
  return cudaGraphInstantiate(exec, graph, nullptr, nullptr, 0);
}
