"""What the "As PyTorch" script tests share: running Unroll's binaries and a written script (two
at a time, one per core), finding the names data, skipping where torch is missing, and counting
checks.

A test prints "PASS name" or "FAIL name: problems" per check and ends with "N passed, M failed"
(", K skipped" when skipped), the line `scripts/test.sh` counts.
"""
import importlib.util
import json
import multiprocessing
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def json_lines(text):
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def native(name, env, *args):
    """Runs Unroll's binary `name` (`$env` when set, else cargo's test-profile build, as `cargo
    test` leaves it) and returns its JSON lines."""
    exe = os.environ.get(env)
    cmd = [exe, *args] if exe else ["cargo", "run", "--quiet", "--profile", "test", "--bin", name, "--", *args]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{name} {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    return json_lines(p.stdout)


_forks = None


def _fork_server():
    """The processes the scripts run in: forked from one server process that imported torch
    once (multiprocessing's "forkserver"), instead of a new Python that imports it again for
    every script (seconds of CPU each, most of a short script's time)."""
    global _forks
    if _forks is None:
        _forks = multiprocessing.get_context("forkserver")
        _forks.set_forkserver_preload(["torch"])
    return _forks


def _run_as_main(path, args, out, err):
    """In a fresh child of the fork server: runs the script `path` as `python3 path args` from
    the repository's root would, its output written to the files `out` and `err`, and ends the
    process with the script's exit status (the e2e tests' runner, scripts/e2e/torch-runner.py,
    does the same for them)."""
    os.chdir(ROOT)
    module(ROOT / "scripts" / "e2e" / "torch-runner.py").run({"file": path, "args": args}, out, err)


def script(path, *args):
    """Runs a written script under this Python (in a process of its own, forked with torch
    already imported: [`_fork_server`]) and returns its JSON lines."""
    with tempfile.TemporaryDirectory() as tmp:
        out, err = Path(tmp) / "out", Path(tmp) / "err"
        p = _fork_server().Process(target=_run_as_main, args=(str(path), [str(a) for a in args], str(out), str(err)))
        p.start()
        p.join()
        stdout = out.read_text(encoding="utf-8") if out.exists() else ""
        stderr = err.read_text(encoding="utf-8") if err.exists() else ""
    if p.exitcode != 0:
        raise RuntimeError(f"{path.name} {' '.join(args)}: exit {p.exitcode}: {stderr.strip()[-800:]}")
    return json_lines(stdout)


def two_at_once(*jobs):
    """Runs the functions `jobs` (each runs Unroll's trainer or a written script, a process of
    its own) two at a time, one per core, in the order given (the longest first keeps the two
    lanes even), and returns their results in that order. A process's numbers do not depend on
    what runs beside it: only the wall time changes."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(job) for job in jobs]
        return [f.result() for f in futures]


def module(path):
    """A written script imported as a module (its main() is not run), to call its functions."""
    spec = importlib.util.spec_from_file_location(path.stem.replace("-", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def names_dir():
    """The names folder: $UNROLL_NAMES_DIR, else www/data/names, else ../shared/data/names."""
    if os.environ.get("UNROLL_NAMES_DIR"):
        return Path(os.environ["UNROLL_NAMES_DIR"])
    for d in (ROOT / "www/data/names", ROOT.parent / "shared/data/names"):
        if d.is_dir():
            return d
    return None


def missing(*modules, names_data=True):
    """Why the test cannot run here (a module that does not import, or, with `names_data`, no
    names data), or None."""
    for name in modules:
        try:
            importlib.import_module(name)
        except ImportError as e:
            return f"{getattr(e, 'name', None) or name} not installed ({e})"
    if names_data and names_dir() is None:
        return "no names data (run ./scripts/test.sh once, or set UNROLL_NAMES_DIR)"
    return None


def skipped(reason):
    print(f"SKIPPED: {reason}")
    print("0 passed, 0 failed, 1 skipped")
    return 0


class Checks:
    """Counts the checks: `report(name, problems)` passes when `problems` holds no message
    (`None` entries are no problem)."""

    def __init__(self):
        self.passed = self.failed = 0

    def report(self, name, problems):
        problems = [p for p in problems if p]
        if problems:
            self.failed += 1
            print(f"FAIL {name}: " + "; ".join(problems), flush=True)
        else:
            self.passed += 1
            print(f"PASS {name}", flush=True)

    def finish(self):
        print(f"{self.passed} passed, {self.failed} failed")
        return 0 if self.failed == 0 else 1
