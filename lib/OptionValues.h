//===--- OptionValues.h - Reading option values once ------------*- C++ -*-===//
//
// Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// How every check and driver reads option text: the module-wide options
/// (`cuda.TargetArch`, `cuda.BlockDim`, ...) looked up in clang-tidy's option
/// map through one function, one set of words for a boolean, and one
/// message for a bad value.
///
/// The map is a template parameter (clang-tidy's
/// `ClangTidyOptions::OptionMap`) so that lib/ includes no clang-tidy header.
///
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LIB_OPTIONVALUES_H
#define CUDA_TIDY_LIB_OPTIONVALUES_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/ADT/Twine.h"
#include <optional>
#include <string>

namespace cuda_tidy {

/// The value of the module-wide option Name in Options (clang-tidy's
/// `CheckOptions`), blanks trimmed; std::nullopt when it is unset or blank.
template <typename OptionMap>
std::optional<llvm::StringRef> moduleOption(const OptionMap &Options,
                                            llvm::StringRef Name) {
  auto It = Options.find(Name);
  if (It == Options.end())
    return std::nullopt;
  llvm::StringRef Value = llvm::StringRef(It->second.Value).trim();
  if (Value.empty())
    return std::nullopt;
  return Value;
}

/// The message for a bad value of option Name (module-wide, or
/// `check.Option`): "invalid value for option 'Name': Why".
inline std::string invalidOptionMessage(const llvm::Twine &Name,
                                        const llvm::Twine &Why) {
  return ("invalid value for option '" + Name + "': " + Why).str();
}

/// A boolean option's text, in any case: true, 1, on, yes or false, 0, off,
/// no; std::nullopt for anything else. (clang-tidy's typed accessor for bool
/// is not exported to plugins.)
inline std::optional<bool> parseBoolOption(llvm::StringRef Text) {
  return llvm::StringSwitch<std::optional<bool>>(Text.trim().lower())
      .Cases({"true", "1", "on", "yes"}, true)
      .Cases({"false", "0", "off", "no"}, false)
      .Default(std::nullopt);
}

/// Why a boolean option's text is invalid, for invalidOptionMessage().
inline std::string notBooleanReason(llvm::StringRef Text) {
  return ("'" + Text + "' is not 'true' or 'false'").str();
}

} // namespace cuda_tidy

#endif // CUDA_TIDY_LIB_OPTIONVALUES_H
