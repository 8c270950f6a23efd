"""Which exact formulation should be a family's default: two models side by side on every
committed instance with a proven optimum (``instances/solu.csv``), solved the way
``mlopt solve`` solves them (:func:`mlopt.pipeline.solve_offline`: build, HiGHS with one
thread, extract, check), each ``--repeat`` times; per model the median wall time (build +
solve) and whether the checked objective equals the committed optimum.

    python benchmarks/default_model.py --family hetero --models placement_ti placement_clique \\
        --sets hetero-tiny hetero-small --repeat 3 > benchmarks/hetero/data/default_model.json

The runs of one instance alternate between the models (A B A B ...), so a change in the
machine's load hits both alike; the load average (1 min) is recorded beside every run.
``benchmarks/edgecloud/default_model.py`` is this comparison for edgecloud.
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


def compare(family: str, models: tuple[str, str], sets: list[str], *, repeat: int,
            time_limit: float, not_slower: str = "new_not_slower") -> dict:
    """The comparison as one JSON-able dict (``rows`` per instance, ``summary`` per model);
    ``not_slower``: the key saying the second model's median is at most the first's."""
    old, new = models
    solu = read_solu()
    out = {"machine": cpu_model(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "family": family, "threads": 1, "repeat": repeat, "time_limit_s": time_limit,
           "rows": []}
    for set_name in sets:
        iset = load_set(set_name)
        for entry in iset.entries:
            rec = solu.get(entry.name)
            if rec is None or rec["status"] != "optimal":
                continue
            w = iset.load(entry)
            runs = {m: [] for m in models}
            for _ in range(repeat):
                for m in models:
                    t0 = time.perf_counter()
                    r = solve_offline(w, family=family, model=m, time_limit=time_limit)
                    wall = time.perf_counter() - t0
                    runs[m].append({"wall_s": wall, "solve_s": r.solve.runtime_s,
                                    "status": r.solve.status.value,
                                    "checked": r.objective if r.check is not None
                                    and r.check.feasible else None,
                                    "load_1min": os.getloadavg()[0]})
            row = {"instance": entry.name, "jobs": len(w.jobs), "optimum": rec["objective"]}
            for m in models:
                rs = runs[m]
                tol = 1e-6 * max(1.0, abs(rec["objective"]))
                row[m] = {"median_s": round(statistics.median(x["wall_s"] for x in rs), 3),
                          "median_solve_s": round(statistics.median(x["solve_s"] for x in rs), 3),
                          "wall_s": [round(x["wall_s"], 3) for x in rs],
                          "all_optimal": all(x["status"] == "optimal" for x in rs),
                          "equal": all(x["checked"] is not None and
                                       abs(x["checked"] - rec["objective"]) <= tol for x in rs),
                          "load_1min": [round(x["load_1min"], 1) for x in rs]}
            row[not_slower] = row[new]["median_s"] <= row[old]["median_s"]
            out["rows"].append(row)
            print(json.dumps(row), file=sys.stderr, flush=True)
    rows = out["rows"]
    out["summary"] = {m: {"total_median_s": round(sum(r[m]["median_s"] for r in rows), 3),
                          "all_equal": all(r[m]["equal"] and r[m]["all_optimal"] for r in rows)}
                      for m in models}
    out["summary"][f"{not_slower}_on"] = sum(r[not_slower] for r in rows)
    out["summary"]["instances"] = len(rows)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", required=True)
    ap.add_argument("--models", nargs=2, required=True, metavar=("OLD", "NEW"))
    ap.add_argument("--sets", nargs="+", required=True)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--time-limit", type=float, default=60.0)
    a = ap.parse_args()
    print(json.dumps(compare(a.family, tuple(a.models), a.sets, repeat=a.repeat,
                             time_limit=a.time_limit), indent=1))


if __name__ == "__main__":
    main()
