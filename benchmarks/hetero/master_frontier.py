"""``pnb`` without and with its restricted master phase, in one run, on one instance.

    python benchmarks/hetero/master_frontier.py --instance hetero-open-0 --colgen 120 \
        --budget 200 -o benchmarks/hetero/data/master_open0.json

One column generation (``--colgen`` seconds, :func:`run_colgen`), then from the same warm
start (Tiresias's schedule) and the same columns, :func:`.price_and_branch.improve` twice with
the same budget (``--budget`` seconds each): ``master_share=0`` (before: list schedules and
local search only) and the default share (after: the search, then restricted master rounds).
Both schedules are checked by the family's checker; the objectives reported are the checker's.
The instance is built from its manifest (``instances/<set>/manifest.toml``).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
import tomllib
from pathlib import Path

from mlopt.families import get_family
from mlopt.families.hetero.colgen import run_colgen
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.price_and_branch import OPTIONS, _warm_start, improve

ROOT = Path(__file__).resolve().parents[2]


def instance(name: str):
    man = tomllib.loads((ROOT / "instances" / name.rsplit("-", 1)[0] / "manifest.toml"
                         ).read_text())
    rec = next(i for i in man["instance"] if i["name"] == name)
    return generate(rec["preset"], rec["seed"], **rec.get("params", {}))


def before_after(argv, *, option: str, doc: str, colgen_s: float, budget_s: float,
                 per_variant: tuple[str, ...] = ()) -> int:
    """One column generation, then :func:`.price_and_branch.improve` from Tiresias's schedule
    with ``option`` at 0 (before) and at its default (after), the same columns and budget each;
    both schedules checked, the checker's objectives written to ``-o`` as each finishes.
    ``per_variant``: extra measurements per variant (``"load_after"``: the load average)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--instance", required=True)
    ap.add_argument("--colgen", type=float, default=colgen_s)
    ap.add_argument("--budget", type=float, default=budget_s)
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
    for label, value in (("before", 0.0), ("after", OPTIONS[option].default)):
        t1 = time.perf_counter()
        s = improve(w, start, cols, deadline=t1 + a.budget, colgen=info, **{option: value})
        res = fam.check(w, s)
        out[label] = {option: value, "feasible": bool(res.feasible),
                      "objective": float(res.objective) if res.feasible else None,
                      "ratio_to_bound": float(res.objective) / info["bound"]
                      if res.feasible else None,
                      "seconds": round(time.perf_counter() - t1, 1)}
        if "load_after" in per_variant:
            out[label]["load_after"] = list(os.getloadavg())
        out[label]["meta"] = s.meta["pnb"]
        Path(a.out).write_text(json.dumps(out, indent=1, default=str) + "\n")
        print(label, out[label]["objective"], out[label]["ratio_to_bound"], flush=True)
    out["load_after"] = list(os.getloadavg())
    Path(a.out).write_text(json.dumps(out, indent=1, default=str) + "\n")
    return 0


def main(argv=None) -> int:
    return before_after(argv, option="master_share", doc=__doc__, colgen_s=120.0,
                        budget_s=200.0)


if __name__ == "__main__":
    sys.exit(main())
