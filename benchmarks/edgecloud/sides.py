"""Which side of the 100-job interval is weak (issue 21, seed 1)?  The edge/cloud choice u_j.

For one paper-ratio instance (exact_reach.py's shape) and a checked schedule (``step_lns``
run for ``--lns`` seconds):

* the LP relaxation of ``jct_step`` and how many u_j it leaves fractional;
* the same LP with every u_j fixed to the schedule's choice (how much of the LP gap is the
  edge/cloud choice: a branching-on-u experiment at the incumbent's leaf);
* the MILP with u fixed to the schedule's choice, ``--time-limit`` seconds, warm-started from
  the schedule: the best schedule with that choice and a bound for it (a bound on OPT only if
  that choice is optimal: it says whether the schedule side can still gain without flipping
  any job between the edge and the cloud).

    python benchmarks/edgecloud/sides.py --seed 1 --lns 120 --time-limit 300 \\
        > benchmarks/edgecloud/data/sides_seed1.json
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

import pyomo.environ as pyo

from mlopt.families import get_family
from mlopt.families.edgecloud.generator import generate
from mlopt.machine import cpu_model
from mlopt.solve import solve
from mlopt.warmstart import encode_schedule, solve_warm


def _lp(m, fix_u: dict | None = None) -> tuple[float, int]:
    """The LP of ``m`` (u fixed where given) and its count of fractional u."""
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    for j, v in (fix_u or {}).items():
        m.u[j].fix(v)
    r = solve(m, "highs", threads=1)
    frac = sum(1 for j in m.J if 1e-6 < pyo.value(m.u[j]) < 1 - 1e-6)
    return r.objective, frac


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lns", type=float, default=120.0, help="step_lns seconds (the schedule)")
    ap.add_argument("--time-limit", type=float, default=300.0, help="the u-fixed MILP")
    a = ap.parse_args()
    fam = get_family("edgecloud")
    w = generate("paper-ratio", a.seed, n_jobs=a.jobs, arrival_window=a.jobs / 2)
    out = {"machine": cpu_model(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "argv": sys.argv[1:], "threads": 1, "jobs": a.jobs, "seed": a.seed,
           "load_start": [round(x, 1) for x in os.getloadavg()]}
    sched = fam.run("step_lns", w, seed=0, options={"time_limit": a.lns})
    chk = fam.check(w, sched)
    assert chk.feasible, chk.summary()
    out["schedule"] = {"algorithm": "step_lns", "objective": chk.objective}
    m = fam.model("jct_step")(w)
    start = encode_schedule("edgecloud", m, w, sched)
    u = {j: round(start[m.u[j]]) for j in m.J}
    out["cloud_jobs"] = sum(u.values())
    out["lp"], out["lp_fractional_u"] = _lp(fam.model("jct_step")(w))
    out["lp_u_fixed"], _ = _lp(fam.model("jct_step")(w), u)
    for j, v in u.items():
        m.u[j].fix(v)
    r = solve_warm(m, start, "highs", time_limit=a.time_limit, threads=1)
    got = fam.check(w, fam.extract["jct_step"](m, w))
    out["milp_u_fixed"] = {"status": r.status.value, "objective": r.objective, "bound": r.bound,
                           "checked": got.objective if got.feasible else None,
                           "solve_s": round(r.runtime_s, 1)}
    out["load_end"] = [round(x, 1) for x in os.getloadavg()]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
