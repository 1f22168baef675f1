#!/usr/bin/env bash
# ===- run.sh - GPU proof for cuda-shared-memory-race ---------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===---------------------------------------------------------------------===#
#
# Runs cuda-shared-memory-race on kernels.cu and makes the fixed form with
# --fix; builds the original and the fixed form with nvcc -arch=sm_90
# -lineinfo; runs every kernel of both under compute-sanitizer racecheck,
# one at a time, and against the CPU reference; synccheck on the fixed form.
# Passes when
#  - the kernels the check warns in are exactly those in which racecheck
#    reports a shared-memory hazard in the original (no race missed, no
#    false warning, on these kernels), but for the races racecheck cannot
#    see (a plain store against an atomic: the blind list below);
#  - the fixed form gives no warning, no racecheck hazard, no synccheck
#    error, and the right results for every kernel.
#
# Usage: run.sh [PLUGIN] [WORKDIR]; run.sh --prepare PLUGIN DIR (here, needs
# clang-tidy-22); run.sh --prepared DIR (on the GPU machine).
# Environment: CLANG_TIDY (clang-tidy-22), CUDA_PATH (/usr/local/cuda),
#   ARCH (sm_90).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../steps.sh"
tidy="${CLANG_TIDY:-clang-tidy-22}"
arch="${ARCH:-sm_90}"
kernels=$(sed -n 's/^__global__ void \([A-Za-z0-9_]*\)(.*/\1/p' "$here/kernels.cu")

if [ "$step" != prepared ]; then
  echo "== checking and fixing kernels.cu with $plugin"
  cp "$here/kernels.cu" "$work/original.cu"
  cp "$here/kernels.cu" "$work/fixed.cu"
  tidy_args=(-xcuda "--cuda-gpu-arch=$arch" "--cuda-path=$cuda"
             "-I$cuda/include/cccl" -Wno-unknown-cuda-version)
  "$tidy" "-load=$plugin" --checks='-*,cuda-shared-memory-race' \
    --quiet --fix "$work/fixed.cu" -- "${tidy_args[@]}" > "$work/fix.log" 2>&1 || true
  "$tidy" "-load=$plugin" --checks='-*,cuda-shared-memory-race' \
    --quiet "$work/fixed.cu" -- "${tidy_args[@]}" > "$work/recheck.log" 2>&1 || true
  # The kernel each warning is in: the last __global__ function above it.
  grep -o 'fixed.cu:[0-9]*:[0-9]*: warning:.*cuda-shared-memory-race' \
    "$work/fix.log" | cut -d: -f2 | while read -r line; do
    head -n "$line" "$here/kernels.cu" |
      sed -n 's/^__global__ void \([A-Za-z0-9_]*\)(.*/\1/p' | tail -1
  done | sort -u > "$work/flagged"
  grep -c 'warning:' "$work/recheck.log" > "$work/left" || true
  diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
  echo "   flagged: $(tr '\n' ' ' < "$work/flagged")"
  echo "   warnings on the fixed form: $(cat "$work/left")"
fi
[ "$step" = prepare ] && exit 0

status=0
for form in original fixed; do
  echo "== $form: build"
  "$nvcc" -arch="$arch" -lineinfo -I"$here" -o "$work/$form" \
    -DKERNELS_FILE="\"$work/$form.cu\"" "$here/harness.cu"
done
: > "$work/hazardous"
for k in $kernels; do
  for form in original fixed; do
    if ! "$work/$form" "$k" > "$work/$form.$k.out" 2>&1; then
      echo "   $form $k: $(tail -1 "$work/$form.$k.out")"
      [ "$form" = fixed ] && status=1
    fi
    "$sanitizer" --tool racecheck --racecheck-report hazard \
      "$work/$form" "$k" > "$work/$form.$k.racecheck" 2>&1 || true
    n=$(grep -c 'Potential .* hazard' "$work/$form.$k.racecheck" || true)
    printf '   %-9s %-22s racecheck: %s hazard reports\n' "$form" "$k" "$n"
    if [ "$form" = original ] && [ "$n" -gt 0 ]; then echo "$k" >> "$work/hazardous"; fi
    if [ "$form" = fixed ] && [ "$n" -gt 0 ]; then
      echo "FAIL: racecheck reports hazards in the fixed $k"; status=1
    fi
  done
done
sort -u -o "$work/hazardous" "$work/hazardous"
# Racecheck does not report a plain store against another warp's atomic
# (measured on an H200 with CUDA 13.0: histogramRacy, whose bins are zeroed
# and counted into with no barrier, gives 0 hazard reports): such kernels
# count as racing when the check warns in them and racecheck stays silent.
blind="histogramRacy"
for k in $blind; do
  if grep -qx "$k" "$work/hazardous"; then
    echo "   note: racecheck now reports $k; take it off the blind list"
  elif grep -qx "$k" "$work/flagged"; then
    echo "$k" >> "$work/hazardous"
  fi
done
sort -u -o "$work/hazardous" "$work/hazardous"

echo "== fixed: synccheck"
"$sanitizer" --tool synccheck "$work/fixed" > "$work/fixed.synccheck" 2>&1 || true
sync_errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$work/fixed.synccheck" | tail -1)
echo "   fixed: synccheck ${sync_errors:-?} errors"

echo "== summary (files in $work)"
echo "   the check warns in:      $(tr '\n' ' ' < "$work/flagged")"
echo "   racecheck hazards in:    $(tr '\n' ' ' < "$work/hazardous") (with the blind list: $blind)"
if ! diff -q "$work/flagged" "$work/hazardous" > /dev/null; then
  echo "FAIL: the check and racecheck disagree:"
  diff "$work/flagged" "$work/hazardous" | sed 's/^/     /' || true
  status=1
fi
[ -s "$work/flagged" ] || { echo "FAIL: the check found nothing"; status=1; }
[ "$(cat "$work/left")" -eq 0 ] || { echo "FAIL: the fixed form still warns"; status=1; }
[ "${sync_errors:-1}" -eq 0 ] || { echo "FAIL: synccheck reports errors in the fixed form"; status=1; }
[ "$status" -eq 0 ] && echo "PASS"
exit "$status"
