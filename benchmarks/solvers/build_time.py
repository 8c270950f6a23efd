"""Model build time next to HiGHS solve time for the OASiS utility ILP (issue: building must not
dominate; target build <= 25% of HiGHS's solve time at 50 jobs, T=50, H=K=20).

    python benchmarks/solvers/build_time.py [--seeds 3] [--time-limit 300] [--write FILE.md]

Each row: Pyomo construction time of ``build_utility_ilp`` (median of 3 builds), model size,
HiGHS solve time (1 thread; includes Pyomo's hand-over to HiGHS) and the ratio. A cProfile of one
large build is summarized so a bottleneck in Pyomo construction would show by name.
"""
from __future__ import annotations

import argparse
import cProfile
import datetime as dt
import io
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path

import pyomo.environ as pyo
import pyomo.version

from mlopt.families.oasis.generator import generate
from mlopt.machine import cpu_model
from mlopt.models.oasis import build_utility_ilp
from mlopt.solve import solve

SCALES = {
    "paper-fig5": ("paper-fig5", {}),
    "50 jobs, T=50, H=K=20": ("paper-default", {"n_jobs": 50, "horizon": 50,
                                                "n_worker_servers": 20, "n_ps_servers": 20}),
}



def size(m) -> tuple[int, int]:
    nv = sum(1 for _ in m.component_data_objects(pyo.Var))
    nc = sum(1 for _ in m.component_data_objects(pyo.Constraint, active=True))
    return nv, nc


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--write", default=None)
    args = ap.parse_args()
    rows = []
    for label, (preset, params) in SCALES.items():
        for seed in range(args.seeds):
            w = generate(preset, seed=seed, **params)
            builds = []
            for _ in range(3):
                t0 = time.perf_counter()
                m = build_utility_ilp(w)
                builds.append(time.perf_counter() - t0)
            res = solve(m, "highs", time_limit=args.time_limit)
            nv, nc = size(m)
            b = statistics.median(builds)
            rows.append((label, seed, nv, nc, b, res.runtime_s, res.status.value, b / res.runtime_s))
            print(f"{label} seed {seed}: build {b:.2f}s solve {res.runtime_s:.2f}s "
                  f"({res.status.value}) {nv} vars {nc} cons", file=sys.stderr)
    w = generate("paper-default", seed=0, **SCALES["50 jobs, T=50, H=K=20"][1])
    prof = cProfile.Profile()
    prof.enable()
    build_utility_ilp(w)
    prof.disable()
    buf = io.StringIO()
    pstats.Stats(prof, stream=buf).sort_stats("cumulative").print_stats(12)
    root = str(Path(__file__).resolve().parents[2]) + "/"
    site = str(Path(pyo.__file__).resolve().parents[2]) + "/"  # .../site-packages/
    top = [ln.replace(root, "").replace(site, "") for ln in buf.getvalue().splitlines()
           if ln.strip()][:30]

    lines = ["# OASiS utility ILP: model build time vs HiGHS solve time", "",
             f"Machine: {cpu_model()}, 2 cores; {dt.date.today()}; Python "
             f"{platform.python_version()}; Pyomo {pyomo.version.version}; "
             f"HiGHS 1 thread, time limit {args.time_limit:.0f} s.",
             f"Command: `python benchmarks/solvers/build_time.py --seeds {args.seeds} "
             f"--time-limit {args.time_limit:.0f}`", "",
             "| scale | seed | variables | constraints | build s (median of 3) | solve s | status "
             "| build / solve |", "|---|---:|---:|---:|---:|---:|---|---:|"]
    lines += [f"| {l} | {s} | {nv} | {nc} | {b:.2f} | {t:.2f} | {st} | {r:.1%} |"
              for l, s, nv, nc, b, t, st, r in rows]
    lines += ["", "Medians per scale:", ""]
    for label in SCALES:
        sel = [r for r in rows if r[0] == label]
        lines.append(f"* {label}: build {statistics.median(r[4] for r in sel):.2f} s, solve "
                     f"{statistics.median(r[5] for r in sel):.2f} s, build/solve "
                     f"{statistics.median(r[7] for r in sel):.1%}")
    lines += ["", "cProfile of one build at the larger scale (cumulative, top entries):", "",
              "```", *top, "```"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        open(args.write, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
