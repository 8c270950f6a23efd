"""Where ``colgen_lb``'s relaxation loses, on the committed instances whose OPT is known.

    python benchmarks/hetero/lp_diagnosis.py -o benchmarks/hetero/data/lp_diagnosis.json

Per committed ``hetero-tiny-*`` / ``hetero-small-*`` instance: OPT (``instances/solu.csv``),
``lower_bound``, ``colgen_lb`` without the usable-capacity and clique rows (the bound
as it was) and with them, Tiresias and ``pnb`` (``--pnb`` seconds, its default warm start),
all schedules checked.  Then one instance taken apart (``--apart``): ``placement_ti``'s
optimal schedule beside the support of the converged master LP, job by job (the LP's mean
completion sum_kt x (t + d), its configurations (m, p, q, N), durations and starts).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
from pathlib import Path

from mlopt.families import get_family
from mlopt.families.hetero.bounds import lower_bound
from mlopt.families.hetero.colgen import colgen_lb, run_colgen
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.price_and_branch import decode
from mlopt.models.hetero.placement_ti import build_placement_ti, extract_schedule
from mlopt.solve import solve
from mlopt.workload import Workload

ROOT = Path(__file__).resolve().parents[2]


def optima() -> dict[str, float]:
    with open(ROOT / "instances" / "solu.csv") as f:
        return {r[0]: float(r[3]) for r in csv.reader(f)
                if r and r[0].startswith("hetero-") and r[4] == "optimal"}


def one(name: str, opt: float, pnb_s: float) -> dict:
    fam = get_family("hetero")
    w = Workload.load(ROOT / "instances" / name.rsplit("-", 1)[0] / f"{name}.json")
    old = colgen_lb(w, time_limit=60, primal=False, usable_rows=False, cliques=0)
    new = colgen_lb(w, time_limit=60, primal=False)
    out = {"instance": name, "opt": opt, "lower_bound": lower_bound(w)["bound"],
           "colgen_old": old["bound"], "colgen_old_converged": old["converged"],
           "colgen_new": new["bound"], "colgen_new_converged": new["converged"]}
    for alg, opts in (("tiresias", {}), ("pnb", {"time_limit": pnb_s})):
        s = fam.run(alg, w, **opts)
        res = fam.check(w, s)
        out[alg] = float(res.objective) if res.feasible else None
    return out


def apart(name: str) -> dict:
    """OPT's schedule beside the master LP's support, job by job."""
    w = Workload.load(ROOT / "instances" / name.rsplit("-", 1)[0] / f"{name}.json")
    data = hetero_data(w)
    info, cols = run_colgen(w, time_limit=60)
    m = build_placement_ti(w)
    res = solve(m, time_limit=120)
    pls = {p.job: p for p in decode(data, extract_schedule(m, w))}
    jobs = []
    for j in range(len(data.job_ids)):
        sel = (cols.job == j) & (cols.x > 1e-7)
        p = pls[j]
        jobs.append({
            "job": data.job_ids[j], "weight": float(data.weight[j]),
            "arrival": int(data.arrival[j]),
            "opt": {"m": p.m, "p": p.p, "q": p.q, "n": p.n, "d": p.d, "start": p.start,
                    "completion": p.start + p.d},
            "lp_mean_completion": float((cols.x[sel] * (cols.start[sel] + cols.d[sel])).sum()),
            "lp_support": [{"mpqn": [int(v) for v in k], "d": int(d), "start": int(t),
                            "x": round(float(x), 6)}
                           for k, d, t, x in zip(cols.key[sel], cols.d[sel], cols.start[sel],
                                                 cols.x[sel])]})
    return {"instance": name, "opt": float(res.objective), "lp": info["lp"],
            "servers": data.cap.tolist(), "resources": list(data.resources), "jobs": jobs}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pnb", type=float, default=10.0)
    ap.add_argument("--apart", default="hetero-small-0")
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args(argv)
    out = {"load_before": list(os.getloadavg()), "pnb_s": a.pnb,
           "instances": [one(n, v, a.pnb) for n, v in sorted(optima().items())]}
    out["apart"] = apart(a.apart)
    out["load_after"] = list(os.getloadavg())
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
    for r in out["instances"]:
        print(r["instance"], r["opt"], round(r["colgen_old"] / r["opt"], 4),
              round(r["colgen_new"] / r["opt"], 4), round(r["pnb"] / r["opt"], 4))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
