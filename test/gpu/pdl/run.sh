#!/usr/bin/env bash
# ===- run.sh - GPU proof for cuda-programmatic-dependent-launch ----------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===---------------------------------------------------------------------===#
#
# Runs cuda-programmatic-dependent-launch on program.cu and makes the fixed
# form with --fix-notes (the wait moved or copied to the top of a kernel, or
# added to a kernel that never waits); builds both with nvcc -arch=sm_90; runs every
# consumer RUNS times (default 50) after a producer that triggers at entry,
# spins ~100 us and then writes. Passes when
#  - the kernels the check warns in are exactly those that give a wrong
#    result in the original in at least one run;
#  - every kernel of the fixed form is right in every run, but for the one
#    the check gives no fix for (a wait compiled out for sm_90), whose hand
#    fix (waitFromHopper) is a silent kernel of the file, as is the hand fix
#    of the warp roles (warpRolesWait, each role waiting in its branch);
#  - the fixed form gives no warning but for that kernel.
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
nofix="waitOnlyOnBlackwell"
kernels=$(sed -n 's/^__global__ void \([A-Za-z0-9_]*\)(.*/\1/p' "$here/program.cu" |
          grep -v '^producer$')

# The kernel each warning of LOG (for FILE) is in: the last __global__
# function at or above its line.
flagged_in() {
  grep -o "$2:[0-9]*:[0-9]*: warning:.*cuda-programmatic-dependent-launch" "$1" |
    cut -d: -f2 | while read -r line; do
      head -n "$line" "$3" | sed -n 's/^__global__ void \([A-Za-z0-9_]*\)(.*/\1/p' | tail -1
    done | sort -u
}

if [ "$step" != prepared ]; then
  echo "== checking and fixing program.cu with $plugin"
  cp "$here/program.cu" "$work/original.cu"
  cp "$here/program.cu" "$work/fixed.cu"
  tidy_args=(-xcuda --cuda-gpu-arch=sm_90 "--cuda-path=$cuda"
             "-I$cuda/include/cccl" -Wno-unknown-cuda-version)
  "$tidy" "-load=$plugin" --checks='-*,cuda-programmatic-dependent-launch' \
    --quiet "$work/original.cu" -- "${tidy_args[@]}" > "$work/check.log" 2>&1 || true
  "$tidy" "-load=$plugin" --checks='-*,cuda-programmatic-dependent-launch' \
    --quiet --fix-notes "$work/fixed.cu" -- "${tidy_args[@]}" > "$work/fix.log" 2>&1 || true
  "$tidy" "-load=$plugin" --checks='-*,cuda-programmatic-dependent-launch' \
    --quiet "$work/fixed.cu" -- "${tidy_args[@]}" > "$work/recheck.log" 2>&1 || true
  flagged_in "$work/check.log" original.cu "$work/original.cu" > "$work/flagged"
  flagged_in "$work/recheck.log" fixed.cu "$work/fixed.cu" > "$work/left"
  diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
  echo "   flagged: $(tr '\n' ' ' < "$work/flagged")"
  echo "   still flagged in the fixed form: $(tr '\n' ' ' < "$work/left")"
fi
[ "$step" = prepare ] && exit 0

status=0
for form in original fixed; do
  echo "== $form: build (sm_90)"
  "$nvcc" -arch=sm_90 -o "$work/$form" "$work/$form.cu"
done
: > "$work/wrong"
for k in $kernels; do
  for form in original fixed; do
    line=$("$work/$form" "$k" "$runs")
    printf '   %-9s %s\n' "$form" "$line"
    w=$(echo "$line" | sed -n 's/.*wrong in \([0-9]*\) of.*/\1/p')
    if [ "$form" = original ] && [ "${w:-0}" -gt 0 ]; then echo "$k" >> "$work/wrong"; fi
    if [ "$form" = fixed ] && [ "${w:-1}" -gt 0 ] && ! echo " $nofix " | grep -q " $k "; then
      echo "FAIL: the fixed $k is wrong"; status=1
    fi
  done
done
sort -u -o "$work/wrong" "$work/wrong"
echo "== summary (files in $work)"
echo "   the check warns in:       $(tr '\n' ' ' < "$work/flagged")"
echo "   wrong in the original in: $(tr '\n' ' ' < "$work/wrong")"
if ! diff -q "$work/flagged" "$work/wrong" > /dev/null; then
  echo "FAIL: the check and the GPU disagree:"
  diff "$work/flagged" "$work/wrong" | sed 's/^/     /' || true
  status=1
fi
[ -s "$work/flagged" ] || { echo "FAIL: the check found nothing"; status=1; }
if [ "$(tr '\n' ' ' < "$work/left" | sed 's/ $//')" != "$(echo $nofix | tr ' ' '\n' | sort | tr '\n' ' ' | sed 's/ $//')" ]; then
  echo "FAIL: the fixed form warns in: $(tr '\n' ' ' < "$work/left") (expected: $nofix)"
  status=1
fi
[ "$status" -eq 0 ] && echo "PASS"
exit "$status"
