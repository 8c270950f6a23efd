"""Start-up cost of an ``mlopt`` command: this checkout against a git revision, side by side.

Runs ``python -m mlopt ARGS`` ``-n`` times in fresh interpreters for each checkout, the two
interleaved (so machine load hits both alike), and prints the median CPU time (user + system
of the child process) and the median wall time of each, and their ratio.

    python benchmarks/cli/startup.py --base <sha> -n 20 -- --help
    python benchmarks/cli/startup.py --base <sha> -- run --help

``--base`` is checked out into a temporary ``git worktree`` (removed at the end); each
checkout's own ``mlopt`` package is the one imported (its folder comes first on
``PYTHONPATH``), with the interpreter and dependencies of the running Python.
"""
from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]  # this checkout


def run_once(checkout: Path, args: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one ``python -m mlopt ARGS`` from ``checkout``."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "mlopt", *args], cwd=checkout, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 2):  # 2: an older checkout may refuse what this one takes
        raise SystemExit(f"{checkout}: exit {proc.returncode}: {proc.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def imported_from(checkout: Path) -> str:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    return subprocess.run([sys.executable, "-c", "import mlopt; print(mlopt.__file__)"],
                          cwd=checkout, env=env, capture_output=True, text=True,
                          check=True).stdout.strip()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", default=None, help="git revision to compare with (e.g. a sha)")
    ap.add_argument("-n", type=int, default=20, help="runs per checkout (default 20)")
    ap.add_argument("args", nargs="*", default=None,
                    help="the mlopt command line (after --; default: --help)")
    opts = ap.parse_args(argv)
    args = opts.args or ["--help"]
    if not 1 <= opts.n <= 1000:
        ap.error("-n must be in [1, 1000]")

    checkouts = {"this checkout": HERE}
    tmp = None
    if opts.base:
        sha = subprocess.run(["git", "-C", str(HERE), "rev-parse", "--short", opts.base],
                             capture_output=True, text=True, check=True).stdout.strip()
        tmp = Path(tempfile.mkdtemp(prefix="mlopt-startup-")) / "base"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", "-q", str(tmp),
                        sha], check=True)
        checkouts = {f"base {sha}": tmp, **checkouts}
    try:
        for name, path in checkouts.items():
            where = imported_from(path)
            if not where.startswith(str(path)):
                raise SystemExit(f"{name}: mlopt imported from {where}, not {path}")
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in checkouts}
        for name, path in checkouts.items():  # warm the file cache once each
            run_once(path, args)
        for _ in range(opts.n):
            for name, path in checkouts.items():
                times[name].append(run_once(path, args))
    finally:
        if tmp is not None:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force", str(tmp)],
                           check=False)
            shutil.rmtree(tmp.parent, ignore_errors=True)

    print(f"mlopt {' '.join(args)}: median of {opts.n} fresh interpreters "
          f"(Python {sys.version.split()[0]}, {os.cpu_count()} CPUs)")
    print(f"{'checkout':<22} {'CPU s':>8} {'wall s':>8}")
    medians = {}
    for name, rows in times.items():
        cpu = statistics.median(c for c, _ in rows)
        wall = statistics.median(w for _, w in rows)
        medians[name] = cpu
        print(f"{name:<22} {cpu:8.3f} {wall:8.3f}")
    if len(medians) == 2:
        base, this = medians.values()
        print(f"CPU time, this checkout / base: {this / base:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
