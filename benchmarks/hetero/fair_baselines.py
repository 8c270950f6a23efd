"""Issue 23: the hetero baselines as mlopt runs them (non-preemptive, ideal configuration), with
how many jobs FIFO and DRF start with fewer workers than their policy asked because the asked
count fits on no server (``meta["shrunk_jobs"]``), beside A_online, on wct_vs_jobs.py's Fig. 2 / 5
workloads.  Every schedule is checked; the WCTs are the checker's.

    python benchmarks/hetero/fair_baselines.py            # bench, 10/20 jobs, 15 servers, seeds 0 1
    python benchmarks/hetero/fair_baselines.py --table    # markdown table of the CSV

Writes ``benchmarks/hetero/data/fair_baselines.csv``.
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from mlopt import pipeline
from mlopt.families.hetero.generator import generate

ALGS = [("a_online", {}), ("a_online-compact", {"compact": True}), ("fifo", {}), ("drf", {}),
        ("antman", {}), ("tiresias", {})]
FIELDS = ["arch", "jobs", "servers", "seed", "algorithm", "feasible", "wct", "shrunk_jobs",
          "wct_over_tiresias", "seconds"]


def run(jobs, servers, seeds, archs, out: Path) -> None:
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for n in jobs:
        for arch in archs:
            for seed in seeds:
                w = generate("bench", seed=seed, n_jobs=n, n_servers=servers, architecture=arch)
                got = []
                for label, opts in ALGS:
                    t0 = time.perf_counter()
                    r = pipeline.run_algorithm(w, label.split("-")[0], family="hetero",
                                               seed=seed, **opts)
                    assert r.check.feasible, (n, arch, seed, label, r.check.summary())
                    got.append({"arch": arch, "jobs": n, "servers": servers, "seed": seed,
                                "algorithm": label, "feasible": True,
                                "wct": round(r.check.objective, 1),
                                "shrunk_jobs": r.schedule.meta.get("shrunk_jobs", ""),
                                "seconds": round(time.perf_counter() - t0, 2)})
                    print(arch, n, seed, label, got[-1]["wct"], got[-1]["shrunk_jobs"],
                          flush=True)
                ref = next(g["wct"] for g in got if g["algorithm"] == "tiresias")
                for g in got:
                    g["wct_over_tiresias"] = round(g["wct"] / ref, 4)
                rows += got
    with open(out, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=FIELDS)
        wr.writeheader()
        wr.writerows(rows)


def table(out: Path) -> None:
    import pandas as pd

    df = pd.read_csv(out)
    assert df["feasible"].all()
    g = df.groupby(["arch", "jobs", "algorithm"], sort=False).agg(
        wct=("wct", "mean"), rel=("wct_over_tiresias", "mean"),
        shrunk=("shrunk_jobs", lambda s: "/".join(str(int(v)) for v in s.dropna())))
    print("| arch, jobs | algorithm | mean WCT | WCT / Tiresias | jobs shrunk (per seed) |")
    print("|---|---|---|---|---|")
    for (arch, n, alg), r in g.iterrows():
        print(f"| {arch.upper()}, {n} | {alg} | {r.wct:,.0f} | {r.rel:.2f} | "
              f"{r.shrunk or '-'} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, nargs="+", default=[10, 20])
    ap.add_argument("--servers", type=int, default=15)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--arch", nargs="+", default=["ps", "ra"])
    ap.add_argument("-o", "--out", default="benchmarks/hetero/data/fair_baselines.csv")
    ap.add_argument("--table", action="store_true", help="print the CSV as a markdown table")
    a = ap.parse_args()
    if a.table:
        table(Path(a.out))
    else:
        run(a.jobs, a.servers, a.seeds, a.arch, Path(a.out))


if __name__ == "__main__":
    main()
