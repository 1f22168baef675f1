#!/bin/sh
# GPU proof of cuda-divergent-barrier's cluster and grid scopes (sm_90):
# builds scopes.cu with nvcc, checks that cuda-divergent-barrier flags the
# divergent kernels and none of the correct ones, then runs each case in its
# own process (a hung cooperative launch dies with it). Exits non-zero when a
# case does not behave as the check's documentation says.
#   test/gpu/scopes/run.sh [PLUGIN] [BUILD_DIR]   (NVCC, CLANG_TIDY override)
set -u
here=$(cd "$(dirname "$0")" && pwd)
plugin=${1:-}
out=${2:-${TMPDIR:-/tmp}/cuda-tidy-gpu-scopes}
cuda=${CUDA_PATH:-/usr/local/cuda}
nvcc=${NVCC:-$cuda/bin/nvcc}
mkdir -p "$out"
failed=0
if [ -n "$plugin" ]; then
  tidy=${CLANG_TIDY:-clang-tidy-22}
  "$tidy" -load="$plugin" --checks=-*,cuda-divergent-barrier --quiet \
    "$here/scopes.cu" -- --cuda-path="$cuda" -I"$cuda/include/cccl" \
    --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
    -D_CG_CLUSTER_INTRINSICS_AVAILABLE > "$out/tidy.txt" 2>&1
  flagged=$(grep -c "warning:.*\[cuda-divergent-barrier\]" "$out/tidy.txt")
  cat "$out/tidy.txt" | grep "warning:" | sed "s|$here/||"
  # gridSyncPerBlockLoop's grid.sync and clusterExchange's first
  # cluster.sync; not the uniform kernels.
  if [ "$flagged" -ne 2 ]; then
    echo "expected 2 cuda-divergent-barrier warnings, got $flagged"
    failed=$((failed + 1))
  fi
fi
if ! "$nvcc" -std=c++17 -arch=sm_90 -o "$out/scopes" "$here/scopes.cu"; then
  echo "scopes: build failed"
  exit 1
fi
for c in grid-divergent grid-uniform cluster-skip cluster-uniform; do
  if ! timeout 60 "$out/scopes" "$c"; then
    echo "$c: not as expected"
    failed=$((failed + 1))
  fi
done
echo "== summary: $failed failed"
[ "$failed" -eq 0 ]
