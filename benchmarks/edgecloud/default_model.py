"""Which exact formulation should be edgecloud's default (issue 21): ``jct_milp`` against
``jct_step`` on every committed instance with a proven optimum (``instances/solu.csv``:
edgecloud-tiny and edgecloud-small), solved the way ``mlopt solve`` solves them
(:func:`mlopt.pipeline.solve_offline`: build, HiGHS with one thread, extract, check), each
``--repeat`` times; per model the median wall time (build + solve) and whether the checked
objective equals the committed optimum.

    python benchmarks/edgecloud/default_model.py --repeat 5 \\
        > benchmarks/edgecloud/data/default_model.json

The runs of one instance alternate between the models (A B A B ...), so a change in the
machine's load hits both alike; the load average (1 min) is recorded beside every run.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

from mlopt.instances import load_set, read_solu
from mlopt.machine import cpu_model
from mlopt.pipeline import solve_offline

MODELS = ("jct_milp", "jct_step")
SETS = ("edgecloud-tiny", "edgecloud-small")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--time-limit", type=float, default=60.0)
    a = ap.parse_args()
    solu = read_solu()
    out = {"machine": cpu_model(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "threads": 1, "repeat": a.repeat, "time_limit_s": a.time_limit, "rows": []}
    for set_name in SETS:
        iset = load_set(set_name)
        for entry in iset.entries:
            rec = solu.get(entry.name)
            if rec is None or rec["status"] != "optimal":
                continue
            w = iset.load(entry)
            runs = {m: [] for m in MODELS}
            for _ in range(a.repeat):
                for m in MODELS:
                    t0 = time.perf_counter()
                    r = solve_offline(w, family="edgecloud", model=m, time_limit=a.time_limit)
                    wall = time.perf_counter() - t0
                    runs[m].append({"wall_s": wall, "solve_s": r.solve.runtime_s,
                                    "status": r.solve.status.value,
                                    "checked": r.objective if r.check is not None
                                    and r.check.feasible else None,
                                    "load_1min": os.getloadavg()[0]})
            row = {"instance": entry.name, "jobs": len(w.jobs), "optimum": rec["objective"]}
            for m in MODELS:
                rs = runs[m]
                row[m] = {"median_s": round(statistics.median(x["wall_s"] for x in rs), 3),
                          "median_solve_s": round(statistics.median(x["solve_s"] for x in rs), 3),
                          "wall_s": [round(x["wall_s"], 3) for x in rs],
                          "all_optimal": all(x["status"] == "optimal" for x in rs),
                          "equal": all(x["checked"] == rec["objective"] for x in rs),
                          "load_1min": [round(x["load_1min"], 1) for x in rs]}
            row["step_not_slower"] = row["jct_step"]["median_s"] <= row["jct_milp"]["median_s"]
            out["rows"].append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    rows = out["rows"]
    out["summary"] = {m: {"total_median_s": round(sum(r[m]["median_s"] for r in rows), 3),
                          "all_equal": all(r[m]["equal"] and r[m]["all_optimal"] for r in rows)}
                      for m in MODELS}
    out["summary"]["step_not_slower_on"] = sum(r["step_not_slower"] for r in rows)
    out["summary"]["instances"] = len(rows)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
