#!/usr/bin/env bash
# ===- quickstart.sh - Set up cuda-tidy and run it on the demo project -----===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
# Installs the dependencies and builds what the demo needs (the plugin and
# the cuda-tidy driver; `cmake --build build` builds the rest, tests
# included). With the CUDA toolkit: configures examples/demo (an nvcc CMake
# project with one hazard of each kind cuda-tidy finds), runs cuda-tidy on
# it, applies the proven fixes to a copy, shows the diff, builds the fixed
# copy with nvcc and, when a GPU is there, runs it. Without the toolkit: the
# plugin in clang-tidy-22 on examples/legacy_reduce.cu with the test stubs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
CUDA_PATH=${CUDA_PATH:-/usr/local/cuda}

bash tools/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --target CudaTidy cuda-tidy

if [ ! -x "$CUDA_PATH/bin/nvcc" ]; then
  echo "quickstart: no CUDA toolkit at $CUDA_PATH; the plugin on the example, with the test stubs"
  args=(--cuda-gpu-arch=sm_90 -nocudainc -nocudalib -isystem "$root/test/Inputs/cuda")
  echo "== clang-tidy-22 -load=build/lib/CudaTidy.so --checks='-*,cuda-*' examples/legacy_reduce.cu"
  clang-tidy-22 -load=build/lib/CudaTidy.so --checks='-*,cuda-*' examples/legacy_reduce.cu -- "${args[@]}" || true
  exit 0
fi

echo
echo "== cmake -S examples/demo -B build/demo   (nvcc, sm_90; writes compile_commands.json)"
cmake -S examples/demo -B build/demo -DCMAKE_CUDA_COMPILER="$CUDA_PATH/bin/nvcc" >/dev/null
echo
echo "== build/bin/cuda-tidy -p build/demo      (every file of the database)"
build/bin/cuda-tidy -p build/demo || true

work=$(mktemp -d)
cp -r examples/demo "$work/demo"
cmake -S "$work/demo" -B "$work/build" -DCMAKE_CUDA_COMPILER="$CUDA_PATH/bin/nvcc" >/dev/null
echo
echo "== the same with --fix, on a copy in $work/demo: the fixes proven correct"
build/bin/cuda-tidy -p "$work/build" --fix >/dev/null 2>&1 || true
diff -ru examples/demo "$work/demo" || true
echo
echo "== nvcc builds the fixed copy"
cmake --build "$work/build" >/dev/null
echo "the fixed demo builds: $work/build/demo"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  echo
  echo "== $work/build/demo   (what has no proven fix is still wrong)"
  "$work/build/demo" || true
fi
