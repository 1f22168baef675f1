#!/usr/bin/env python3
# ===- function_lengths.py - Functions over the length limit ---------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Lists the C++ functions of lib/, checks/ and tools/ longer than a limit
(150 lines by default, the project's rule), longest first, and exits 1 when
there is one. A function's length is the number of lines from its first line
(return type or name) to its closing brace, lambdas and local classes inside
it included, as Universal Ctags reports them (`ctags --fields=+ne`), the same
measure the before-stop hook uses.

  python3 tools/dev/function_lengths.py            # over 150 lines
  python3 tools/dev/function_lengths.py --limit 120 lib/target
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def functions(paths, ctags):
    """(length, file, line, name) of every function definition under paths."""
    cmd = [ctags, "-R", "--languages=C++", "--langmap=C++:+.h",
           "--c++-kinds=f", "--fields=+ne", "-f", "-"] + paths
    out = subprocess.run(cmd, stdout=subprocess.PIPE, check=True,
                         cwd=ROOT).stdout.decode(errors="replace")
    found = []
    for row in out.splitlines():
        cols = row.split("\t")
        if len(cols) < 4:
            continue
        name, path = cols[0], cols[1]
        fields = dict(c.split(":", 1) for c in cols[3:] if ":" in c)
        if "line" not in fields or "end" not in fields:
            continue
        begin, end = int(fields["line"]), int(fields["end"])
        # A member is shown as Class::name (its class without namespaces).
        scope = fields.get("class") or fields.get("struct")
        if scope:
            name = scope.split("::")[-1] + "::" + name
        elif "function" in fields and name.startswith("__anon"):
            name = "lambda in " + fields["function"].split("::")[-1]
        found.append((end - begin + 1, path, begin, name))
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=150,
                        help="longest allowed function, in lines")
    parser.add_argument("--ctags", default="ctags",
                        help="Universal Ctags (5.9 or later)")
    parser.add_argument("paths", nargs="*", default=["lib", "checks", "tools"],
                        help="folders or files, relative to the repository")
    args = parser.parse_args()
    if not shutil.which(args.ctags):
        sys.exit("function_lengths.py: needs Universal Ctags "
                 "(apt-get install universal-ctags)")
    over = [f for f in functions(args.paths, args.ctags) if f[0] > args.limit]
    for length, path, line, name in sorted(over, key=lambda f: (-f[0], f[1])):
        print(f"{length:5d}  {path}:{line}  {name}")
    if not over:
        print(f"no function over {args.limit} lines in "
              + ", ".join(args.paths))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
