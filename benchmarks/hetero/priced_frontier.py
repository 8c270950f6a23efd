"""``pnb`` before and after its priced list schedules, in one run, on one instance.

    python benchmarks/hetero/priced_frontier.py --instance hetero-open-1 --colgen 180 \
        --budget 420 -o benchmarks/hetero/data/priced_open1.json

One column generation (``--colgen`` seconds, :func:`run_colgen`), then from the same warm
start (Tiresias's schedule) and the same columns, :func:`.price_and_branch.improve` twice with
the same budget (``--budget`` seconds each) and the default ``master_share``:
``insertion_price=0`` (before: earliest-completion list schedules, as ``pnb`` was) and the
option's default (after: priced list schedules and random alpha-point orders first).
180 + 420 s is what ``pnb --option time_limit=600`` gives each step (``colgen_share`` 0.3).
Both schedules are checked by the family's checker; the objectives reported are the checker's.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from master_frontier import instance  # noqa: E402

from mlopt.families import get_family  # noqa: E402
from mlopt.families.hetero.colgen import run_colgen  # noqa: E402
from mlopt.families.hetero.price_and_branch import OPTIONS, _warm_start, improve  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", required=True)
    ap.add_argument("--colgen", type=float, default=180.0)
    ap.add_argument("--budget", type=float, default=420.0)
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args(argv)
    fam = get_family("hetero")
    w = instance(a.instance)
    out = {"instance": a.instance, "colgen_s": a.colgen, "budget_s": a.budget,
           "load_before": list(os.getloadavg())}
    t0 = time.perf_counter()
    info, cols = run_colgen(w, time_limit=a.colgen)
    out["colgen"] = {k: info[k] for k in ("bound", "lp", "iterations", "converged", "columns")}
    out["colgen"]["seconds"] = round(time.perf_counter() - t0, 1)
    start = _warm_start(w, "tiresias")
    out["warm"] = [start[0], start[2]]
    price = OPTIONS["insertion_price"].default
    for label, beta in (("before", 0.0), ("after", price)):
        t1 = time.perf_counter()
        s = improve(w, start, cols, deadline=t1 + a.budget, colgen=info, insertion_price=beta)
        res = fam.check(w, s)
        out[label] = {"insertion_price": beta, "feasible": bool(res.feasible),
                      "objective": float(res.objective) if res.feasible else None,
                      "ratio_to_bound": float(res.objective) / info["bound"]
                      if res.feasible else None,
                      "seconds": round(time.perf_counter() - t1, 1),
                      "load_after": list(os.getloadavg()),
                      "meta": s.meta["pnb"]}
        Path(a.out).write_text(json.dumps(out, indent=1, default=str) + "\n")
        print(label, out[label]["objective"], out[label]["ratio_to_bound"], flush=True)
    out["load_after"] = list(os.getloadavg())
    Path(a.out).write_text(json.dumps(out, indent=1, default=str) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
