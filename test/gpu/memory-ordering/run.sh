#!/usr/bin/env bash
# ===- run.sh - GPU proof for cuda-memory-ordering -------------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===---------------------------------------------------------------------===#
#
# Runs cuda-memory-ordering --fix on kernels.cu; the check must warn in
# exactly the kernels named *Bad, and the fixed file must give no warning
# but the spin-wait's (its fix is on a note). Builds the original and the
# fixed file with nvcc -arch=sm_90 (-O3) and runs each kernel in its own
# process under `timeout 20`, with the harness' own bounded wait (a kernel
# still running after 5 s is reported as hung). Passes when
#  - spinPlainBad hangs in the original (the plain load is hoisted), and the
#    note's two forms (spinAtomicGood, spinVolatileGood) finish;
#  - every fixed kernel finishes with the right result in REPEATS runs.
# The originals of the other Bad kernels are run too and their wrong results
# counted: on an H200 they are expected to be right (the shapes are wrong by
# the memory model, not shown by this GPU); a count above 0 is reported, not
# a failure.
#
# Usage: run.sh [PLUGIN] [WORKDIR]; run.sh --prepare PLUGIN DIR (here, needs
# clang-tidy-22); run.sh --prepared DIR (on the GPU machine).
# Environment: CLANG_TIDY (clang-tidy-22), CUDA_PATH (/usr/local/cuda),
#   ARCH (sm_90), REPEATS (200).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../steps.sh"
tidy="${CLANG_TIDY:-clang-tidy-22}"
arch="${ARCH:-sm_90}"
repeats="${REPEATS:-200}"
kernels=$(sed -n 's/^__global__ void \([A-Za-z0-9_]*\)(.*/\1/p' "$here/kernels.cu")

if [ "$step" != prepared ]; then
  echo "== checking and fixing kernels.cu with $plugin"
  cp "$here/kernels.cu" "$work/original.cu"
  cp "$here/kernels.cu" "$work/fixed.cu"
  tidy_args=(-xcuda "--cuda-gpu-arch=$arch" "--cuda-path=$cuda"
             "-I$cuda/include/cccl" -Wno-unknown-cuda-version -std=c++17)
  "$tidy" "-load=$plugin" --checks='-*,cuda-memory-ordering' \
    --quiet --fix "$work/fixed.cu" -- "${tidy_args[@]}" > "$work/fix.log" 2>&1 || true
  "$tidy" "-load=$plugin" --checks='-*,cuda-memory-ordering' \
    --quiet "$work/fixed.cu" -- "${tidy_args[@]}" > "$work/recheck.log" 2>&1 || true
  # The kernel each warning is in: the last __global__ function above it.
  warned_in() {
    grep -o 'fixed.cu:[0-9]*:[0-9]*: warning:.*cuda-memory-ordering' "$1" |
      cut -d: -f2 | while read -r line; do
        head -n "$line" "$work/$2" |
          sed -n 's/^__global__ void \([A-Za-z0-9_]*\)(.*/\1/p' | tail -1
      done | sort -u
  }
  warned_in "$work/fix.log" original.cu > "$work/flagged"
  warned_in "$work/recheck.log" fixed.cu > "$work/left"
  diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
  echo "   flagged: $(tr '\n' ' ' < "$work/flagged")"
  echo "   still flagged after --fix: $(tr '\n' ' ' < "$work/left")"
fi
[ "$step" = prepare ] && exit 0

status=0
echo "$kernels" | grep 'Bad$' | sort > "$work/expected"
if ! diff -q "$work/flagged" "$work/expected" > /dev/null; then
  echo "FAIL: the check warns in other kernels than the *Bad ones:"
  diff "$work/expected" "$work/flagged" | sed 's/^/     /' || true
  status=1
fi
if [ "$(cat "$work/left")" != spinPlainBad ]; then
  echo "FAIL: after --fix the check should warn only in spinPlainBad (note fix)"
  status=1
fi

for form in original fixed; do
  echo "== $form: build"
  "$nvcc" -arch="$arch" -std=c++17 -I"$here" -o "$work/$form" \
    -DKERNELS_FILE="\"$work/$form.cu\"" "$here/harness.cu"
done

# One process per kernel and form; the outer timeout guards the harness.
run() { # FORM KERNEL REPEATS -> prints the result line, returns the status
  local rc=0
  timeout 20 "$work/$1" "$2" "$3" > "$work/$1.$2.out" 2>&1 || rc=$?
  printf '   %-9s %s' "$1" "$(tail -1 "$work/$1.$2.out")"
  [ "$rc" -eq 124 ] && printf ' (killed by timeout 20)'
  echo
  return "$rc"
}
echo "== spin-waits"
rc=0; run original spinPlainBad 1 || rc=$?
if [ "$rc" -ne 3 ] && [ "$rc" -ne 124 ]; then
  echo "FAIL: spinPlainBad did not hang (status $rc)"; status=1
fi
for k in spinAtomicGood spinVolatileGood; do
  run original "$k" 20 || { echo "FAIL: $k did not finish right"; status=1; }
done
echo "== the fixed kernels, $repeats runs each (originals for comparison)"
for k in lastBlockBad asmBarrierBad blockScopeBad; do
  run original "$k" "$repeats" || true
  run fixed "$k" "$repeats" || { echo "FAIL: fixed $k"; status=1; }
done
[ "$status" -eq 0 ] && echo "PASS"
exit "$status"
