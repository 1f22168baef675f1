//===--- SarifExport.cpp - clang-tidy diagnostics as SARIF 2.1.0 ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "tools/cuda-tidy/SarifExport.h"
#include "clang/Tooling/DiagnosticsYaml.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"
#include "llvm/Support/YAMLTraits.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using clang::tooling::Diagnostic;
using clang::tooling::DiagnosticMessage;
using clang::tooling::Replacement;
using clang::tooling::TranslationUnitDiagnostics;

namespace cuda_tidy {

namespace {
struct CheckDoc {
  const char *Name;
  const char *Summary;
};
} // namespace

static const CheckDoc CudaChecks[] = {
#define CUDA_TIDY_CHECK(Name, Class, Header, Summary) {Name, Summary},
#include "checks/Checks.def"
};

Expected<std::vector<TranslationUnitDiagnostics>>
readExportedDiagnostics(StringRef Path) {
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(Path);
  if (!Buf)
    return createStringError(Buf.getError(), "cannot read '%s': %s",
                             Path.str().c_str(),
                             Buf.getError().message().c_str());
  std::vector<TranslationUnitDiagnostics> TUs;
  yaml::Input In((*Buf)->getBuffer());
  do {
    TranslationUnitDiagnostics TU;
    In >> TU;
    if (In.error())
      return createStringError(In.error(),
                               "'%s' is not a clang-tidy fixes "
                               "file",
                               Path.str().c_str());
    if (!TU.MainSourceFile.empty() || !TU.Diagnostics.empty())
      TUs.push_back(std::move(TU));
  } while (In.nextDocument());
  return TUs;
}

namespace {
// json::Value keeps a StringRef without copying it: every string below is
// passed as a std::string so that the log owns its text.

/// Line and column lookup for the files the diagnostics name.
class FileIndex {
public:
  struct Position {
    unsigned Line = 1, Column = 1;
  };
  /// Returns std::nullopt when the file cannot be read.
  std::optional<Position> position(StringRef File, unsigned Offset) {
    auto It = Files.find(File);
    if (It == Files.end()) {
      ErrorOr<std::unique_ptr<MemoryBuffer>> Buf = MemoryBuffer::getFile(File);
      It = Files
               .try_emplace(File, Buf ? (*Buf)->getBuffer().str()
                                      : std::optional<std::string>())
               .first;
    }
    if (!It->second || Offset > It->second->size())
      return std::nullopt;
    StringRef Text = *It->second;
    Position P;
    for (size_t I = 0; I < Offset; ++I) {
      unsigned char C = Text[I];
      if (C == '\n') {
        ++P.Line;
        P.Column = 1;
      } else if ((C & 0xC0) != 0x80) {
        ++P.Column; // Count code points, not UTF-8 continuation bytes.
      }
    }
    return P;
  }

  /// The line that holds \p Offset, without its leading and trailing
  /// whitespace; empty when the file cannot be read.
  std::string lineText(StringRef File, unsigned Offset) {
    if (!position(File, Offset))
      return "";
    StringRef Text = *Files.find(File)->second;
    // rfind looks at the characters before Offset.
    size_t Newline = Text.rfind('\n', Offset);
    size_t Begin = Newline == StringRef::npos ? 0 : Newline + 1;
    size_t End = Text.find('\n', Offset);
    return Text.slice(Begin, End).trim().str();
  }

private:
  StringMap<std::optional<std::string>> Files;
};

class SarifBuilder {
public:
  explicit SarifBuilder(const SarifOptions &Opts) : Opts(Opts) {}
  void add(const TranslationUnitDiagnostics &TU);
  json::Value finish();

private:
  std::string absolute(StringRef File, StringRef BuildDir) const;
  json::Object artifact(StringRef AbsFile) const;
  json::Object location(StringRef AbsFile, unsigned Offset,
                        const DiagnosticMessage *Message);
  json::Object region(StringRef AbsFile, unsigned Offset, unsigned Length);
  std::optional<json::Object> fix(const DiagnosticMessage &M,
                                  StringRef Description, StringRef BuildDir);
  void addRule(StringRef Check);

  const SarifOptions &Opts;
  FileIndex Index;
  json::Array Rules, Results;
  StringSet<> RuleIds;
  std::set<std::tuple<std::string, std::string, std::string, unsigned>> Seen;
};
} // namespace

std::string SarifBuilder::absolute(StringRef File, StringRef BuildDir) const {
  SmallString<256> Path(File);
  if (!sys::path::is_absolute(Path) && !BuildDir.empty())
    sys::path::make_absolute(BuildDir, Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return Path.str().str();
}

json::Object SarifBuilder::artifact(StringRef AbsFile) const {
  StringRef Rel = AbsFile;
  if (!Opts.SourceRoot.empty() && Rel.consume_front(Opts.SourceRoot) &&
      Rel.consume_front("/"))
    return json::Object{{"uri", Rel.str()}, {"uriBaseId", "%SRCROOT%"}};
  return json::Object{{"uri", ("file://" + AbsFile).str()}};
}

json::Object SarifBuilder::region(StringRef AbsFile, unsigned Offset,
                                  unsigned Length) {
  json::Object R{{"charOffset", Offset}, {"charLength", Length}};
  if (auto Start = Index.position(AbsFile, Offset)) {
    R["startLine"] = Start->Line;
    R["startColumn"] = Start->Column;
    if (auto End = Index.position(AbsFile, Offset + Length)) {
      R["endLine"] = End->Line;
      R["endColumn"] = End->Column;
    }
  }
  return R;
}

json::Object SarifBuilder::location(StringRef AbsFile, unsigned Offset,
                                    const DiagnosticMessage *Message) {
  json::Object Physical{{"artifactLocation", artifact(AbsFile)},
                        {"region", region(AbsFile, Offset, 0)}};
  json::Object Loc{{"physicalLocation", std::move(Physical)}};
  if (Message)
    Loc["message"] = json::Object{{"text", Message->Message}};
  return Loc;
}

std::optional<json::Object> SarifBuilder::fix(const DiagnosticMessage &M,
                                              StringRef Description,
                                              StringRef BuildDir) {
  // One artifactChange per file, its replacements in offset order.
  std::map<std::string, std::vector<const Replacement *>> ByFile;
  for (const auto &[File, Replacements] : M.Fix)
    for (const Replacement &R : Replacements)
      ByFile[absolute(R.getFilePath(), BuildDir)].push_back(&R);
  if (ByFile.empty())
    return std::nullopt;
  json::Array Changes;
  for (auto &[File, Reps] : ByFile) {
    llvm::sort(Reps, [](const Replacement *A, const Replacement *B) {
      return A->getOffset() < B->getOffset();
    });
    json::Array Replacements;
    for (const Replacement *R : Reps)
      Replacements.push_back(json::Object{
          {"deletedRegion", region(File, R->getOffset(), R->getLength())},
          {"insertedContent",
           json::Object{{"text", R->getReplacementText().str()}}}});
    Changes.push_back(json::Object{{"artifactLocation", artifact(File)},
                                   {"replacements", std::move(Replacements)}});
  }
  return json::Object{
      {"description", json::Object{{"text", Description.str()}}},
      {"artifactChanges", std::move(Changes)}};
}

void SarifBuilder::addRule(StringRef Check) {
  if (!RuleIds.insert(Check).second)
    return;
  json::Object Rule{{"id", Check.str()}};
  std::string Summary;
  std::string Help;
  for (const CheckDoc &D : CudaChecks)
    if (Check == D.Name) {
      Summary = D.Summary;
      Help = Opts.DocsBaseUrl + D.Name + ".md";
    }
  if (Help.empty() && !Check.starts_with("clang-diagnostic-")) {
    // Upstream checks: https://clang.llvm.org/extra/clang-tidy/checks/M/N.html
    auto [Module, Name] = Check.split('-');
    if (Check.starts_with("clang-analyzer-"))
      Help = "https://clang.llvm.org/extra/clang-tidy/checks/clang-analyzer/" +
             Check.drop_front(15).str() + ".html";
    else if (!Name.empty())
      Help = ("https://clang.llvm.org/extra/clang-tidy/checks/" + Module + "/" +
              Name + ".html")
                 .str();
  }
  if (Summary.empty())
    Summary = Check.starts_with("clang-diagnostic-")
                  ? "clang compiler diagnostic"
                  : ("clang-tidy check " + Check).str();
  Rule["shortDescription"] = json::Object{{"text", Summary}};
  if (!Help.empty())
    Rule["helpUri"] = Help;
  Rules.push_back(std::move(Rule));
}

/// The hash part of a result's fingerprint: its rule and the text of its
/// line.
static std::string lineHash(StringRef Rule, StringRef Line) {
  SHA256 H;
  H.update(Rule);
  H.update(StringRef("\0", 1));
  H.update(Line);
  return toHex(ArrayRef<uint8_t>(H.final()), /*LowerCase=*/true).substr(0, 16);
}

void SarifBuilder::add(const TranslationUnitDiagnostics &TU) {
  for (const Diagnostic &D : TU.Diagnostics) {
    const DiagnosticMessage &M = D.Message;
    std::string File = absolute(M.FilePath, D.BuildDirectory);
    // The same diagnostic from another side or another translation unit.
    if (!Seen.insert({D.DiagnosticName, M.Message, File, M.FileOffset}).second)
      continue;
    addRule(D.DiagnosticName);
    json::Object Result{{"ruleId", D.DiagnosticName},
                        {"ruleIndex", 0},
                        {"message", json::Object{{"text", M.Message}}}};
    // The rank (":N") is added by canonicalizeSarifRun.
    Result["partialFingerprints"] = json::Object{
        {"primaryLocationLineHash",
         lineHash(D.DiagnosticName, M.FilePath.empty()
                                        ? ""
                                        : Index.lineText(File, M.FileOffset))}};
    Result["level"] = D.DiagLevel == Diagnostic::Error     ? "error"
                      : D.DiagLevel == Diagnostic::Warning ? "warning"
                                                           : "note";
    json::Array Locations;
    if (!M.FilePath.empty())
      Locations.push_back(location(File, M.FileOffset, nullptr));
    Result["locations"] = std::move(Locations);
    json::Array Related, Fixes;
    if (auto F = fix(M, "apply the fix-it of '" + D.DiagnosticName + "'",
                     D.BuildDirectory))
      Fixes.push_back(std::move(*F));
    unsigned Id = 0;
    for (const DiagnosticMessage &Note : D.Notes) {
      if (!Note.FilePath.empty()) {
        json::Object L = location(absolute(Note.FilePath, D.BuildDirectory),
                                  Note.FileOffset, &Note);
        L["id"] = Id++;
        Related.push_back(std::move(L));
      }
      if (auto F = fix(Note, Note.Message, D.BuildDirectory))
        Fixes.push_back(std::move(*F));
    }
    if (!Related.empty())
      Result["relatedLocations"] = std::move(Related);
    if (!Fixes.empty())
      Result["fixes"] = std::move(Fixes);
    Results.push_back(std::move(Result));
  }
}

json::Value SarifBuilder::finish() {
  json::Object Driver{{"name", Opts.ToolName}, {"rules", std::move(Rules)}};
  if (!Opts.ToolVersion.empty())
    Driver["version"] = Opts.ToolVersion;
  if (!Opts.DocsBaseUrl.empty())
    Driver["informationUri"] = Opts.DocsBaseUrl;
  json::Object Run{{"tool", json::Object{{"driver", std::move(Driver)}}},
                   {"columnKind", "unicodeCodePoints"},
                   {"results", std::move(Results)}};
  if (!Opts.SourceRoot.empty())
    Run["originalUriBaseIds"] = json::Object{
        {"%SRCROOT%",
         json::Object{{"uri", "file://" + Opts.SourceRoot + "/"}}}};
  if (!Opts.AutomationId.empty())
    Run["automationDetails"] = json::Object{{"id", Opts.AutomationId}};
  canonicalizeSarifRun(Run);
  if (Opts.FilesAnalysed)
    Run["properties"] = sarifRunProperties(
        *Run.getArray("results"), *Opts.FilesAnalysed, Opts.FilesNotParsed);
  return json::Object{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs", json::Array{std::move(Run)}}};
}

namespace {
/// What orders and identifies a result: its primary location, rule and
/// message.
struct ResultKey {
  std::string Uri;
  int64_t Offset = -1;
  std::string Rule, Message;
  auto tuple() const { return std::tie(Uri, Offset, Rule, Message); }
  bool operator<(const ResultKey &O) const { return tuple() < O.tuple(); }
  bool operator==(const ResultKey &O) const { return tuple() == O.tuple(); }
};
} // namespace

static ResultKey resultKey(const json::Value &V) {
  ResultKey K;
  const json::Object *R = V.getAsObject();
  if (!R)
    return K;
  if (auto Rule = R->getString("ruleId"))
    K.Rule = Rule->str();
  if (const json::Object *M = R->getObject("message"))
    if (auto Text = M->getString("text"))
      K.Message = Text->str();
  const json::Array *Locs = R->getArray("locations");
  if (!Locs || Locs->empty())
    return K;
  const json::Object *L = (*Locs)[0].getAsObject();
  const json::Object *P = L ? L->getObject("physicalLocation") : nullptr;
  if (!P)
    return K;
  if (const json::Object *A = P->getObject("artifactLocation"))
    if (auto Uri = A->getString("uri"))
      K.Uri = Uri->str();
  if (const json::Object *Region = P->getObject("region"))
    if (auto Offset = Region->getInteger("charOffset"))
      K.Offset = *Offset;
  return K;
}

void canonicalizeSarifRun(json::Object &Run) {
  json::Array *Results = Run.getArray("results");
  if (Results) {
    std::vector<std::pair<ResultKey, json::Value>> Keyed;
    for (json::Value &V : *Results)
      Keyed.emplace_back(resultKey(V), std::move(V));
    llvm::stable_sort(
        Keyed, [](const auto &A, const auto &B) { return A.first < B.first; });
    Keyed.erase(std::unique(Keyed.begin(), Keyed.end(),
                            [](const auto &A, const auto &B) {
                              return A.first == B.first;
                            }),
                Keyed.end());
    Results->clear();
    // Rank results with the same line hash within a file, in offset order.
    std::map<std::pair<std::string, std::string>, unsigned> Ranks;
    for (auto &[Key, V] : Keyed) {
      if (json::Object *R = V.getAsObject())
        if (json::Object *F = R->getObject("partialFingerprints"))
          if (auto Hash = F->getString("primaryLocationLineHash")) {
            std::string H = Hash->split(':').first.str();
            unsigned Rank = ++Ranks[{Key.Uri, H}];
            (*F)["primaryLocationLineHash"] = H + ":" + std::to_string(Rank);
          }
      Results->push_back(std::move(V));
    }
  }
  json::Object *Tool = Run.getObject("tool");
  json::Object *Driver = Tool ? Tool->getObject("driver") : nullptr;
  json::Array *Rules = Driver ? Driver->getArray("rules") : nullptr;
  if (!Rules)
    return;
  auto RuleId = [](const json::Value &V) {
    const json::Object *O = V.getAsObject();
    auto Id = O ? O->getString("id") : std::nullopt;
    return Id ? Id->str() : std::string();
  };
  llvm::stable_sort(*Rules, [&](const json::Value &A, const json::Value &B) {
    return RuleId(A) < RuleId(B);
  });
  StringMap<unsigned> Indices;
  for (const json::Value &V : *Rules)
    Indices.try_emplace(RuleId(V), Indices.size());
  if (Results)
    for (json::Value &V : *Results)
      if (json::Object *R = V.getAsObject())
        if (auto Rule = R->getString("ruleId")) {
          auto It = Indices.find(*Rule);
          if (It != Indices.end())
            (*R)["ruleIndex"] = It->second;
        }
}

json::Value buildSarifLog(ArrayRef<TranslationUnitDiagnostics> TUs,
                          const SarifOptions &Opts) {
  SarifBuilder B(Opts);
  for (const TranslationUnitDiagnostics &TU : TUs)
    B.add(TU);
  return B.finish();
}

Error writeSarifLog(StringRef Path, ArrayRef<TranslationUnitDiagnostics> TUs,
                    const SarifOptions &Opts) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC, sys::fs::OF_Text);
  if (EC)
    return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                             EC.message().c_str());
  OS << formatv("{0:2}", buildSarifLog(TUs, Opts)) << "\n";
  return Error::success();
}

/// The prefix of the description of a check's own fix (SarifBuilder::add);
/// the fixes of notes carry the note's text.
static constexpr StringRef OwnFixPrefix = "apply the fix-it of '";

json::Object sarifRunProperties(const json::Array &Results,
                                unsigned FilesAnalysed,
                                ArrayRef<std::string> FilesNotParsed) {
  std::map<std::string, unsigned> ByCheck;
  unsigned Warnings = 0, Own = 0, Review = 0;
  for (const json::Value &V : Results) {
    const json::Object *R = V.getAsObject();
    if (!R || R->getString("level") != "warning")
      continue;
    ++Warnings;
    ++ByCheck[R->getString("ruleId").value_or("").str()];
    const json::Array *Fixes = R->getArray("fixes");
    if (!Fixes || Fixes->empty())
      continue;
    bool HasOwn = llvm::any_of(*Fixes, [](const json::Value &F) {
      const json::Object *O = F.getAsObject();
      const json::Object *D = O ? O->getObject("description") : nullptr;
      auto Text = D ? D->getString("text") : std::nullopt;
      return Text && Text->starts_with(OwnFixPrefix);
    });
    ++(HasOwn ? Own : Review);
  }
  json::Object Checks;
  for (const auto &[Check, Count] : ByCheck)
    Checks[Check] = Count;
  std::vector<std::string> Sorted(FilesNotParsed.begin(), FilesNotParsed.end());
  llvm::sort(Sorted);
  Sorted.erase(std::unique(Sorted.begin(), Sorted.end()), Sorted.end());
  json::Array NotParsed;
  for (const std::string &F : Sorted)
    NotParsed.push_back(F);
  return json::Object{{"filesAnalysed", FilesAnalysed},
                      {"filesNotParsed", std::move(NotParsed)},
                      {"warnings", Warnings},
                      {"warningsByCheck", std::move(Checks)},
                      {"fixesAvailable", Own},
                      {"fixesNeedingReview", Review}};
}

} // namespace cuda_tidy
