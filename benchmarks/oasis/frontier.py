"""OASiS offline frontier (issue 22): the colgen interval before and after the primal phase.

One instance (``paper-default`` with ``-p``-style overrides), one budget, both variants in one
run, each as ``colgen_bound`` with the budget split the way the registry's ``colgen`` bound
(the one ``mlopt bracket`` calls) splits it:

* ``before``: the previous defaults (loop 70%, restricted-master ILP 25%, no primal phase,
  the exact-LP pricing point every round);
* ``after``: the current defaults (:func:`mlopt.families.oasis.bounds.colgen_budget`: loop
  65% / 50%, ILP 10% / 15%, local search <-> MIP 20% / 30% below / from 120 s);
* ``loop_before``: the current budget split with the loop as it was before the third round
  (the exact-LP point priced only when the stabilized points add nothing, its columns not
  added when they do), so ``--only loop_before,after`` measures
  the loop's change alone;
* ``add``: the current defaults with the exact LP point's columns added for every job
  (``price_lp_point="add"``; the default for part of the third round).

Prints one JSON line per variant: certified upper bound, best checked schedule (the
"colgen schedule"), relative width (high - low) / high, LP value, seconds, the load, and the
loop's trace (round, seconds, master LP, best bound) at about 30 rounds.

    python benchmarks/oasis/frontier.py --jobs 50 --horizon 50 --budget 60
    python benchmarks/oasis/frontier.py --jobs 100 --horizon 100 --budget 600 --only after
    python benchmarks/oasis/frontier.py --jobs 50 --horizon 50 --servers 20 --budget 300 \
        --only loop_before,after
"""
from __future__ import annotations

import argparse
import json
import os
import time

from mlopt.families.oasis.bounds import colgen_budget
from mlopt.families.oasis.bounds.colgen import colgen_bound
from mlopt.families.oasis.generator import generate

VARIANTS = ("before", "loop_before", "add", "after")
TRACE_POINTS = 30


def variant_options(name: str, budget: float) -> dict:
    """colgen_bound's options for a variant; "after" is what the registry's adapter
    (mlopt.families.oasis.bounds.REGISTRY["colgen"]) passes for a budget."""
    if name == "before":
        return {"time_limit": 0.7 * budget, "ilp_time_limit": 0.25 * budget,
                "primal_time_limit": 0.0, "price_lp_point": "always"}
    if name == "loop_before":
        return {**colgen_budget(budget), "price_lp_point": "when_needed"}
    if name == "add":
        return {**colgen_budget(budget), "price_lp_point": "add"}
    return colgen_budget(budget)


def trace(log: list[dict]) -> list[list[float]]:
    """(round, seconds, master LP, best bound) of about TRACE_POINTS rounds, the last included."""
    step = max(1, len(log) // TRACE_POINTS)
    keep = log[::step] + ([log[-1]] if log and (len(log) - 1) % step else [])
    return [[e["round"], round(e["elapsed_s"], 1), round(e["lp_value"], 3),
             round(e["best_upper"], 3)] for e in keep]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=50)
    ap.add_argument("--horizon", type=int, default=50)
    ap.add_argument("--servers", type=int, default=None, help="H = K (default: the preset's 50)")
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--only", default=None,
                    help=f"comma-separated variants, in order (known: {', '.join(VARIANTS)})")
    args = ap.parse_args(argv)
    params = {"n_jobs": args.jobs, "horizon": args.horizon}
    if args.servers:
        params.update(n_worker_servers=args.servers, n_ps_servers=args.servers)
    wl = generate("paper-default", seed=args.seed, **params)
    names = args.only.split(",") if args.only else ["before", "after"]
    unknown = [n for n in names if n not in VARIANTS]
    if unknown:
        ap.error(f"unknown variant {unknown[0]!r} (known: {', '.join(VARIANTS)})")
    for name in names:
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        res = colgen_bound(wl, **variant_options(name, args.budget))
        wall = time.perf_counter() - t0
        out = res.to_dict()
        hi, lo = out["upper_bound"], out["feasible_objective"]
        print(json.dumps({"variant": name, "params": params, "seed": args.seed,
                          "budget_s": args.budget, "wall_s": round(wall, 1),
                          "load_1min_at_start": round(load, 2), "high": hi, "low": lo,
                          "width": (hi - lo) / hi, "low_source": out["feasible_source"],
                          "lp_value": out["lp_value"], "method": out["method"],
                          "rounds": out["iterations"], "columns": out["columns"],
                          "load_1min_at_end": round(os.getloadavg()[0], 2),
                          "trace": trace(res.details["log"])}),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
