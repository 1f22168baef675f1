//===--- TextureObjectFix.h - Texture references to objects -----*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// The rewrite of a texture reference (removed in CUDA 12.0) into a texture
/// object, for the shape old code uses most:
///
///     texture<float, 1, cudaReadModeElementType> tex;
///     __global__ void k(float *out, int n) { ... tex1Dfetch(tex, i) ... }
///     void run(const float *in, float *out, int n) {
///       tex.filterMode = cudaFilterModePoint;      // optional settings
///       cudaBindTexture(0, tex, in, n * sizeof(float));
///       k<<<g, b>>>(out, n);
///       cudaUnbindTexture(tex);
///     }
///
/// becomes a file-scope `static cudaTextureObject_t tex = 0;` created where
/// the reference was bound (`cudaCreateTextureObject` with a resource and a
/// texture descriptor that reproduce the binding and the reference's
/// settings), passed to every kernel that reads it as a new last parameter
/// of the same name (every declaration of the kernel and every launch in
/// the file get it), read with `tex1Dfetch<float>(tex, i)`, and destroyed
/// where it was unbound (`cudaDestroyTextureObject(tex)`).
///
/// Model of the old semantics: a reference's settings (`normalized`,
/// `filterMode`, `addressMode[i]`, `sRGB`, `maxAnisotropy`) are those of its
/// declaration (`texture<T, dim, mode> t(norm, filter, address)`) and of
/// the assignments before the binding; the binding gives the memory and its
/// channel format (`cudaCreateChannelDesc<T>()` unless one is passed). A
/// reference's defaults are clamped addressing in every dimension, point
/// filtering and unnormalized coordinates; a texture descriptor's zeroes
/// mean wrapped addressing, so the fix writes every field.
///
/// The rewrite is made only when all of this holds (otherwise a note says
/// what stops it and what to do):
///  - the reference is declared alone at file scope in the main file or in
///    a `.cu` file it includes (old code often includes its kernels' file),
///    with a 1-, 2- or 3-dimensional (or layered or cubemap) texture type;
///    the kernels, reads and launches are in those files too;
///  - it is bound by exactly one call of `cudaBindTexture`,
///    `cudaBindTexture2D` or `cudaBindTextureToArray` (C++ or C form) with a
///    null offset (an offset written to a local the program never reads
///    gives the rewrite on a note: it is right when the memory is aligned)
///    and, for `cudaBindTexture`, a size; the call is in a
///    statement of a block, and its other arguments have no side effects
///    (they are evaluated just before that statement);
///  - settings are constant assignments in the same block before the
///    binding; there is at most one unbinding, in the same loop as the
///    binding if that is in a loop;
///  - it is read only by calls of the texture functions written directly in
///    kernels of the main file, not in macros' bodies; those kernels are
///    declared only in the main file, without default arguments, and are
///    otherwise only launched with `<<<...>>>` in the main file (after the
///    reference's declaration) or passed to `cudaFunc*`/`cudaOccupancy*`;
///  - nothing else refers to it.
/// A reference nothing refers to (declared as above) is removed.
///
/// Left out: surface references (a note), `cudaBindTextureToMipmappedArray`,
/// reads in device functions called by the kernels, and references used
/// from several files.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_TOOLKIT_TEXTUREOBJECTFIX_H
#define CUDA_TIDY_LIB_TOOLKIT_TEXTUREOBJECTFIX_H

#include "lib/toolkit/RemovedApiUses.h"
#include "lib/toolkit/SourceEdits.h"
#include <optional>
#include <vector>

namespace cuda_tidy {

/// The plan for one texture or surface reference.
struct TexturePlan {
  const clang::VarDecl *Var = nullptr;
  bool IsSurface = false;
  /// All edits, or why there are none. References read by a common kernel
  /// are rewritten together (the kernel gets one parameter each, in the
  /// order they are declared): the first one's plan holds the edits of all
  /// of them, and FixedWith names it in the others' plans.
  Rewrite Fix;
  const clang::VarDecl *FixedWith = nullptr;
  /// The uses of the texture API that the rewrite replaces or that stop it:
  /// indexes into RemovedApiUses::Functions.
  llvm::SmallVector<size_t, 8> FunctionUses;
  /// The binding's index into RemovedApiUses::Functions, when there is one.
  std::optional<size_t> BindUse;
};

/// One plan per entry of Uses.TextureRefs, in order.
std::vector<TexturePlan> planTextureObjectFixes(const RemovedApiUses &Uses,
                                                clang::ASTContext &Ctx);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_TOOLKIT_TEXTUREOBJECTFIX_H
