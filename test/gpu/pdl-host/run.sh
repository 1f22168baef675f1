#!/usr/bin/env bash
# ===- run.sh - GPU proof for the PDL check's host model -----------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===---------------------------------------------------------------------===#
#
# Runs cuda-programmatic-dependent-launch on program.cu, builds it with
# nvcc -arch=sm_90 and runs each scenario RUNS times (default 50): a
# producer that triggers at entry, spins ~100 us and then writes act[],
# then consumers launched with programmatic stream serialization that read
# a buffer before their wait. Passes when the consumers the check warns in
# are exactly those that read stale data in at least one run: the one
# right after the producer and the one behind a kernel that triggers
# before it waits; not those reading the weights (only read by the
# producer), a table set by cudaMemcpyAsync, or act[] behind a kernel that
# waits before it lets the next one start (never, or by a trigger after
# its wait), or behind a cudaMemsetAsync.
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
scenarios="activation:readsActivation weights:readsWeights table:readsTable
behindWaiter:readsBehindWaiter behindTrigger:readsBehindTrigger
behindWaitTrigger:readsBehindWaitTrigger behindMemset:readsBehindMemset"

if [ "$step" != prepared ]; then
  echo "== checking program.cu with $plugin"
  cp "$here/program.cu" "$work/program.cu"
  "$tidy" "-load=$plugin" --checks='-*,cuda-programmatic-dependent-launch' \
    --quiet "$work/program.cu" -- -xcuda --cuda-gpu-arch=sm_90 \
    "--cuda-path=$cuda" "-I$cuda/include/cccl" -Wno-unknown-cuda-version \
    > "$work/check.log" 2>&1 || true
  # The kernel each warning is in: the last __global__ function above it.
  grep -o "program.cu:[0-9]*:[0-9]*: warning:.*cuda-programmatic-dependent-launch" \
      "$work/check.log" | cut -d: -f2 | while read -r line; do
    head -n "$line" "$work/program.cu" |
      sed -n 's/^__global__ void \([A-Za-z0-9_]*\)(.*/\1/p' | tail -1
  done | sort -u > "$work/flagged"
  echo "   flagged: $(tr '\n' ' ' < "$work/flagged")"
fi
[ "$step" = prepare ] && exit 0

echo "== build (sm_90)"
"$nvcc" -arch=sm_90 -o "$work/program" "$work/program.cu"
: > "$work/wrong"
for pair in $scenarios; do
  name=${pair%%:*}
  kernel=${pair#*:}
  line=$("$work/program" "$name" "$runs")
  printf '   %-20s %s\n' "$kernel" "$line"
  w=$(echo "$line" | sed -n 's/.*wrong in \([0-9]*\) of.*/\1/p')
  [ "${w:-0}" -gt 0 ] && echo "$kernel" >> "$work/wrong"
done
sort -u -o "$work/wrong" "$work/wrong"
echo "== summary (files in $work)"
echo "   the check warns in:       $(tr '\n' ' ' < "$work/flagged")"
echo "   wrong on the GPU in:      $(tr '\n' ' ' < "$work/wrong")"
if ! diff -q "$work/flagged" "$work/wrong" > /dev/null; then
  echo "FAIL: the check and the GPU disagree"
  exit 1
fi
echo "PASS"
