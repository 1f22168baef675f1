//===--- MemoryOrdering.h - Ordering between blocks and around asm -*- C++
//-*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Four shapes of device code whose memory ordering a `__syncthreads()` does
/// not give, found by a syntactic look at one function body:
///
///  - inline asm that waits or orders memory (`bar.sync`, `barrier.sync`,
///    `bar.arrive`, `mbarrier.try_wait`, `griddepcontrol.wait`, `fence.*`,
///    `membar.*`, `cp.async.wait_*`, ...) with no `"memory"` clobber, and
///    the edit that adds the clobber (findAsmWithoutMemoryClobber);
///  - the last-block reduction whose partial results are not fenced before
///    the relaxed ticket that elects the block reading them
///    (findUnfencedTickets);
///  - a loop that spins on a plain (not volatile, not atomic) load of global
///    memory that its body does not write (findPlainSpinWait);
///  - a block-scope atomic on a global address with no block-private part
///    (classifyBlockScopeAtomic).
///
/// Memory spaces (memoryBaseOf). An address is followed through casts,
/// pointer arithmetic, `&`, `*`, `[]` and `->` to the variable it starts
/// from: a `__device__` or `__managed__` variable, or a pointer parameter
/// of a kernel, is global memory; a `__shared__` variable is shared memory;
/// a local pointer is followed to its initialiser when the function never
/// assigns it again. Anything else (a device function's pointer parameter,
/// a pointer loaded from memory, a call's result) is unknown, and an
/// unknown address is never reported.
///
/// Left out, deliberately:
///  - Whether the ticket is last is not evaluated: the ticket is a relaxed
///    atomic read-modify-write on global memory whose result is compared
///    with `==` or `!=` (directly or through one variable), and the reads
///    of the partials are loads of the stored base after it in source order.
///  - A spin-wait is a `while`, `do` or `for` loop whose condition reads the
///    flag, or a loop with no condition (or a constant true one) whose only
///    exit is one `if (flag...) break;` (or `return;`) in its body. A body with
///    a fence, a barrier, an asm statement or any call but `__nanosleep`
///    makes the compiler reload the flag in practice, and is left alone
///    (still a data race by the memory model, not reported).
///  - Block-private means syntactically indexed by `blockIdx`: an index
///    loaded from memory or returned by a call is unknown and silent. The
///    uniformity analysis counts `blockIdx.x` as block-uniform like a
///    constant, so it cannot tell a per-block slot from a shared one.
///  - Calls are not followed: a fence or a store in a callee is not seen.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_ORDERING_MEMORYORDERING_H
#define CUDA_TIDY_LIB_ORDERING_MEMORYORDERING_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang {
class ASTContext;
class CallExpr;
class CXXConstructExpr;
class Expr;
class FunctionDecl;
class GCCAsmStmt;
class Stmt;
class ValueDecl;
} // namespace clang

namespace cuda_tidy {

/// The memory an address lies in, as far as memoryBaseOf can tell.
enum class MemorySpace { Unknown, Global, Shared, Local };

/// The variable an address starts from and its memory space.
struct MemoryBase {
  const clang::ValueDecl *Decl = nullptr;
  MemorySpace Space = MemorySpace::Unknown;
};

/// The base of E, a pointer or an lvalue, in Func's body (see the file
/// comment). Func may be null (then locals are not followed).
MemoryBase memoryBaseOf(const clang::Expr *E, const clang::FunctionDecl *Func);

/// Whether Body reads or writes memory other than its own local variables:
/// a dereference, a subscript of a pointer or of a non-local array, `->`, a
/// variable of static storage, a call that passes a pointer or a reference,
/// another asm statement with operands.
bool touchesMemory(const clang::Stmt *Body);

/// Adds to Out the expression statements of CS (parentheses and implicit
/// casts stripped): values thrown away, such as a ticket that cannot decide
/// which block is last. A visitor calls it on each compound statement
/// before it visits the statements in it.
void addDiscardedValues(const clang::CompoundStmt &CS,
                        llvm::SmallPtrSetImpl<const clang::Stmt *> &Out);

/// An asm statement that waits or orders memory and has no "memory"
/// clobber.
struct AsmClobberFinding {
  /// The first waiting or ordering instruction of the string ("bar.sync").
  std::string Instruction;
  /// Where to insert Text to add the clobber; invalid when there is no
  /// safe edit (a macro, `asm goto` without clobbers), with WhyNoFix.
  clang::SourceLocation InsertAt;
  std::string Text;
  std::string WhyNoFix;
};

/// Null unless Asm's string holds an instruction that waits or orders
/// memory and its clobbers lack "memory".
std::optional<AsmClobberFinding>
findAsmWithoutMemoryClobber(const clang::GCCAsmStmt &Asm,
                            const clang::ASTContext &Ctx);

/// The opcode of the first waiting or ordering instruction of a PTX string,
/// or an empty string (exposed for the unit tests).
std::string firstOrderingInstruction(llvm::StringRef Ptx);

/// A relaxed ticket whose partial results are not fenced before it.
struct UnfencedTicket {
  const clang::CallExpr *Ticket = nullptr;
  /// The last store of a partial result before the ticket.
  const clang::Expr *PartialStore = nullptr;
  /// A load of the partials after the ticket.
  const clang::Expr *PartialLoad = nullptr;
  /// A fence after the ticket (before the loads), which orders nothing for
  /// the stores; invalid when there is none.
  clang::SourceLocation LateFence;
  /// Where `__threadfence();` goes, before the statement that holds the
  /// ticket, and the text; invalid when that statement is in a macro.
  clang::SourceLocation InsertAt;
  std::string Text;
  /// Every thread that stored a partial reaches InsertAt (it is in the
  /// innermost block holding both the store and the ticket, with no jump
  /// between); otherwise WhyNoFix says why not.
  bool FixProven = false;
  std::string WhyNoFix;
};

/// The last-block reductions of Func's body whose partial stores are not
/// followed by a fence (or a release order) before the ticket.
llvm::SmallVector<UnfencedTicket, 1>
findUnfencedTickets(const clang::FunctionDecl &Func,
                    const clang::ASTContext &Ctx);

/// A loop that spins on a plain load of global memory.
struct PlainSpinWait {
  /// The plain load of the flag in the loop condition.
  const clang::Expr *FlagLoad = nullptr;
  const clang::ValueDecl *Flag = nullptr;
};

/// Null unless Loop (a while, do or for statement of Func) spins on a plain
/// load of global memory that its body does not write.
std::optional<PlainSpinWait> findPlainSpinWait(const clang::Stmt &Loop,
                                               const clang::FunctionDecl &Func);

/// A block-scope atomic operation (`atomicAdd_block` and kin, or a
/// `cuda::atomic_ref` / `cuda::atomic` of `thread_scope_block`).
struct BlockScopeAtomic {
  /// The address (or, for atomic_ref, the referenced lvalue).
  const clang::Expr *Address = nullptr;
  const clang::ValueDecl *Base = nullptr;
  /// The address is global memory and no part of it comes from blockIdx.
  bool SharedBetweenBlocks = false;
};

/// Whether Call is a block-scope atomic function (`atomicAdd_block`, ...),
/// and where its address points.
std::optional<BlockScopeAtomic>
classifyBlockScopeAtomicCall(const clang::CallExpr &Call,
                             const clang::FunctionDecl &Func);

/// Whether Construct makes a `cuda::atomic_ref` of `thread_scope_block`,
/// and where the referenced object lies.
std::optional<BlockScopeAtomic>
classifyBlockScopeAtomicRef(const clang::CXXConstructExpr &Construct,
                            const clang::FunctionDecl &Func);

/// Whether a member call is made on a `cuda::atomic` of `thread_scope_block`
/// that is a `__device__` variable (every block's threads update it).
std::optional<BlockScopeAtomic>
classifyBlockScopeAtomicObject(const clang::CallExpr &MemberCall,
                               const clang::FunctionDecl &Func);

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_ORDERING_MEMORYORDERING_H
