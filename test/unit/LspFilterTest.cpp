//===--- LspFilterTest.cpp - Tests of cuda-clangd's message filter --------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-clangd/LspFilter.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;
using llvm::json::Value;

static Value parse(llvm::StringRef Text) {
  llvm::Expected<Value> V = llvm::json::parse(Text);
  EXPECT_TRUE(static_cast<bool>(V));
  if (!V) {
    llvm::consumeError(V.takeError());
    return nullptr;
  }
  return *V;
}

TEST(LspFilter, LinksCudaChecksToTheProjectDocs) {
  LspFilter F("https://docs.example/checks/");
  Value Msg = parse(R"j({"method": "textDocument/publishDiagnostics",
    "params": {"uri": "file:///a.cu", "diagnostics": [
      {"code": "cuda-divergent-barrier", "message": "m",
       "codeDescription": {"href": "https://clang.llvm.org/x.html"}},
      {"code": "bugprone-use-after-move", "message": "n",
       "codeDescription": {"href": "https://clang.llvm.org/y.html"}}]}})j");
  F.fromServer(Msg);
  const llvm::json::Array &Diags =
      *Msg.getAsObject()->getObject("params")->getArray("diagnostics");
  EXPECT_EQ(
      Diags[0].getAsObject()->getObject("codeDescription")->getString("href"),
      "https://docs.example/checks/cuda-divergent-barrier.md");
  EXPECT_EQ(
      Diags[1].getAsObject()->getObject("codeDescription")->getString("href"),
      "https://clang.llvm.org/y.html");
}

TEST(LspFilter, NoteFixesNeedReviewAndAreNotPreferred) {
  LspFilter F("https://docs.example/checks/");
  Value Request = parse(R"j({"id": 7, "method": "textDocument/codeAction",
    "params": {"context": {"diagnostics": [
      {"code": "cuda-legacy-warp-intrinsics",
       "message": "'__shfl' is not available (fix available)"
}]
}
}
})j");
  F.fromClient(Request);
  Value Answer = parse(R"j({"id": 7, "result": [
    {"title": "use '__activemask()'", "kind": "quickfix",
     "isPreferred": true},
    {"title": "'__shfl' is not available", "kind": "quickfix"}]})j");
  F.fromServer(Answer);
  const llvm::json::Array &Actions = *Answer.getAsObject()->getArray("result");
  const llvm::json::Object &Note = *Actions[0].getAsObject();
  EXPECT_EQ(Note.getString("title"), "use '__activemask()' (needs review)");
  EXPECT_EQ(Note.get("isPreferred"), nullptr);
  EXPECT_EQ(Actions[1].getAsObject()->getString("title"),
            "'__shfl' is not available");

  // An answer to a request about other checks is left alone.
  Value Other = parse(R"j({"id": 8, "method": "textDocument/codeAction",
    "params": {"context": {"diagnostics": [
      {"code": "bugprone-x", "message": "m"}]}}})j");
  F.fromClient(Other);
  Value OtherAnswer = parse(R"j({"id": 8, "result": [
    {"title": "other", "kind": "quickfix", "isPreferred": true}]})j");
  F.fromServer(OtherAnswer);
  EXPECT_EQ(OtherAnswer.getAsObject()
                ->getArray("result")
                ->front()
                .getAsObject()
                ->getBoolean("isPreferred"),
            true);
}
