// Compares a GPU suite's results with its CPU reference, element by
// element; prints one line for the kernel and returns 1 on a mismatch.
#ifndef CUDA_TIDY_TEST_GPU_COMMON_COMPARE_H
#define CUDA_TIDY_TEST_GPU_COMMON_COMPARE_H

#include <cstdio>
#include <vector>

template <typename T>
static int compare(const char *Name, const std::vector<T> &Got,
                   const std::vector<T> &Want) {
  for (size_t I = 0; I < Want.size(); ++I)
    if (Got[I] != Want[I]) {
      std::printf("%-22s FAIL at %zu: got %lld, want %lld\n", Name, I,
                  (long long)Got[I], (long long)Want[I]);
      return 1;
    }
  std::printf("%-22s ok (%zu values match the CPU reference)\n", Name,
              Want.size());
  return 0;
}

#endif
