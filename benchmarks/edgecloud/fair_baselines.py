"""Issue 23: SRTF and Tiresias-L in each reading (original trace width, D_j-wide gangs, gangs
with cloud overflow) beside A_online and A_online-E, on sim.py's Fig. 7/8 workloads.  Every
schedule is checked; totals are the checker's.

    python benchmarks/edgecloud/fair_baselines.py run            # 50 jobs, 30 servers, seeds 0-2
    python benchmarks/edgecloud/fair_baselines.py run --sweep fig7   # Fig. 7's job counts (longer)
    python benchmarks/edgecloud/fair_baselines.py table          # markdown table of the CSV

Writes ``benchmarks/edgecloud/data/fair_baselines[_<sweep>].csv``: one row per (workload, seed,
algorithm) with the total JCT, the JCT rate against the original SRTF and against srtf_gang,
preemptions (job level for the gang baselines, chunk level otherwise, as sim.py counts them),
makespan, mean edge utilisation and the number of jobs sent to the cloud.
"""
from __future__ import annotations

import argparse
import csv
import time
from multiprocessing import Pool
from pathlib import Path

from sim import JOBS, SEEDS, SERVERS, workload  # the Fig. 7-11 workloads, one definition

ALGS = ("a_online", "a_online_e", "srtf", "srtf_gang", "srtf_cloud", "tiresias_l",
        "tiresias_l_gang", "tiresias_l_cloud", "batchsche")
GANG = {a for a in ALGS if a.startswith(("srtf", "tiresias"))}  # job-level preemption units
SWEEPS = {
    "issue": [("jobs", 50, 30, s) for s in SEEDS],  # the setting
    "fig7": [("jobs", n, 30, s) for n in JOBS for s in SEEDS],
    "fig8": [("servers", 100, e, s) for e in SERVERS for s in SEEDS],
}


def run_one(cfg) -> list[dict]:
    from mlopt.families.edgecloud import metrics
    from mlopt.pipeline import run_algorithm

    sweep, n_jobs, n_edge, seed = cfg
    w = workload(cfg)
    out = []
    for alg in ALGS:
        t0 = time.perf_counter()
        r = run_algorithm(w, alg, family="edgecloud", seed=seed)
        assert r.check.feasible, (cfg, alg, r.check.summary())
        level = "job" if alg in GANG else "chunk"
        m = metrics.summary(w, r.schedule, level)
        out.append({"sweep": sweep, "n_jobs": n_jobs, "n_edge": n_edge, "seed": seed,
                    "algorithm": alg, "feasible": r.check.feasible,
                    "total_jct": r.check.objective,
                    "preemptions": metrics.preemptions(r.schedule, level),
                    "makespan": m["makespan"],
                    "mean_utilisation": round(m["mean_utilisation"], 4),
                    "cloud_jobs": int((r.check.per_job["zeta"] == 1).sum()),
                    "wall_s": round(time.perf_counter() - t0, 2)})
    base = {r["algorithm"]: r["total_jct"] for r in out}
    for r in out:
        r["rate_vs_srtf"] = round(r["total_jct"] / base["srtf"], 4)
        r["rate_vs_srtf_gang"] = round(r["total_jct"] / base["srtf_gang"], 4)
    return out


def csv_path(out: Path, sweep: str) -> Path:
    return out / ("fair_baselines.csv" if sweep == "issue" else f"fair_baselines_{sweep}.csv")


def cmd_run(out: Path, sweep: str, workers: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with Pool(workers) as pool:
        for res in pool.imap_unordered(run_one, SWEEPS[sweep]):
            rows += res
            print(*(res[0][k] for k in ("sweep", "n_jobs", "n_edge", "seed")), flush=True)
    rows.sort(key=lambda r: (r["sweep"], r["n_jobs"], r["n_edge"], r["seed"],
                             ALGS.index(r["algorithm"])))
    with open(csv_path(out, sweep), "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)


def cmd_table(out: Path, sweep: str) -> None:
    """Mean over seeds per workload and algorithm, as a markdown table."""
    import pandas as pd

    df = pd.read_csv(csv_path(out, sweep))
    assert df["feasible"].all()
    keys = ["n_jobs", "n_edge", "algorithm"]
    agg = df.groupby(keys, sort=False).agg(
        total_jct=("total_jct", "mean"), rate_vs_srtf=("rate_vs_srtf", "mean"),
        rate_min=("rate_vs_srtf", "min"), rate_max=("rate_vs_srtf", "max"),
        rate_vs_gang=("rate_vs_srtf_gang", "mean"), preemptions=("preemptions", "mean"),
        makespan=("makespan", "mean"), cloud_jobs=("cloud_jobs", "mean")).reset_index()
    print("| jobs | servers | algorithm | mean total JCT | JCT / srtf (min-max) "
          "| JCT / srtf_gang | preemptions | makespan | cloud jobs |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in agg.itertuples():
        print(f"| {r.n_jobs} | {r.n_edge} | {r.algorithm} | {r.total_jct:,.0f} | "
              f"{r.rate_vs_srtf:.3f} ({r.rate_min:.3f}-{r.rate_max:.3f}) | "
              f"{r.rate_vs_gang:.3f} | {r.preemptions:.0f} | {r.makespan:.0f} | "
              f"{r.cloud_jobs:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("run", "table"))
    ap.add_argument("--sweep", choices=tuple(SWEEPS), default="issue")
    ap.add_argument("-o", "--out", default="benchmarks/edgecloud/data")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    if a.cmd == "run":
        cmd_run(Path(a.out), a.sweep, a.workers)
    else:
        cmd_table(Path(a.out), a.sweep)


if __name__ == "__main__":
    main()
