"""Issue 23: what the split pool costs FIFO, DRF and Dorm.  Each runs on figs.py's Fig. 6 (or
Fig. 7/8) workloads twice: on the OASiS-adapted split pool (``fifo``, ``drf``, ``dorm``, as in
every other table) and on the whole pool (``*_whole``).  Every schedule is checked by the PD-ORS
checker; the numbers are the checker's.

    python benchmarks/pdors/fair_baselines.py run              # Fig. 6 workloads (~4 min, 2 cores)
    python benchmarks/pdors/fair_baselines.py run --fig fig7_8 # Fig. 7/8 workloads
    python benchmarks/pdors/fair_baselines.py table            # markdown table (+ PD-ORS, OASiS
                                                               # from results/<fig>.csv)

Writes ``benchmarks/pdors/results/fair_baselines_<fig>.csv``, one row per (x, seed, algorithm).
"""
from __future__ import annotations

import argparse
import csv
import time
from multiprocessing import Pool

from figs import CONFIGS, OPTIONS, OUT  # the figures' workloads and Dorm's time limit

ALGS = ("fifo", "fifo_whole", "drf", "drf_whole", "dorm", "dorm_whole")
FIELDS = ["fig", "x_name", "x", "seed", "algorithm", "objective", "feasible", "completed",
          "runtime_s"]


def run_one(task) -> list[dict]:
    from mlopt import pipeline
    from mlopt.families import get_family

    fig, x, seed = task
    cfg = CONFIGS[fig]
    w = get_family("pdors").preset(cfg["preset"])(seed=seed, **{**cfg["fixed"], cfg["x"]: x})
    rows = []
    for alg in ALGS:
        t0 = time.perf_counter()
        r = pipeline.run_algorithm(w, alg, family="pdors", seed=seed,
                                   **OPTIONS.get(alg.removesuffix("_whole"), {}))
        assert r.check.feasible, (task, alg, r.check.summary())
        pj = r.check.per_job
        rows.append({"fig": fig, "x_name": cfg["x"], "x": x, "seed": seed, "algorithm": alg,
                     "objective": r.check.objective, "feasible": r.check.feasible,
                     "completed": int((pj["admitted"] & (pj["fraction_done"] >= 1 - 1e-9)).sum()),
                     "runtime_s": round(time.perf_counter() - t0, 3)})
    return rows


def cmd_run(fig: str, workers: int) -> None:
    cfg = CONFIGS[fig]
    tasks = [(fig, x, s) for x in cfg["values"] for s in range(cfg["seeds"])]
    rows = []
    with Pool(workers) as pool:
        for res in pool.imap_unordered(run_one, tasks):
            rows += res
            print(fig, res[0]["x"], res[0]["seed"], flush=True)
    rows.sort(key=lambda r: (r["x"], r["seed"], ALGS.index(r["algorithm"])))
    OUT.mkdir(exist_ok=True)
    with open(OUT / f"fair_baselines_{fig}.csv", "w", newline="") as fh:
        out = csv.DictWriter(fh, FIELDS)
        out.writeheader()
        out.writerows(rows)


def cmd_table(fig: str) -> None:
    """Mean utility per x; PD-ORS and OASiS from the figure's own CSV (same workloads)."""
    import pandas as pd

    df = pd.read_csv(OUT / f"fair_baselines_{fig}.csv")
    assert df["feasible"].all()
    ref = pd.read_csv(OUT / f"{fig}.csv")
    ref = ref[ref["algorithm"].isin(["pdors", "oasis"]) & ref["seed"].isin(df["seed"])]
    both = pd.concat([df, ref[df.columns.intersection(ref.columns)]])
    mean = both.pivot_table(index="x", columns="algorithm", values="objective", aggfunc="mean")
    cols = [c for c in (*ALGS, "oasis", "pdors") if c in mean.columns]
    print(f"| {df['x_name'].iloc[0]} | " + " | ".join(cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for x, r in mean.iterrows():
        print(f"| {x} | " + " | ".join(f"{r[c]:.1f}" for c in cols) + " |")
    wins = {b: int((df[df.algorithm == f"{b}_whole"].set_index(["x", "seed"]).objective
                    >= df[df.algorithm == b].set_index(["x", "seed"]).objective).sum())
            for b in ("fifo", "drf", "dorm")}
    print(f"\nwhole pool >= split pool on (of {df.groupby(['x', 'seed']).ngroups}): {wins}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("run", "table"))
    ap.add_argument("--fig", choices=("fig6", "fig7_8"), default="fig6")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    if a.cmd == "run":
        cmd_run(a.fig, a.workers)
    else:
        cmd_table(a.fig)


if __name__ == "__main__":
    main()
