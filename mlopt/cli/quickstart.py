"""``mlopt quickstart``: the main job on embedded defaults.

Generates a few small OASiS instances (preset ``paper-fig5``), computes each offline optimum with
HiGHS (or incumbent + bound at the time limit), runs OASiS and the paper's baselines, checks every
schedule, and prints performance ratios OPT/ALG, as intervals whenever OPT is not proven.
"""
from __future__ import annotations

import json
import math
import sys

import pandas as pd
from tqdm import tqdm

from ..families import get_family
from ..pipeline import ratio_interval, run_algorithm, solve_offline
from ..solve import Status
from . import command


@command("quickstart", "the main job: offline optima and performance ratios of OASiS and the "
         "baselines on a few small generated instances (HiGHS, under 3 minutes)")
def _args(p):
    p.add_argument("--family", default="oasis")
    p.add_argument("--preset", default="paper-fig5")
    p.add_argument("--instances", type=int, default=4)
    p.add_argument("--seed", type=int, default=0, help="first generator seed")
    p.add_argument("--time-limit", type=float, default=30.0, help="per offline solve, seconds")
    p.add_argument("--solver", default="highs")
    p.add_argument("--algorithms", default=None,
                   help="comma-separated (default: every algorithm of the family)")
    p.add_argument("--json", action="store_true", help="print the table as JSON records")
    p.set_defaults(handler=run)


def quickstart_table(family: str = "oasis", preset: str = "paper-fig5", instances: int = 4,
                     seed: int = 0, time_limit: float = 30.0, solver: str = "highs",
                     algorithms: list[str] | None = None, progress: bool = True) -> pd.DataFrame:
    fam = get_family(family)
    algs = algorithms or sorted(fam.algorithms)
    for a in algs:
        fam.algorithm(a)  # unknown names fail before any work
    rows = []
    bar = tqdm(total=instances * (1 + len(algs)), disable=not progress, file=sys.stderr,
               desc="quickstart", unit="task")
    for s in range(seed, seed + instances):
        w = fam.preset(preset)(seed=s)
        bar.set_postfix_str(f"seed {s}: offline")
        off = solve_offline(w, family=family, solver=solver, time_limit=time_limit)
        bar.update()
        proven = off.solve.status == Status.OPTIMAL
        for a in algs:
            bar.set_postfix_str(f"seed {s}: {a}")
            res = run_algorithm(w, a, family=family, seed=s)
            bar.update()
            alg = res.check.objective
            # OPT lies in [max(incumbent, ALG), bound]: the algorithm's checked schedule is
            # itself feasible, so it lower-bounds OPT too.
            inc = off.objective
            low = max(x for x in (inc, alg if res.check.feasible else None) if x is not None)
            high = off.solve.bound if not proven else inc
            if fam.sense == "max" and high is not None:
                high = max(high, low)
            lo, hi = ratio_interval(fam.sense, alg, low, high)
            rows.append({
                "seed": s, "jobs": len(w.jobs), "opt_status": off.solve.status.value,
                "opt": inc, "opt_bound": off.solve.bound, "opt_s": round(off.solve.runtime_s, 2),
                "algorithm": a, "objective": alg, "feasible": res.check.feasible,
                "admitted": len(res.schedule.admitted), "ratio_low": lo, "ratio_high": hi,
                "alg_s": round(res.runtime_s, 3),
            })
    bar.close()
    return pd.DataFrame(rows)


def format_ratio(lo, hi) -> str:
    if lo is None:
        return "n/a"
    if math.isinf(lo):
        return "inf"
    if hi is None or math.isinf(hi):
        return f"[{lo:.3f}, inf)"
    return f"{lo:.3f}" if abs(hi - lo) < 1e-9 else f"[{lo:.3f}, {hi:.3f}]"


def run(args) -> int:
    algs = args.algorithms.split(",") if args.algorithms else None
    df = quickstart_table(args.family, args.preset, args.instances, args.seed, args.time_limit,
                          args.solver, algs)
    if args.json:
        print(json.dumps(df.to_dict(orient="records")))
        return 0
    df["ratio"] = [format_ratio(lo, hi) for lo, hi in zip(df.ratio_low, df.ratio_high)]
    table = df.pivot_table(index=["seed", "opt_status", "opt"], columns="algorithm",
                           values="ratio", aggfunc="first")
    print(f"Performance ratio OPT/ALG ({args.family}, preset {args.preset}, {args.solver}); "
          "an interval where OPT is not proven; every schedule checked.")
    print(table.to_string())
    bad = df[~df.feasible]
    if len(bad):
        print(f"{len(bad)} schedules failed the checker: "
              + ", ".join(f"{r.algorithm}@seed{r.seed}" for r in bad.itertuples()))
        return 1
    summary = df.groupby("algorithm").agg(objective_mean=("objective", "mean"),
                                          ratio_low_median=("ratio_low", "median"),
                                          ratio_high_max=("ratio_high", "max"))
    print()
    print(summary.to_string(float_format=lambda x: f"{x:.3f}"))
    return 0
