#!/usr/bin/env python3
# ===- crash_sweep.py - Broken code never crashes the checks ----------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Runs every cuda-* check on damaged copies of the lit tests' CUDA files
(every 3rd, 5th or 7th line removed: unbalanced braces, missing declarations,
half statements), on the device and the host side, with the hermetic headers
and, when a CUDA toolkit is given, with the real ones (precompiled once:
the damage is in the files, not in the headers); fails if clang-tidy
crashes or hangs on any of them. Compiler errors are expected and fine.
The runs are spread over the cores this process may use.

  crash_sweep.py CLANG_TIDY PLUGIN SOURCE_ROOT WORKDIR [CUDA_PATH]
"""
import concurrent.futures
import glob
import os
import subprocess
import sys

clang_tidy, plugin, root, work = sys.argv[1:5]
cuda = sys.argv[5] if len(sys.argv) > 5 else ""
os.makedirs(work, exist_ok=True)
stubs = ["-nocudainc", "-nocudalib",
         "-isystem", os.path.join(root, "test", "Inputs", "cuda"),
         "-isystem", os.path.join(root, "test", "Inputs", "legacy")]
sources = sorted(glob.glob(os.path.join(root, "test", "*", "*.cu")))
toolkit = ["--cuda-path=" + cuda, "-I" + os.path.join(cuda, "include", "cccl"),
           "-Wno-unknown-cuda-version"] + stubs[-2:] + \
    ["--cuda-gpu-arch=sm_90", "--cuda-device-only"]


def toolkit_pch():
    """The toolkit runs' headers as a precompiled header (the files are
    damaged, the headers are not: as the cuda-tidy driver shares them), or
    no arguments when clang cannot build one."""
    clang = os.path.join(os.path.dirname(os.path.realpath(clang_tidy)), "clang++")
    empty = os.path.join(work, "toolkit-pch.cu")
    pch = os.path.join(work, "toolkit.pch")
    open(empty, "w").close()
    built = subprocess.run([clang, "-x", "cuda"] + toolkit + [
        "-fsyntax-only", "-Xclang", "-emit-pch", "-Xclang", "-o", "-Xclang",
        pch, empty], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return ["-include-pch", pch] if built.returncode == 0 else []


toolkit_extra = toolkit_pch() if cuda else []
commands = []
for source in sources:
    lines = open(source).readlines()
    for step in (3, 5, 7):
        # Named by folder too: runs go in parallel, and several folders
        # have a file of the same name.
        damaged = os.path.join(work, "%s.%s.%d.cu" % (
            os.path.basename(os.path.dirname(source)),
            os.path.basename(source)[:-3], step))
        with open(damaged, "w") as f:
            f.writelines(l for n, l in enumerate(lines, 1) if n % step)
        side = "--cuda-host-only" if step == 5 else "--cuda-device-only"
        modes = [stubs]
        for headers in modes:
            commands.append([clang_tidy, "-load=" + plugin,
                             "--checks=-*,cuda-*", "--quiet", damaged,
                             "--"] + headers + ["--cuda-gpu-arch=sm_90", side])
        if cuda and step == 7:
            commands.append([clang_tidy, "-load=" + plugin,
                             "--checks=-*,cuda-*", "--quiet", damaged,
                             "--"] + toolkit_extra + toolkit)


def sweep(cmd):
    """None, or why clang-tidy failed on cmd (a crash or a hang)."""
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=120,
                             universal_newlines=True)
    except subprocess.TimeoutExpired:
        return "%s: no answer in 120 s" % " ".join(cmd)
    if out.returncode < 0 or "Stack dump:" in out.stdout or \
            "PLEASE submit a bug report" in out.stdout:
        return "%s: crashed (exit %d)\n%s" % (
            " ".join(cmd), out.returncode, out.stdout[-3000:])
    return None


# The runs are independent: as many at a time as this process may use cores
# (CUDA_TIDY_SWEEP_JOBS overrides), in the order above for the report.
jobs = int(os.environ.get("CUDA_TIDY_SWEEP_JOBS", "0")) or \
    len(os.sched_getaffinity(0))
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    crashes = [c for c in pool.map(sweep, commands) if c]
for c in crashes:
    print("FAIL: " + c)
print("%d runs on %d damaged files, %d crashes (%d at a time)" % (
    len(commands), 3 * len(sources), len(crashes), jobs))
sys.exit(1 if crashes else 0)
