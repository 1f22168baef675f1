#!/usr/bin/env bash
# ===- run.sh - GPU proof for cuda-implicit-warp-synchronization's fixes -===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===---------------------------------------------------------------------===#
#
# Makes the fixed form of kernels.cu with the check's --fix, builds the
# original and the fixed form with nvcc -arch=sm_90 -lineinfo, runs both
# against the CPU reference, runs compute-sanitizer racecheck on both and
# synccheck on the fixed form. Passes when the fixed form computes the right
# results, racecheck reports warp-level hazards in the original and no hazard
# in the fixed form, and synccheck no error in the fixed form.
#
# Usage: run.sh [PLUGIN] [WORKDIR]
#   PLUGIN   the cuda-tidy plugin (default: build/lib/CudaTidy.so)
#   WORKDIR  where to write (default: a new temporary directory)
# A GPU machine without clang-tidy-22 runs it in two steps:
#   run.sh --prepare PLUGIN DIR   here: only the fix and the re-check
#   run.sh --prepared DIR         there: build, run and racecheck DIR's files
# Environment: CLANG_TIDY (clang-tidy-22), CUDA_PATH (/usr/local/cuda),
#   ARCH (sm_90), SUITE (the folder with kernels.cu and harness.cu; default
#   this one; test/gpu/warp-sync-templates holds the template suite).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../steps.sh"
here="$(cd "${SUITE:-$here}" && pwd)"
tidy="${CLANG_TIDY:-clang-tidy-22}"
arch="${ARCH:-sm_90}"

if [ "$step" = prepared ]; then
  read -r warnings left < "$work/counts"
else
echo "== fixing kernels.cu with $plugin"
cp "$here/kernels.cu" "$work/original.cu"
cp "$here/kernels.cu" "$work/fixed.cu"
tidy_args=(-xcuda "--cuda-gpu-arch=$arch" "--cuda-path=$cuda"
           "-I$cuda/include/cccl" -Wno-unknown-cuda-version)
"$tidy" "-load=$plugin" --checks='-*,cuda-implicit-warp-synchronization' \
  --quiet --fix "$work/fixed.cu" -- "${tidy_args[@]}" > "$work/fix.log" 2>&1
warnings=$(grep -c 'warning:.*cuda-implicit-warp-synchronization' "$work/fix.log" || true)
"$tidy" "-load=$plugin" --checks='-*,cuda-implicit-warp-synchronization' \
  --quiet "$work/fixed.cu" -- "${tidy_args[@]}" > "$work/recheck.log" 2>&1
left=$(grep -c 'warning:' "$work/recheck.log" || true)
echo "   $warnings warnings on the original, $left on the fixed form"
diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
echo "$warnings $left" > "$work/counts"
fi
[ "$step" = prepare ] && exit 0

status=0
for form in original fixed; do
  echo "== $form: build"
  "$nvcc" -arch="$arch" -lineinfo -o "$work/$form" \
    -DKERNELS_FILE="\"$work/$form.cu\"" "$here/harness.cu"
  echo "== $form: run"
  if ! "$work/$form"; then
    # The original's race may or may not show in its results; the fixed
    # form must always be right.
    echo "   $form: wrong results"
    [ "$form" = fixed ] && status=1
  fi
  echo "== $form: racecheck"
  "$sanitizer" --tool racecheck --racecheck-report hazard \
    "$work/$form" > "$work/$form.racecheck" 2>&1 || true
  hazards=$(grep -c 'Potential .* hazard' "$work/$form.racecheck" || true)
  warp=$(grep -c 'Warp Level Programming' "$work/$form.racecheck" || true)
  summary=$(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' "$work/$form.racecheck" | tail -1 || true)
  echo "   $form: $hazards hazard reports, $warp warp-level; ${summary:-no summary}"
  eval "${form}_hazards=$hazards ${form}_warp=$warp"
done

# The fix's __syncwarp masks: every lane a mask names must reach the call.
echo "== fixed: synccheck"
"$sanitizer" --tool synccheck "$work/fixed" > "$work/fixed.synccheck" 2>&1 || true
sync_errors=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$work/fixed.synccheck" | tail -1)
echo "   fixed: synccheck ${sync_errors:-?} errors"

echo "== summary (files in $work)"
echo "   check: $warnings warnings before the fix, $left after"
echo "   racecheck: original $original_hazards hazards ($original_warp warp-level), fixed $fixed_hazards"
[ "$warnings" -gt 0 ] || { echo "FAIL: the check found nothing"; status=1; }
[ "$left" -eq 0 ] || { echo "FAIL: the fixed form still warns"; status=1; }
[ "$original_warp" -gt 0 ] || { echo "FAIL: racecheck saw no warp-level hazard in the original"; status=1; }
[ "$fixed_hazards" -eq 0 ] || { echo "FAIL: racecheck reports hazards in the fixed form"; status=1; }
[ "${sync_errors:-1}" -eq 0 ] || { echo "FAIL: synccheck reports errors in the fixed form"; status=1; }
[ "$status" -eq 0 ] && echo "PASS"
exit "$status"
