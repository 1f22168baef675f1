# Compares the checks clang-tidy lists with the manifest.
import re
import sys

manifest = set(re.findall(r'^CUDA_TIDY_CHECK\("([\w-]+)"', open(sys.argv[1]).read(), re.M))
listed = set(l.strip() for l in open(sys.argv[2]) if l.strip().startswith("cuda-"))
if manifest != listed:
    print("manifest only: %s" % sorted(manifest - listed))
    print("listed only: %s" % sorted(listed - manifest))
    sys.exit(1)
print("%d checks registered, as in the manifest" % len(listed))
