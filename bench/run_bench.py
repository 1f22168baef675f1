#!/usr/bin/env python3
# ===- run_bench.py - Overhead of the cuda-* checks -------------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Measures what the cuda-* checks cost on heavy translation units.

For each input under bench/inputs/ and test/precision/ (real thrust, cub and
cooperative groups code), runs clang-tidy
with the plugin alternately with all cuda-* checks and with one trivial
upstream check, --pairs times, and reports per input and overall the median
ratio (cuda-* / baseline) of wall time and of peak resident memory, and, as
a steadier figure on a loaded machine, of CPU time. Ratios
are measured within one run, back to back, so a shared, noisy machine
affects both sides alike. The target is a ratio at or under 1.05 for both.

With --shares, one more cuda-* run per input stores clang-tidy's check
profile (--store-check-profile) and reports each check's own time as a share
of the baseline run, so that a ratio over target names the check to blame.

  python3 bench/run_bench.py --build build [--pairs 5] [--shares]
                             [--json out.json]

With --instructions, it instead runs each side under valgrind's callgrind
and reports the ratio of instructions executed: deterministic, so it
settles what wall time on a shared machine leaves to noise (about 50 times
slower than a plain run; needs valgrind). One run is not one figure,
though: clang's hash tables keyed by pointers probe differently wherever
the heap happens to put things, and any change to what runs before the
parse (another check, another plugin build or path) moves the heap. On
user_kernels.cu the parse alone cost 2.3697 G and 2.3773 G instructions
with two plugin builds that differ only in code run after the parse: a
shift as large as the checks' whole budget margin. So each side runs at
--layouts heap layouts (an unused macro of a different length shifts
everything allocated after the command line), and the ratio is of the
medians, with each side's range shown. With --scaling too, the same for
each size.

With --scaling, it instead builds translation units of 40, 160 and 640
kernels from bench/inputs/user_kernels.cu (its kernels repeated in
namespaces) and reports, per size, the time ratio and the cuda-* checks' own
cost per kernel ((cuda-* time - baseline time) / kernels): linear cost is a
flat per-kernel figure.
"""
import argparse
import glob
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BASELINE_CHECK = "misc-unused-alias-decls"


def measure(cmd):
    """Runs cmd; returns (wall seconds, peak RSS in KiB, exit code, output,
    CPU seconds)."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return (time.monotonic() - start, usage.ru_maxrss, proc.returncode, out,
            usage.ru_utime + usage.ru_stime)


# The lengths of the unused macro that gives each heap layout (0: none).
LAYOUT_PADS = [0, 200, 3000, 64, 1024, 7000, 16, 512, 2048]


def instructions(cmd):
    """Runs cmd under callgrind; returns the instructions it executed.

    Address-space randomisation is turned off where setarch can: clang keeps
    hash tables keyed by pointers, whose probing follows the addresses (with
    it on, two runs of one plugin build on user_kernels.cu differed by 7.6 M
    of 2.69 G instructions; with it off, two runs gave the same count)."""
    prefix = ["setarch", platform.machine(), "-R"]
    if not shutil.which("setarch") or subprocess.run(
            prefix + ["true"], stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL).returncode != 0:
        prefix = []
    proc = subprocess.run(
        prefix +
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] +
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        sys.exit("error: failed under valgrind:\n%s" % proc.stderr.decode())
    for line in proc.stderr.decode().splitlines():
        if "Collected :" in line:
            return int(line.split(":")[-1].strip())
    sys.exit("error: no instruction count in valgrind's output")


def laid_out(cmd, pad):
    """cmd with its heap shifted by an unused macro of pad characters."""
    if not pad:
        return cmd
    i = cmd.index("--")
    return cmd[:i] + ["--extra-arg=-DCUDA_TIDY_BENCH_LAYOUT=" + "x" * pad] + \
        cmd[i:]


def instruction_ratio(command, source, layouts=1):
    """(median cuda-* instructions, median baseline instructions, the
    cuda-* counts, the baseline counts) on source over the first `layouts`
    heap layouts."""
    counts = {"cuda-*": [], BASELINE_CHECK: []}
    for pad in LAYOUT_PADS[:layouts]:
        for checks, out in counts.items():
            out.append(instructions(laid_out(command(checks, source), pad)))
    cuda, base = counts["cuda-*"], counts[BASELINE_CHECK]
    return statistics.median(cuda), statistics.median(base), cuda, base


def check_shares(cmd, baseline_seconds):
    """Runs cmd once with the check profile stored; returns check name ->
    its wall time divided by baseline_seconds."""
    with tempfile.TemporaryDirectory() as prefix:
        cmd = cmd[:1] + ["--enable-check-profile",
                         "--store-check-profile=" + prefix] + cmd[1:]
        _, _, rc, out, _ = measure(cmd)
        if rc != 0:
            sys.exit("error: clang-tidy failed:\n%s" % out.decode())
        shares = {}
        for path in glob.glob(os.path.join(prefix, "**", "*.json"),
                              recursive=True):
            with open(path) as f:
                profile = json.load(f).get("profile", {})
            for key, seconds in profile.items():
                # Keys read time.clang-tidy.<check>.wall (and .user, .sys).
                if key.startswith("time.clang-tidy.") and key.endswith(".wall"):
                    check = key[len("time.clang-tidy."):-len(".wall")]
                    shares[check] = shares.get(check, 0.0) + seconds
        return {c: s / baseline_seconds for c, s in shares.items()}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default=os.path.join(here, "..", "build"))
    parser.add_argument("--clang-tidy", default="/usr/lib/llvm-22/bin/clang-tidy")
    parser.add_argument("--cuda-path", default="/usr/local/cuda")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--inputs", nargs="*", default=sorted(
        glob.glob(os.path.join(here, "inputs", "*.cu")) +
        glob.glob(os.path.join(here, "..", "test", "precision", "*.cu"))))
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--scaling", action="store_true",
                        help="measure the cost per kernel on 40, 160 and "
                        "640 kernels")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions under callgrind instead "
                        "of timing (deterministic; slow)")
    parser.add_argument("--layouts", type=int, default=3,
                        help="with --instructions: heap layouts per side "
                        "(1 to %d; the ratio is of the medians)" %
                        len(LAYOUT_PADS))
    parser.add_argument("--shares", action="store_true",
                        help="report each check's time as a share of the "
                        "baseline run")
    args = parser.parse_args()

    if not 1 <= args.layouts <= len(LAYOUT_PADS):
        sys.exit("error: --layouts takes 1 to %d" % len(LAYOUT_PADS))
    plugin = os.path.join(args.build, "lib", "CudaTidy.so")
    if not os.path.exists(plugin):
        sys.exit("error: no plugin at %s; build first" % plugin)
    compile_args = ["--cuda-path=" + args.cuda_path,
                    "-I" + os.path.join(args.cuda_path, "include", "cccl"),
                    "-Wno-unknown-cuda-version", "--cuda-gpu-arch=" + args.arch]

    def command(checks, source):
        return [args.clang_tidy, "-load=" + plugin, "--checks=-*," + checks,
                "--quiet", source, "--"] + compile_args

    if args.scaling:
        return scaling(args, command, here)
    if args.instructions:
        results = {"instructions": {}}
        results["layouts"] = args.layouts
        for source in args.inputs:
            cuda, base, all_cuda, all_base = instruction_ratio(
                command, source, args.layouts)
            results["instructions"][os.path.basename(source)] = {
                "cuda": cuda, "baseline": base, "ratio": cuda / base,
                "cuda_runs": all_cuda, "baseline_runs": all_base}
            print("%-24s instructions x%.4f  (cuda-* %.4f G [%.4f-%.4f], "
                  "baseline %.4f G [%.4f-%.4f], %d layouts)"
                  % (os.path.basename(source), cuda / base, cuda / 1e9,
                     min(all_cuda) / 1e9, max(all_cuda) / 1e9, base / 1e9,
                     min(all_base) / 1e9, max(all_base) / 1e9,
                     args.layouts))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=2)
        return 0

    results = {"inputs": {}, "pairs": args.pairs, "baseline": BASELINE_CHECK}
    all_time, all_mem, all_cpu = [], [], []
    for source in args.inputs:
        name = os.path.basename(source)
        time_ratios, mem_ratios, cpu_ratios, samples = [], [], [], []
        # One warm-up run of each so that the first measured pair does not pay
        # for a cold file cache.
        for checks in ("cuda-*", BASELINE_CHECK):
            _, _, rc, out, _ = measure(command(checks, source))
            if rc != 0:
                sys.exit("error: clang-tidy failed on %s:\n%s" % (source, out.decode()))
        for i in range(args.pairs):
            # Alternate which side goes first.
            order = ["cuda-*", BASELINE_CHECK] if i % 2 == 0 else [BASELINE_CHECK, "cuda-*"]
            run = {}
            for checks in order:
                seconds, rss, rc, out, cpu = measure(command(checks, source))
                if rc != 0:
                    sys.exit("error: clang-tidy failed on %s" % source)
                run[checks] = (seconds, rss, cpu)
            t = run["cuda-*"][0] / run[BASELINE_CHECK][0]
            m = run["cuda-*"][1] / run[BASELINE_CHECK][1]
            time_ratios.append(t)
            mem_ratios.append(m)
            cpu_ratios.append(run["cuda-*"][2] / run[BASELINE_CHECK][2])
            samples.append({"cuda": run["cuda-*"], "baseline": run[BASELINE_CHECK]})
        entry = {"time_ratio": statistics.median(time_ratios),
                 "memory_ratio": statistics.median(mem_ratios),
                 "cpu_ratio": statistics.median(cpu_ratios),
                 "samples": samples}
        results["inputs"][name] = entry
        if args.shares:
            entry["shares"] = check_shares(
                command("cuda-*", source),
                statistics.median(s["baseline"][0] for s in samples))
        all_time += time_ratios
        all_mem += mem_ratios
        all_cpu += cpu_ratios
        base_s = statistics.median(s["baseline"][0] for s in samples)
        base_m = statistics.median(s["baseline"][1] for s in samples)
        print("%-24s time x%.3f  memory x%.3f  cpu x%.3f  (baseline %.2f s, %.0f MiB)" % (
            name, entry["time_ratio"], entry["memory_ratio"], entry["cpu_ratio"],
            base_s, base_m / 1024))
        for check, share in sorted(entry.get("shares", {}).items(),
                                   key=lambda kv: -kv[1]):
            print("    %-44s +%.3f" % (check, share))
    results["time_ratio"] = statistics.median(all_time)
    results["memory_ratio"] = statistics.median(all_mem)
    results["cpu_ratio"] = statistics.median(all_cpu)
    print("%-24s time x%.3f  memory x%.3f  cpu x%.3f  (median of %d pairs; "
          "target <= 1.05 for time and memory)" % (
              "overall", results["time_ratio"], results["memory_ratio"],
              results["cpu_ratio"], len(all_time)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


def kernels_tu(source, count):
    """The text of a translation unit holding the first `count` kernels of
    `source` (a file whose kernels each start a line with __global__),
    repeating its body in namespaces as often as needed."""
    with open(source) as f:
        lines = f.read().splitlines()
    head = [l for l in lines if l.startswith("#include")]
    body = [l for l in lines if not l.startswith("#include")]
    starts = [i for i, l in enumerate(body) if l.startswith("__global__")]
    out = list(head)
    copy = 0
    while count > 0:
        take = min(count, len(starts))
        end = starts[take] if take < len(starts) else len(body)
        out.append("namespace copy%d {" % copy)
        out += body[:end]
        out.append("} // namespace copy%d" % copy)
        count -= take
        copy += 1
    return "\n".join(out) + "\n"


def scaling(args, command, here):
    source = os.path.join(here, "inputs", "user_kernels.cu")
    results = {"scaling": {}, "pairs": args.pairs}
    with tempfile.TemporaryDirectory() as tmp:
        for count in (40, 160, 640):
            path = os.path.join(tmp, "kernels_%d.cu" % count)
            with open(path, "w") as f:
                f.write(kernels_tu(source, count))
            for checks in ("cuda-*", BASELINE_CHECK):
                _, _, rc, out, _ = measure(command(checks, path))
                if rc != 0:
                    sys.exit("error: clang-tidy failed on %d kernels:\n%s"
                             % (count, out.decode()))
            if args.instructions:
                cuda, base, _, _ = instruction_ratio(command, path,
                                                     args.layouts)
                entry = {"instruction_ratio": cuda / base,
                         "instructions_per_kernel": (cuda - base) / count}
                results["scaling"][count] = entry
                print("%4d kernels  instructions x%.3f  cuda-* checks %.2f M "
                      "instructions per kernel" % (
                          count, entry["instruction_ratio"],
                          entry["instructions_per_kernel"] / 1e6))
                continue
            ratios, extra = [], []
            for i in range(args.pairs):
                order = (["cuda-*", BASELINE_CHECK] if i % 2 == 0
                         else [BASELINE_CHECK, "cuda-*"])
                run = {}
                for checks in order:
                    run[checks] = measure(command(checks, path))[0]
                ratios.append(run["cuda-*"] / run[BASELINE_CHECK])
                extra.append(run["cuda-*"] - run[BASELINE_CHECK])
            entry = {"time_ratio": statistics.median(ratios),
                     "ms_per_kernel": 1000 * statistics.median(extra) / count}
            results["scaling"][count] = entry
            print("%4d kernels  time x%.3f  cuda-* checks %.2f ms per kernel"
                  % (count, entry["time_ratio"], entry["ms_per_kernel"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
