//===--- SarifMerge.cpp - One SARIF log from the logs of shards -----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
//
// `cuda-tidy --merge-sarif=OUT IN...`: the runs of the inputs (cuda-tidy's
// logs, one run each, with the same tool and source root) become one run:
// the rules of all, the results of all without repeats (a warning in a
// header that files of two shards include), in the canonical order of
// buildSarifLog, and no category. The result is the log an unsharded run
// writes.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/ParallelRun.h"
#include "tools/cuda-tidy/SarifExport.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_tidy {

static int fail(const Twine &Message) {
  errs() << "cuda-tidy: error: --merge-sarif: " << Message << "\n";
  return 1;
}

int mergeSarifMain(StringRef Out, ArrayRef<std::string> Inputs) {
  if (Inputs.empty())
    return fail("no SARIF logs to merge (--merge-sarif=OUT IN...)");
  std::optional<json::Object> Merged;
  json::Array Rules, Results;
  // cuda-tidy's counts (SarifExport.h): files add up, results are counted
  // again once merged.
  std::optional<unsigned> FilesAnalysed;
  std::vector<std::string> FilesNotParsed;
  StringSet<> RuleIds;
  for (const std::string &In : Inputs) {
    auto Buf = MemoryBuffer::getFile(In);
    if (!Buf)
      return fail("cannot read '" + In + "': " + Buf.getError().message());
    Expected<json::Value> Log = json::parse((*Buf)->getBuffer());
    if (!Log)
      return fail("'" + In + "' is not JSON: " + toString(Log.takeError()));
    json::Object *Root = Log->getAsObject();
    json::Array *Runs = Root ? Root->getArray("runs") : nullptr;
    auto Version = Root ? Root->getString("version") : std::nullopt;
    if (!Runs || Runs->size() != 1 || !Version || *Version != "2.1.0")
      return fail("'" + In + "' is not a SARIF 2.1.0 log with one run");
    json::Object *Run = (*Runs)[0].getAsObject();
    json::Object *Tool = Run ? Run->getObject("tool") : nullptr;
    json::Object *Driver = Tool ? Tool->getObject("driver") : nullptr;
    if (!Driver)
      return fail("'" + In + "' has no tool");
    if (!Merged) {
      Merged = *Run;
    } else {
      // One tool, one source root.
      json::Object *First = Merged->getObject("tool")->getObject("driver");
      if (First->getString("name") != Driver->getString("name") ||
          First->getString("version") != Driver->getString("version"))
        return fail("'" + In + "' comes from another tool or version");
      const json::Value *A = Merged->get("originalUriBaseIds");
      const json::Value *B = Run->get("originalUriBaseIds");
      if ((A == nullptr) != (B == nullptr) || (A && *A != *B))
        return fail("'" + In + "' has another source root (--sarif-root)");
    }
    if (json::Array *R = Driver->getArray("rules"))
      for (json::Value &V : *R)
        if (const json::Object *O = V.getAsObject())
          if (auto Id = O->getString("id"); Id && RuleIds.insert(*Id).second)
            Rules.push_back(V);
    if (json::Array *R = Run->getArray("results"))
      for (json::Value &V : *R)
        Results.push_back(V);
    if (const json::Object *P = Run->getObject("properties")) {
      if (auto N = P->getInteger("filesAnalysed"))
        FilesAnalysed = FilesAnalysed.value_or(0) + static_cast<unsigned>(*N);
      if (const json::Array *Broken = P->getArray("filesNotParsed"))
        for (const json::Value &F : *Broken)
          if (auto Name = F.getAsString())
            FilesNotParsed.push_back(Name->str());
    }
  }
  Merged->erase("automationDetails");
  json::Object *Driver = Merged->getObject("tool")->getObject("driver");
  (*Driver)["rules"] = std::move(Rules);
  (*Merged)["results"] = std::move(Results);
  canonicalizeSarifRun(*Merged);
  Merged->erase("properties");
  if (FilesAnalysed)
    (*Merged)["properties"] = sarifRunProperties(
        *Merged->getArray("results"), *FilesAnalysed, FilesNotParsed);
  json::Object Log{{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                   {"version", "2.1.0"},
                   {"runs", json::Array{std::move(*Merged)}}};
  std::error_code EC;
  raw_fd_ostream OS(Out, EC, sys::fs::OF_Text);
  if (EC)
    return fail("cannot write '" + Out + "': " + EC.message());
  OS << formatv("{0:2}", json::Value(std::move(Log))) << "\n";
  return 0;
}

} // namespace cuda_tidy
