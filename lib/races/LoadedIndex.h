//===--- LoadedIndex.h - Whether an unknown index is read from memory -*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Where the lane model knows the shared object an access touches but not
/// the element (AccessTable's unplaced threads), the race finder takes the
/// element to be any one only when its index comes from a value read from
/// memory (`atomicAdd(&hist[bin], 1u)` with `bin = data[i]`): some input
/// makes it the element a thread of another warp writes.
///
/// Model: the access's address is followed through local variables (their
/// initialiser and every assignment), through the parameters of a helper
/// to the arguments of the context's call, and through constant globals.
/// The index is read from memory when that reaches a load: an lvalue that
/// is not a local variable (an element, a dereference, a member, a global
/// or `__shared__` variable, a reference), a call other than the built-in
/// index variables, or a local that something else writes (its address
/// taken, a non-const reference argument, inline asm).
///
/// An element of an array of integer constants that nothing writes
/// (WarpValues::constantTable) is its index's value, not a load.
/// Each local is followed once, however long a chain of locals leads to it
/// (`float *v2 = v1 + step;`); a walk deeper than the lane model's depth
/// within one expression knows of no load.
///
/// What the model leaves out is then not read from memory, and the race
/// finder leaves the pair alone: an index built from the thread and block
/// indices, constants and a kernel's scalar parameters (a row length, a
/// block size passed as an argument) that the lane model could not follow,
/// such as a local declared without an initialiser and assigned later.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_RACES_LOADEDINDEX_H
#define CUDA_TIDY_LIB_RACES_LOADEDINDEX_H

#include "lib/lanes/ModelTypes.h"

namespace cuda_tidy {

namespace lanes {
class LaneModel;
} // namespace lanes

/// Whether the element that access E (an lvalue of Fr's function) touches
/// may come from a value read from memory (see the file comment).
bool indexFromMemory(lanes::LaneModel &M, const clang::Expr *E,
                     const lanes::Frame &Fr);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_RACES_LOADEDINDEX_H
