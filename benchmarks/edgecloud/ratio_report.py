"""Fig. 12-13 table and plot from a harness results directory: every A_online ratio three ways.

    python benchmarks/edgecloud/ratio_report.py benchmarks/edgecloud/data/fig12_ratio_jobs

Per instance and algorithm: ALG / OPT (the pinned MILP's checked optimum when proven, else the
harness's interval), ALG / flow_lb and ALG / flow_lb_zeta1 (raw LP-solver bounds, the way the
paper divides by its ILP (4) bound; ceil-rounded bounds are in the results store).  Writes
``ratios.csv`` and ``ratios.png`` next to ``results.sqlite``.  ``--from-csv`` redraws
``ratios.png`` and the report's ratio ECDF ``figures/ratios.png`` from the committed
``ratios.csv`` alone (the store is not committed; its runtime figure cannot be redrawn).
"""
from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path

import pandas as pd


def load(dirpath: Path) -> pd.DataFrame:
    con = sqlite3.connect(dirpath / "results.sqlite")
    df = pd.read_sql_query("select instance_id, params, seed, method_kind, method, status, "
                           "objective, proven, bound_low, bound_high, ratio_low, ratio_high, "
                           "extra from results", con)
    rows = []
    for iid, g in df.groupby("instance_id"):
        params = json.loads(g["params"].iloc[0])
        off = g[g["method_kind"] == "offline"].iloc[0]
        b = {r.method: json.loads(r.extra).get("raw_bound") for r in
             g[g["method_kind"] == "bound"].itertuples()}
        for r in g[g["method_kind"] == "algorithm"].itertuples():
            rows.append({
                "instance": iid, "n_jobs": params.get("n_jobs"), "n_edge": params.get("n_edge"),
                "seed": r.seed, "algorithm": r.method,
                "speed": json.loads(r.extra or "{}").get("speed", 1.0), "alg_jct": r.objective,
                "opt_status": off.status, "opt": off.objective if r.proven else None,
                "ratio_opt_low": r.ratio_low, "ratio_opt_high": r.ratio_high,
                "ratio_flow_lb": r.objective / b["flow_lb"] if b.get("flow_lb") else None,
                "ratio_zeta1": r.objective / b["flow_lb_zeta1"] if b.get("flow_lb_zeta1")
                else None})
    return pd.DataFrame(rows)


def main() -> None:
    d = Path(sys.argv[1])
    if "--from-csv" in sys.argv[2:]:
        df = pd.read_csv(d / "ratios.csv")
        report_ecdf(df, d)
    else:
        df = load(d)
        df.to_csv(d / "ratios.csv", index=False, float_format="%.4f")
    plot(df, d / "ratios.png")


def report_ecdf(df: pd.DataFrame, d: Path) -> None:
    """The harness report's ratio ECDF (``figures/ratios.png``) from :func:`load`'s rows: the
    same drawing code, fed the rows' ALG / OPT interval and speed."""
    from mlopt.harness.report_figures import ratio_ecdf

    rows = pd.DataFrame({
        "family": "edgecloud", "method_kind": "algorithm", "method": df["algorithm"],
        "ratio_low": df["ratio_opt_low"], "ratio_high": df["ratio_opt_high"],
        "extra": [json.dumps({"speed": s} if s > 1 else {}) for s in df["speed"]]})
    spec = (d / "report.md").read_text().splitlines()[0].split(": ", 1)[1].strip()
    ratio_ecdf(rows, d / "figures" / "ratios.png", title=f"family edgecloud, spec {spec}",
               sense="min")


def plot(df: pd.DataFrame, path: Path) -> None:
    """The three panels (mean ratio per sweep point) of :func:`load`'s rows."""
    x = "n_jobs" if df["n_jobs"].nunique() > 1 else "n_edge"
    agg = df.groupby([x, "algorithm"])[["ratio_opt_low", "ratio_opt_high", "ratio_flow_lb",
                                      "ratio_zeta1"]].mean()
    print(agg.round(3).to_string())
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # a run at speed > 1 solves an easier problem than OPT's (resource augmentation): its
    # ratio below 1 is no contradiction, and the legend says so
    speeds = df.groupby("algorithm")["speed"].max().to_dict()

    def label(alg: str, speed: float) -> str:
        return alg if speed == 1 else f"{alg} (speed {speed:g}, augmented)"

    # "upper end" only where some OPT is bracketed, not proven (the two ends differ)
    open_opt = bool((df["ratio_opt_low"] != df["ratio_opt_high"]).any())
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.6), sharey=True)
    fig.suptitle("edgecloud A_online: ALG / OPT and ALG / lower bounds (minimization, lower is "
                 "better; speed-augmented runs against the speed-1 optimum)", fontsize=9)
    for ax, col, title in zip(axes, ("ratio_opt_high", "ratio_flow_lb", "ratio_zeta1"),
                              ("ALG / OPT" + (" (upper end where OPT is open)" if open_opt
                                              else " (every OPT proven)"),
                               "ALG / ILP (4) bound", "ALG / zeta=1 bound")):
        for alg, s in agg.reset_index().groupby("algorithm"):
            ax.plot(s[x], s[col], marker="o", label=label(alg, speeds[alg]))
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("number of jobs" if x == "n_jobs" else "number of edge servers")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("ratio (mean over seeds)")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
