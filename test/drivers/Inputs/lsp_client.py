#!/usr/bin/env python3
# ===- lsp_client.py - A scripted LSP session for cuda-clangd ---------------===#
# Part of cuda-tidy, under the Apache License v2.0 with LLVM Exceptions.
# ===------------------------------------------------------------------------===#
"""Speaks the Language Server Protocol (JSON-RPC over stdio) to a server.

Opens one file, waits for diagnostics that carry the code given with
--expect, asks for the code actions on each of them, and prints

  DIAG <line>:<col> <source> [<code>] <message>
  DOCS [<code>] <codeDescription.href>          (when the server gives one)
  ACTION <title> (<kind>)[ preferred]
  EDIT <line>:<col>-<line>:<col> <new text>

with 1-based lines and columns, then shuts the server down. Exits 1 when
the diagnostics do not come within --timeout seconds or the server fails.

Usage: lsp_client.py --root DIR --file FILE [--expect CODE] -- SERVER ARGS...
"""
import argparse
import json
import os
import select
import subprocess
import sys
import time


class Server:
    def __init__(self, argv, cwd, log):
        self.proc = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=log)
        self.next_id = 1
        self.buffer = b""

    def send(self, message):
        body = json.dumps(message).encode("utf-8")
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body))
        self.proc.stdin.write(body)
        self.proc.stdin.flush()

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method,
                   "params": params})
        return rid

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def _read_some(self, deadline):
        fd = self.proc.stdout.fileno()
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        ready, _, _ = select.select([fd], [], [], remaining)
        if not ready:
            return False
        chunk = os.read(fd, 65536)
        if not chunk:
            raise RuntimeError("the server closed its output (exit code %s)"
                               % self.proc.poll())
        self.buffer += chunk
        return True

    def receive(self, deadline):
        """Returns the next message, or None at the deadline."""
        while True:
            header_end = self.buffer.find(b"\r\n\r\n")
            if header_end >= 0:
                length = None
                for line in self.buffer[:header_end].split(b"\r\n"):
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        length = int(value.strip())
                if length is None:
                    raise RuntimeError("a message without Content-Length")
                start = header_end + 4
                if len(self.buffer) >= start + length:
                    body = self.buffer[start:start + length]
                    self.buffer = self.buffer[start + length:]
                    return json.loads(body)
            if not self._read_some(deadline):
                return None

    def wait_for(self, deadline, predicate, on_other=None):
        while True:
            message = self.receive(deadline)
            if message is None:
                return None
            if predicate(message):
                return message
            # Answer requests the server makes (workDoneProgress/create...).
            if "id" in message and "method" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"],
                           "result": None})
            elif on_other:
                on_other(message)


def position(p):
    return "%d:%d" % (p["line"] + 1, p["character"] + 1)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--root", required=True)
    parser.add_argument("--file", required=True)
    parser.add_argument("--expect", default="")
    parser.add_argument("--timeout", type=float, default=180)
    parser.add_argument("--server-log", default=os.devnull)
    parser.add_argument("server", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    server_argv = [a for a in args.server if a != "--"] or sys.exit(
        "lsp_client.py: no server command")

    root = os.path.abspath(args.root)
    path = os.path.abspath(args.file)
    uri = "file://" + path
    deadline = time.monotonic() + args.timeout
    with open(args.server_log, "w") as log:
        server = Server(server_argv, root, log)
        rid = server.request("initialize", {
            "processId": os.getpid(),
            "rootUri": "file://" + root,
            "capabilities": {"textDocument": {
                "publishDiagnostics": {"relatedInformation": True},
                "codeAction": {"codeActionLiteralSupport": {
                    "codeActionKind": {"valueSet": ["quickfix", "refactor"]}}},
            }},
        })
        if server.wait_for(deadline, lambda m: m.get("id") == rid) is None:
            sys.exit("lsp_client.py: no answer to 'initialize'")
        server.notify("initialized", {})
        with open(path) as f:
            text = f.read()
        server.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "cuda", "version": 1, "text": text}})

        def wanted(m):
            if m.get("method") != "textDocument/publishDiagnostics":
                return False
            params = m["params"]
            return params["uri"] == uri and any(
                d.get("code") == args.expect or not args.expect
                for d in params["diagnostics"])
        published = server.wait_for(deadline, wanted)
        if published is None:
            sys.exit("lsp_client.py: no diagnostics with code '%s' for %s"
                     % (args.expect, path))
        diagnostics = published["params"]["diagnostics"]
        for d in diagnostics:
            print("DIAG %s %s [%s] %s" % (position(d["range"]["start"]),
                                          d.get("source", ""),
                                          d.get("code", ""), d["message"]))
            href = d.get("codeDescription", {}).get("href")
            if href:
                print("DOCS [%s] %s" % (d.get("code", ""), href))
        for d in diagnostics:
            if args.expect and d.get("code") != args.expect:
                continue
            rid = server.request("textDocument/codeAction", {
                "textDocument": {"uri": uri}, "range": d["range"],
                "context": {"diagnostics": [d], "only": ["quickfix"]}})
            answer = server.wait_for(deadline, lambda m: m.get("id") == rid)
            if answer is None or "error" in answer:
                sys.exit("lsp_client.py: codeAction failed: %s" % answer)
            for action in answer.get("result") or []:
                print("ACTION %s (%s)%s" % (
                    action["title"], action.get("kind", ""),
                    " preferred" if action.get("isPreferred") else ""))
                changes = action.get("edit", {}).get("changes", {})
                for edit_uri in sorted(changes):
                    for e in changes[edit_uri]:
                        print("EDIT %s-%s %s" % (
                            position(e["range"]["start"]),
                            position(e["range"]["end"]), e["newText"]))
        rid = server.request("shutdown", None)
        server.wait_for(deadline, lambda m: m.get("id") == rid)
        server.notify("exit", None)
        try:
            server.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.proc.kill()
            sys.exit("lsp_client.py: the server did not exit")
    return 0


if __name__ == "__main__":
    sys.exit(main())
