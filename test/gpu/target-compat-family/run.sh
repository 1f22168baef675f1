#!/usr/bin/env bash
# ===- run.sh - GPU and build proof for a/f targets -------------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
#
# What cuda-target-compatibility says about architecture- and family-specific
# code must be what nvcc, ptxas and an H100/H200 do:
#  - builds (no GPU): ptx.cu compiled for each target alone with the range
#    guards cuda-tidy flags must fail in ptxas exactly on the targets it
#    names ('wgmma' on sm_90 and sm_100a/f, sm_103f, sm_120f; 'setmaxnreg'
#    on sm_90; 'tcgen05' and 'redux.sync .f32' on sm_120f), and
#    ptx_fitting.cu, with the guards it proposes, build everywhere;
#  - GPU: stubs.cu built for plain sm_90 must launch its stub kernels with
#    cudaSuccess and write nothing (cuda-tidy warns), and built for sm_90a
#    compute every output (silent);
#  - cuda::ptx::tcgen05_alloc under a range guard (wrapper.cu) fails ptxas
#    on every target but sm_100a; reach.cu's helper and atomic under a range
#    guard give 0 right on sm_90 cubins, all on compute_80 PTX, and its
#    CuTe-shaped helper traps from compute_90 PTX, not from sm_90a.
# With a cuda-tidy driver as $1, its verdicts on the same builds are written
# beside the logs.
#
# Usage: run.sh [CUDA_TIDY] [OUTDIR]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tidy="${1:-}"
out="${2:-$(mktemp -d)}"
mkdir -p "$out"
nvcc="${NVCC:-nvcc}"
status=0

# 1. ptxas, one target at a time.
echo "== ptxas, range guards (must fail where cuda-tidy warns)" | tee "$out/ptxas.log"
for t in 90 90a 100a 100f 103f 120f; do
  for mode in range fitting; do
    src="$here/ptx.cu"
    [ "$mode" = fitting ] && src="$here/ptx_fitting.cu"
    log=$("$nvcc" -gencode arch=compute_$t,code=sm_$t -c "$src" -o /dev/null 2>&1)
    rc=$?
    rejected=$(echo "$log" | grep -o "Instruction '[^']*' not supported on .target '[^']*'" | sort -u | tr '\n' ';')
    echo "sm_$t $mode rc=$rc $rejected" | tee -a "$out/ptxas.log"
    case "$mode:$t" in
      fitting:*) [ $rc -eq 0 ] || status=1 ;;
      range:100a|range:100f|range:103f) [ $rc -ne 0 ] && echo "$log" | grep -q "wgmma" || status=1 ;;
      range:90) echo "$log" | grep -q "wgmma.fence' not supported on .target 'sm_90'" || status=1 ;;
      range:120f) echo "$log" | grep -q "wgmma" || status=1 ;;
    esac
  done
done
# tcgen05 and redux .f32 on sm_120f, once wgmma is out of the way.
for t in 120f; do
  log=$("$nvcc" -gencode arch=compute_$t,code=sm_$t -DNO_WGMMA -c "$here/ptx.cu" -o /dev/null 2>&1)
  echo "sm_$t range, without wgmma: $(echo "$log" | grep -o "Instruction '[^']*' not supported on .target '[^']*'" | sort -u | tr '\n' ';')" | tee -a "$out/ptxas.log"
done

# 2. cuda-tidy's verdicts on the same builds.
if [ -n "$tidy" ] && [ -x "$tidy" ]; then
  work="$out/tidy"; mkdir -p "$work"
  cp "$here/ptx.cu" "$here/ptx_fitting.cu" "$here/stubs.cu" "$work/"
  cat > "$work/compile_commands.json" <<JSON
[{"directory":"$work","file":"$work/ptx.cu","command":"$nvcc -arch=sm_90a -gencode arch=compute_100a,code=sm_100a --generate-code=arch=compute_100f,code=[compute_100f,sm_100f] --generate-code=arch=compute_103f,code=[sm_103f] --generate-code=arch=compute_120f,code=[compute_120f,sm_120f] -c $work/ptx.cu -o ptx.o"},
 {"directory":"$work","file":"$work/ptx_fitting.cu","command":"$nvcc -arch=sm_90a -gencode arch=compute_100a,code=sm_100a --generate-code=arch=compute_100f,code=[compute_100f,sm_100f] --generate-code=arch=compute_103f,code=[sm_103f] --generate-code=arch=compute_120f,code=[compute_120f,sm_120f] -c $work/ptx_fitting.cu -o ptx_fitting.o"},
 {"directory":"$work","file":"$work/stubs.cu","command":"$nvcc -gencode arch=compute_90,code=sm_90 -c $work/stubs.cu -o stubs.o"}]
JSON
  (cd "$work" && "$tidy" -p . --checks='-*,cuda-target-compatibility' > "$out/tidy.log" 2> "$out/tidy.err")
  grep -E "warning:" "$out/tidy.log" | sed "s|$work/||" | tee "$out/tidy-warnings.log"
fi

# 3. The GPU.
if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
  nvidia-smi -L | tee "$out/gpu.log"
  for t in 90 90a; do
    "$nvcc" -gencode arch=compute_$t,code=sm_$t -o "$out/stubs_$t" "$here/stubs.cu" || status=1
    echo "== built for sm_$t" | tee -a "$out/gpu.log"
    "$out/stubs_$t" 2>&1 | tee -a "$out/gpu.log"
  done
fi
# 4. cuda::ptx wrappers (build) and the helper/atomic/CuTe-trap shapes (GPU).
echo "== cuda::ptx::tcgen05_alloc under '__CUDA_ARCH__ >= 1000' (must fail but on sm_100a)" | tee -a "$out/ptxas.log"
for t in 100a 100f 103a 103f 110f 120f; do
  for mode in range fitting; do
    flag=""; [ "$mode" = fitting ] && flag="-DFITTING"
    log=$("$nvcc" -std=c++17 $flag -gencode arch=compute_$t,code=sm_$t -c "$here/wrapper.cu" -o /dev/null 2>&1)
    rc=$?
    echo "sm_$t $mode rc=$rc $(echo "$log" | grep -o "Unresolved extern function '[^']*'" | sort -u)" | tee -a "$out/ptxas.log"
    case "$mode:$t" in
      fitting:*|range:100a) [ $rc -eq 0 ] || status=1 ;;
      range:*) [ $rc -ne 0 ] || status=1 ;;
    esac
  done
done
if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1; then
  for g in "sm_90 arch=compute_90,code=sm_90" "compute_80-PTX arch=compute_80,code=compute_80" \
           "compute_90-PTX arch=compute_90,code=compute_90" "sm_90a arch=compute_90a,code=sm_90a"; do
    set -- $g
    "$nvcc" -DMODE="\"$1\"" -gencode "$2" -o "$out/reach_$1" "$here/reach.cu" 2> /dev/null || status=1
    "$out/reach_$1" 2>&1 | tee -a "$out/gpu.log"
  done
fi
echo "status=$status" | tee -a "$out/ptxas.log"
exit $status
