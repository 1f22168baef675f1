#!/usr/bin/env bash
# ===- install-deps.sh - Installs what cuda-tidy builds and tests with ------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
# Debian's LLVM 22 packages, the build tools and GoogleTest. Needs root (or
# sudo). The CUDA toolkit is not a Debian package: nvcc and the toolkit
# headers are expected at /usr/local/cuda (or $CUDA_PATH); without them the
# hermetic tests still run and the toolkit tests are skipped.
set -euo pipefail

PACKAGES=(
  clang-tidy-22 clang-22 libclang-22-dev llvm-22-dev llvm-22-tools clangd-22
  lld-22 cmake ninja-build ccache g++ python3 libgtest-dev neovim
  # The pre-commit hook's test (test/drivers/pre-commit-hook.test).
  pre-commit
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all packages present"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO=sudo
fi
echo "install-deps: installing ${missing[*]}"
$SUDO apt-get update -q
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q "${missing[@]}"
