#!/usr/bin/env bash
# ===- run.sh - GPU proof for cuda-target-compatibility ---------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
#
# What cuda-tidy says must be what an H100 (compute capability 9.0) does:
#  - builds: launch.cu built with each set of nvcc flags below (CMake's
#    CUDA_ARCHITECTURES forms as nvcc receives them, and hand-written
#    -arch/-code/-gencode). The prepare step runs the cuda-tidy driver on a
#    compilation database of them with cuda.SupportedArchitectures = 90 and
#    records, per build, whether it warned that the build cannot run on 9.0.
#    On the GPU exactly those launches must fail with
#    cudaErrorNoKernelImageForDevice, and every other one must run and write
#    its output. -arch=native is built on the GPU machine: nvcc --dryrun must
#    embed an sm_90 cubin and no PTX (what cuda-tidy assumes), and it runs.
#  - source shapes: the kernels of shapes.cu, built for sm_90. The prepare
#    step records cuda-tidy's verdict on each (clang-tidy with the plugin,
#    --cuda-gpu-arch=sm_90): an empty body or compiled-out stores must launch
#    with cudaSuccess and leave the output untouched; a body that only traps
#    must fail; a kernel cuda-tidy is silent on must write its output; the
#    host dispatch cuda-tidy remarks on must launch nothing.
#
# Usage: run.sh [PLUGIN] [WORKDIR]            all steps here
#        run.sh --prepare PLUGIN DIR          the verdicts only (clang-tidy-22
#                                             and build/bin/cuda-tidy beside
#                                             the plugin, or CUDA_TIDY=...)
#        run.sh --prepared DIR                build and run DIR's files (GPU)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# steps.sh insists on compute-sanitizer, which this proof does not use.
export COMPUTE_SANITIZER="${COMPUTE_SANITIZER:-/bin/true}"
source "$here/../steps.sh"

# name|nvcc flags (no spaces inside one flag).
builds=(
  "cmake_80|--generate-code=arch=compute_80,code=[compute_80,sm_80]"
  "cmake_80_real|--generate-code=arch=compute_80,code=[sm_80]"
  "cmake_80_virtual|--generate-code=arch=compute_80,code=[compute_80]"
  "cmake_all|-arch=all"
  "cmake_all_major|-arch=all-major"
  "cmake_80_real_90|--generate-code=arch=compute_80,code=[sm_80] --generate-code=arch=compute_90,code=[compute_90,sm_90]"
  "cmake_90a_real|--generate-code=arch=compute_90a,code=[sm_90a]"
  "cmake_100f|--generate-code=arch=compute_100f,code=[compute_100f,sm_100f]"
  "make_arch_sm80|-arch=sm_80"
  "make_arch_sm90a|-arch=sm_90a"
  "make_arch_code|-arch=compute_80 -code=sm_80"
  "make_gencode_86|-gencode arch=compute_86,code=sm_86"
  "make_gencode_100|-gencode arch=compute_100,code=sm_100"
  "make_ptx_120|-gencode arch=compute_120,code=compute_120"
  "make_default|"
)

if [ "$step" != prepared ]; then
  cuda_tidy="${CUDA_TIDY:-$(cd "$(dirname "$plugin")/.." && pwd)/bin/cuda-tidy}"
  [ -x "$cuda_tidy" ] || { echo "cuda-tidy not found at $cuda_tidy (set CUDA_TIDY)"; exit 2; }
  cp "$here/launch.cu" "$here/shapes.cu" "$work/"

  # The builds: one file per set of flags in one compilation database.
  mkdir -p "$work/db"
  {
    echo "["
    sep=""
    for b in "${builds[@]}"; do
      name="${b%%|*}"; flags="${b#*|}"
      cp "$here/launch.cu" "$work/db/$name.cu"
      printf '%s  {"directory": "%s", "file": "%s/%s.cu",\n   "command": "%s %s -x cu -c %s/%s.cu -o %s.o"}' \
        "$sep" "$work/db" "$work/db" "$name" "$nvcc" "$flags" "$work/db" "$name" "$name"
      sep=$',\n'
    done
    printf '\n]\n'
  } > "$work/db/compile_commands.json"
  "$cuda_tidy" -p "$work/db" --checks='-*,cuda-target-compatibility' \
    --config="{CheckOptions: {cuda.SupportedArchitectures: '90'}}" \
    > "$work/db/report.txt" 2> "$work/db/report.err" || true
  echo "== cuda-tidy on the builds (cuda.SupportedArchitectures: 90)"
  grep -E "warning:|remark:" "$work/db/report.txt" || true
  : > "$work/builds.txt"
  for b in "${builds[@]}"; do
    name="${b%%|*}"; flags="${b#*|}"
    if grep -qE "warning: '([^']*/)?$name\.cu' " "$work/db/report.txt"; then
      verdict=cannot-run
    else
      verdict=runs
    fi
    echo "$name|$verdict|$flags" >> "$work/builds.txt"
  done
  # A report that names no build would make every verdict 'runs'.
  grep -q "cannot-run" "$work/builds.txt" ||
    { echo "FAIL: cuda-tidy reported no build; see $work/db/report.err"; exit 1; }

  # The source shapes, as clang-tidy sees the sm_90 compilation.
  "${CLANG_TIDY:-clang-tidy-22}" "-load=$plugin" --checks='-*,cuda-target-compatibility' \
    "$work/shapes.cu" -- --cuda-path="$cuda" -I"$cuda/include/cccl" \
    -Wno-unknown-cuda-version --cuda-gpu-arch=sm_90 > "$work/shapes-report.txt" 2>&1 || true
  echo "== cuda-tidy on shapes.cu (sm_90)"
  grep -E "warning:|remark:" "$work/shapes-report.txt" || true
  : > "$work/shapes.txt"
  for k in $(sed -n 's/^ *{"\([A-Za-z]*\)", .*/\1/p' "$work/shapes.cu"); do
    if grep -qE "warning: (kernel '$k' compiles to an empty body|the stores of kernel '$k' are compiled out) for sm_90" \
        "$work/shapes-report.txt"; then
      verdict=empty
    elif grep -qF "remark: kernel '$k' only traps on sm_90" "$work/shapes-report.txt"; then
      verdict=traps
    elif [ "$k" = dispatchByMajor ] &&
        grep -qF "remark: the kernel is chosen by compute capability" "$work/shapes-report.txt"; then
      verdict=launches-nothing
    else
      verdict=works
    fi
    echo "$k|$verdict" >> "$work/shapes.txt"
  done
  echo "== verdicts"; cat "$work/builds.txt" "$work/shapes.txt"
fi
[ "$step" = prepare ] && exit 0

status=0
fail() { echo "FAIL: $*"; status=1; }
mkdir -p "$work/bin"
# The flags hold brackets: no globbing while they are split into words.
set -f
echo "== builds on the GPU"
while IFS='|' read -r name verdict flags; do
  # shellcheck disable=SC2086
  "$nvcc" $flags -o "$work/bin/$name" "$work/launch.cu"
  out="$("$work/bin/$name")"
  echo "$name ($verdict): $out"
  case "$verdict" in
    cannot-run)
      [[ "$out" == launch=cudaErrorNoKernelImageForDevice* ]] ||
        fail "$name: cuda-tidy says it cannot run on 9.0, but: $out" ;;
    runs)
      [ "$out" = "launch=cudaSuccess sync=cudaSuccess out=written" ] ||
        fail "$name: cuda-tidy says nothing, but: $out" ;;
  esac
done < "$work/builds.txt"
set +f

echo "== -arch=native, built here"
images="$("$nvcc" --dryrun -arch=native -c "$work/launch.cu" -o /dev/null 2>&1 |
          grep -o 'kind=[a-z]*,sm=[0-9a-z]*' | sort -u | tr '\n' ' ')"
echo "native embeds: $images"
[[ "$images" == *"kind=elf,sm=90 "* ]] || fail "-arch=native: no sm_90 cubin ($images)"
[[ "$images" != *"kind=ptx"* ]] || fail "-arch=native embeds PTX, which cuda-tidy says it does not ($images)"
"$nvcc" -arch=native -o "$work/bin/native" "$work/launch.cu"
out="$("$work/bin/native")"
echo "native: $out"
[ "$out" = "launch=cudaSuccess sync=cudaSuccess out=written" ] || fail "native: $out"

echo "== source shapes, built for sm_90"
"$nvcc" -std=c++17 -arch=sm_90 -o "$work/bin/shapes" "$work/shapes.cu"
while IFS='|' read -r k verdict; do
  out="$("$work/bin/shapes" "$k")"
  echo "$out ($verdict)"
  case "$verdict" in
    empty|launches-nothing)
      [ "$out" = "$k launch=cudaSuccess sync=cudaSuccess out=untouched" ] ||
        fail "$k: cuda-tidy says it does nothing on sm_90, but: $out" ;;
    traps)
      [[ "$out" != *"sync=cudaSuccess"* ]] ||
        fail "$k: cuda-tidy says it only traps on sm_90, but: $out" ;;
    works)
      [ "$out" = "$k launch=cudaSuccess sync=cudaSuccess out=written" ] ||
        fail "$k: cuda-tidy is silent, but: $out" ;;
  esac
done < "$work/shapes.txt"
[ "$status" -eq 0 ] && echo PASS
exit "$status"
