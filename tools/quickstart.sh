#!/usr/bin/env bash
# ===- quickstart.sh - Set up cuda-tidy and run it on the bundled example ---===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
# Installs the dependencies, builds the plugin into build/, runs clang-tidy-22
# with it on examples/legacy_reduce.cu, applies the fixes to a copy, shows the
# diff, and compiles the fixed copy with nvcc for sm_90 when nvcc is there.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}

bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build

args=(--cuda-gpu-arch=sm_90)
if [ -f "$CUDA_PATH/include/cuda_runtime.h" ]; then
  args+=(--cuda-path="$CUDA_PATH" -I"$CUDA_PATH/include/cccl" -Wno-unknown-cuda-version)
else
  echo "quickstart: no CUDA toolkit at $CUDA_PATH; using the test stubs"
  args+=(-nocudainc -nocudalib -isystem "$root/test/Inputs/cuda")
fi

work=$(mktemp -d)
cp examples/legacy_reduce.cu "$work/"
echo
echo "== clang-tidy-22 -load=build/lib/CudaTidy.so --checks='-*,cuda-*' examples/legacy_reduce.cu"
clang-tidy-22 -load=build/lib/CudaTidy.so --checks='-*,cuda-*' "$work/legacy_reduce.cu" -- "${args[@]}" || true
echo
echo "== the same with --fix, on a copy in $work"
clang-tidy-22 -load=build/lib/CudaTidy.so --checks='-*,cuda-*' --fix --quiet "$work/legacy_reduce.cu" -- "${args[@]}" >/dev/null 2>&1 || true
diff -u examples/legacy_reduce.cu "$work/legacy_reduce.cu" || true
if [ -x "$CUDA_PATH/bin/nvcc" ]; then
  echo
  echo "== nvcc -arch=sm_90 on the fixed copy"
  "$CUDA_PATH/bin/nvcc" -arch=sm_90 -o "$work/legacy_reduce" "$work/legacy_reduce.cu"
  echo "the fixed example builds: $work/legacy_reduce"
fi
