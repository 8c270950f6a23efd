"""Plots and summary tables from benchmarks/pdors/results/*.csv (figs.py and the OASiS
price-scale sweep exported with ``mlopt bench report DIR --csv``).

    python benchmarks/pdors/plot.py       # writes results/*.png and prints markdown tables
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from mlopt.harness.report_figures import plain_log_ticks  # noqa: E402

RES = Path(__file__).resolve().parent / "results"
ORDER = ["pdors", "pdors_no_internal", "oasis", "fifo", "drf", "dorm"]


def _table(df: pd.DataFrame, value: str) -> pd.DataFrame:
    g = df.groupby(["x", "algorithm"])[value]
    t = g.mean().unstack("algorithm")
    return t[[a for a in ORDER if a in t.columns]]


def utility_plot(name: str, xlabel: str, title: str) -> None:
    path = RES / f"{name}.csv"
    if not path.exists():
        return
    df = pd.read_csv(path)
    assert df["feasible"].all(), f"{name}: an infeasible schedule"
    t = _table(df, "objective")
    lo = df.groupby(["x", "algorithm"])["objective"].min().unstack("algorithm")
    hi = df.groupby(["x", "algorithm"])["objective"].max().unstack("algorithm")
    fig, ax = plt.subplots(figsize=(7.6, 4))
    # each algorithm a little to the side of the sweep point: at the same x the min-max bars
    # of six algorithms lay on top of each other and could not be told apart
    step = float(np.diff(t.index.to_numpy(dtype=float)).min()) if len(t) > 1 else 1.0
    offsets = (np.arange(len(t.columns)) - (len(t.columns) - 1) / 2) * step * 0.035
    for a, dx in zip(t.columns, offsets):
        ax.errorbar(t.index + dx, t[a], yerr=[t[a] - lo[a], hi[a] - t[a]], marker="o",
                    capsize=3, label=a)
    ax.set_xticks(t.index)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("total utility, higher is better\n(mean over seeds; bars: min-max)")
    ax.set_title(title, fontsize=11)
    # outside the axes: inside, it covered lines and error bars
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    fig.tight_layout()
    fig.savefig(RES / f"{name}.png", dpi=110)
    plt.close(fig)
    print(f"\n### {name}: mean total utility over {df['seed'].nunique()} seeds\n")
    print(md(t))


def fig10() -> None:
    path = RES / "fig10.csv"
    if not path.exists():
        return
    df = pd.read_csv(path)
    t = df.groupby("algorithm").agg(median_duration=("median_duration", "median"),
                                    completed=("completed", "mean"),
                                    utility=("objective", "mean"))
    t = t.reindex([a for a in ORDER if a in t.index])
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.bar(t.index, t["median_duration"])
    ax.set_ylabel("median training time of\ncompleted jobs (slots)")
    ax.set_title("PD-ORS Fig. 10 at 2-core scale: median over seeds of per-run medians",
                 fontsize=10)
    plt.setp(ax.get_xticklabels(), rotation=20)
    fig.tight_layout()
    fig.savefig(RES / "fig10.png", dpi=110)
    plt.close(fig)
    print("\n### fig10: training time of completed jobs\n")
    print(md(t))


def price_scale_pdors() -> None:
    path = RES / "price_scale.csv"
    if not path.exists():
        return
    df = pd.read_csv(path)
    t = df.groupby("x")["objective"].agg(["mean", "min", "max"])
    fig, ax = plt.subplots(figsize=(6, 3.5))
    xs = [str(int(x)) if x else "literal" for x in t.index]
    ax.plot(xs, t["mean"], marker="o")
    ax.fill_between(xs, t["min"], t["max"], alpha=0.2)
    ax.set_xlabel("price_scale (cap on ln(U/L); not from the papers)")
    ax.set_ylabel("PD-ORS total utility")
    ax.set_title(f"PD-ORS price scale: mean over {df['seed'].nunique()} seeds "
                 "(band: min-max)", fontsize=10)
    fig.tight_layout()
    fig.savefig(RES / "price_scale_pdors.png", dpi=110)
    plt.close(fig)
    print("\n### PD-ORS price scale (x = 0: literal)\n")
    print(md(t))


def price_scale_oasis() -> None:
    path = RES / "price_scale_oasis.csv"
    if not path.exists():
        return
    df = pd.read_csv(path)
    df = df[df["method_kind"] == "algorithm"]
    df["n_jobs"] = df["params"].map(lambda p: eval_params(p)["n_jobs"])
    df["set"] = np.where(df["seed"] >= 100, "past (100-107)", "test (0-7)")
    t = df.groupby(["set", "n_jobs", "method"])["objective"].mean().unstack("method")
    cols = ["oasis"] + sorted([c for c in t.columns if c.startswith("oasis-ps")],
                              key=lambda c: float(c[8:])) + ["rrh"]
    t = t[cols]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4.0), sharey=False)
    fig.suptitle("OASiS with a price_scale cap vs literal OASiS and RRH (total utility, higher "
                 "is better)", fontsize=10)
    for ax, n in zip(axes, sorted(df["n_jobs"].unique())):
        test = t.loc[("test (0-7)", n)]
        scales = [float(c[8:]) for c in cols if c.startswith("oasis-ps")]
        ax.plot(scales, [test[f"oasis-ps{s:g}"] if f"oasis-ps{s:g}" in test else
                         test[f"oasis-ps{s}"] for s in scales], marker="o",
                label="OASiS, price_scale")
        ax.axhline(test["oasis"], color="C1", ls="--", label="OASiS literal")
        ax.axhline(test["rrh"], color="C2", ls=":", label="RRH")
        ax.set_xscale("log")
        plain_log_ticks(ax.xaxis, min(scales), max(scales))
        ax.set_xticks(scales, [f"{v:g}" for v in scales])  # a tick on every swept scale
        ax.set_xlabel("price_scale (log scale)")
        ax.set_title(f"{n} jobs, T = 300, H = K = 10 (seeds 0-7)")
        ax.legend(fontsize=8)
    axes[0].set_ylabel("total utility (mean)")
    fig.tight_layout()
    fig.savefig(RES / "price_scale_oasis.png", dpi=110)
    plt.close(fig)
    print("\n### OASiS price scale: mean utility\n")
    print(md(t))


def md(t: pd.DataFrame) -> str:
    """A markdown table without the optional tabulate dependency."""
    t = t.reset_index()
    cols = [str(c) for c in t.columns]
    rows = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for r in t.itertuples(index=False):
        rows.append("| " + " | ".join(f"{v:.1f}" if isinstance(v, float) else str(v)
                                      for v in r) + " |")
    return "\n".join(rows)


def eval_params(p):
    import json
    return json.loads(p) if isinstance(p, str) else p


if __name__ == "__main__":
    utility_plot("fig6", "machines", "PD-ORS Fig. 6 (2-core scale): 25 jobs, T = 20")
    utility_plot("fig7_8", "jobs", "PD-ORS Fig. 7/8 (2-core scale): 20 machines, T = 20")
    utility_plot("fig9", "machines", "PD-ORS Fig. 9 (2-core scale): 40 jobs, T = 80")
    fig10()
    price_scale_pdors()
    price_scale_oasis()
