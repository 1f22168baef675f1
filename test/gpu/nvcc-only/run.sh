#!/usr/bin/env bash
# ===- run.sh - GPU proof for cuda-nvcc-only-construct's fix ---------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
#
# Fixes timer.cu with the check's --fix ('%' -> '%%' before PTX special
# registers in asm with operands), checks that clang-tidy then parses it
# without error or remark, builds the original and the fixed form with nvcc
# and runs both: each must read the registers right.
#
# Usage: run.sh [PLUGIN] [WORKDIR] | --prepare PLUGIN DIR | --prepared DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/../steps.sh"
tidy="${CLANG_TIDY:-clang-tidy-22}"
arch="${ARCH:-sm_90}"
if [ "$step" != prepared ]; then
  cp "$here/timer.cu" "$work/original.cu"
  cp "$here/timer.cu" "$work/fixed.cu"
  args=(-xcuda "--cuda-gpu-arch=$arch" "--cuda-path=$cuda" "-I$cuda/include/cccl" -Wno-unknown-cuda-version)
  "$tidy" "-load=$plugin" --checks='-*,cuda-nvcc-only-construct' --fix \
    "$work/fixed.cu" -- "${args[@]}" > "$work/fix.log" 2>&1 || true
  remarks=$(grep -c 'remark:.*cuda-nvcc-only-construct' "$work/fix.log" || true)
  "$tidy" "-load=$plugin" --checks='-*,cuda-nvcc-only-construct' \
    "$work/fixed.cu" -- "${args[@]}" > "$work/recheck.log" 2>&1
  left=$(grep -cE 'error:|remark:' "$work/recheck.log" || true)
  echo "$remarks $left" > "$work/counts"
  diff -u "$work/original.cu" "$work/fixed.cu" > "$work/fix.diff" || true
fi
[ "$step" = prepare ] && exit 0
read -r remarks left < "$work/counts"
status=0
for form in original fixed; do
  "$nvcc" -arch="$arch" -o "$work/$form" "$work/$form.cu"
  echo "== $form"
  "$work/$form" || status=1
done
echo "   check: $remarks remarks on the original, $left errors or remarks on the fixed form"
[ "$remarks" -gt 0 ] || { echo "FAIL: no remark"; status=1; }
[ "$left" -eq 0 ] || { echo "FAIL: the fixed form still has errors or remarks"; status=1; }
[ "$status" -eq 0 ] && echo "PASS"
exit "$status"
