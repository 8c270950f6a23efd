"""OASiS class relaxation's bound from a start schedule (issue 22, seventh round, bounds).

One committed instance, one budget, one solver, optional start schedule and options of
:func:`mlopt.families.oasis.bounds.class_relaxation.class_relaxation`; prints one JSON line:
the certified upper bound (the MILP solver's dual bound), the best checked schedule, the
per-round log, wall seconds and the 1-minute load at start and end.

    python benchmarks/oasis/class_bound.py --instance oasis-open-2 --budget 600 \
        --start benchmarks/oasis/data/start_open2_2870.json --solver highs
"""
from __future__ import annotations

import argparse
import json
import os
import time
from datetime import datetime, timezone

from mlopt.families.oasis.bounds.class_relaxation import class_relaxation
from mlopt.instances import load_instance
from mlopt.schedule import Schedule


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", default="oasis-open-2")
    ap.add_argument("--budget", type=float, default=600.0)
    ap.add_argument("--solver", default="highs")
    ap.add_argument("--start", default=None, help="a schedule file of the instance")
    ap.add_argument("--option", action="append", default=[],
                    help="key=value (value read as JSON) passed to class_relaxation")
    ap.add_argument("--save", default=None, help="write the best schedule here")
    args = ap.parse_args(argv)
    wl = load_instance(args.instance)
    opts = {}
    for kv in args.option:
        k, _, v = kv.partition("=")
        try:
            opts[k] = json.loads(v)
        except json.JSONDecodeError:
            opts[k] = v
    start = Schedule.load(args.start) if args.start else None
    load = os.getloadavg()[0]
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t0 = time.perf_counter()
    res = class_relaxation(wl, time_limit=args.budget, solver=args.solver, warm_start=start,
                           **opts)
    sched = res.pop("schedule")
    if args.save and sched is not None:
        sched.save(args.save)
    hi, lo = res["bound"], res["feasible_objective"]
    cmd = "python benchmarks/oasis/class_bound.py " + " ".join(
        [f"--instance {args.instance}", f"--budget {args.budget:g}", f"--solver {args.solver}"]
        + ([f"--start {args.start}"] if args.start else [])
        + [f"--option {kv}" for kv in args.option])
    print(json.dumps({"command": cmd, "started_utc": started, "instance": args.instance,
                      "budget_s": args.budget, "solver": args.solver, "options": opts,
                      "start": args.start, "wall_s": round(time.perf_counter() - t0, 1),
                      "load_1min_at_start": round(load, 2), "high": hi, "low": lo,
                      "width": None if hi is None or lo is None else (hi - lo) / hi,
                      "proven": res["proven"], "status": res["status"],
                      "relaxation_objective": res["relaxation_objective"],
                      "dropped": len(res["dropped"] or []), "rounds": res["rounds"],
                      "build_s": round(res["build_s"], 1),
                      "load_1min_at_end": round(os.getloadavg()[0], 2)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
