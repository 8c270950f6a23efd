"""OASiS paper (seed 000), Sec. V-A, Fig. 4: completion timeliness.

"Actual completion time minus target completion time (gamma_3 of the sigmoid utility)" for
time-sensitive and time-critical jobs, per scheme (OASiS, FIFO, DRF, RRH, Dorm), T = 100.

For every completed job we report ``lateness = (t_hat_i - a_i) - gamma3_i`` slots, where
``t_hat_i`` is the completion slot recomputed by the independent checker
(:func:`mlopt.families.oasis.checker.check_oasis`, ``per_job``) and ``t_hat_i - a_i`` is the duration the
utility function is evaluated at (0 = finished in the arrival slot, :mod:`mlopt.utility`).
Jobs that did not complete are NOT dropped silently: they are counted per scheme, class and
reason (OASiS: rejected at arrival; baselines: the simulator's status ``rejected``,
``unfinished``, ``never_started`` or ``unrunnable``), written to the CSV with an empty lateness,
and listed in the summary table next to the plot.

Paper: 100 time-sensitive and 100 time-critical jobs, T = 100, H = K = 50 servers.
SCALING (run time; Dorm re-solves an MILP per event): each instance has 40 jobs on
H = K = 10 servers over T = 100 slots (the paper's jobs per server and per slot: 200 / 100
servers = 40 / 20 servers), class split 50% sensitive / 50% critical, no time-insensitive
jobs (``class_split = (0, 0.5, 0.5)``; classes are drawn per job, so the pooled counts are
near, not exactly, 100 / 100).  ``--seeds 5`` pools 5 instances = 200 jobs.  Every per-job
range is the paper's (preset ``paper-default``).  Dorm uses a 0.5 s limit per re-solve.

Usage::

    python benchmarks/oasis/fig4_timeliness.py --seeds 5 \
        -o benchmarks/oasis/results/fig4

Writes ``per_job.csv``, ``summary.md`` and ``fig4_timeliness.png`` into the output directory.
``--plot-only`` redraws the PNG from the committed ``per_job.csv`` (nothing is re-run).
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

SCHEMES = ("oasis", "fifo", "drf", "rrh", "dorm")
CLASSES = ("sensitive", "critical")


def run_seed(args: tuple[int, dict]) -> tuple[list[dict], list[dict]]:
    """All schemes on one instance -> (per-job rows, per-run rows)."""
    from mlopt.families.oasis.generator import generate
    from mlopt.pipeline import run_algorithm

    seed, cfg = args
    w = generate("paper-default", seed=seed, n_jobs=cfg["jobs"], horizon=cfg["horizon"],
                 n_worker_servers=cfg["servers"], n_ps_servers=cfg["servers"],
                 class_split=(0.0, 0.5, 0.5))
    rows, runs = [], []
    for scheme in SCHEMES:
        opts = {"time_limit": cfg["dorm_time_limit"]} if scheme == "dorm" else {}
        res = run_algorithm(w, scheme, seed=seed, **opts)
        chk = res.check
        if not chk.feasible:  # never report numbers of a rejected schedule
            raise RuntimeError(f"seed {seed} {scheme}: checker rejects the schedule: "
                               f"{chk.summary()}")
        meta_jobs = res.schedule.meta.get("jobs", {})
        pj = chk.per_job.set_index("job")
        for job in w.jobs:
            r = pj.loc[job.id]
            done = bool(r["admitted"]) and not pd.isna(r["completion"])
            if done:
                status = "completed"
            elif scheme == "oasis":
                status = "rejected"  # OASiS decides at arrival; an admitted job always finishes
            else:
                status = meta_jobs.get(job.id, {}).get("status", "not_completed")
            duration = int(r["completion"]) - job.arrival if done else None
            rows.append({
                "seed": seed, "scheme": scheme, "job": job.id,
                "time_class": job.extra["time_class"], "arrival": job.arrival,
                "gamma1": job.utility.gamma1, "gamma2": job.utility.gamma2,
                "gamma3": job.utility.gamma3, "status": status,
                "completion": int(r["completion"]) if done else None,
                "duration": duration,
                "lateness": duration - job.utility.gamma3 if done else None,
                "utility": float(r["utility"]),
            })
        runs.append({"seed": seed, "scheme": scheme, "objective": chk.objective,
                     "feasible": chk.feasible, "runtime_s": res.runtime_s,
                     "completed": int(sum(1 for x in rows[-len(w.jobs):]
                                          if x["status"] == "completed"))})
    return rows, runs


def summarize(df: pd.DataFrame, runs: pd.DataFrame) -> list[str]:
    lines = []
    header = ["scheme", "class", "jobs", "completed", "not completed (reason: count)",
              "median lateness", "mean", "std", "IQR", "late > 0", "within +-1 slot"]
    lines.append("| " + " | ".join(header) + " |")
    lines.append("|" + "|".join("---" for _ in header) + "|")
    for scheme in SCHEMES:
        for cls in CLASSES:
            g = df[(df.scheme == scheme) & (df.time_class == cls)]
            done = g[g.status == "completed"].lateness.astype(float)
            miss = g[g.status != "completed"].status.value_counts()
            reasons = ", ".join(f"{k}: {v}" for k, v in sorted(miss.items())) or "–"
            if len(done):
                q1, q3 = np.percentile(done, [25, 75])
                stats = [f"{np.median(done):.2f}", f"{done.mean():.2f}",
                         f"{done.std(ddof=0):.2f}", f"{q3 - q1:.2f}",
                         f"{int((done > 0).sum())}", f"{int((done.abs() <= 1).sum())}"]
            else:
                stats = ["–"] * 6
            lines.append("| " + " | ".join([scheme, cls, str(len(g)), str(len(done)), reasons]
                                           + stats) + " |")
    lines += ["", "Total utility (checker) over the pooled instances:", "",
              "| scheme | total utility | completed jobs | runtime s (sum) |", "|---|---|---|---|"]
    for scheme in SCHEMES:
        r = runs[runs.scheme == scheme]
        lines.append(f"| {scheme} | {r.objective.sum():.1f} | {int(r.completed.sum())} | "
                     f"{r.runtime_s.sum():.1f} |")
    return lines


def plot(df: pd.DataFrame, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, cls in zip(axes, CLASSES):
        data, labels = [], []
        for scheme in SCHEMES:
            g = df[(df.scheme == scheme) & (df.time_class == cls)]
            done = g[g.status == "completed"].lateness.astype(float).to_numpy()
            data.append(done if len(done) else np.array([np.nan]))
            labels.append(f"{scheme}\n{len(done)}/{len(g)} done")
        ax.boxplot(data, whis=(5, 95), showfliers=True, flierprops={"markersize": 2})
        ax.set_xticks(range(1, len(labels) + 1), labels, fontsize=8)
        ax.axhline(0, color="grey", lw=0.8, ls="--")
        ax.set_title(f"time-{cls} jobs")
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("completion time - target (slots)\n(below 0: early, above: late)")
    fig.suptitle("OASiS Fig. 4 (scaled): lateness of completed jobs per scheme; 'k/n done' "
                 "counts completed of all jobs of the class; whiskers 5-95%", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=5, help="instances 0..seeds-1 (pooled)")
    ap.add_argument("--jobs", type=int, default=40, help="jobs per instance")
    ap.add_argument("--servers", type=int, default=10, help="H = K")
    ap.add_argument("--horizon", type=int, default=100, help="T")
    ap.add_argument("--dorm-time-limit", type=float, default=0.5)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("-o", "--out", default=str(Path(__file__).parent / "results" / "fig4"))
    ap.add_argument("--plot-only", action="store_true",
                    help="redraw the PNG from OUT/per_job.csv, run nothing")
    a = ap.parse_args(argv)
    out = Path(a.out)
    if a.plot_only:
        plot(pd.read_csv(out / "per_job.csv"), out / "fig4_timeliness.png")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    cfg = {"jobs": a.jobs, "servers": a.servers, "horizon": a.horizon,
           "dorm_time_limit": a.dorm_time_limit}
    t0 = time.perf_counter()
    tasks = [(s, cfg) for s in range(a.seeds)]
    if a.workers > 1:
        with ProcessPoolExecutor(a.workers) as pool:
            results = list(pool.map(run_seed, tasks))
    else:
        results = [run_seed(t) for t in tasks]
    wall = time.perf_counter() - t0
    df = pd.DataFrame([r for rows, _ in results for r in rows])
    runs = pd.DataFrame([r for _, rr in results for r in rr])
    df.to_csv(out / "per_job.csv", index=False, float_format="%.6g")
    plot(df, out / "fig4_timeliness.png")

    from mlopt.harness.report import stamp

    cmd = "python benchmarks/oasis/fig4_timeliness.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    counts = df[df.scheme == SCHEMES[0]].time_class.value_counts()
    lines = ["# Fig. 4 (scaled): completion time minus target", "", stamp(), "",
             f"Command: `{cmd}` (wall {wall:.0f} s)", "",
             f"Instances: preset paper-default, seeds 0..{a.seeds - 1}, {a.jobs} jobs each, "
             f"T = {a.horizon}, H = K = {a.servers}, class_split = (0, 0.5, 0.5): "
             f"{int(counts.get('sensitive', 0))} time-sensitive and "
             f"{int(counts.get('critical', 0))} time-critical jobs pooled.  Dorm time limit "
             f"{a.dorm_time_limit} s per re-solve.  Every schedule accepted by the checker.",
             "",
             "Lateness = (completion slot - arrival slot) - gamma3, completed jobs only; jobs "
             "that did not complete are counted by reason.", ""]
    lines += summarize(df, runs)
    lines += ["", "![fig4](fig4_timeliness.png)", ""]
    (out / "summary.md").write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
