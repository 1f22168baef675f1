#!/usr/bin/env python3
# ===- behaviour_snapshot.py - What the checks say on every test input -----===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Runs every cuda-* check on every CUDA source under test/ and bench/inputs/
and writes what they report and the fixes they offer, one file per input,
so that two builds can be compared byte for byte (`diff -r A B`). For
refactors that must not change behaviour: the lit suite checks what the
tests expect; this checks everything else the checks say on the same inputs
(notes, remarks, findings in files whose expectations cover one check only).

  python3 tools/dev/behaviour_snapshot.py --plugin build/lib/CudaTidy.so OUT
  python3 tools/dev/behaviour_snapshot.py --plugin other.so OUT2
  diff -r OUT OUT2
"""
import argparse
import concurrent.futures
import glob
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    parser.add_argument("--headers", choices=["stub", "toolkit"], default="stub")
    parser.add_argument("--cuda-path", default="/usr/local/cuda")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("out")
    args = parser.parse_args()

    if args.headers == "stub":
        cuda = ["-nocudainc", "-nocudalib", "-isystem",
                os.path.join(ROOT, "test", "Inputs", "cuda")]
    else:
        cuda = ["--cuda-path=" + args.cuda_path,
                "-I" + os.path.join(args.cuda_path, "include", "cccl"),
                "-Wno-unknown-cuda-version"]
    inputs = sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.cu"),
                              recursive=True) +
                    glob.glob(os.path.join(ROOT, "bench", "inputs", "*.cu")))
    os.makedirs(args.out, exist_ok=True)
    plugin = os.path.abspath(args.plugin)

    def one(src):
        rel = os.path.relpath(src, ROOT)
        name = rel.replace(os.sep, "__")
        fixes = os.path.join(args.out, name + ".fixes.yaml")
        cmd = [args.clang_tidy, "-load=" + plugin, "--checks=-*,cuda-*",
               "--export-fixes=" + fixes, src, "--"] + cuda + [
               "--cuda-gpu-arch=" + args.arch, "-I" + os.path.dirname(src)]
        proc = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, cwd=ROOT)
        text = proc.stdout.decode(errors="replace").replace(ROOT + "/", "")
        # Drop the run's counts of suppressed warnings: they name no finding.
        lines = [l for l in text.splitlines()
                 if not l.startswith(("Suppressed ", "Use -header-filter",
                                      "Use -system-headers"))]
        with open(os.path.join(args.out, name + ".txt"), "w") as f:
            f.write("exit %d\n" % proc.returncode)
            f.write("\n".join(lines) + "\n")
        if os.path.exists(fixes):
            with open(fixes) as f:
                body = f.read().replace(ROOT + "/", "")
            with open(fixes, "w") as f:
                f.write(body)
        return rel

    with concurrent.futures.ThreadPoolExecutor(args.j) as pool:
        for rel in pool.map(one, inputs):
            pass
    print("%d inputs snapshotted into %s" % (len(inputs), args.out))


if __name__ == "__main__":
    sys.exit(main())
