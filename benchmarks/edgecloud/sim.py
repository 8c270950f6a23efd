"""Fig. 7-11 of seed 001 at 2-core scale: JCT rate vs jobs and servers, preemptions,
utilisation over time, makespan.  Every schedule is checked; objectives are the checker's.

    python benchmarks/edgecloud/sim.py run  -o benchmarks/edgecloud/data   # ~10 min, 2 cores
    python benchmarks/edgecloud/sim.py plot -o benchmarks/edgecloud/data

Workloads: preset ``paper-sim`` (Sec. V-A ranges) with chunk_scale = 0.25 (D_j = 7 / 15 / 29
chunks instead of 27 / 60 / 115: a quarter of the rows, same per-chunk times, delays and rates)
and arrival_window = n_jobs / 2 slots (2 jobs per slot, the paper's 300 jobs "by scaling up the
submission times" at an unstated rate).  Sweeps: jobs in {50, 100, 150, 200} on 30 edge servers
(Fig. 7, 9); edge servers in {10, 20, 40, 60} with 100 jobs (Fig. 8, 10); seeds 0-2.
"""
from __future__ import annotations

import argparse
import csv
import json
import time
from multiprocessing import Pool
from pathlib import Path

ALGS = ("a_online", "a_online_e", "srtf", "tiresias_l", "batchsche")
GANG = ("srtf", "tiresias_l")  # job-level preemption units
JOBS = (50, 100, 150, 200)
SERVERS = (10, 20, 40, 60)
SEEDS = (0, 1, 2)
BASE = {"chunk_scale": 0.25}


def configs():
    for n in JOBS:
        for s in SEEDS:
            yield ("jobs", n, 30, s)
    for e in SERVERS:
        for s in SEEDS:
            yield ("servers", 100, e, s)


def workload(cfg):
    """The workload of one (sweep, n_jobs, n_edge, seed) configuration (module docstring)."""
    from mlopt.families.edgecloud.generator import generate

    _, n_jobs, n_edge, seed = cfg
    return generate("paper-sim", seed, n_jobs=n_jobs, n_edge=n_edge,
                    arrival_window=n_jobs / 2, **BASE)


def run_one(cfg) -> list[dict]:
    from mlopt.families.edgecloud import metrics
    from mlopt.pipeline import run_algorithm

    sweep, n_jobs, n_edge, seed = cfg
    w = workload(cfg)
    out = []
    for alg in ALGS:
        t0 = time.perf_counter()
        r = run_algorithm(w, alg, family="edgecloud", seed=seed)
        m = metrics.summary(w, r.schedule, "job" if alg in GANG else "chunk")
        out.append({"sweep": sweep, "n_jobs": n_jobs, "n_edge": n_edge, "seed": seed,
                    "algorithm": alg, "feasible": r.check.feasible,
                    "total_jct": r.check.objective, "runtime_s": round(r.runtime_s, 3),
                    "chunk_preemptions": metrics.preemptions(r.schedule, "chunk"),
                    "job_preemptions": metrics.preemptions(r.schedule, "job"),
                    "makespan": m["makespan"], "communication_slots": round(
                        m["communication_slots"], 3),
                    "mean_utilisation": round(m["mean_utilisation"], 4),
                    "cloud_jobs": int((r.check.per_job["zeta"] == 1).sum()),
                    "wall_s": round(time.perf_counter() - t0, 2)})
        if sweep == "jobs" and n_jobs == 100 and seed == 0 and alg in ("a_online", "srtf",
                                                                        "tiresias_l"):
            u = metrics.utilisation(w, r.schedule)
            out[-1]["utilisation"] = json.dumps([round(x, 4) for x in u.tolist()])
    return out


def cmd_run(out: Path, workers: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    rows = []
    with Pool(workers) as pool:
        for res in pool.imap_unordered(run_one, list(configs())):
            rows += res
            print(res[0]["sweep"], res[0]["n_jobs"], res[0]["n_edge"], res[0]["seed"], flush=True)
    util = {r["algorithm"]: r.pop("utilisation") for r in rows if "utilisation" in r}
    rows.sort(key=lambda r: (r["sweep"], r["n_jobs"], r["n_edge"], r["seed"],
                             ALGS.index(r["algorithm"])))
    with open(out / "sim.csv", "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0]))
        wr.writeheader()
        wr.writerows(rows)
    (out / "utilisation.json").write_text(json.dumps(util) + "\n")


def cmd_plot(out: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import pandas as pd

    from mlopt.harness.report_figures import plain_log_ticks

    df = pd.read_csv(out / "sim.csv")
    assert df["feasible"].all()
    srtf = df[df["algorithm"] == "srtf"].set_index(["sweep", "n_jobs", "n_edge", "seed"])
    df["jct_rate"] = [r.total_jct / srtf.loc[(r.sweep, r.n_jobs, r.n_edge, r.seed),
                                            "total_jct"] for r in df.itertuples()]
    df["preemptions"] = [r.job_preemptions if r.algorithm in GANG else r.chunk_preemptions
                         for r in df.itertuples()]
    agg = df.groupby(["sweep", "n_jobs", "n_edge", "algorithm"]).mean(numeric_only=True)
    agg.reset_index().to_csv(out / "sim_mean.csv", index=False, float_format="%.4g")
    rate = "JCT rate (total JCT / SRTF's)"  # the paper's name, and what it is
    for fig, sweep, x, y, ylabel in (("fig7", "jobs", "n_jobs", "jct_rate", rate),
                                     ("fig8", "servers", "n_edge", "jct_rate", rate),
                                     ("fig9", "jobs", "n_jobs", "preemptions",
                                      "preemptions per run"),
                                     ("fig10", "servers", "n_edge", "preemptions",
                                      "preemptions per run")):
        fig_, ax = plt.subplots(figsize=(6.4, 3.5))
        sub = agg.reset_index()
        sub = sub[sub["sweep"] == sweep]
        for alg in ALGS:
            s = sub[sub["algorithm"] == alg]
            ax.plot(s[x], s[y], marker="o", label=alg)
        ax.set_xlabel("number of jobs" if x == "n_jobs" else "number of edge servers")
        ax.set_ylabel(ylabel)
        if y == "jct_rate":
            ax.set_yscale("log")
            ax.set_ylabel(f"{ylabel} (log scale)")
            plain_log_ticks(ax.yaxis, float(sub[y].min()), float(sub[y].max()))
        fixed = "30 edge servers" if x == "n_jobs" else "100 jobs"
        better = " (lower is better)" if y == "jct_rate" else ""
        ax.set_title(f"edgecloud Fig. {fig[3:]}: {ylabel.split(' (')[0]}{better}, {fixed}, mean "
                     f"over seeds {SEEDS[0]}-{SEEDS[-1]}", fontsize=9)
        # outside the axes: inside, it covered points
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
        ax.grid(alpha=0.3)
        fig_.tight_layout()
        fig_.savefig(out / f"{fig}.png", dpi=110)
        plt.close(fig_)
    util = json.loads((out / "utilisation.json").read_text())
    fig_, ax = plt.subplots(figsize=(7.2, 3.6))
    # log time axis: A_online's makespan (215) is 1/17 of the baselines' (3699); on a linear
    # axis its whole run was a spike at the left edge
    for alg, u in util.items():
        u = json.loads(u) if isinstance(u, str) else u
        ax.plot(range(1, len(u) + 1), u, label=f"{alg} (makespan {len(u)})", lw=1.0)
    longest = max(len(json.loads(u) if isinstance(u, str) else u) for u in util.values())
    ax.set_xscale("log")
    plain_log_ticks(ax.xaxis, 1.0, float(longest))
    ax.set_xlim(1, longest * 1.1)
    ax.set_xlabel("slot (log scale)")
    ax.set_ylabel("edge utilisation\n(share of edge workers busy)")
    ax.set_ylim(0, 1.05)
    ax.set_title("edgecloud Fig. 11: edge utilisation over time, 100 jobs, 30 edge servers, "
                 "seed 0", fontsize=9)
    ax.legend(fontsize=7, loc="upper right")  # every curve is below 0.3 there
    ax.grid(alpha=0.3)
    fig_.tight_layout()
    fig_.savefig(out / "fig11.png", dpi=110)
    plt.close(fig_)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("run", "plot"))
    ap.add_argument("-o", "--out", default="benchmarks/edgecloud/data")
    ap.add_argument("--workers", type=int, default=2)
    a = ap.parse_args()
    cmd_run(Path(a.out), a.workers) if a.cmd == "run" else cmd_plot(Path(a.out))


if __name__ == "__main__":
    main()
