#!/usr/bin/env python3
# ===- project_bench.py - cuda-tidy -j, architectures and cache on a project ===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Wall-time ratios of cuda-tidy's parallel run, architectures and cache on a
real CMake + nvcc project, measured in one run, and a check that every way of
running it reports the same diagnostics as the sequential path.

The project is configured (once, into --build) with CMake, nvcc from
/usr/local/cuda and CMAKE_CUDA_ARCHITECTURES="75;80;90;100", which gives
compile_commands.json; no GPU and no build are needed. A project whose
configure reports missing optional libraries still gets its database; the
script uses it when it exists. --files of its .cu files are measured (spread
over the sorted list of the database's files), each analysed for the host
and the four architectures:

  sequential  one cuda-tidy process per file, one after another (a single
              file is analysed in-process: the path of cuda-tidy before -j
              and of run-clang-tidy)
  j1, j2      cuda-tidy -j1 / -j2 over the files
  j2-1arch    -j2 with --cuda-archs=sm_90 (the host and one architecture)
  cache-cold  -j2 --cache-dir=EMPTY
  cache-warm  the same again: every file replayed from the cache

Also reported: the CPU time (user + system) of each, and the load average
at the end; on a shared machine a -j2 run gains only when a second core is
free, which the CPU times help to judge. Reported ratios: j2 / j1, 4 architectures / 1 (j2 / j2-1arch), cache-warm /
cache-cold. The diagnostics (file:line:col: level: message [check] lines of
stdout, in order) of j1, j2, cache-cold and cache-warm must equal those of
sequential, and cache-warm's whole stdout must equal cache-cold's; the
script fails otherwise.

  python3 bench/project_bench.py --cuda-tidy build/bin/cuda-tidy \\
      --source /path/to/cuda-samples --build /tmp/cuda-samples-build \\
      [--files 30] [--json out.json]

The measured project is not part of cuda-tidy: fetch it yourself (for
example NVIDIA/cuda-samples) and do not commit it.
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

DIAG = re.compile(r"^(\S+?):(\d+):(\d+): (warning|error|remark): .* \[[^\]]+\]$")


def configure(source, build):
    db = os.path.join(build, "compile_commands.json")
    if os.path.exists(db):
        return db
    subprocess.run(
        ["cmake", "-S", source, "-B", build,
         "-DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc",
         "-DCMAKE_CUDA_ARCHITECTURES=75;80;90;100",
         "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if not os.path.exists(db):
        sys.exit("project_bench: configuring %s wrote no %s" % (source, db))
    return db


def pick_files(db, count):
    with open(db) as f:
        files = sorted({e["file"] if os.path.isabs(e["file"])
                        else os.path.join(e["directory"], e["file"])
                        for e in json.load(f) if e["file"].endswith(".cu")})
    if len(files) < count:
        sys.exit("project_bench: the database has %d .cu files, fewer than %d"
                 % (len(files), count))
    return [files[i * len(files) // count] for i in range(count)]


CPU = {}


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd, name=None):
    """Runs cmd; returns (wall seconds, stdout, stderr, status). The CPU time
    of cmd and its workers (user + system) goes into CPU[name]."""
    start, cpu = time.monotonic(), cpu_seconds()
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if name:
        CPU[name] = CPU.get(name, 0.0) + cpu_seconds() - cpu
    return time.monotonic() - start, proc.stdout, proc.stderr, proc.returncode


def diagnostics(stdout):
    return [line for line in stdout.splitlines() if DIAG.match(line)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cuda-tidy", required=True)
    ap.add_argument("--source", required=True,
                    help="the project's checkout (read only)")
    ap.add_argument("--build", required=True,
                    help="where to configure it (or where it is configured)")
    ap.add_argument("--files", type=int, default=30)
    ap.add_argument("--json")
    args = ap.parse_args()

    tidy = os.path.abspath(args.cuda_tidy)
    db = configure(args.source, args.build)
    files = pick_files(db, args.files)
    base = [tidy, "-p", args.build, "--no-progress"]
    scratch = tempfile.mkdtemp(prefix="project-bench-")
    runs = {}
    try:
        wall, out, err, seq_status = 0.0, "", "", 0
        for f in files:
            w, o, e, s = run([tidy, "-p", args.build, f], "sequential")
            wall, out, err = wall + w, out + o, err + e
            seq_status = seq_status or s
        runs["sequential"] = (wall, out, err, seq_status)
        runs["j1"] = run(base + ["-j1"] + files, "j1")
        runs["j2"] = run(base + ["-j2"] + files, "j2")
        runs["j2-1arch"] = run(base + ["-j2", "--cuda-archs=sm_90"] + files, "j2-1arch")
        cache = os.path.join(scratch, "cache")
        runs["cache-cold"] = run(base + ["-j2", "--cache-dir=" + cache] + files, "cache-cold")
        runs["cache-warm"] = run(base + ["-j2", "--cache-dir=" + cache] + files, "cache-warm")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    reference = diagnostics(runs["sequential"][1])
    problems = []
    for name in ("j1", "j2", "cache-cold", "cache-warm"):
        if diagnostics(runs[name][1]) != reference:
            problems.append("%s: diagnostics differ from the sequential path"
                            % name)
        if runs[name][3] != runs["sequential"][3]:
            problems.append("%s: exit status %d, sequential %d"
                            % (name, runs[name][3], runs["sequential"][3]))
    if runs["cache-warm"][1] != runs["cache-cold"][1]:
        problems.append("cache-warm: stdout differs from cache-cold")
    if "cache: %d of %d files replayed" % (len(files), len(files)) \
            not in runs["cache-warm"][2]:
        problems.append("cache-warm: not every file was replayed")

    wall = {name: r[0] for name, r in runs.items()}
    result = {
        "project": os.path.abspath(args.source),
        "files": len(files),
        "architectures": "sm_75,sm_80,sm_90,sm_100 and the host",
        "diagnostics": len(reference),
        "wall_seconds": {k: round(v, 2) for k, v in wall.items()},
        "cpu_seconds": {k: round(v, 2) for k, v in CPU.items()},
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "ratios": {
            "j2 / j1": round(wall["j2"] / wall["j1"], 3),
            "4 archs / 1 arch (j2)": round(wall["j2"] / wall["j2-1arch"], 3),
            "cache warm / cold (j2)":
                round(wall["cache-warm"] / wall["cache-cold"], 3),
            "j1 / sequential": round(wall["j1"] / wall["sequential"], 3),
        },
        "same_diagnostics_as_sequential": not problems,
        "problems": problems,
    }
    print(json.dumps(result, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
