#===- cmake/PrecompiledHeaders.cmake - Shared clang headers, parsed once ---===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
#===-----------------------------------------------------------------------===#
#
# Most of a translation unit's compile time here is clang's and LLVM's
# headers (ASTContext.h, the Expr and Decl headers, the AST matchers). Each
# target that compiles many of our sources parses them once, into a
# precompiled header, and every source of the target starts from it.
#
# The lists name only headers that the target's sources already include, so
# a source still compiles without them: configure with
# -DCUDA_TIDY_PRECOMPILED_HEADERS=OFF to check that its own includes are
# complete. lib/'s list names no clang-tidy header (lib/README.md: lib does
# not depend on clang-tidy).

option(CUDA_TIDY_PRECOMPILED_HEADERS
  "Parse the shared clang and LLVM headers once per target" ON)

set(CUDA_TIDY_PCH_LIB
  <clang/AST/ASTContext.h>
  <clang/AST/Attr.h>
  <clang/AST/Decl.h>
  <clang/AST/DeclCXX.h>
  <clang/AST/DeclTemplate.h>
  <clang/AST/DynamicRecursiveASTVisitor.h>
  <clang/AST/RecursiveASTVisitor.h>
  <clang/AST/Expr.h>
  <clang/AST/ExprCXX.h>
  <clang/AST/Stmt.h>
  <clang/AST/StmtCXX.h>
  <clang/Basic/SourceManager.h>
  <clang/Lex/Lexer.h>
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/DenseSet.h>
  <llvm/ADT/STLExtras.h>
  <llvm/ADT/SmallVector.h>
  <llvm/ADT/StringRef.h>
  <llvm/ADT/StringSwitch.h>
  <optional>
  <string>
  <vector>)

set(CUDA_TIDY_PCH_CHECKS
  ${CUDA_TIDY_PCH_LIB}
  <clang-tidy/ClangTidyCheck.h>
  <clang/ASTMatchers/ASTMatchFinder.h>
  <clang/ASTMatchers/ASTMatchers.h>
  <clang/Lex/Preprocessor.h>)

set(CUDA_TIDY_PCH_UNIT_TESTS
  ${CUDA_TIDY_PCH_LIB}
  <clang/ASTMatchers/ASTMatchFinder.h>
  <clang/ASTMatchers/ASTMatchers.h>
  <clang/Frontend/ASTUnit.h>
  <clang/Tooling/Tooling.h>
  <gtest/gtest.h>)

# cuda_tidy_precompile(<target> <header>...): the target's sources start
# from a precompiled header of the given headers.
function(cuda_tidy_precompile target)
  if(NOT CUDA_TIDY_PRECOMPILED_HEADERS)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE ${ARGN})
  # ccache caches the users of a precompiled header only when the header
  # carries no timestamp (and with the sloppiness set in CMakeLists.txt).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    target_compile_options(${target} PRIVATE -Xclang -fno-pch-timestamp)
  endif()
endfunction()
