//===--- UniformityTest.cpp - Tests of the uniformity analysis ------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/uniformity/Uniformity.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_tidy;

namespace {

/// One translation unit compiled for the device with the hermetic headers.
class CudaTU {
public:
  explicit CudaTU(llvm::StringRef Code, UniformityOptions Opts = {}) {
    std::string Source = "#include <cuda_runtime.h>\n"
                         "#include <cooperative_groups.h>\n"
                         "namespace cg = cooperative_groups;\n"
                         "__device__ void use(int);\n" +
                         Code.str();
    AST = tooling::buildASTFromCodeWithArgs(
        Source,
        {"-xcuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
         "--cuda-gpu-arch=sm_90", "-isystem",
         CUDA_TIDY_SOURCE_DIR "/test/Inputs/cuda", "-Wno-unused-value"},
        "input.cu");
    Analysis = std::make_unique<UniformityAnalysis>(AST->getASTContext(), Opts);
  }

  ASTContext &ctx() { return AST->getASTContext(); }

  const FunctionDecl *function(llvm::StringRef Name) {
    auto Found =
        match(functionDecl(hasName(Name), isDefinition()).bind("f"), ctx());
    return Found.empty() ? nullptr : Found.front().getNodeAs<FunctionDecl>("f");
  }

  const FunctionUniformity &in(llvm::StringRef Name) {
    const FunctionDecl *F = function(Name);
    EXPECT_NE(F, nullptr) << Name.str();
    const FunctionUniformity *FU = Analysis->analyze(F);
    EXPECT_NE(FU, nullptr) << Name.str();
    return *FU;
  }

  /// The N-th call (0-based, in source order) to Callee inside Function.
  const CallExpr *call(llvm::StringRef Function, llvm::StringRef Callee,
                       unsigned N = 0) {
    auto Found = match(
        functionDecl(
            hasName(Function), isDefinition(),
            forEachDescendant(
                callExpr(callee(functionDecl(hasName(Callee)))).bind("c"))),
        ctx());
    std::vector<const CallExpr *> Calls;
    for (const auto &M : Found)
      Calls.push_back(M.getNodeAs<CallExpr>("c"));
    llvm::sort(Calls, [&](const CallExpr *A, const CallExpr *B) {
      return ctx().getSourceManager().isBeforeInTranslationUnit(
          A->getBeginLoc(), B->getBeginLoc());
    });
    EXPECT_LT(N, Calls.size()) << Function.str() << " " << Callee.str();
    return N < Calls.size() ? Calls[N] : nullptr;
  }

  /// The level of the argument of the N-th `use(...)` in Function.
  Uniformity used(llvm::StringRef Function, unsigned N = 0) {
    const CallExpr *C = call(Function, "use", N);
    if (!C)
      return Uniformity::Block;
    return in(Function).valueOf(C->getArg(0)).Base;
  }

  /// The control level at the N-th call to Callee in Function.
  Uniformity control(llvm::StringRef Function, llvm::StringRef Callee,
                     unsigned N = 0, bool CountExits = false) {
    const CallExpr *C = call(Function, Callee, N);
    if (!C)
      return Uniformity::Block;
    return in(Function).controlAt(C, CountExits).Base;
  }

  std::unique_ptr<ASTUnit> AST;
  std::unique_ptr<UniformityAnalysis> Analysis;
};

constexpr Uniformity Block = Uniformity::Block;
constexpr Uniformity Warp = Uniformity::Warp;
constexpr Uniformity Thread = Uniformity::Thread;

} // namespace

TEST(Uniformity, Sources) {
  CudaTU TU(R"cu(
    __global__ void k(const int *flags, int n, int *counter) {
      use(threadIdx.x);                        // 0
      use(blockIdx.x + blockDim.x * gridDim.x);// 1
      use(n);                                  // 2
      use(flags[blockIdx.x]);                  // 3
      use(flags[threadIdx.x]);                 // 4
      use(atomicAdd(counter, 1));              // 5
      use(__syncthreads_or(threadIdx.x == 0)); // 6
      use(clock());                            // 7
      use(__shfl_down_sync(0xffffffff, n, 1)); // 8
      use(__ballot_sync(0xffffffff, flags[threadIdx.x] > 0)); // 9
      use(42);                                 // 10
      unsigned lane;
      asm("mov.u32 %0, %%laneid;" : "=r"(lane));
      use(lane);                               // 11
      use(__shfl_sync(0xffffffff, flags[threadIdx.x], 0)); // 12
      use(cg::this_thread_block().thread_rank()); // 13
    }
  )cu");
  Uniformity Expected[] = {Thread, Block,  Block,  Block,  Thread,
                           Thread, Block,  Thread, Thread, Warp,
                           Block,  Thread, Warp,   Thread};
  for (unsigned I = 0; I < std::size(Expected); ++I)
    EXPECT_EQ(TU.used("k", I), Expected[I]) << "use #" << I;
}

TEST(Uniformity, WarpUniformShapes) {
  const char *Code = R"cu(
    __global__ void k(int n) {
      int tid = threadIdx.x;
      use(tid / 32);            // 0
      use(tid >> 5);            // 1
      use(tid < 32);            // 2
      use(tid >= 64);           // 3
      use(tid <= 63);           // 4
      use(tid < 16);            // 5
      use(tid % 32);            // 6
      use(tid & 31);            // 7
      use(tid / 32 == 0);       // 8
      int gid = blockIdx.x * blockDim.x + threadIdx.x;
      use(gid / warpSize);      // 9
      use(threadIdx.x < blockDim.x); // 10
      use((tid + 1) / 32);      // 11
      use(threadIdx.y / 32);    // 12
      auto tile = cg::tiled_partition<32>(cg::this_thread_block());
      use(tile.meta_group_rank()); // 13
      auto half = cg::tiled_partition<16>(cg::this_thread_block());
      use(half.meta_group_rank()); // 14
      use(tid < n);             // 15
    }
  )cu";
  CudaTU TU(Code);
  // #10, `threadIdx.x < blockDim.x`, holds in every thread (threadIdx.x is
  // below blockDim.x): block-uniform, with or without the assumption.
  Uniformity Expected[] = {Warp,   Warp,   Warp,   Warp,  Warp, Thread,
                           Thread, Thread, Warp,   Warp,  Block, Thread,
                           Thread, Warp,   Thread, Thread};
  for (unsigned I = 0; I < std::size(Expected); ++I)
    EXPECT_EQ(TU.used("k", I), Expected[I]) << "use #" << I;

  // Without the assumption on blockDim.x nothing from threadIdx is
  // warp-uniform.
  UniformityOptions NoAssumption;
  NoAssumption.BlockSizeMultipleOf32 = false;
  CudaTU Strict(Code, NoAssumption);
  EXPECT_EQ(Strict.used("k", 0), Thread);
  EXPECT_EQ(Strict.used("k", 2), Thread);
  EXPECT_EQ(Strict.used("k", 10), Block);
}

TEST(Uniformity, AffineForms) {
  const char *Code = R"cu(
    __device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
    __global__ void k(int n, unsigned base, const int *p) {
      int j = blockIdx.x * blockDim.x + threadIdx.x;
      use(j - threadIdx.x);                          // 0
      use(gid() - (int)threadIdx.x);                 // 1
      int first = 4 * threadIdx.x + n, last = first + 8;
      use(last - first);                             // 2
      use(-(int)threadIdx.x + j);                    // 3
      use((j << 2) - 4 * (int)threadIdx.x);          // 4
      use(j / 4 - threadIdx.x / 4);                  // 5
      use(j / 3 - threadIdx.x / 3);                  // 6
      use((base + threadIdx.x) / 2 - threadIdx.x / 2); // 7
      use(j - 2 * threadIdx.x);                      // 8
      use(threadIdx.y * 16 + threadIdx.x - threadIdx.x); // 9
      use(p[j] - p[threadIdx.x]);                    // 10
      auto block = cg::this_thread_block();
      use(block.thread_rank() - threadIdx.x);        // 11
      use(j / 8 - block.thread_rank() / 8);          // 12
      use(threadIdx.x * n - threadIdx.x * n);        // 13
      for (int i = j; i - threadIdx.x < n; i += gridDim.x * blockDim.x)
        use(i - threadIdx.x);                        // 14
      int m = j;
      if (threadIdx.x < 7)
        m += 1;
      use(m - threadIdx.x);                          // 15
      int w = j;
      if (threadIdx.x < 64)
        w += 32;
      use(w - threadIdx.x);                          // 16
    }
  )cu";
  CudaTU TU(Code);
  Uniformity Expected[] = {Block,  Block,  Block, Block,  Block, Block,
                           Thread, Thread, Thread, Thread, Thread, Block,
                           Block,  Thread, Block, Thread, Warp};
  for (unsigned I = 0; I < std::size(Expected); ++I)
    EXPECT_EQ(TU.used("k", I), Expected[I]) << "use #" << I;

  // A client that proves uniformity does not assume one-dimensional blocks:
  // the rank's rows are the same only within a warp.
  UniformityOptions Proof;
  Proof.OpaqueCallsVary = true;
  CudaTU Strict(Code, Proof);
  EXPECT_EQ(Strict.used("k", 0), Block);
  EXPECT_EQ(Strict.used("k", 11), Warp);
  EXPECT_EQ(Strict.used("k", 12), Warp);
}

TEST(Uniformity, AffineFormsThroughParameters) {
  CudaTU TU(R"cu(
    __device__ int gid() { return blockIdx.x * blockDim.x + threadIdx.x; }
    __device__ void rebased(int j, int n) {
      while (j - threadIdx.x < n) {
        __syncthreads();
        j += gridDim.x * blockDim.x;
      }
    }
    __device__ void forwards(int j, int n) { rebased(j, n); }
    __device__ void offset(int j, int n) {
      if (j + threadIdx.x < n)
        __syncthreads();
    }
    __global__ void k(int n) {
      rebased(gid(), n);                                  // 0: cancels
      rebased(blockIdx.x * blockDim.x, n);                // 1: j uniform
      rebased(gid() + threadIdx.x, n);                    // 2: 2x, 1x
      forwards(gid(), n);                                 // 3: through two
      forwards(2 * gid(), n);                             // 4
      offset(gid(), n);                                   // 5: not a rebase
    }
  )cu");
  // In the helper the test varies only through the parameter: the callers
  // judge it (not a report inside), and the summary says which parameter.
  const FunctionUniformity &Rebased = TU.in("rebased");
  UniformValue Ctl = Rebased.controlAt(Rebased.barriers()[0].Site);
  EXPECT_EQ(Ctl.Base, Thread);
  // 'j' (bit 0); 'n' comes in too, through the loop's control of 'j'.
  EXPECT_TRUE(Ctl.Mixed & 1u);
  EXPECT_EQ(ownLevel(Ctl), Block);
  const FunctionSummary *S = TU.Analysis->summary(TU.function("rebased"));
  ASSERT_NE(S, nullptr);
  EXPECT_TRUE(S->BarrierControl.Mixed & 1u);
  // A sum with the thread index is not a rebase: varying in the helper.
  const FunctionUniformity &Offset = TU.in("offset");
  EXPECT_EQ(ownLevel(Offset.controlAt(Offset.barriers()[0].Site)), Thread);

  const FunctionUniformity &K = TU.in("k");
  auto At = [&](unsigned I) {
    const BarrierSite &B = K.barriers()[I];
    return ownLevel(TU.Analysis->boundBarrierControl(
        K, cast<CallExpr>(B.Site), B.Callee));
  };
  ASSERT_EQ(K.barriers().size(), 6u);
  EXPECT_EQ(At(0), Block);
  EXPECT_EQ(At(1), Thread);
  EXPECT_EQ(At(2), Thread);
  EXPECT_EQ(At(3), Block);
  EXPECT_EQ(At(4), Thread);
  // Without the bound analysis (substitution alone) a rebase bound to a
  // concrete argument stays thread-varying: no client is misled.
  EXPECT_EQ(K.substitute(S->BarrierControl,
                         cast<CallExpr>(K.barriers()[0].Site))
                .Base,
            Thread);
}

TEST(Uniformity, LocalsRelatedBySymbols) {
  CudaTU TU(R"cu(
    __device__ int load(const int *p) { int v = p[threadIdx.x]; return v; }
    __global__ void k(const int *p, const float *fp, int n) {
      int first = p[threadIdx.x];
      int last = first + 8;
      use(last - first);                             // 0
      if (threadIdx.x & 1)
        first += n;
      int hi = first + 2 * n;
      use(hi - first);                               // 1: after the branch
      use(hi - last);                                // 2: 'first' moved
      use(last - first);                             // 3
      int twice = 2 * first;
      use(twice / 2 - first);                        // 4
      use((first + 1) / 2 - first / 2);              // 5: rounded
      float f = fp[threadIdx.x], g = f + 1.0f;
      use(g - f);                                    // 6: floats round
      for (int r = 0; r < n; ++r) {
        int a = p[r * 32 + threadIdx.x];
        int b = a + r;
        use(b - a);                                  // 7
        use(last - a);                               // 8
      }
      int carried = 0, cur = 0;
      for (int r = 0; r < n; ++r) {
        cur = p[r + threadIdx.x];
        use(carried - cur);                          // 9: the last round's
        carried = cur + 1;
      }
      short s = first;
      use(first - s);                                // 10: cut
      use(load(p) - load(p));                        // 11: two calls
      int u = load(p), w = u - 3;
      use(u - w);                                    // 12
      int sel = threadIdx.x < 5 ? first : hi;
      use(sel - first);                              // 13
    }
  )cu");
  Uniformity Expected[] = {Block,  Block,  Thread, Thread, Block,
                           Thread, Thread, Block,  Thread, Thread,
                           Thread, Thread, Block,  Thread};
  for (unsigned I = 0; I < std::size(Expected); ++I)
    EXPECT_EQ(TU.used("k", I), Expected[I]) << "use #" << I;
  // A symbol stays in its function: the helper returns a thread-varying
  // value with no symbol.
  const FunctionSummary *S = TU.Analysis->summary(TU.function("load"));
  ASSERT_NE(S, nullptr);
  EXPECT_EQ(S->Return.Base, Thread);
  EXPECT_EQ(S->Return.SymMul, 0);
}

TEST(Uniformity, LaunchFacts) {
  const char *Code = R"cu(
    __global__ void k(int n, int m) {
      use(threadIdx.y);                                   // 0: one row
      use((blockIdx.x * blockDim.x + threadIdx.x) / 128); // 1
      use((blockIdx.x * blockDim.x + threadIdx.x) / 64);  // 2: warps
      for (int i = threadIdx.x; i < n; i += 128)
        use(i < n);                                       // 3: 128 | n
      for (int i = threadIdx.x; i < m; i += 128)
        use(i < m);                                       // 4: m odd
      use(threadIdx.x < 128);                             // 5
      use(threadIdx.x > 0);                               // 6
      use(128 * n - (int)threadIdx.x >= 0);               // 7
      use(128 * n - (int)threadIdx.x > 0);                // 8
    }
  )cu";
  // Blocks of 128 threads, n a multiple of 1024 at every launch.
  CudaTU TU(Code);
  TU.Analysis->setLaunchFacts([](const FunctionDecl *) {
    LaunchFacts F;
    F.MaxThreads = {128, 1, 1};
    F.BlockDim = {128, 1, 1};
    F.ParamPow2 = {10, 0};
    return F;
  });
  Uniformity Expected[] = {Block, Block,  Warp,   Block, Thread,
                           Block, Thread, Thread, Block};
  for (unsigned I = 0; I < std::size(Expected); ++I)
    EXPECT_EQ(TU.used("k", I), Expected[I]) << "use #" << I;
  // Without them nothing is known of the block.
  CudaTU Unknown(Code);
  for (unsigned I : {0u, 3u, 8u})
    EXPECT_EQ(Unknown.used("k", I), Thread) << "use #" << I;
  EXPECT_EQ(Unknown.used("k", 1), Warp);
  EXPECT_EQ(Unknown.used("k", 5), Warp);
}

TEST(Uniformity, TemplateParametersPinnedByIfConstexpr) {
  CudaTU TU(R"cu(
    template <int CG> __global__ void k(long n) {
      auto block = cg::this_thread_block();
      long t = block.thread_rank();
      long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
      while (idx - t / CG < n) {
        if constexpr (CG == 1) {
          block.sync();
        } else {
          block.sync();
        }
        if constexpr (CG != 2) {
        } else {
          block.sync();
        }
        if constexpr (CG == 3)
          block.sync();
        idx += gridDim.x * (long)blockDim.x / CG;
      }
    }
  )cu");
  const FunctionDecl *F = TU.function("k");
  const FunctionUniformity *FU = TU.Analysis->analyze(F);
  ASSERT_NE(FU, nullptr);
  auto Barriers = FU->barriers();
  ASSERT_EQ(Barriers.size(), 4u);
  auto Pinned = [&](unsigned I) -> std::optional<Uniformity> {
    const FunctionUniformity *P =
        TU.Analysis->analyzePinnedAt(F, Barriers[I].Site);
    if (!P)
      return std::nullopt;
    return P->controlAt(Barriers[I].Site).Base;
  };
  // Unknown CG: the test varies.
  EXPECT_EQ(FU->controlAt(Barriers[0].Site).Base, Thread);
  EXPECT_EQ(Pinned(0), Block);         // CG == 1
  EXPECT_EQ(Pinned(1), std::nullopt);  // the else of CG == 1 fixes nothing
  EXPECT_EQ(Pinned(2), Block);         // the else of CG != 2
  EXPECT_EQ(Pinned(3), Thread);        // CG == 3 does not divide the base

  // A static_assert in the body pins CG wherever the barrier is, unless it
  // is in an `if constexpr` branch that does not hold the barrier.
  CudaTU Asserted(R"cu(
    template <int CG, bool Staged> __global__ void k(long n) {
      static_assert(CG > 0 && CG == 1, "one thread per group");
      auto block = cg::this_thread_block();
      long t = block.thread_rank();
      long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
      while (idx - t / CG < n) {
        block.sync();
        idx += gridDim.x * (long)blockDim.x / CG;
      }
    }
    template <int CG, bool Staged> __global__ void m(long n) {
      if constexpr (Staged) {
        static_assert(CG == 1, "staged: one thread per group");
      }
      auto block = cg::this_thread_block();
      long t = block.thread_rank();
      long idx = (blockIdx.x * (long)blockDim.x + threadIdx.x) / CG;
      while (idx - t / CG < n) {
        block.sync();
        idx += gridDim.x * (long)blockDim.x / CG;
      }
    }
  )cu");
  for (auto [Name, Expected] : {std::pair("k", std::optional(Block)),
                                std::pair("m", std::optional<Uniformity>())}) {
    const FunctionDecl *G = Asserted.function(Name);
    const FunctionUniformity *GU = Asserted.Analysis->analyze(G);
    ASSERT_NE(GU, nullptr);
    ASSERT_EQ(GU->barriers().size(), 1u);
    const Stmt *Site = GU->barriers()[0].Site;
    EXPECT_EQ(GU->controlAt(Site).Base, Thread) << Name;
    const FunctionUniformity *P = Asserted.Analysis->analyzePinnedAt(G, Site);
    EXPECT_EQ(P ? std::optional(P->controlAt(Site).Base) : std::nullopt,
              Expected)
        << Name;
  }
}

TEST(Uniformity, AssignmentsAndMerges) {
  CudaTU TU(R"cu(
    __global__ void k(int n) {
      int x = threadIdx.x;
      use(x);                    // 0
      x = blockIdx.x;
      use(x);                    // 1
      int y = 0;
      if (threadIdx.x == 0)
        y = 1;
      use(y);                    // 2: merged after a varying branch
      int z = 0;
      if (blockIdx.x == 0)
        z = 1;
      use(z);                    // 3: merged after a uniform branch
      int w = n;
      w += threadIdx.x;
      use(w);                    // 4
      int v = 0;
      v++;
      use(v);                    // 5
      int arr[4] = {0, 0, 0, 0};
      arr[threadIdx.x % 4] = 1;
      use(arr[0]);               // 6: an element chosen by the thread
    }
  )cu");
  EXPECT_EQ(TU.used("k", 0), Thread);
  EXPECT_EQ(TU.used("k", 1), Block);
  EXPECT_EQ(TU.used("k", 2), Thread);
  EXPECT_EQ(TU.used("k", 3), Block);
  EXPECT_EQ(TU.used("k", 4), Thread);
  EXPECT_EQ(TU.used("k", 5), Block);
  EXPECT_EQ(TU.used("k", 6), Thread);
}

TEST(Uniformity, LoopsReachAFixedPoint) {
  CudaTU TU(R"cu(
    __global__ void k(int n) {
      int a = 0, b = 0;
      for (int i = 0; i < n; ++i) {
        use(a);                  // 0: varying from the second iteration
        a = b;
        b = threadIdx.x;
      }
      int sum = 0;
      for (int i = threadIdx.x; i < n; i += blockDim.x)
        sum += 1;
      use(sum);                  // 1: the trip count varies
      int steps = 0;
      for (int s = blockDim.x / 2; s > 0; s >>= 1)
        ++steps;
      use(steps);                // 2
      int k2 = 0;
      for (; k2 < n; ++k2)
        if (threadIdx.x == k2)
          break;
      use(k2);                   // 3: a varying break
    }
  )cu");
  EXPECT_EQ(TU.used("k", 0), Thread);
  EXPECT_EQ(TU.used("k", 1), Thread);
  EXPECT_EQ(TU.used("k", 2), Block);
  EXPECT_EQ(TU.used("k", 3), Thread);
}

TEST(Uniformity, ControlDependence) {
  CudaTU TU(R"cu(
    __global__ void k(const int *flags, int n) {
      if (threadIdx.x < 16)
        __syncthreads();         // 0
      if (blockIdx.x < n)
        __syncthreads();         // 1
      if (threadIdx.x / 32 == 1)
        __syncthreads();         // 2
      __syncthreads();           // 3: after the join
      for (int i = threadIdx.x; i < n; i += blockDim.x)
        __syncthreads();         // 4
      for (int t = 0; t < n; t += 32)
        __syncthreads();         // 5
      if (__syncthreads_or(flags[threadIdx.x]))
        __syncthreads();         // 6 (the 7th call: the _or is its own)
      while (flags[threadIdx.x] > 0)
        __syncthreads();         // 7
    }
    __global__ void early(int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i >= n)
        return;
      __syncthreads();
    }
    __device__ void helper(int n) {
      if (threadIdx.x >= n)
        return;
      __syncthreads();
    }
  )cu");
  EXPECT_EQ(TU.control("k", "__syncthreads", 0), Thread);
  EXPECT_EQ(TU.control("k", "__syncthreads", 1), Block);
  EXPECT_EQ(TU.control("k", "__syncthreads", 2), Warp);
  EXPECT_EQ(TU.control("k", "__syncthreads", 3), Block);
  EXPECT_EQ(TU.control("k", "__syncthreads", 4), Thread);
  EXPECT_EQ(TU.control("k", "__syncthreads", 5), Block);
  EXPECT_EQ(TU.control("k", "__syncthreads", 6), Block);
  EXPECT_EQ(TU.control("k", "__syncthreads", 7), Thread);
  // Threads that exit a kernel do not take part, unless counted.
  EXPECT_EQ(TU.control("early", "__syncthreads"), Block);
  EXPECT_EQ(TU.control("early", "__syncthreads", 0, /*CountExits=*/true),
            Thread);
  // A thread that returns from a device function is still alive.
  EXPECT_EQ(TU.control("helper", "__syncthreads"), Thread);

  const FunctionUniformity &FU = TU.in("k");
  auto Cause = FU.causeAt(TU.call("k", "__syncthreads", 4), Warp);
  ASSERT_TRUE(Cause.has_value());
  EXPECT_EQ(Cause->K, DivergenceCause::Loop);
  auto Early = TU.in("early").causeAt(TU.call("early", "__syncthreads"), Thread,
                                      0, /*CountKernelExits=*/true);
  ASSERT_TRUE(Early.has_value());
  EXPECT_NE(Early->Return, nullptr);
}

TEST(Uniformity, Summaries) {
  CudaTU TU(R"cu(
    __device__ int laneId() { return threadIdx.x & 31; }
    __device__ int twice(int k) { return 2 * k; }
    __device__ void blockSync() { __syncthreads(); }
    __device__ void wrapper() { blockSync(); }
    __device__ void syncIf(int k) {
      if (k < 16)
        __syncthreads();
    }
    __device__ void store(int *out) { *out = threadIdx.x; }
    __global__ void k(int n) {
      use(laneId());             // 0
      use(twice(n));             // 1
      use(twice(threadIdx.x));   // 2
      int v = 0;
      store(&v);
      use(v);                    // 3
      if (threadIdx.x == 0)
        wrapper();
      syncIf(n);
      syncIf(threadIdx.x);
    }
  )cu");
  EXPECT_EQ(TU.used("k", 0), Thread);
  EXPECT_EQ(TU.used("k", 1), Block);
  EXPECT_EQ(TU.used("k", 2), Thread);
  EXPECT_EQ(TU.used("k", 3), Thread);

  const FunctionSummary *Wrapper = TU.Analysis->summary(TU.function("wrapper"));
  ASSERT_NE(Wrapper, nullptr);
  EXPECT_TRUE(Wrapper->ReachesBarrier);
  EXPECT_EQ(Wrapper->FirstBarrier.Name, "__syncthreads");
  const FunctionSummary *SyncIf = TU.Analysis->summary(TU.function("syncIf"));
  ASSERT_NE(SyncIf, nullptr);
  EXPECT_EQ(SyncIf->BarrierControl.Params, 1u);
  EXPECT_FALSE(TU.Analysis->summary(TU.function("laneId"))->ReachesBarrier);

  const FunctionUniformity &FU = TU.in("k");
  // The call sites that reach barriers, in source order.
  auto Barriers = FU.barriers();
  ASSERT_EQ(Barriers.size(), 3u);
  EXPECT_EQ(FU.controlAt(Barriers[0].Site).Base, Thread);
  const auto *First = cast<CallExpr>(Barriers[1].Site);
  const auto *Second = cast<CallExpr>(Barriers[2].Site);
  EXPECT_EQ(FU.substitute(SyncIf->BarrierControl, First).Base, Block);
  EXPECT_EQ(FU.substitute(SyncIf->BarrierControl, Second).Base, Thread);
}

TEST(Uniformity, LambdasTemplatesAndMembers) {
  CudaTU TU(R"cu(
    template <typename T> __device__ T scale(T v, T f) { return v * f; }
    struct Acc {
      int total = 0;
      __device__ void add(int v) { total += v; }
      __device__ int get() const { return total; }
    };
    __global__ void k(int n) {
      int tid = threadIdx.x;
      auto byLane = [=](int v) { return v + tid; };
      use(byLane(n));            // 0
      auto pure = [](int v) { return v + 1; };
      use(pure(n));              // 1
      use(scale(n, 2));          // 2
      use(scale<float>(tid, 2.0f)); // 3
      Acc a;
      a.add(n);
      use(a.get());              // 4
      a.add(tid);
      use(a.get());              // 5
    }
  )cu");
  EXPECT_EQ(TU.used("k", 0), Thread);
  EXPECT_EQ(TU.used("k", 1), Block);
  EXPECT_EQ(TU.used("k", 2), Block);
  EXPECT_EQ(TU.used("k", 3), Thread);
  EXPECT_EQ(TU.used("k", 4), Block);
  EXPECT_EQ(TU.used("k", 5), Thread);
}

TEST(Uniformity, OpaqueCalls) {
  const char *Code = R"cu(
    __device__ int external(int);
    __global__ void k(int n) {
      use(external(n));          // 0
      int x = n;
      int *p = &x;
      use(x);                    // 1
    }
  )cu";
  CudaTU Optimistic(Code);
  EXPECT_EQ(Optimistic.used("k", 0), Block);
  EXPECT_EQ(Optimistic.used("k", 1), Block);
  UniformityOptions Opts;
  Opts.OpaqueCallsVary = true;
  CudaTU Pessimistic(Code, Opts);
  EXPECT_EQ(Pessimistic.used("k", 0), Thread);
  EXPECT_EQ(Pessimistic.used("k", 1), Thread);
}

TEST(Uniformity, BarrierRecognition) {
  CudaTU TU(R"cu(
    __global__ void k() {
      __syncthreads();
      cg::this_thread_block().sync();
      cg::thread_block block = cg::this_thread_block();
      cg::sync(block);
      auto tile = cg::tiled_partition<32>(block);
      tile.sync();
      cg::sync(tile);
      asm volatile("bar.sync 0;");
      asm volatile("bar.sync 1, 64;");
      __syncwarp();
      __syncwarp(0xffff);
    }
  )cu");
  std::vector<std::string> Names;
  for (const BarrierSite &B : TU.in("k").barriers())
    Names.push_back(B.Name + (B.WarpBarrier ? " (warp)" : ""));
  std::vector<std::string> Expected = {"__syncthreads", "thread_block::sync",
                                       "cooperative_groups::sync", "bar.sync",
                                       "__syncwarp (warp)"};
  EXPECT_EQ(Names, Expected);
}

TEST(Uniformity, Explanations) {
  CudaTU TU(R"cu(
    __global__ void k(int *data) {
      int tid = threadIdx.x;
      bool leader = false;
      if (tid % 32 == 0)
        leader = true;
      if (leader)
        __syncthreads();
    }
  )cu");
  const FunctionUniformity &FU = TU.in("k");
  auto Cause = FU.causeAt(TU.call("k", "__syncthreads"), Thread);
  ASSERT_TRUE(Cause.has_value());
  llvm::SmallVector<TraceStep, 4> Trace;
  ValueSource Source = FU.describe(Cause->Condition, Thread, &Trace);
  EXPECT_EQ(Source.Kind, ValueSource::Named);
  EXPECT_EQ(Source.Name, "leader");
  ASSERT_EQ(Trace.size(), 2u);
  // 'leader' is set under a condition on 'tid'...
  EXPECT_EQ(Trace[0].Var, "leader");
  EXPECT_EQ(Trace[0].How, TraceStep::UnderCondition);
  EXPECT_EQ(Trace[0].Source.Name, "tid");
  // ...and 'tid' from 'threadIdx.x'.
  EXPECT_EQ(Trace[1].Var, "tid");
  EXPECT_EQ(Trace[1].How, TraceStep::From);
  EXPECT_EQ(Trace[1].Source.Kind, ValueSource::Named);
  EXPECT_EQ(Trace[1].Source.Name, "threadIdx.x");
}

TEST(Uniformity, OddInputDoesNotCrash) {
  CudaTU TU(R"cu(
    __global__ void broken(int n) {
      int x = undeclared + threadIdx.x;
      if (x) __syncthreads();
    }
    template <typename T> __global__ void dependent(T v) {
      if (v < threadIdx.x) __syncthreads();
    }
    __device__ int recursive(int n) {
      return n > 0 ? recursive(n - 1) + threadIdx.x : 0;
    }
    __global__ void k(int n) {
      use(recursive(n));
      goto done;
    done:
      __syncthreads();
    }
  )cu");
  UniformityAnalysis &A = *TU.Analysis;
  (void)A.analyze(TU.function("broken"));
  // A template pattern is analysed as written: its barrier is under a
  // condition on threadIdx.x whatever T is.
  const FunctionUniformity *Dep = A.analyze(TU.function("dependent"));
  ASSERT_NE(Dep, nullptr);
  ASSERT_EQ(Dep->barriers().size(), 1u);
  EXPECT_EQ(Dep->controlAt(Dep->barriers()[0].Site).Base, Thread);
  EXPECT_NE(A.analyze(TU.function("recursive")), nullptr);
  EXPECT_EQ(TU.used("k", 0), Thread);
  EXPECT_EQ(TU.control("k", "__syncthreads"), Block);
}
