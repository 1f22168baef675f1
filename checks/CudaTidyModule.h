//===--- CudaTidyModule.h - The cuda-tidy clang-tidy module -----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The module that registers every cuda-tidy check. The plugin registers it
/// when clang-tidy loads it; the cuda-tidy and cuda-clangd drivers link it in
/// and register it themselves.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_CHECKS_CUDATIDYMODULE_H
#define CUDA_TIDY_CHECKS_CUDATIDYMODULE_H

#include "clang-tidy/ClangTidyModule.h"

namespace cuda_tidy {

/// The name the module is registered under.
inline constexpr const char *ModuleName = "cuda-tidy";
inline constexpr const char *ModuleDescription =
    "CUDA portability hazards from NVIDIA's Volta, Hopper and Blackwell "
    "tuning guides.";

class CudaTidyModule : public clang::tidy::ClangTidyModule {
public:
  void addCheckFactories(
      clang::tidy::ClangTidyCheckFactories &CheckFactories) override;
  clang::tidy::ClangTidyOptions getModuleOptions() override;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_CHECKS_CUDATIDYMODULE_H
