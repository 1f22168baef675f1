//===--- DevicePropFix.h - Removed cudaDeviceProp fields --------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The fix for reads of the `cudaDeviceProp` fields CUDA 13 removed:
///
///     cudaDeviceProp prop;                     cudaDeviceProp prop;
///     cudaGetDeviceProperties(&prop, dev);     cudaGetDeviceProperties(&prop, dev);
///                                        ->    int propClockRate = 0;
///                                              cudaDeviceGetAttribute(
///                                                  &propClockRate,
///                                                  cudaDevAttrClockRate, dev);
///     use(prop.clockRate);                     use(propClockRate);
///
/// Model: the value a removed field held is the device attribute the table
/// names (RemovedApi.h), of the device the properties were read for. A read
/// `V.field` of a local `cudaDeviceProp V` is governed by the latest call
/// `cudaGetDeviceProperties(&V, D)` of the same function whose statement is
/// in a block that holds the read after it (no lambda between), or whose
/// `if` condition holds it with the read in the then-block. The fix needs D
/// without side effects and written outside macros, and nothing that may
/// change V (another properties call, an assignment, its address passed on)
/// between that call and the read, or after the read in a loop that repeats
/// the read but not the call; member accesses, copies and `sizeof` only
/// read V. One `int` local per governing call and field is inserted after
/// the call's statement (or at the start of the then-block), where D still
/// means the same, and every read it governs is replaced by it. Where a
/// `goto` or `switch` may jump past the locals, they are declared without
/// an initialiser and then set.
///
/// Left out (a note says what to do): fields read through a pointer or a
/// reference, properties filled in another function, a field without an
/// attribute (`cooperativeMultiDeviceLaunch`), writes to the fields.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TOOLKIT_DEVICEPROPFIX_H
#define CUDA_TIDY_LIB_TOOLKIT_DEVICEPROPFIX_H

#include "lib/toolkit/RemovedApiUses.h"
#include "lib/toolkit/SourceEdits.h"
#include <vector>

namespace cuda_tidy {

/// For each of Uses.Fields, in order: the edits its diagnostic carries (the
/// first fixed read of a variable also carries the inserted locals), or
/// why there is no fix.
std::vector<Rewrite> planDevicePropFixes(const RemovedApiUses &Uses,
                                         clang::ASTContext &Ctx);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TOOLKIT_DEVICEPROPFIX_H
