#!/usr/bin/env bash
# ===- run.sh - GPU proof for cuda-programmatic-dependent-launch, old PTX ---===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===----------------------------------------------------------------------===#
#
# A consumer whose wait NV_IF_TARGET(NV_PROVIDES_SM_90, ...) keeps, launched
# with programmatic stream serialization after a producer (sm_90) that
# triggers at entry, spins ~100 us and then writes. Two builds of the
# consumer: sm_80 alone (a GPU of 9.0 or later runs its compute_80 PTX, with
# no wait) and sm_80 with sm_90 (it runs the sm_90 code, which waits).
# Passes when cuda-programmatic-dependent-launch warns for the first build
# and not for the second, and the GPU agrees: the first wrong in some of
# RUNS runs, the second in none.
#
# Usage: run.sh [PLUGIN] [WORKDIR]; run.sh --prepare PLUGIN DIR (here, needs
# clang-tidy-22); run.sh --prepared DIR (on the GPU machine).
# Environment: CLANG_TIDY (clang-tidy-22), CUDA_PATH (/usr/local/cuda),
#   RUNS (50).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../steps.sh"
tidy="${CLANG_TIDY:-clang-tidy-22}"
runs="${RUNS:-50}"
builds="sm80 sm80_90"
archs_sm80="compute_80"
archs_sm80_90="compute_80,compute_90"
gencode_sm80="-gencode arch=compute_80,code=[sm_80,compute_80]"
gencode_sm80_90="$gencode_sm80 -gencode arch=compute_90,code=[sm_90,compute_90]"

if [ "$step" != prepared ]; then
  cp "$here"/*.cu "$work/"
  for b in $builds; do
    archs_var="archs_$b"
    "$tidy" "-load=$plugin" --checks='-*,cuda-programmatic-dependent-launch' \
      --quiet "$work/consumer.cu" -- -xcuda --cuda-gpu-arch=sm_80 \
      "--cuda-path=$cuda" "-I$cuda/include/cccl" -Wno-unknown-cuda-version \
      "-D__CUDA_TIDY_BUILD_ARCHS__=${!archs_var}" > "$work/check.$b.log" 2>&1 || true
    n=$(grep -c "warning:.*cuda-programmatic-dependent-launch" "$work/check.$b.log" || true)
    echo "$n" > "$work/warnings.$b"
    echo "== $b: the check gives $n warning(s)"
    grep "warning:" "$work/check.$b.log" | sed 's/^/   /' || true
  done
fi
[ "$step" = prepare ] && exit 0

status=0
"$nvcc" -arch=sm_90 -c -o "$work/producer.o" "$work/producer.cu"
"$nvcc" -arch=sm_90 -c -o "$work/main.o" "$work/main.cu"
for b in $builds; do
  gencode_var="gencode_$b"
  # shellcheck disable=SC2086
  "$nvcc" ${!gencode_var} -c -o "$work/consumer.$b.o" "$work/consumer.cu"
  "$nvcc" -arch=sm_90 -o "$work/program.$b" "$work/main.o" "$work/producer.o" \
    "$work/consumer.$b.o"
  line=$("$work/program.$b" "$runs")
  echo "== $b: $line"
  w=$(echo "$line" | sed -n 's/.*wrong in \([0-9]*\) of.*/\1/p')
  n=$(cat "$work/warnings.$b")
  if [ "$b" = sm80 ] && { [ "${w:-0}" -eq 0 ] || [ "$n" -eq 0 ]; }; then
    echo "FAIL: the sm_80 build should be wrong and flagged"; status=1
  fi
  if [ "$b" = sm80_90 ] && { [ "${w:-1}" -ne 0 ] || [ "$n" -ne 0 ]; }; then
    echo "FAIL: the sm_80 + sm_90 build should be right and silent"; status=1
  fi
done
[ "$status" -eq 0 ] && echo "PASS"
exit "$status"
