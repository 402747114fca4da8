"""Runs Python code under PyTorch for the end-to-end tests, importing torch once per test file.

Started by `startTorch()` (scripts/e2e/lib.mjs); its `run` also serves the Python suites' `script()`
(core/tests/python/script_checks.py). The first line it writes says whether torch
imports: {"torch": true} or {"torch": false, "error": "..."}. Then, for each request it reads
(one JSON line: {"code": "..."} for lines a page shows, run as `python3 -c CODE` runs them, or
{"file": PATH, "args": [...]} for a downloaded script, run as `python3 PATH ARGS` runs it), it
forks a fresh process that has torch imported and nothing else run, waits for it, and writes one
JSON line: {"status": exit status, "stdout": "...", "stderr": "..."}.
"""
import json
import os
import runpy
import sys
import tempfile
import traceback


def run(request, out, err):
    """In the forked child: runs `request` with its output in the files `out` and `err`, and ends
    the process with its exit status."""
    for fd, name in ((1, out), (2, err)):
        f = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(f, fd)
        os.close(f)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)
    code = 0
    try:
        if "file" in request:
            sys.argv = [request["file"], *request.get("args", [])]
            sys.path[0] = os.path.dirname(os.path.abspath(request["file"]))
            runpy.run_path(request["file"], run_name="__main__")
        else:
            sys.argv = ["-c"]
            sys.path[0] = ""
            exec(compile(request["code"], "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
    except SystemExit as e:
        if isinstance(e.code, int):
            code = e.code
        elif e.code is not None:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def main():
    try:
        import torch  # noqa: F401  (imported once, before any fork)
    except Exception as e:  # ImportError, or a broken install
        print(json.dumps({"torch": False, "error": f"{type(e).__name__}: {e}"}), flush=True)
        return
    print(json.dumps({"torch": True}), flush=True)
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        with tempfile.TemporaryDirectory() as tmp:
            out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
            pid = os.fork()
            if pid == 0:
                run(request, out, err)
            _, status = os.waitpid(pid, 0)
            read = lambda p: open(p, encoding="utf-8", errors="replace").read() if os.path.exists(p) else ""
            reply = {"status": os.waitstatus_to_exitcode(status), "stdout": read(out), "stderr": read(err)}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
