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
/// `V.field` is fixed when V is a local `cudaDeviceProp` of the function the
/// read is in, filled by exactly one `cudaGetDeviceProperties(&V, D)` there
/// whose statement is in a block that also holds the read, after it (no
/// lambda between), D has no side effects and is written outside macros,
/// and V is otherwise only read: member accesses, copies, `sizeof`. One
/// local per variable and field is inserted after the properties call,
/// where D still means the same; every read of that field of V is replaced
/// by it.
///
/// Left out (a note says what to do): fields read through a pointer or a
/// reference, properties filled in another function or more than once, a
/// field without an attribute (`cooperativeMultiDeviceLaunch`), writes to
/// the fields.
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
