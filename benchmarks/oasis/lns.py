"""OASiS fix-and-resolve on the utility ILP (issue 22, fifth round): before and after.

One committed instance (``instances/``, e.g. ``oasis-open-2``), one budget, the variants in one
run, one after the other:

* ``before``: the residual local search from the empty cluster
  (:func:`mlopt.families.oasis.primal.lns.residual_start`) for the whole budget -- the start the
  search improves, given all the time instead;
* ``span`` / ``mix`` (sixth round, give both ``--option start_file=...``): ``lns`` with the
  fifth round's single neighbourhood and +1 growth, and with today's defaults (three
  neighbourhoods, growth by a quarter);
* ``after``: the registered algorithm ``lns`` (:func:`~mlopt.families.oasis.primal.lns.run_lns`,
  default options: that start for at most a fifth of the budget, then windows of the utility ILP
  re-solved by HiGHS with every other job fixed).

Prints one JSON line per variant: the checker's objective of the schedule, the search's log
(windows, improvements, and the (second, objective, window size) of every improvement), the
seconds and the 1-minute load at start and end.

    python benchmarks/oasis/lns.py --instance oasis-open-2 --budget 600
    python benchmarks/oasis/lns.py --instance oasis-open-2 --budget 600 --only mix \
        --option start_file='"benchmarks/oasis/data/start_open2_2843.json"'

Seventh round: ``--option tail=0`` is the sixth round's search (every slot free), the default
``tail`` the useful-tail windows; ``--save-best 'benchmarks/oasis/data/best_open2_{value}.json'
--save-above 2870.15`` writes every new best schedule at once.
"""
from __future__ import annotations

import argparse
import json
import os
import time

from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.primal.lns import residual_start, run_lns_observed
from mlopt.instances import load_instance

VARIANTS = {
    "before": lambda wl, budget, opts, hook: residual_start(wl, budget),
    "after": lambda wl, budget, opts, hook: run_lns_observed(wl, hook, time_limit=budget, **opts),
    # sixth round: the fifth round's search (one neighbourhood, +1 growth) against the mix
    "span": lambda wl, budget, opts, hook: run_lns_observed(
        wl, hook, time_limit=budget, **{**opts, "neighbourhoods": ["span"], "grow": 0.0}),
    "mix": lambda wl, budget, opts, hook: run_lns_observed(wl, hook, time_limit=budget, **opts),
}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", default="oasis-open-2")
    ap.add_argument("--budget", type=float, default=600.0)
    ap.add_argument("--only", default=None, help="comma-separated variants (before, after)")
    ap.add_argument("--option", action="append", default=[],
                    help="lns option KEY=VALUE (JSON value), for the lns variants")
    ap.add_argument("-o", "--output", default=None,
                    help="write each variant's schedule here ({variant} in the name is replaced)")
    ap.add_argument("--save-best", default=None,
                    help="write every new best schedule above --save-above at once, to this "
                         "name with {value} replaced by its checked objective (2 decimals)")
    ap.add_argument("--save-above", type=float, default=float("-inf"),
                    help="only schedules above this objective are saved (e.g. the solu.csv low)")
    args = ap.parse_args(argv)
    wl = load_instance(args.instance)
    opts = {k: json.loads(v) for k, v in (o.split("=", 1) for o in args.option)}
    saved: list[str] = []

    def save(schedule, value):  # seventh round: a killed run keeps its best schedule
        if args.save_best and value > args.save_above:
            path = args.save_best.replace("{value}", f"{value:.2f}")
            schedule.save(path)
            saved.append(path)
    names = args.only.split(",") if args.only else list(VARIANTS)
    for name in names:
        if name not in VARIANTS:
            ap.error(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
        load = os.getloadavg()[0]
        started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        t0 = time.perf_counter()
        sched = VARIANTS[name](wl, args.budget, opts, save)
        res = check_oasis(wl, sched)
        if args.output:
            sched.save(args.output.replace("{variant}", name))
        print(json.dumps({"variant": name, "instance": args.instance, "budget_s": args.budget,
                          "options": opts if name != "before" else {},
                          "started_utc": started,
                          "wall_s": round(time.perf_counter() - t0, 1),
                          "load_1min_at_start": round(load, 2), "feasible": res.feasible,
                          "low": float(res.objective), "lns": sched.meta.get("lns"),
                          "trace": sched.timing.get("trace"),
                          "build_s": sched.timing.get("build_s"),
                          "sub_s": sched.timing.get("sub_s"),
                          "saved": saved[-1:],
                          "load_1min_at_end": round(os.getloadavg()[0], 2)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
