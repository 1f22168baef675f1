#!/usr/bin/env python3
# ===- check_labels.py - The CodeChecker labels file against the checks ---===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Checks tools/codechecker/cuda-tidy-labels.json: CodeChecker's shape (an
analyzer name and a map from checker to "key:value" labels, one severity
each, from CodeChecker's severities), one entry for every check of
checks/Checks.def and no other, a doc_url naming the check's own page, and
guideline labels that agree with the table of docs/usage-codechecker.md.
Prints one line per problem and exits 1 when there is any.

  check_labels.py <source root>
"""
import json
import os
import re
import sys

SEVERITIES = {"CRITICAL", "HIGH", "MEDIUM", "LOW", "STYLE", "UNSPECIFIED"}
GUIDELINE = "cuda-cpp-guidelines"


def main():
    root = sys.argv[1]
    problems = []
    with open(os.path.join(root, "checks", "Checks.def")) as f:
        checks = re.findall(r'CUDA_TIDY_CHECK\(\s*"([^"]+)"', f.read())
    with open(os.path.join(root, "tools", "codechecker",
                           "cuda-tidy-labels.json")) as f:
        data = json.load(f)
    if data.get("analyzer") != "clang-tidy":
        problems.append("analyzer is %r, not 'clang-tidy'" %
                        data.get("analyzer"))
    labels = data.get("labels", {})
    for name in sorted(set(checks) - set(labels)):
        problems.append("%s: in Checks.def, not in the labels file" % name)
    for name in sorted(set(labels) - set(checks)):
        problems.append("%s: in the labels file, not in Checks.def" % name)
    with open(os.path.join(root, "docs", "usage-codechecker.md")) as f:
        doc = f.read()
    for name, values in sorted(labels.items()):
        pairs = [v.split(":", 1) for v in values if ":" in v]
        if len(pairs) != len(values):
            problems.append("%s: a label without ':'" % name)
        keys = [k for k, _ in pairs]
        sev = [v for k, v in pairs if k == "severity"]
        if len(sev) != 1 or sev[0] not in SEVERITIES:
            problems.append("%s: severity %r" % (name, sev))
        urls = [v for k, v in pairs if k == "doc_url"]
        if len(urls) != 1 or not urls[0].endswith("/docs/checks/%s.md" % name):
            problems.append("%s: doc_url %r" % (name, urls))
        if not os.path.exists(os.path.join(root, "docs", "checks",
                                           name + ".md")):
            problems.append("%s: no docs/checks/%s.md" % (name, name))
        rules = sorted(v for k, v in pairs if k == GUIDELINE)
        if (("guideline" in keys) != bool(rules) or
                ("guideline" in keys and
                 [v for k, v in pairs if k == "guideline"] != [GUIDELINE])):
            problems.append("%s: guideline label and rules disagree" % name)
        # The documentation's table: | `name` | SEVERITY | rules or none |
        row = re.search(r"^\| `%s` \| (\w+) \| ([^|]*)\|" % re.escape(name),
                        doc, re.M)
        if not row:
            problems.append("%s: no row in docs/usage-codechecker.md" % name)
            continue
        if sev and row.group(1) != sev[0]:
            problems.append("%s: severity %s in the labels, %s in the docs" %
                            (name, sev[0], row.group(1)))
        documented = sorted(re.findall(r"\b\d+\.\d+\b", row.group(2)))
        if documented != rules:
            problems.append("%s: rules %s in the labels, %s in the docs" %
                            (name, rules, documented))
    for p in problems:
        print("check_labels.py: " + p)
    print("check_labels.py: %d checks, %d problems" % (len(labels),
                                                       len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
