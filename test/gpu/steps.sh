# ===- steps.sh - Arguments shared by the GPU proof scripts -----------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
# Sourced by test/gpu/*/run.sh with their arguments:
#   [PLUGIN] [WORKDIR]         every step here
#   --prepare PLUGIN DIR       only the steps that need clang-tidy-22
#   --prepared DIR             only the GPU steps, on DIR's prepared files
# Sets: step (all, prepare or prepared), plugin, work (absolute), cuda, nvcc,
# sanitizer (compute-sanitizer; needed unless only preparing).
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
step=all
case "${1:-}" in
  --prepare) step=prepare; shift ;;
  --prepared) step=prepared; shift; set -- "" "$1" ;;
esac
plugin="${1:-$root/build/lib/CudaTidy.so}"
work="${2:-$(mktemp -d)}"
mkdir -p "$work"
work="$(cd "$work" && pwd)"
cuda="${CUDA_PATH:-/usr/local/cuda}"
nvcc="$cuda/bin/nvcc"
sanitizer="${COMPUTE_SANITIZER:-}"
for c in "$cuda/bin/compute-sanitizer" "$cuda/compute-sanitizer/compute-sanitizer" \
         "$(command -v compute-sanitizer || true)"; do
  [ -z "$sanitizer" ] && [ -n "$c" ] && [ -x "$c" ] && sanitizer="$c"
done
[ -n "$sanitizer" ] || [ "$step" = prepare ] ||
  { echo "compute-sanitizer not found (set COMPUTE_SANITIZER)"; exit 2; }
