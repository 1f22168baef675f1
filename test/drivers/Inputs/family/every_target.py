#!/usr/bin/env python3
"""Writes a one-file-per-target nvcc database for every target the given
nvcc accepts: the generic targets of `nvcc --list-gpu-arch`, and each one's
`a` and `f` variant that `nvcc --dryrun` takes (nvcc lists neither). Each
file is a copy of macros.cu compiled with -gencode arch=compute_X,code=sm_X;
expected.txt gets the '#pragma message' its device parse must print
(nvcc 13.0's macro set, as macros.cu names it).

Usage: every_target.py NVCC MACROS_CU OUTDIR
"""
import json
import os
import re
import shutil
import subprocess
import sys

nvcc, macros, out = sys.argv[1:4]
listed = subprocess.run([nvcc, "--list-gpu-arch"], stdout=subprocess.PIPE,
                        universal_newlines=True, check=True).stdout.split()
probe = os.path.join(out, "probe.cu")
with open(probe, "w") as f:
    f.write("__global__ void k() {}\n")
entries, expected = [], []
for virtual in listed:
    number = virtual[len("compute_"):]
    for suffix in ("", "a", "f"):
        target = number + suffix
        if suffix:
            dry = subprocess.run(
                [nvcc, "--dryrun", "-gencode",
                 "arch=compute_%s,code=sm_%s" % (target, target), "-c", probe],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if dry.returncode != 0:
                continue
        name = "target_%s.cu" % target
        path = os.path.join(out, name)
        shutil.copy(macros, path)
        want = {"a": ["-DWANT_A"], "f": ["-DWANT_F"]}.get(suffix, [])
        entries.append({
            "directory": out, "file": path,
            "arguments": [nvcc] + want + [
                "-gencode", "arch=compute_%s,code=sm_%s" % (target, target),
                "-c", path, "-o", name + ".o"]})
        arch = int(number) * 10
        if suffix == "a":
            message = "arch %d specific %d family %d" % (arch, arch, arch)
        elif suffix == "f":
            message = "arch %d family %d only" % (arch, arch)
        else:
            message = "arch %d generic" % arch
        expected.append("%s: %s" % (name, message))
os.remove(probe)
with open(os.path.join(out, "compile_commands.json"), "w") as f:
    json.dump(entries, f, indent=1)
with open(os.path.join(out, "expected.txt"), "w") as f:
    f.write("\n".join(sorted(expected)) + "\n")
print("%d targets" % len(entries))
print(" ".join(sorted((e["file"].split("target_")[1][:-3] for e in entries),
                      key=lambda t: (int(re.match(r"\d+", t).group()), t))))
