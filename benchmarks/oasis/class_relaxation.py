"""OASiS class relaxation (issue 22, fourth round): before and after the packing rows and the split.

One committed instance (``instances/``, e.g. ``oasis-open-1``), one budget, the variants in one
run, each as :func:`mlopt.families.oasis.bounds.class_relaxation.class_relaxation`:

* ``before``: the relaxation as it was (no packing cuts, one solve); its incumbent is still
  split onto the real servers, so the table shows what the split gives without the cuts;
* ``after``: the current defaults (Fekete-Schepers packing cuts, rounds of subset cuts for
  the groups that do not pack, the split refilled by local search when it drops jobs).

Prints one JSON line per variant: the certified upper bound (the MILP solver's dual bound),
the best checked schedule's objective, the width (high - low) / high, whether the schedule
meets the bound (``proven``), per-round log, seconds and the 1-minute load at start and end.

    python benchmarks/oasis/class_relaxation.py --instance oasis-open-1 --budget 300
"""
from __future__ import annotations

import argparse
import json
import os
import time

from mlopt.families.oasis.bounds.class_relaxation import class_relaxation
from mlopt.instances import load_instance

VARIANTS = {"before": {"packing_cuts": False, "max_rounds": 1}, "after": {}}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", default="oasis-open-1")
    ap.add_argument("--budget", type=float, default=300.0)
    ap.add_argument("--only", default=None, help="comma-separated variants (before, after)")
    args = ap.parse_args(argv)
    wl = load_instance(args.instance)
    names = args.only.split(",") if args.only else list(VARIANTS)
    for name in names:
        if name not in VARIANTS:
            ap.error(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
        load = os.getloadavg()[0]
        t0 = time.perf_counter()
        res = class_relaxation(wl, time_limit=args.budget, **VARIANTS[name])
        res.pop("schedule")
        hi, lo = res["bound"], res["feasible_objective"]
        print(json.dumps({"variant": name, "instance": args.instance, "budget_s": args.budget,
                          "wall_s": round(time.perf_counter() - t0, 1),
                          "load_1min_at_start": round(load, 2), "high": hi, "low": lo,
                          "width": None if hi is None or lo is None else (hi - lo) / hi,
                          "proven": res["proven"], "status": res["status"],
                          "relaxation_objective": res["relaxation_objective"],
                          "dropped": len(res["dropped"] or []), "rounds": res["rounds"],
                          "load_1min_at_end": round(os.getloadavg()[0], 2)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
