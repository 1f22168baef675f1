//===--- ModuleOptions.cpp - The module-wide options, for checks ----------===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//

#include "checks/ModuleOptions.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "lib/AnalysisContext.h"
#include "lib/OptionValues.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include <mutex>

namespace cuda_tidy {

bool ModuleOptions::Texts::operator==(const Texts &O) const {
  return TargetArch == O.TargetArch && BlockDim == O.BlockDim &&
         LaneModelBudget == O.LaneModelBudget &&
         SupportedArchitectures == O.SupportedArchitectures &&
         ResourceUsage == O.ResourceUsage;
}

ModuleOptions::ModuleOptions(clang::tidy::ClangTidyContext &Context,
                             const Texts &Raw)
    : Context(&Context), ResourceUsage(Raw.ResourceUsage) {
  if (!Raw.TargetArch.empty()) {
    GpuArchParse Parsed = parseGpuArch(Raw.TargetArch);
    if (Parsed.Arch)
      TargetArch = std::move(Parsed.Arch);
    else
      Errors.push_back(
          {ReadsTargetArch,
           invalidOptionMessage(TargetArchOptionName, Parsed.Error)});
  }
  if (!Raw.BlockDim.empty()) {
    std::string Why;
    Lanes.DefaultBlock = lanes::parseBlockDim(Raw.BlockDim, Why);
    if (!Lanes.DefaultBlock)
      Errors.push_back({ReadsLaneModel,
                        invalidOptionMessage(lanes::BlockDimOptionName, Why)});
  }
  if (!Raw.LaneModelBudget.empty()) {
    std::string Why;
    if (std::optional<uint64_t> Budget =
            lanes::parseWorkBudget(Raw.LaneModelBudget, Why))
      Lanes.WorkBudget = *Budget;
    else
      Errors.push_back(
          {ReadsLaneModel,
           invalidOptionMessage(lanes::LaneModelBudgetOptionName, Why)});
  }
  if (!Raw.SupportedArchitectures.empty()) {
    std::string Why;
    if (auto List =
            parseSupportedArchitectures(Raw.SupportedArchitectures, Why)) {
      Supported.emplace();
      for (const ArchLimits *L : *List)
        Supported->push_back({L->cudaArch(), FeatureSet::Generic});
    } else {
      Errors.push_back(
          {ReadsSupportedArchitectures,
           invalidOptionMessage(SupportedArchitecturesOptionName, Why)});
    }
  }
}

/// The parsed options of each context, with the options whose invalid
/// values that context has reported. An entry is parsed again when the
/// context's configuration changes (another file's `.clang-tidy`); a
/// context made later at the address of a destroyed one keeps its entry
/// only if its configuration is the same.
class ModuleOptionsRegistry {
public:
  static std::shared_ptr<const ModuleOptions>
  get(clang::tidy::ClangTidyContext &Context, unsigned Used) {
    const clang::tidy::ClangTidyOptions::OptionMap &Map =
        Context.getOptions().CheckOptions;
    auto Text = [&](llvm::StringRef Name) {
      return moduleOption(Map, Name).value_or("").str();
    };
    ModuleOptions::Texts Raw{
        Text(TargetArchOptionName), Text(lanes::BlockDimOptionName),
        Text(lanes::LaneModelBudgetOptionName),
        Text(SupportedArchitecturesOptionName), Text(ResourceUsageOptionName)};
    static std::mutex Mutex;
    static llvm::DenseMap<const clang::tidy::ClangTidyContext *, Entry> Entries;
    std::lock_guard<std::mutex> Lock(Mutex);
    Entry &E = Entries[&Context];
    if (!E.Options || !(E.Raw == Raw)) {
      E.Raw = Raw;
      E.Options = std::make_shared<const ModuleOptions>(Context, Raw);
      E.Reported = ModuleOptions::ReadsNone;
    }
    for (const ModuleOptions::Invalid &I : E.Options->Errors)
      if ((Used & I.Option) && !(E.Reported & I.Option))
        Context.configurationDiag("%0", clang::DiagnosticIDs::Warning)
            << I.Message;
    E.Reported |= Used;
    return E.Options;
  }

private:
  struct Entry {
    ModuleOptions::Texts Raw;
    std::shared_ptr<const ModuleOptions> Options;
    unsigned Reported = ModuleOptions::ReadsNone;
  };
};

std::shared_ptr<const ModuleOptions>
ModuleOptions::of(clang::tidy::ClangTidyContext &Context, unsigned Used) {
  return ModuleOptionsRegistry::get(Context, Used);
}

AnalysisContext &ModuleOptions::analysis(clang::ASTContext &Ctx) const {
  return AnalysisContext::get(Ctx, Lanes);
}

/// Says through Context, once per process and architecture name, that the
/// limits of Name are unknown and why (Why: the parser's message).
static void reportSkipped(clang::tidy::ClangTidyContext &Context,
                          llvm::StringRef Name, llvm::StringRef Why) {
  static std::mutex Mutex;
  static llvm::StringSet<> Reported;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (!Reported.insert(Name.lower()).second)
      return;
  }
  // The parser's message starts "unknown CUDA architecture 'NAME': WHY; ...":
  // keep the reason only.
  llvm::StringRef Reason = Why;
  size_t Colon = Reason.find("': ");
  if (Colon != llvm::StringRef::npos)
    Reason = Reason.drop_front(Colon + 3);
  Reason = Reason.split("; expected").first;
  std::string Message = ("per-architecture shared memory limits are not "
                         "checked for '" +
                         Name + "': " + Reason)
                            .str();
  if (Name == "sm_52")
    Message += ", and clang analyses for sm_52 when the compilation names no "
               "'--cuda-gpu-arch'";
  Message += " (set the option '" + TargetArchOptionName.str() +
             "' to check them for another architecture)";
  Context.configurationDiag(Message, clang::DiagnosticIDs::Warning);
}

llvm::SmallVector<std::optional<GpuArch>, 4>
ModuleOptions::effectiveArchs(const clang::ASTContext &Ctx,
                              const clang::Preprocessor *PP) const {
  return effectiveGpuArchs(TargetArch, Ctx, PP,
                           [this](llvm::StringRef Name, llvm::StringRef Why) {
                             reportSkipped(*Context, Name, Why);
                           });
}

void ModuleOptions::remarkCutShort(
    clang::tidy::ClangTidyCheck &Check, const clang::SourceManager &SM,
    llvm::ArrayRef<const clang::FunctionDecl *> Cut,
    llvm::StringRef Findings) const {
  for (const clang::FunctionDecl *F : Cut) {
    clang::SourceLocation Loc = SM.getFileLoc(F->getLocation());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc))
      continue;
    Check.diag(Loc,
               "the lane model stopped analysing %0 at its work budget: %1 "
               "past that point are not reported",
               clang::DiagnosticIDs::Remark)
        << F << Findings;
    Check.diag(Loc,
               "raise the module-wide option '%0' (now %1; 0 for no limit) "
               "to analyse all of it",
               clang::DiagnosticIDs::Note)
        << lanes::LaneModelBudgetOptionName << std::to_string(Lanes.WorkBudget);
  }
}

} // namespace cuda_tidy
