#!/usr/bin/env python3
# ===- cuda_tidy_check.py - Runs one cuda-tidy lit test ---------------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Runs clang-tidy with the cuda-tidy plugin on a copy of a test file and
checks what it reports and what it fixes.

Expectations are comments in the test file:

  // warning@-1:8 {{'__shfl' is not available on sm_70 and later}}
  // note@+2 {{the condition depends on 'threadIdx.x'}}
  // error@. {{...}}                     (same line: a trailing comment)
  // OFF-warning@-1 {{...}}               (only with --expect-prefix=OFF)
  // warning@42:3 {{...}} [cuda-legacy-warp-intrinsics]

The line is relative (@-1, @+2), the directive's own line (@.), or absolute
(@42); the column is optional; the text in braces must occur in the message;
the check name in brackets, when given, must be the diagnostic's. Every
diagnostic must match exactly one expectation and every expectation one
diagnostic: a file with no expectations must produce no diagnostics.

With --fix or --fix-notes, the fixed file is checked with FileCheck against
the test file's FIXED: lines (or those of --fixed-prefix, such as
FIXED-NOTES: for a second RUN line; FileCheck suffixes like -NEXT work).
Without --fix or --fix-notes the file must come back unchanged.

Optionally the fixed file is compiled with nvcc for each --nvcc-arch, and
checked again (--recheck) to give no diagnostic at all.

Expectation comments are blanked in the copy (the line stays, so line numbers
hold), so a FIXED: line never matches itself.
"""

import argparse
import hashlib
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

DIRECTIVE = re.compile(
    r"//\s*(?:(?P<prefix>[A-Z][A-Z0-9]*)-)?(?P<kind>warning|remark|note|error)@(?P<line>[+-]?\d+|\.)(?::(?P<col>\d+))?"
    r"\s*\{\{(?P<text>.*?)\}\}(?:\s*\[(?P<check>[\w.-]+)\])?\s*$")
FIXED = re.compile(r"//\s*FIXED[\w-]*:")
DIAG = re.compile(
    r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): (?P<kind>warning|remark|note|error): "
    r"(?P<text>.*?)(?: \[(?P<check>[\w.,-]+)\])?$")


class Expectation:
    def __init__(self, kind, line, col, text, check, origin):
        self.kind, self.line, self.col = kind, line, col
        self.text, self.check, self.origin = text, check, origin

    def matches(self, d):
        if self.kind != d["kind"] or self.line != int(d["line"]):
            return False
        if self.col is not None and self.col != int(d["col"]):
            return False
        if self.text not in d["text"]:
            return False
        if self.check and self.check != d["check"]:
            return False
        return True

    def __str__(self):
        col = ":%d" % self.col if self.col is not None else ""
        return "%s at line %d%s {{%s}} (from line %d)" % (
            self.kind, self.line, col, self.text, self.origin)


def parse_expectations(lines, prefix=None):
    """Returns the expectations and the file text with directives blanked.

    Only directives with the given prefix (`// OFF-warning@...`), or without
    one when prefix is None, are expectations of this run; all are blanked.
    """
    expectations, out = [], []
    for number, line in enumerate(lines, start=1):
        m = DIRECTIVE.search(line)
        if m and m.group("prefix") != prefix:
            line = line[:m.start()].rstrip() + "\n"
        elif m:
            spec = m.group("line")
            if spec == ".":
                target = number
            elif spec[0] in "+-":
                target = number + int(spec)
            else:
                target = int(spec)
            col = int(m.group("col")) if m.group("col") else None
            expectations.append(Expectation(m.group("kind"), target, col,
                                            m.group("text"), m.group("check"),
                                            number))
            line = line[:m.start()].rstrip() + "\n"
        elif FIXED.search(line):
            line = line[:FIXED.search(line).start()].rstrip() + "\n"
        out.append(line)
    return expectations, "".join(out)


def run(cmd, **kwargs):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, **kwargs)


def tidy_command(args, path, fix_mode):
    cmd = [args.clang_tidy, "-load=" + args.plugin,
           "--checks=-*," + args.checks, "--quiet"]
    if args.config:
        cmd.append("--config=" + args.config)
    if fix_mode == "fix":
        cmd.append("--fix")
    elif fix_mode == "fix-notes":
        cmd.append("--fix-notes")
    cmd.append(path)
    cmd.append("--")
    cmd.extend(args.compiler_args)
    return cmd


def diagnostics(output, path):
    """The diagnostics in clang-tidy's output, and any outside the test file."""
    found, elsewhere = [], []
    real = os.path.realpath(path)
    for line in output.splitlines():
        m = DIAG.match(line)
        if not m:
            continue
        d = m.groupdict()
        # clang-tidy's own report of a fix it applied, not a diagnostic.
        if d["kind"] == "note" and d["text"].startswith("FIX-IT applied"):
            continue
        if os.path.realpath(d["file"]) == real:
            found.append(d)
        else:
            elsewhere.append(line)
    return found, elsewhere


def run_nvcc_cached(cmd, source, obj, cache):
    """Runs nvcc's command cmd on source, or replays its verdict from the
    folder cache: the key is the nvcc binary (path, size, time), the command
    with the paths of this run taken out, and the source's text. The tests'
    fixed files include only the toolkit's headers, which the nvcc binary's
    identity stands for (and the host compiler, which a build folder does not
    change)."""
    if not cache:
        nv = run(cmd)
        return nv.returncode, nv.stdout
    st = os.stat(cmd[0])
    with open(source, "rb") as f:
        text = f.read()
    generic = [c if c not in (source, obj) else "<file>" for c in cmd]
    key = hashlib.sha256(repr((cmd[0], st.st_size, st.st_mtime_ns, generic)).encode()
                         + b"\0" + text).hexdigest()
    entry = os.path.join(cache, key + ".json")
    if os.path.exists(entry):
        with open(entry) as f:
            saved = json.load(f)
        return saved["returncode"], saved["output"]
    nv = run(cmd)
    os.makedirs(cache, exist_ok=True)
    # Another lit worker may write the same entry: write aside, then rename.
    fd, tmp = tempfile.mkstemp(dir=cache)
    with os.fdopen(fd, "w") as f:
        json.dump({"returncode": nv.returncode, "output": nv.stdout}, f)
    os.replace(tmp, entry)
    return nv.returncode, nv.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clang-tidy", required=True)
    parser.add_argument("--plugin", required=True)
    parser.add_argument("--checks", default="cuda-*",
                        help="the checks to enable (default: cuda-*)")
    parser.add_argument("--config", help="clang-tidy --config text")
    parser.add_argument("--fix", dest="fix_mode", action="store_const",
                        const="fix", help="apply fixes on warnings")
    parser.add_argument("--fix-notes", dest="fix_mode", action="store_const",
                        const="fix-notes", help="also apply fixes on notes")
    parser.add_argument("--fixed-prefix", default="FIXED",
                        help="FileCheck prefix for the fixed file")
    parser.add_argument("--expect-prefix",
                        help="read the expectations written with this prefix "
                        "(`// OFF-warning@-1 {{...}}`) instead of the plain "
                        "ones, for a second RUN line with other options")
    parser.add_argument("--filecheck", default="FileCheck")
    parser.add_argument("--nvcc", help="compile the fixed file with this nvcc")
    parser.add_argument("--nvcc-arch", action="append", default=[],
                        help="an sm_NN architecture for --nvcc (repeatable)")
    parser.add_argument("--nvcc-cache",
                        help="a folder keeping nvcc's verdict on each fixed "
                        "text, so that the stub- and toolkit-header runs of a "
                        "test compile an identical fixed file once")
    parser.add_argument("--recheck", action="store_true",
                        help="the fixed file must give no diagnostic")
    parser.add_argument("input")
    parser.add_argument("temp", help="a path to write the copy to (lit's %%t)")
    parser.add_argument("compiler_args", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.compiler_args and args.compiler_args[0] == "--":
        args.compiler_args = args.compiler_args[1:]

    with open(args.input) as f:
        lines = f.readlines()
    expectations, text = parse_expectations(lines, args.expect_prefix)

    os.makedirs(args.temp, exist_ok=True)
    copy = os.path.join(args.temp, os.path.basename(args.input))
    with open(copy, "w") as f:
        f.write(text)

    failures = []
    tidy_cmd = tidy_command(args, copy, args.fix_mode)
    result = run(tidy_cmd)
    if result.returncode < 0 or "PLEASE submit a bug report" in result.stdout \
            or "Stack dump:" in result.stdout:
        failures.append("clang-tidy crashed (exit %d)" % result.returncode)
    found, elsewhere = diagnostics(result.stdout, copy)
    for line in elsewhere:
        failures.append("diagnostic outside the test file: " + line)

    remaining = list(expectations)
    for d in found:
        match = next((e for e in remaining if e.matches(d)), None)
        if match:
            remaining.remove(match)
        else:
            failures.append("unexpected %s at line %s:%s: %s [%s]" % (
                d["kind"], d["line"], d["col"], d["text"], d["check"]))
        if d["kind"] == "warning" and not (d["check"] or "").startswith("cuda-") \
                and not any(e.check for e in expectations):
            failures.append("warning from a check outside cuda-*: %s" % d["check"])
    for e in remaining:
        failures.append("expected but not seen: %s" % e)

    with open(copy) as f:
        fixed = f.read()
    prefix = re.compile(r"//\s*%s(-[A-Z]+)?:" % re.escape(args.fixed_prefix))
    has_fixed_checks = any(prefix.search(l) for l in lines)
    if args.fix_mode is None and fixed != text:
        failures.append("the file changed although no fix was requested")
    if args.fix_mode is None:
        pass
    elif has_fixed_checks:
        fc = run([args.filecheck, "--check-prefix=" + args.fixed_prefix,
                  args.input,
                  "--input-file=" + copy, "--dump-input=fail"])
        if fc.returncode != 0:
            failures.append("fixed file does not match the %s: lines:\n" %
                            args.fixed_prefix +
                            fc.stdout)
    elif fixed == text:
        failures.append("fixes were requested but nothing changed and the test "
                        "has no %s: lines" % args.fixed_prefix)

    if args.nvcc:
        archs = args.nvcc_arch or ["sm_90"]
        obj = os.path.join(args.temp, "fixed.o")
        cmd = [args.nvcc, "-x", "cu", "-c", copy, "-o", obj]
        for arch in archs:
            cmd += ["-gencode", "arch=compute_%s,code=%s" % (arch[3:], arch)]
        returncode, output = run_nvcc_cached(cmd, copy, obj, args.nvcc_cache)
        if returncode != 0:
            failures.append("nvcc (%s) rejects the fixed file:\n%s" % (
                ", ".join(archs), output))

    if args.recheck:
        again = run(tidy_command(args, copy, None))
        found_again, elsewhere_again = diagnostics(again.stdout, copy)
        for d in found_again:
            failures.append("the fixed file still gives %s at line %s:%s: %s" % (
                d["kind"], d["line"], d["col"], d["text"]))
        for line in elsewhere_again:
            failures.append("the fixed file still gives: " + line)

    if failures:
        sys.stderr.write("command: %s\n" % " ".join(
            shlex.quote(c) for c in tidy_cmd))
        sys.stderr.write("clang-tidy output:\n%s\n" % result.stdout)
        for f in failures:
            sys.stderr.write("FAIL: %s\n" % f)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
