#!/usr/bin/env python3
# ===- check_manifest.py - Every check has its docs and tests --------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Reads checks/Checks.def and fails unless every check has a docs page, is
listed in docs/index.md and the README's checks table, and has a lit test
that runs it."""
import os
import re
import sys

root = sys.argv[1]
with open(os.path.join(root, "checks", "Checks.def")) as f:
    names = re.findall(r'^CUDA_TIDY_CHECK\("([\w-]+)"', f.read(), re.M)
problems = []
if not names:
    problems.append("no checks found in checks/Checks.def")
index = open(os.path.join(root, "docs", "index.md")).read()
readme = open(os.path.join(root, "README.md")).read()
tests = []
for dirpath, _, files in os.walk(os.path.join(root, "test")):
    for name in files:
        if name.endswith((".cu", ".test")):
            tests.append(open(os.path.join(dirpath, name)).read())
for name in names:
    if not os.path.exists(os.path.join(root, "docs", "checks", name + ".md")):
        problems.append("%s: no docs/checks/%s.md" % (name, name))
    if name not in index:
        problems.append("%s: not listed in docs/index.md" % name)
    if name not in readme:
        problems.append("%s: not in the README's checks table" % name)
    if not any(name in t and "RUN:" in t for t in tests):
        problems.append("%s: no lit test runs it" % name)
for p in problems:
    print("FAIL: " + p)
print("%d checks in the manifest, %d problems" % (len(names), len(problems)))
sys.exit(1 if problems else 0)
