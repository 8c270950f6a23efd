"""PD-ORS (seed 004) Fig. 6-10 at 2-core scale, the ablation and the PD-ORS price-scale sweep.

Every schedule is checked by the PD-ORS checker (Fact 1 recomputed); the numbers written are the
checker's.  One CSV per experiment in ``benchmarks/pdors/results/``, one row per (x, seed,
algorithm), appended as each run finishes (a rerun skips rows already present).

    python benchmarks/pdors/figs.py fig6        # or fig7_8, fig9, fig10, price_scale, all
    python benchmarks/pdors/plot.py             # PNGs from the CSVs

SCALING (2 cores shared with other work; the paper's sizes are in each preset's comment in
mlopt/families/pdors/generator.py): job counts and machine counts shrink together so the load
per machine stays in the paper's range; per-job ranges, T and the utility are the paper's.
Dorm re-solves a MILP at every event with a 0.5 s limit per re-solve.
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np

from mlopt import pipeline
from mlopt.families import get_family

OUT = Path(__file__).resolve().parent / "results"
ALL = ["pdors", "pdors_no_internal", "oasis", "fifo", "drf", "dorm"]
OPTIONS = {"dorm": {"time_limit": 0.5}}

CONFIGS = {
    # Fig. 6: vs FIFO/DRF/Dorm, growing machines (paper: T = 20, 50 jobs, machines 30-100)
    "fig6": dict(preset="paper-fig6", x="n_machines", values=[10, 20, 30, 40],
                 fixed={"n_jobs": 25}, algs=ALL, seeds=4),
    # Fig. 7 / 8: growing jobs (paper: T = 20, 100 hosts (Fig. 7) / 50 hosts (Fig. 8))
    "fig7_8": dict(preset="paper-fig7", x="n_jobs", values=[10, 20, 30, 40, 50],
                   fixed={"n_machines": 20}, algs=ALL, seeds=4),
    # Fig. 9: vs OASiS, growing machines (paper: 100 jobs, T = 80)
    "fig9": dict(preset="paper-fig9", x="n_machines", values=[10, 20, 30],
                 fixed={"n_jobs": 40}, algs=["pdors", "pdors_no_internal", "oasis"], seeds=4),
    # Fig. 10: median training time (paper: 30 hosts, T = 80, 100 jobs)
    "fig10": dict(preset="paper-fig10", x="n_machines", values=[12],
                  fixed={"n_jobs": 40}, algs=["pdors", "pdors_no_internal", "oasis", "fifo",
                                              "drf"], seeds=4),
    # PD-ORS price-scale sweep (not from the papers; 0 = literal prices)
    "price_scale": dict(preset="paper-fig8", x="price_scale", values=[0, 5, 8, 10, 12, 14, 20],
                        fixed={"n_jobs": 30, "n_machines": 20}, algs=["pdors"], seeds=8),
}
FIELDS = ["fig", "x_name", "x", "seed", "algorithm", "objective", "feasible", "admitted",
          "completed", "median_duration", "runtime_s", "infeasible_share", "internal_slots",
          "rounding_failed", "ext_cases", "decision_median_s", "decision_p95_s"]


def run(name: str) -> Path:
    cfg = CONFIGS[name]
    OUT.mkdir(exist_ok=True)
    path = OUT / f"{name}.csv"
    done = set()
    if path.exists():
        with path.open() as fh:
            done = {(r["x"], r["seed"], r["algorithm"]) for r in csv.DictReader(fh)}
    new = not path.exists()
    fam = get_family("pdors")
    with path.open("a", newline="") as fh:
        out = csv.DictWriter(fh, FIELDS)
        if new:
            out.writeheader()
        for x in cfg["values"]:
            for seed in range(cfg["seeds"]):
                params = dict(cfg["fixed"])
                opts: dict = {}
                if cfg["x"] == "price_scale":
                    if x:
                        opts["price_scale"] = float(x)
                else:
                    params[cfg["x"]] = x
                w = None
                for alg in cfg["algs"]:
                    if (str(x), str(seed), alg) in done:
                        continue
                    if w is None:
                        w = fam.preset(cfg["preset"])(seed=seed, **params)
                    o = {**OPTIONS.get(alg, {}), **(opts if alg.startswith("pdors") else {})}
                    t0 = time.perf_counter()
                    r = pipeline.run_algorithm(w, alg, family="pdors", seed=seed, **o)
                    rt = time.perf_counter() - t0
                    pj = r.check.per_job
                    fin = pj[pj["admitted"] & (pj["fraction_done"] >= 1 - 1e-9)]
                    arr = {j.id: j.arrival for j in w.jobs}
                    # training time in slots, arrival slot to completion slot inclusive
                    durs = [int(c) - arr[j] + 1 for j, c in zip(fin["job"], fin["completion"])]
                    meta = r.schedule.meta
                    st = meta.get("oracle_stats", {})
                    ds = r.schedule.timing.get("decision_seconds", {})
                    out.writerow({
                        "fig": name, "x_name": cfg["x"], "x": x, "seed": seed, "algorithm": alg,
                        "objective": r.check.objective if r.check.feasible else "",
                        "feasible": r.check.feasible, "admitted": len(r.schedule.admitted),
                        "completed": len(durs),
                        "median_duration": float(np.median(durs)) if durs else "",
                        "runtime_s": round(rt, 3),
                        "infeasible_share": w.meta["infeasible_share"],
                        "internal_slots": meta.get("internal_slots", ""),
                        "rounding_failed": st.get("rounding_failed", ""),
                        "ext_cases": st.get("ext_cases", ""),
                        "decision_median_s": ds.get("median", ""),
                        "decision_p95_s": ds.get("p95", "")})
                    fh.flush()
                    print(f"{name} {cfg['x']}={x} seed={seed} {alg}: {r.check.objective:.1f} "
                          f"feasible={r.check.feasible} {rt:.1f}s", flush=True)
    return path


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("fig", choices=[*CONFIGS, "all"])
    args = p.parse_args(argv)
    for name in (CONFIGS if args.fig == "all" else [args.fig]):
        run(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
