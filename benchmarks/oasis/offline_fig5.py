"""Offline optimum of `paper-fig5` OASiS instances: median solve time and share proven optimal.

The paper (seed 000, footnote 4) needed two days for one 10-job instance. Here: the utility ILP
(1)-(13) of models/oasis/__init__.py, HiGHS through the solve layer, 1 thread, time limit 300 s; every
schedule re-checked by the independent checker.

    python benchmarks/oasis/offline_fig5.py [--seeds 20] [--time-limit 300] [--write FILE.md]
"""
from __future__ import annotations

import argparse
import datetime as dt
import platform
import statistics
import sys

from mlopt.families.oasis.generator import generate
from mlopt.machine import cpu_model
from mlopt.pipeline import solve_offline
from mlopt.solve import Status



def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--time-limit", type=float, default=300.0)
    ap.add_argument("--solver", default="highs")
    ap.add_argument("--write", default=None)
    args = ap.parse_args()
    rows = []
    for seed in range(args.seeds):
        w = generate("paper-fig5", seed=seed)
        r = solve_offline(w, solver=args.solver, time_limit=args.time_limit)
        rows.append((seed, r.solve.status, r.solve.runtime_s, r.build_s, r.objective,
                     r.solve.bound, r.check.feasible if r.check else None))
        print(f"seed {seed:3d} {r.solve.status.value:9s} solve {r.solve.runtime_s:7.2f}s "
              f"build {r.build_s:5.2f}s objective {r.objective} bound {r.solve.bound}",
              file=sys.stderr)
    times = [r[2] for r in rows]
    proven = sum(r[1] == Status.OPTIMAL for r in rows)
    lines = [
        "# Offline optimum of paper-fig5 OASiS instances",
        "",
        f"Machine: {cpu_model()}, {platform.machine()}, 2 cores; {dt.date.today()}; "
        f"Python {platform.python_version()}; solver {args.solver} (1 thread), "
        f"time limit {args.time_limit:.0f} s.",
        f"Command: `python benchmarks/oasis/offline_fig5.py --seeds {args.seeds} "
        f"--time-limit {args.time_limit:.0f}`",
        "",
        f"* instances: {len(rows)} (paper-fig5, seeds 0..{len(rows) - 1}: 10 jobs, T=10, "
        "2 worker + 2 PS servers)",
        f"* proven optimal within the limit: {proven}/{len(rows)} "
        f"({100.0 * proven / len(rows):.0f}%)",
        f"* solve time: median {statistics.median(times):.2f} s, max {max(times):.2f} s; "
        f"model build median {statistics.median(r[3] for r in rows):.2f} s",
        f"* every incumbent schedule accepted by the checker: "
        f"{all(r[6] for r in rows)}",
        "",
        "| seed | status | solve s | build s | objective (checked) | bound |",
        "|---:|---|---:|---:|---:|---:|",
    ]
    lines += [f"| {s} | {st.value} | {t:.2f} | {b:.2f} | {o:.4f} | {bd:.4f} |"
              for s, st, t, b, o, bd, _ in rows]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        open(args.write, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
