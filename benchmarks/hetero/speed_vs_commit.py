"""A_online's CPU time on this checkout vs an earlier commit, side by side in one run (issue 10:
speed measured, not asserted).  The earlier commit is checked out with ``git worktree`` into a
temporary folder and run in a subprocess with it first on ``PYTHONPATH``; the two versions run
alternately (base, this, base, this, ...) so drifting load hits both alike, and each run's
schedule hash must match the other version's (the speed-ups change no result).

    python benchmarks/hetero/speed_vs_commit.py --base 15a8fdb --jobs 200 --seeds 0 \\
        --repeats 2 -o benchmarks/hetero/data/speed_vs_commit.json

CPU seconds are ``time.process_time()`` of the child (a_online only: generation and imports
excluded); peak RSS from ``resource.getrusage`` of the child.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHILD = r"""
import hashlib, json, resource, sys, time
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.online import a_online
preset, seed, jobs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
w = generate(preset, seed=seed, n_jobs=jobs)
c0 = time.process_time()
run = a_online(w)
cpu = time.process_time() - c0
key = sorted((j, pl.m, pl.p, pl.q, pl.n, pl.d, s, sorted(pl.y.items()), sorted(pl.s.items()))
             for j, (pl, s) in run.placements.items())
print(json.dumps({"cpu_s": cpu, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "hash": hashlib.sha256(repr(key).encode()).hexdigest()[:16]}))
"""


def run_child(path: Path, preset: str, seed: int, jobs: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(path))
    out = subprocess.run([sys.executable, "-c", CHILD, preset, str(seed), str(jobs)], env=env,
                         capture_output=True, text=True, check=True, cwd=path)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", required=True, help="the earlier commit (hash or ref)")
    ap.add_argument("--presets", nargs="+", default=["paper-default", "paper-default-ra"])
    ap.add_argument("--jobs", type=int, nargs="+", default=[200])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("-o", "--out", default="benchmarks/hetero/results/speed_vs_commit.json")
    a = ap.parse_args(argv)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                          capture_output=True, check=True).stdout.strip()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "base"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base), a.base], cwd=ROOT,
                       check=True)
        try:
            for preset in a.presets:
                for jobs in a.jobs:
                    for seed in a.seeds:
                        got = {"base": [], "head": []}
                        for _ in range(a.repeats):
                            for name, path in (("base", base), ("head", ROOT)):
                                got[name].append(run_child(path, preset, seed, jobs))
                        hashes = {r["hash"] for rs in got.values() for r in rs}
                        row = {"preset": preset, "jobs": jobs, "seed": seed,
                               "base_cpu_s": [round(r["cpu_s"], 2) for r in got["base"]],
                               "head_cpu_s": [round(r["cpu_s"], 2) for r in got["head"]],
                               "base_rss_mb": round(max(r["rss_mb"] for r in got["base"])),
                               "head_rss_mb": round(max(r["rss_mb"] for r in got["head"])),
                               "same_schedule": len(hashes) == 1,
                               "load_1min": round(os.getloadavg()[0], 2)}
                        row["speedup_median"] = round(
                            statistics.median(row["base_cpu_s"])
                            / statistics.median(row["head_cpu_s"]), 2)
                        rows.append(row)
                        print(row, flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT,
                           check=False)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"base": a.base, "head": head,
                               "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                               "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
