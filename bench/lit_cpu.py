#!/usr/bin/env python3
# ===- lit_cpu.py - CPU seconds of each lit test ----------------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Runs lit and measures the CPU seconds (user + system) each test spends,
its subprocesses included: wall time means little on a shared machine.

  bench/lit_cpu.py --log=FILE [lit arguments...]
  bench/lit_cpu.py --summary FILE

e.g. `bench/lit_cpu.py --log=/tmp/tk.tsv -s --param headers=toolkit build/test`
appends one line per test to FILE (CPU s, wall s, result, test name) and
prints the sum, the sum per test folder and the 15 costliest tests. Each lit
worker runs its tests one after another, so the CPU its children used during
a test is that test's.
"""
import collections
import os
import resource
import sys


def summary(path):
    rows = []
    with open(path) as f:
        for line in f:
            cpu, wall, code, name = line.rstrip("\n").split("\t")
            rows.append((float(cpu), float(wall), code, name))
    folders = collections.Counter()
    for cpu, _, _, name in rows:
        folders[name.split(":: ")[-1].split("/")[0]] += cpu
    print("%d tests, %.1f CPU s" % (len(rows), sum(r[0] for r in rows)))
    for folder, cpu in folders.most_common():
        print("  %8.1f  %s" % (cpu, folder))
    print("costliest:")
    for cpu, wall, code, name in sorted(rows, reverse=True)[:15]:
        print("  %8.1f  %s %s" % (cpu, code, name))


def run_lit(log, lit_args):
    # Debian's lit lives with LLVM 22; a pip-installed one imports as is.
    sys.path.insert(1, "/usr/lib/llvm-22/utils/lit")
    import lit.main
    import lit.worker

    execute = lit.worker._execute

    def measured(test, lit_config):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        result = execute(test, lit_config)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + \
            (after.ru_stime - before.ru_stime)
        with open(log, "a") as f:
            f.write("%.3f\t%.3f\t%s\t%s\n" % (cpu, result.elapsed,
                                              result.code.name,
                                              test.getFullName()))
        return result

    lit.worker._execute = measured
    sys.argv = ["lit"] + lit_args
    try:
        lit.main.main()
    finally:
        if os.path.exists(log):
            summary(log)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--summary":
        summary(sys.argv[2])
    elif len(sys.argv) > 1 and sys.argv[1].startswith("--log="):
        run_lit(sys.argv[1][len("--log="):], sys.argv[2:])
    else:
        sys.exit(__doc__)
