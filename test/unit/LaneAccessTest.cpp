//===--- LaneAccessTest.cpp - Tests of the lane model -------------------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "lib/AnalysisContext.h"
#include "lib/exchanges/WarpExchanges.h"
#include "lib/lanes/LaneModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace clang::ast_matchers;
using namespace cuda_tidy;

namespace {

std::unique_ptr<ASTUnit> parse(StringRef Code) {
  std::vector<std::string> Args = {"-xcuda",
                                   "--cuda-device-only",
                                   "-nocudainc",
                                   "-nocudalib",
                                   "--cuda-gpu-arch=sm_90",
                                   "-Wno-unknown-cuda-version",
                                   "-isystem",
                                   std::string(CUDA_TIDY_SOURCE_DIR) +
                                       "/test/Inputs/cuda"};
  return tooling::buildASTFromCodeWithArgs(
      "#include <cuda_runtime.h>\n" + Code.str(), Args, "input.cu");
}

std::unique_ptr<ASTUnit> parseWithGroups(StringRef Code) {
  return parse("#include <cooperative_groups.h>\n"
               "namespace cg = cooperative_groups;\n" +
               Code.str());
}

/// The right-hand side of the store to `p[I]`.
const Expr *storedTo(ASTContext &Ctx, unsigned I) {
  auto Found =
      match(binaryOperator(isAssignmentOperator(),
                           hasLHS(arraySubscriptExpr(
                               hasBase(ignoringParenImpCasts(
                                   declRefExpr(to(varDecl(hasName("p")))))),
                               hasIndex(integerLiteral(equals(I))))))
                .bind("a"),
            Ctx);
  if (Found.empty())
    return nullptr;
  return Found.front().getNodeAs<BinaryOperator>("a")->getRHS();
}

const FunctionDecl *kernel(ASTContext &Ctx) {
  return selectFirst<FunctionDecl>(
      "f", match(functionDecl(hasName("k"), isDefinition()).bind("f"), Ctx));
}

/// The lane model of a translation unit and the warp-exchange finder over
/// it, as the checks get them from the analysis context.
class TestLanes {
public:
  explicit TestLanes(ASTContext &Ctx)
      : Model(AnalysisContext::get(Ctx, {}).lanes()),
        Finder(AnalysisContext::get(Ctx, {}).warpExchanges()) {}
  void run() { Finder.run(); }
  llvm::ArrayRef<WarpExchange> exchanges() const { return Finder.exchanges(); }
  std::optional<uint32_t> statementMask(const Stmt *S) const {
    return Finder.statementMask(S);
  }
  template <typename... Args> auto statementOf(Args &&...A) {
    return Model.statementOf(std::forward<Args>(A)...);
  }
  template <typename... Args> auto guardMask(Args &&...A) {
    return Model.guardMask(std::forward<Args>(A)...);
  }

  // The model's evaluators reached directly, for tests (no check asks
  // these).

  /// Evaluates integer expression E in function F (standalone: parameters
  /// unknown) for one thread index and block size; std::nullopt when the
  /// model cannot.
  std::optional<int64_t> evaluateAt(const Expr *E, const FunctionDecl *F,
                                    unsigned ThreadIdxX, unsigned BlockDimX) {
    lanes::Frame Fr{F, nullptr, nullptr};
    lanes::Env En;
    En.Tid = ThreadIdxX;
    En.BlockDim = BlockDimX;
    if (!Model.Facts.info(F).Ok)
      return std::nullopt;
    return Model.Values.eval(E, Fr, En);
  }

  /// The lanes of each warp of a one-dimensional block of BlockDimX threads
  /// (a multiple of 32) in which condition E of F, analysed on its own,
  /// holds: the whole block evaluated at once when AtOnce (std::nullopt
  /// where that evaluation does not apply), else warp by warp (std::nullopt
  /// where a lane's value is unknown). Both must agree.
  std::optional<std::vector<uint32_t>> conditionLanes(const Expr *E,
                                                      const FunctionDecl *F,
                                                      unsigned BlockDimX,
                                                      bool AtOnce) {
    lanes::Frame Fr{F, nullptr, nullptr};
    lanes::Env En;
    if (!E || !testBlock(F, BlockDimX, En))
      return std::nullopt;
    const lanes::Cond C[] = {{E, /*Taken=*/true, /*Varying=*/true}};
    std::vector<uint32_t> Lanes(BlockDimX / 32);
    if (AtOnce) {
      const lanes::BlockGuard *G = Model.Block.blockGuard(C, Fr, En);
      if (!G)
        return std::nullopt;
      std::copy(G->Lanes, G->Lanes + Lanes.size(), Lanes.begin());
      return Lanes;
    }
    for (unsigned W = 0; W < Lanes.size(); ++W) {
      En.Tid = W * 32;
      uint32_t Unknown = 0;
      Lanes[W] = Model.Guards.evalGuard(C, Fr, En, cuda_tidy::FullLaneMask,
                                        Unknown, nullptr);
      if (Unknown)
        return std::nullopt;
    }
    return Lanes;
  }

  /// The byte offset, in its object, of the element lvalue E of F (on its
  /// own) designates in each thread of a one-dimensional block of
  /// BlockDimX threads: for the whole block at once when AtOnce (only
  /// `base[index]` with a base all threads share; std::nullopt otherwise),
  /// else warp by warp (std::nullopt where a lane's is unknown). Both must
  /// agree.
  std::optional<std::vector<int64_t>> elementBytes(const Expr *E,
                                                   const FunctionDecl *F,
                                                   unsigned BlockDimX,
                                                   bool AtOnce) {
    lanes::Frame Fr{F, nullptr, nullptr};
    lanes::Env En;
    if (!E || !testBlock(F, BlockDimX, En))
      return std::nullopt;
    std::vector<int64_t> Bytes(BlockDimX);
    const unsigned NumWarps = BlockDimX / 32;
    if (AtOnce) {
      lanes::BlockAddress BA;
      if (!Model.Block.blockAddress(E, Fr, En, NumWarps, BA))
        return std::nullopt;
      for (unsigned T = 0; T < BlockDimX; ++T)
        Bytes[T] = BA.byteAt(T / 32, T % 32);
      return Bytes;
    }
    for (unsigned W = 0; W < NumWarps; ++W) {
      En.Tid = W * 32;
      lanes::Addrs A =
          Model.Addresses.evalObjW(E, Fr, En, cuda_tidy::FullLaneMask);
      if (A.Valid != cuda_tidy::FullLaneMask)
        return std::nullopt;
      for (unsigned L = 0; L < 32; ++L)
        Bytes[W * 32 + L] = A.Byte[L];
    }
    return Bytes;
  }

private:
  /// F can be analysed and BlockDimX is a one-dimensional block of whole
  /// warps, which En is set to.
  bool testBlock(const FunctionDecl *F, unsigned BlockDimX, lanes::Env &En) {
    if (!Model.Facts.info(F).Ok || BlockDimX % 32 != 0 || BlockDimX == 0 ||
        BlockDimX > 1024)
      return false;
    En.BlockDim = BlockDimX;
    return true;
  }

  lanes::LaneModel &Model;
  WarpExchangeFinder &Finder;
};

TEST(LaneAccess, EvaluatesLaneAffineIndices) {
  auto AST = parse(R"(
    __global__ void k(int *p) {
      unsigned tid = threadIdx.x;
      int lane = tid & 31;
      p[0] = (lane + 1) & 31;
      p[1] = lane ^ 16;
      p[2] = tid - 1;
    })");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = kernel(Ctx);
  ASSERT_TRUE(F);
  auto Rhs = [&](unsigned I) {
    auto Found = match(binaryOperator(isAssignmentOperator(),
                                      hasLHS(arraySubscriptExpr(
                                          hasIndex(integerLiteral(equals(I))))))
                           .bind("a"),
                       Ctx);
    return Found.front().getNodeAs<BinaryOperator>("a")->getRHS();
  };
  TestLanes A(Ctx);
  EXPECT_EQ(A.evaluateAt(Rhs(0), F, 31, 64), 0);
  EXPECT_EQ(A.evaluateAt(Rhs(0), F, 33, 64), 2);
  EXPECT_EQ(A.evaluateAt(Rhs(1), F, 3, 64), 19);
  // Unsigned arithmetic wraps as on the GPU.
  EXPECT_EQ(A.evaluateAt(Rhs(2)->IgnoreImpCasts(), F, 0, 64),
            int64_t(0xffffffffu));
  EXPECT_EQ(A.evaluateAt(Rhs(2), F, 0, 64), -1);
}

TEST(LaneAccess, GuardMasks) {
  auto AST = parse(R"(
    __global__ void k(int *p, int n) {
      int tid = threadIdx.x;
      int lane = tid & 31;
      if (tid < 32) p[0] = 1;
      if (tid < 16) p[1] = 1;
      if (lane >= 2) p[2] = 1;
      if (blockIdx.x < n) p[3] = 1;
      if (p[4] > 0) p[5] = 1;
      if (p[threadIdx.x] > 0) p[6] = 1;
    })");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = kernel(Ctx);
  ASSERT_TRUE(F);
  auto Store = [&](unsigned I) -> const Stmt * {
    auto Found = match(binaryOperator(isAssignmentOperator(),
                                      hasLHS(arraySubscriptExpr(
                                          hasIndex(integerLiteral(equals(I))))))
                           .bind("a"),
                       Ctx);
    return Found.front().getNodeAs<BinaryOperator>("a");
  };
  TestLanes A(Ctx);
  EXPECT_EQ(A.guardMask(Store(0), F), FullLaneMask);
  EXPECT_EQ(A.guardMask(Store(1), F), 0x0000ffffu);
  EXPECT_EQ(A.guardMask(Store(2), F), 0xfffffffcu);
  EXPECT_EQ(A.guardMask(Store(3), F), FullLaneMask);
  // A load from one address for every thread: the uniformity analysis
  // proves it the same in the whole warp.
  EXPECT_EQ(A.guardMask(Store(5), F), FullLaneMask);
  // A load indexed by the thread: unknown.
  EXPECT_EQ(A.guardMask(Store(6), F), std::nullopt);
}

TEST(LaneAccess, GridStrideKeepsLaneShape) {
  auto AST = parse(R"(
    __global__ void k(int *p, int iters) {
      int tid = blockIdx.x * blockDim.x + threadIdx.x;
      int odd = tid;
      int it = 0;
      for (; it < iters; ++it, tid += blockDim.x * gridDim.x, odd += 16) {
        if (((tid >> 5) & 1) == 0)
          p[0] = 1;
        if (((odd >> 5) & 1) == 0)
          p[1] = 1;
        if (tid / 64 > 2)
          p[2] = 1;
      }
    })");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = kernel(Ctx);
  ASSERT_TRUE(F);
  TestLanes A(Ctx);
  auto MaskOf = [&](unsigned I) -> std::optional<uint32_t> {
    const Stmt *S = A.statementOf(storedTo(Ctx, I), F);
    return S ? A.guardMask(S, F) : std::nullopt;
  };
  // A multiple of 32 plus the lane: whole warps pass.
  EXPECT_EQ(MaskOf(0), FullLaneMask);
  EXPECT_EQ(MaskOf(2), FullLaneMask);
  // Advanced by 16: unknown.
  EXPECT_EQ(MaskOf(1), std::nullopt);
}

TEST(LaneAccess, FindsExchangesAndNotOwnSlots) {
  auto AST = parse(R"(
    __device__ void warpReduce(volatile int *s, int tid) {
      s[tid] += s[tid + 16];
    }
    __global__ void k(int *out) {
      __shared__ int s[64];
      int tid = threadIdx.x;
      s[tid] = out[tid];
      __syncthreads();
      s[tid] *= 2;
      __syncthreads();
      if (tid < 32)
        warpReduce(s, tid);
      out[tid] = s[tid];
    })");
  ASSERT_TRUE(AST);
  TestLanes A(AST->getASTContext());
  A.run();
  ASSERT_EQ(A.exchanges().size(), 1u);
  const WarpExchange &X = A.exchanges().front();
  EXPECT_EQ(X.Func->getName(), "warpReduce");
  EXPECT_TRUE(X.Via != nullptr);
  EXPECT_EQ(X.ReaderLane, 0u);
  EXPECT_EQ(X.WriterLane, 16u);
  EXPECT_EQ(X.Shared->getName(), "s");
  EXPECT_EQ(A.statementMask(X.ReadStmt), FullLaneMask);
}

TEST(LaneAccess, BarrierSeparates) {
  auto AST = parse(R"(
    __global__ void k(int *out) {
      __shared__ int s[32];
      int lane = threadIdx.x & 31;
      s[lane] = lane;
      __syncwarp();
      out[lane] = s[(lane + 1) & 31];
    })");
  ASSERT_TRUE(AST);
  TestLanes A(AST->getASTContext());
  A.run();
  EXPECT_TRUE(A.exchanges().empty());
}

TEST(LaneAccess, EvaluatesCallsAndCooperativeRanks) {
  auto AST = parseWithGroups(R"(
    __device__ int laneOf() { return threadIdx.x & 31; }
    __device__ int clamp(int v) { if (v > 8) return 8; return 8; }
    __device__ int plusOne(int v) { return v + 1; }
    __device__ unsigned laneId() {
      unsigned l;
      asm("mov.u32 %0, %%laneid;" : "=r"(l));
      return l;
    }
    __device__ unsigned twice() {
      unsigned l;
      asm("mov.u32 %0, %%laneid;" : "=r"(l));
      asm("mov.u32 %0, %%warpid;" : "=r"(l));
      return l;
    }
    __global__ void k(int *p) {
      cg::thread_block cta = cg::this_thread_block();
      auto tile = cg::tiled_partition<16>(cta);
      p[0] = plusOne(laneOf());
      p[1] = cta.thread_rank();
      p[2] = tile.thread_rank();
      p[3] = tile.meta_group_rank();
      p[4] = cta.thread_index().x;
      p[5] = clamp(threadIdx.x);
      p[6] = laneId();
      p[7] = twice();
    })");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = kernel(Ctx);
  ASSERT_TRUE(F);
  TestLanes A(Ctx);
  EXPECT_EQ(A.evaluateAt(storedTo(Ctx, 0), F, 37, 64), 6);
  EXPECT_EQ(A.evaluateAt(storedTo(Ctx, 1), F, 37, 64), 37);
  EXPECT_EQ(A.evaluateAt(storedTo(Ctx, 2), F, 37, 64), 5);
  EXPECT_EQ(A.evaluateAt(storedTo(Ctx, 3), F, 37, 64), 2);
  EXPECT_EQ(A.evaluateAt(storedTo(Ctx, 4), F, 37, 64), 37);
  // Every return gives 8, whichever path the callee takes.
  EXPECT_EQ(A.evaluateAt(storedTo(Ctx, 5), F, 37, 64), 8);
  // The %laneid register, when it is the only write of the variable.
  EXPECT_EQ(A.evaluateAt(storedTo(Ctx, 6), F, 37, 64), 5);
  EXPECT_EQ(A.evaluateAt(storedTo(Ctx, 7), F, 37, 64), std::nullopt);
}

TEST(LaneAccess, FollowsCallsOfAnyDepth) {
  auto AST = parse(R"(
    __device__ void leaf(volatile int *s) {
      int lane = threadIdx.x & 31;
      s[lane] = lane;
      int v = s[lane ^ 1];
      s[lane + 32] = v;
    }
    __device__ void middle(int *s) {
      leaf(s);
      __syncthreads();
    }
    __global__ void k(int *out) {
      __shared__ int s[64];
      if (threadIdx.x < 32)
        middle(s);
    })");
  ASSERT_TRUE(AST);
  TestLanes A(AST->getASTContext());
  A.run();
  ASSERT_EQ(A.exchanges().size(), 1u);
  const WarpExchange &X = A.exchanges().front();
  EXPECT_EQ(X.Func->getName(), "leaf");
  ASSERT_TRUE(X.Via != nullptr);
  ASSERT_EQ(X.Callers.size(), 1u);
  EXPECT_EQ(X.Callers.front()->getDirectCallee()->getName(), "middle");
  EXPECT_EQ(X.Shared->getName(), "s");
  // Warp 0 runs the whole leaf.
  EXPECT_EQ(A.statementMask(X.ReadStmt), FullLaneMask);
}

TEST(LaneAccess, GuardMaskThroughTwoCalls) {
  auto AST = parse(R"(
    __device__ void leaf(int *p) {
      if ((threadIdx.x & 31) < 8)
        p[0] = 1;
    }
    __device__ void middle(int *p) {
      if ((threadIdx.x & 31) >= 2)
        leaf(p);
    }
    __global__ void k(int *p) { middle(p); })");
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *Leaf = selectFirst<FunctionDecl>(
      "f", match(functionDecl(hasName("leaf"), isDefinition()).bind("f"), Ctx));
  ASSERT_TRUE(Leaf);
  const Expr *Store = storedTo(Ctx, 0);
  ASSERT_TRUE(Store);
  TestLanes A(Ctx);
  const Stmt *S = A.statementOf(Store, Leaf);
  ASSERT_TRUE(S);
  EXPECT_EQ(A.guardMask(S, Leaf), 0x000000fcu);
}

TEST(LaneAccess, SharedMemoryFromConversionOperator) {
  auto AST = parse(R"(
    template <class T> struct SharedMemory {
      __device__ operator T *() {
        extern __shared__ int words[];
        return (T *)words;
      }
    };
    __global__ void k(int *out) {
      int *s = SharedMemory<int>();
      float *f = reinterpret_cast<float *>(s + 64);
      int lane = threadIdx.x & 31;
      f[lane] = 1.0f;
      out[lane] = s[64 + (lane ^ 2)];
    })");
  ASSERT_TRUE(AST);
  TestLanes A(AST->getASTContext());
  A.run();
  ASSERT_EQ(A.exchanges().size(), 1u);
  const WarpExchange &X = A.exchanges().front();
  EXPECT_EQ(X.Shared->getName(), "words");
  EXPECT_EQ(X.ReaderLane ^ X.WriterLane, 2u);
}

TEST(LaneAccess, AnalysesUninstantiatedPatternsOnly) {
  const char *Code = R"(
    template <int N> __device__ void tail(volatile float *s, int tid) {
      if (N >= 64) s[tid] += s[tid + 32];
      if (N >= 32) s[tid] += s[tid + 16];
    }
    template <int N> __global__ void k(float *out) {
      __shared__ float s[N];
      int tid = threadIdx.x;
      s[tid] = out[tid];
      __syncthreads();
      if (tid < 32) tail<N>(s, tid);
      out[tid] = s[tid];
    }
  )";
  {
    auto AST = parse(Code);
    ASSERT_TRUE(AST);
    TestLanes A(AST->getASTContext());
    A.run();
    // The read of `s[tid + 16]` with both writes that reach it.
    ASSERT_EQ(A.exchanges().size(), 2u);
    for (const WarpExchange &X : A.exchanges()) {
      EXPECT_TRUE(X.Func->isDependentContext());
      EXPECT_EQ(X.ReaderLane, 0u);
      EXPECT_EQ(X.WriterLane, 16u);
    }
  }
  {
    // With instantiations, only they are analysed.
    auto AST = parse(std::string(Code) +
                     "template __global__ void k<64>(float *);\n"
                     "template __global__ void k<128>(float *);\n");
    ASSERT_TRUE(AST);
    TestLanes A(AST->getASTContext());
    A.run();
    ASSERT_FALSE(A.exchanges().empty());
    for (const WarpExchange &X : A.exchanges())
      EXPECT_FALSE(X.Func->isDependentContext());
  }
}

TEST(LaneAccess, UnknownGuardOnBothSidesIsSilent) {
  auto AST = parse(R"(
    __global__ void k(float *o, const int *pick) {
      __shared__ float s[256];
      s[threadIdx.x] = o[threadIdx.x];
      __syncthreads();
      if (pick[threadIdx.x]) {
        float b = 0;
        for (int i = 0; i < 256; i++)
          b += s[i];
        s[0] = b;
      }
    })");
  ASSERT_TRUE(AST);
  TestLanes A(AST->getASTContext());
  A.run();
  EXPECT_TRUE(A.exchanges().empty());
}

TEST(LaneAccess, LoopThatRunsOnceOrders) {
  const char *Code = R"(
    __global__ void k(float *o, int n) {
      __shared__ float s[64];
      int t = threadIdx.x;
      s[t] = o[t];
      for (int i = 0; i < BOUND; i++)
        __syncthreads();
      o[t] = s[t ^ 1];
    })";
  for (auto [Bound, Exchanges] : {std::pair("1", 0u), std::pair("3", 0u),
                                  std::pair("n", 1u), std::pair("0", 1u)}) {
    auto AST = parse(std::string("#define BOUND ") + Bound + "\n" + Code);
    ASSERT_TRUE(AST);
    TestLanes A(AST->getASTContext());
    A.run();
    EXPECT_EQ(A.exchanges().size(), Exchanges) << "bound " << Bound;
  }
}

TEST(LaneAccess, OneLaneWriterMeetsTheWarp) {
  auto AST = parse(R"(
    __global__ void k(const int *in, int *out) {
      __shared__ int base[8];
      int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
      if (lane == 0)
        base[warp] = in[warp];
      if (in[threadIdx.x] > 0)
        out[threadIdx.x] = base[warp];
    })");
  ASSERT_TRUE(AST);
  TestLanes A(AST->getASTContext());
  A.run();
  ASSERT_EQ(A.exchanges().size(), 1u);
  const WarpExchange &X = A.exchanges().front();
  EXPECT_TRUE(X.WriteReachesRead);
  ASSERT_TRUE(X.WriteMeet != nullptr);
  EXPECT_TRUE(isa<IfStmt>(X.WriteMeet));
  EXPECT_EQ(A.statementMask(X.WriteStmt), 0x1u);
  EXPECT_EQ(A.statementMask(X.WriteMeet), FullLaneMask);
  EXPECT_EQ(X.ReadMeet, nullptr);
}

} // namespace

namespace {
/// Random integer expressions over the thread's position, for comparing
/// the block-at-once evaluation with the warp-by-warp one. Fixed seed:
/// the same expressions in every run.
class ExprGen {
public:
  std::string gen(unsigned Depth) {
    if (Depth == 0 || next(4) == 0)
      return atom();
    switch (next(5)) {
    case 0: {
      static const char *Unary[] = {"-", "~", "!"};
      return std::string(Unary[next(3)]) + "(" + gen(Depth - 1) + ")";
    }
    case 1: {
      // Shifts and divisions by constants, as index code writes them.
      static const char *ByConst[] = {"<<", ">>", "/", "%"};
      const char *Op = ByConst[next(4)];
      unsigned K = Op[0] == '<' || Op[0] == '>' ? next(7) : 1 + next(64);
      return "(" + gen(Depth - 1) + " " + Op + " " + std::to_string(K) + ")";
    }
    default: {
      static const char *Binary[] = {"+",  "-",  "*",  "&", "|",
                                     "^",  "<",  "<=", ">", ">=",
                                     "==", "!=", "&&", "||"};
      return "(" + gen(Depth - 1) + " " + Binary[next(14)] + " " +
             gen(Depth - 1) + ")";
    }
    }
  }

private:
  std::string atom() {
    static const char *Atoms[] = {"t",    "u",    "lane", "warp",
                                  "blockDim.x", "c", "t & ~31",
                                  "2 * t - lane"};
    if (next(3) == 0) {
      static const int Constants[] = {0,  1,  2,  5,   16,  31,  32,
                                      33, 63, 64, 96,  128, 255, 256,
                                      512, 1000, -1, -32};
      return std::to_string(Constants[next(18)]);
    }
    return Atoms[next(8)];
  }
  unsigned next(unsigned N) {
    State = State * 6364136223846793005ull + 1442695040888963407ull;
    return unsigned((State >> 33) % N);
  }
  uint64_t State = 0x2545f4914f6cdd1dull;
};
} // namespace

// The block-at-once evaluation of conditions (whose cost does not grow
// with the block size) gives, wherever it applies, the lanes the warp-by-
// warp evaluation gives, and applies to the guards of real warp code.
TEST(LaneAccess, BlockAtOnceAgreesWithWarpByWarp) {
  const char *Typical[] = {
      "t < 32",        "lane >= 1",          "u < 16",
      "warp == 0",     "(t & 31) < 16",      "t >= 64 && t < 128",
      "(t >> 5) == 1", "lane % 2 == 0",      "!(t < 32)",
      "u + 32 < 64",   "(lane ^ 1) < lane",  "t < blockDim.x / 2",
      "t * 2 < 96",    "(2 * t - lane) < 64", "c == 3 || t < 33"};
  const unsigned NTypical = sizeof(Typical) / sizeof(Typical[0]);
  ExprGen Gen;
  std::vector<std::string> Conds(Typical, Typical + NTypical);
  for (unsigned I = 0; I < 400; ++I)
    Conds.push_back(Gen.gen(3));
  std::string Code = "__global__ void k(int *p) {\n"
                     "  int t = threadIdx.x;\n"
                     "  unsigned u = threadIdx.x;\n"
                     "  int lane = t & 31;\n"
                     "  int warp = t >> 5;\n"
                     "  const int c = 3;\n";
  for (unsigned I = 0; I < Conds.size(); ++I)
    Code += "  if (" + Conds[I] + ") p[" + std::to_string(I) + "] = 1;\n";
  Code += "}\n";
  auto AST = parse(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = kernel(Ctx);
  ASSERT_TRUE(F);
  TestLanes A(Ctx);
  unsigned AtOnce = 0, Compared = 0;
  for (unsigned I = 0; I < Conds.size(); ++I) {
    const auto *If = selectFirst<IfStmt>(
        "if", match(ifStmt(hasThen(binaryOperator(hasLHS(arraySubscriptExpr(
                               hasIndex(integerLiteral(equals(I))))))))
                        .bind("if"),
                    Ctx));
    ASSERT_TRUE(If) << Conds[I];
    const Expr *E = If->getCond();
    for (unsigned BD : {32u, 64u, 256u, 1024u}) {
      auto Fast = A.conditionLanes(E, F, BD, /*AtOnce=*/true);
      auto Slow = A.conditionLanes(E, F, BD, /*AtOnce=*/false);
      if (I < NTypical)
        EXPECT_TRUE(Fast.has_value()) << Conds[I] << " BD " << BD;
      if (!Fast)
        continue;
      ++AtOnce;
      EXPECT_TRUE(Slow.has_value()) << Conds[I] << " BD " << BD;
      if (!Slow)
        continue;
      ++Compared;
      EXPECT_EQ(*Fast, *Slow) << Conds[I] << " BD " << BD;
    }
  }
  // The random expressions exercise the evaluation, not only its refusals
  // (1109 of the 1660 conditions and block sizes when written).
  EXPECT_GT(AtOnce, Conds.size() * 2);
  EXPECT_EQ(AtOnce, Compared);
}

// The elements of `base[index]` for the whole block at once are those the
// warp-by-warp evaluation gives, through shared arrays and kernel pointers,
// and the block path refuses a base that differs between threads.
TEST(LaneAccess, BlockAddressesAgreeWithWarpByWarp) {
  const char *Indices[] = {"t",          "t + 1",        "t - 1",
                           "lane ^ 1",   "(lane + 1) & 31", "2 * t - lane",
                           "warp * 33 + lane", "t >> 1",   "t * 4 + 2",
                           "(t & ~31) | (31 - lane)",     "t % 64",
                           "blockDim.x - 1 - t"};
  const unsigned N = sizeof(Indices) / sizeof(Indices[0]);
  std::string Code = "__global__ void k(int *p, float *g) {\n"
                     "  __shared__ double s[4096];\n"
                     "  int t = threadIdx.x;\n"
                     "  int lane = t & 31;\n"
                     "  int warp = t >> 5;\n"
                     "  float *own = g + t;\n";
  for (unsigned I = 0; I < N; ++I) {
    Code += "  s[" + std::string(Indices[I]) + "] = " + std::to_string(I) +
            ";\n";
    Code += "  g[" + std::string(Indices[I]) + "] = " + std::to_string(I) +
            ";\n";
  }
  Code += "  own[1] = 0;\n}\n";
  auto AST = parse(Code);
  ASSERT_TRUE(AST);
  ASTContext &Ctx = AST->getASTContext();
  const FunctionDecl *F = kernel(Ctx);
  ASSERT_TRUE(F);
  TestLanes A(Ctx);
  auto Stores = match(
      binaryOperator(isAssignmentOperator(),
                     hasLHS(arraySubscriptExpr().bind("lhs"))),
      Ctx);
  unsigned Compared = 0;
  for (const auto &B : Stores) {
    const auto *Lhs = B.getNodeAs<ArraySubscriptExpr>("lhs");
    const bool Own = isa<DeclRefExpr>(Lhs->getBase()->IgnoreParenImpCasts()) &&
                     cast<DeclRefExpr>(Lhs->getBase()->IgnoreParenImpCasts())
                             ->getDecl()
                             ->getName() == "own";
    for (unsigned BD : {64u, 1024u}) {
      auto Fast = A.elementBytes(Lhs, F, BD, /*AtOnce=*/true);
      auto Slow = A.elementBytes(Lhs, F, BD, /*AtOnce=*/false);
      const std::string Text =
          Lexer::getSourceText(
              CharSourceRange::getTokenRange(Lhs->getSourceRange()),
              Ctx.getSourceManager(), Ctx.getLangOpts())
              .str();
      if (Text.find("% 64") != std::string::npos) {
        // t % 64 is not A + C * warp (C = 32 is not a multiple of 64): the
        // block path declines.
        EXPECT_FALSE(Fast.has_value()) << Text;
        EXPECT_TRUE(Slow.has_value()) << Text;
        continue;
      }
      if (Own) {
        // Each thread's own pointer: not a shared base.
        EXPECT_FALSE(Fast.has_value());
        continue;
      }
      ASSERT_TRUE(Fast.has_value()) << BD << " " << Text;
      ASSERT_TRUE(Slow.has_value()) << BD << " " << Text;
      EXPECT_EQ(*Fast, *Slow) << BD << " " << Text;
      ++Compared;
    }
  }
  EXPECT_EQ(Compared, 2 * 2 * (N - 1));
}
