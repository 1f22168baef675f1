#!/usr/bin/env python3
# ===- merge_labels.py - Add cuda-tidy's labels to CodeChecker's ----------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Adds the cuda-* entries of cuda-tidy-labels.json to CodeChecker's labels
file for clang-tidy.

CodeChecker reads one labels file per analyzer from its
config/labels/analyzers folder; a second file for "clang-tidy" would replace
the first rather than add to it, so cuda-tidy's entries are merged into
CodeChecker's own file:

  merge_labels.py <codechecker>/config/labels/analyzers/clang-tidy.json \\
                  <prefix>/share/cuda-tidy/codechecker/cuda-tidy-labels.json

The first file is rewritten in place (or written to -o FILE). Entries of
checks that are not cuda-tidy's are kept as they are; cuda-tidy's replace
any older ones. Exit status 1, with a message, when a file is not a labels
file of the clang-tidy analyzer.
"""
import argparse
import json
import sys


def load(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit("merge_labels.py: error: cannot read '%s': %s" % (path, e))
    if (not isinstance(data, dict) or data.get("analyzer") != "clang-tidy" or
            not isinstance(data.get("labels"), dict)):
        sys.exit("merge_labels.py: error: '%s' is not a labels file for the "
                 "clang-tidy analyzer" % path)
    return data


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("codechecker_labels")
    ap.add_argument("cuda_tidy_labels")
    ap.add_argument("-o", dest="output", help="write here instead")
    args = ap.parse_args()
    into = load(args.codechecker_labels)
    ours = load(args.cuda_tidy_labels)
    into["labels"].update(ours["labels"])
    into["labels"] = dict(sorted(into["labels"].items()))
    with open(args.output or args.codechecker_labels, "w") as f:
        json.dump(into, f, indent=2)
        f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
