//===--- CudaTidyModule.cpp - The cuda-tidy clang-tidy module -------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/CudaTidyModule.h"
#define CUDA_TIDY_CHECK(Name, Class, Header, Summary) // Headers below.
#include "checks/Checks.def"
#include "checks/AsyncCopyOrderingCheck.h"
#include "checks/ClusterSizePortabilityCheck.h"
#include "checks/DivergentBarrierCheck.h"
#include "checks/DynamicSharedMemoryOptInCheck.h"
#include "checks/ImplicitWarpSynchronizationCheck.h"
#include "checks/LaunchResourcesCheck.h"
#include "checks/LegacyWarpIntrinsicsCheck.h"
#include "checks/MemoryOrderingCheck.h"
#include "checks/NvccOnlyConstructCheck.h"
#include "checks/ProgrammaticDependentLaunchCheck.h"
#include "checks/RemovedToolkitApiCheck.h"
#include "checks/SharedMemoryRaceCheck.h"
#include "checks/StaticSharedMemoryLimitCheck.h"
#include "checks/TargetCompatibilityCheck.h"
#include "checks/WarpMaskCorrectnessCheck.h"

namespace cuda_tidy {

void CudaTidyModule::addCheckFactories(
    clang::tidy::ClangTidyCheckFactories &CheckFactories) {
#define CUDA_TIDY_CHECK(Name, Class, Header, Summary)                          \
  CheckFactories.registerCheck<Class>(Name);
#include "checks/Checks.def"
}

clang::tidy::ClangTidyOptions CudaTidyModule::getModuleOptions() {
  return clang::tidy::ClangTidyOptions();
}

} // namespace cuda_tidy
