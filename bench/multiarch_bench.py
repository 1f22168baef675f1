#!/usr/bin/env python3
# ===- multiarch_bench.py - One device parse for several architectures ----===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Measures cuda-tidy's one-parse multi-architecture path on a real project.

For the .cu files of a CMake + nvcc project's compile_commands.json, runs
cuda-tidy three times over the same files, back to back:

  one   --cuda-archs=<first>                     (host + one device parse)
  each  --cuda-archs=<all> --cuda-arch-parse=each   (host + one per arch)
  once  --cuda-archs=<all> --cuda-arch-parse=once-when-possible

and reports the wall and CPU time of each run and the ratios each/one and
once/one (goal: once/one at most 1.3 for files without architecture
conditionals). It then compares the diagnostics of 'each' and 'once': the
printed warnings and notes, and the exported fixes (--export-fixes), which
must be identical; any difference is printed and the script exits 1.

Files are split into two groups, reported separately: those whose sample
folder (the file and the headers beside it) never names __CUDA_ARCH__, and
those whose folder does (they may need their per-architecture parses).

cuda-samples, brought here with the fetch tool and configured for the four
architectures (no GPU needed; the samples hard-code their architecture list,
so it is rewritten first):

  git clone /work/.mirror/NVIDIA+cuda-samples/repo cuda-samples
  grep -rl 'set(CMAKE_CUDA_ARCHITECTURES' --include=CMakeLists.txt cuda-samples |
    xargs sed -i 's/set(CMAKE_CUDA_ARCHITECTURES [0-9 ]*)/set(CMAKE_CUDA_ARCHITECTURES 75 80 90 100)/'
  cmake -S cuda-samples -B cuda-samples/build -G Ninja \\
    -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
  python3 bench/multiarch_bench.py --cuda-tidy build/bin/cuda-tidy \\
    -p cuda-samples/build [--plain 32] [--conditional 12]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ARCH_RE = re.compile(r"__CUDA_ARCH")


def folder_names_arch(path):
    """Whether the file's folder holds a source or header naming
    __CUDA_ARCH__ (the file itself included)."""
    folder = os.path.dirname(path)
    for name in sorted(os.listdir(folder)):
        if os.path.splitext(name)[1] not in (".cu", ".cuh", ".h", ".hpp",
                                             ".cpp", ".inl"):
            continue
        try:
            with open(os.path.join(folder, name), errors="replace") as f:
                if ARCH_RE.search(f.read()):
                    return True
        except OSError:
            pass
    return False


def run(cmd):
    """Runs cmd; returns (wall seconds, CPU seconds of it and its children,
    stdout text)."""
    before = os.times()
    start = time.monotonic()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.monotonic() - start
    after = os.times()
    cpu = (after.children_user - before.children_user +
           after.children_system - before.children_system)
    return wall, cpu, proc.stdout.decode(errors="replace")


def fixes_text(path):
    if not os.path.exists(path):
        return ""
    with open(path) as f:
        return f.read()


def measure_group(label, files, args, tmp):
    archs = args.archs.split(",")
    base = [args.cuda_tidy, "-p", args.p]
    if args.checks:
        base.append("--checks=" + args.checks)
    modes = [
        ("one", ["--cuda-archs=" + archs[0]]),
        ("each", ["--cuda-archs=" + args.archs, "--cuda-arch-parse=each"]),
        ("once", ["--cuda-archs=" + args.archs,
                  "--cuda-arch-parse=once-when-possible"]),
    ]
    results = {}
    for name, extra in modes:
        fixes = os.path.join(tmp, "%s-%s.yaml" % (label, name))
        wall, cpu, out = run(base + extra + ["--export-fixes=" + fixes] + files)
        results[name] = (wall, cpu, out, fixes_text(fixes))
        print("  %-4s %7.1f s wall %7.1f s CPU" % (name, wall, cpu))
    one = results["one"]
    for name in ("each", "once"):
        r = results[name]
        print("  %s/one: wall x%.2f, CPU x%.2f" % (name, r[0] / one[0],
                                                   r[1] / one[1]))
    same = True
    if results["each"][2] != results["once"][2]:
        same = False
        print("  DIFFERENT printed diagnostics between 'each' and 'once'")
        a = results["each"][2].splitlines()
        b = results["once"][2].splitlines()
        for line in sorted(set(a) ^ set(b))[:20]:
            print("    %s %s" % ("each" if line in a else "once", line))
    if results["each"][3] != results["once"][3]:
        same = False
        print("  DIFFERENT exported fixes between 'each' and 'once'")
    warnings = len(re.findall(r": warning: ", results["each"][2]))
    print("  'each' and 'once': %s (%d warnings printed)" %
          ("same diagnostics and fixes" if same else "DIFFERENT", warnings))
    return same, {n: r[:2] for n, r in results.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cuda-tidy", default="build/bin/cuda-tidy")
    ap.add_argument("-p", required=True,
                    help="the project's build folder (compile_commands.json)")
    ap.add_argument("--archs", default="sm_75,sm_80,sm_90,sm_100")
    ap.add_argument("--checks", default="",
                    help="--checks for cuda-tidy (default: its own default)")
    ap.add_argument("--plain", type=int, default=32,
                    help="how many files without __CUDA_ARCH__ to analyse")
    ap.add_argument("--conditional", type=int, default=12,
                    help="how many files naming __CUDA_ARCH__ to analyse")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()

    with open(os.path.join(args.p, "compile_commands.json")) as f:
        db = json.load(f)
    files = sorted({e["file"] for e in db if e["file"].endswith(".cu")})
    plain = [f for f in files if not folder_names_arch(f)]
    conditional = [f for f in files if folder_names_arch(f)]
    print("%d .cu files: %d without __CUDA_ARCH__ in their folder, %d with" %
          (len(files), len(plain), len(conditional)))
    all_same = True
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        for label, group, limit in (("plain", plain, args.plain),
                                    ("conditional", conditional,
                                     args.conditional)):
            group = group[:limit]
            if not group:
                continue
            print("%s: %d files, archs %s" % (label, len(group), args.archs))
            same, fig = measure_group(label, group, args, tmp)
            all_same &= same
            figures[label] = {"files": len(group), "same": same,
                              "seconds": fig}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=2)
    return 0 if all_same else 1


if __name__ == "__main__":
    sys.exit(main())
