"""Plots of the Harmony benchmarks from the committed CSVs (results/*.csv -> results/*.png).

    python benchmarks/harmony/plot.py
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.patches import Patch  # noqa: E402

RES = Path(__file__).with_name("results")
ORDER = ["harmony", "lb", "tetris", "lif_line", "lif_quad"]


def _legend_outside(ax):
    """The legend right of the axes: over grouped bars it hides some of them."""
    ax.legend(title="method", loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)


def arrivals(name, title):
    """Mean average JCT per arrival pattern and method, min-max over instance seeds."""
    path = RES / f"{name}.csv"
    if not path.exists():
        return
    df = pd.read_csv(path)
    g = df.groupby(["pattern", "method"])["avg_jct"]
    mean = g.mean().unstack()[ORDER]
    lo, hi = g.min().unstack()[ORDER], g.max().unstack()[ORDER]
    err = [[(mean[c] - lo[c]).values, (hi[c] - mean[c]).values] for c in ORDER]
    ax = mean.plot.bar(figsize=(8.5, 4), rot=0, yerr=err, capsize=2)
    ax.set_ylabel("average JCT (intervals, lower is better)")
    ax.set_title(f"Harmony {title}, mean over {df['seed'].nunique()} seeds (bars: min-max)",
                 fontsize=11)
    _legend_outside(ax)
    plt.tight_layout()
    plt.savefig(RES / f"{name}.png", dpi=120)
    plt.close()


def variants(name, title, also=None):
    """Mean over training seeds per variant (bar), each seed a dot; baselines in gray.
    ``also = (csv name, variant)``: that variant's rows from another result file first."""
    path = RES / f"{name}.csv"
    if not path.exists():
        return
    df = pd.read_csv(path)
    if also and (RES / f"{also[0]}.csv").exists():
        other = pd.read_csv(RES / f"{also[0]}.csv")
        df = pd.concat([other[other.variant == also[1]], df])
    names = list(dict.fromkeys(df.loc[df.kind == "policy", "variant"]))
    names += list(dict.fromkeys(df.loc[df.kind == "baseline", "variant"]))
    mean = df.groupby("variant")["avg_jct"].mean()[names]
    kinds = df.drop_duplicates("variant").set_index("variant")["kind"][names]
    fig, ax = plt.subplots(figsize=(10.5, 4))  # room for the legend right of the axes
    ax.bar(range(len(names)), mean.values,
           color=["lightgray" if k == "baseline" else "C0" for k in kinds], alpha=0.7)
    for i, v in enumerate(names):
        ys = df.loc[df.variant == v, "avg_jct"].to_numpy()
        # seeds side by side across the bar: two seeds with equal JCT were one dot
        dx = (np.arange(len(ys)) - (len(ys) - 1) / 2) * 0.09
        ax.plot(i + dx, ys, "k.", ms=6)
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_ylabel("average JCT (intervals, lower is better)")
    n = df.loc[df.kind == "policy"].groupby("variant").size()
    seeds = f"{n.min()}" if n.min() == n.max() else f"{n.min()}-{n.max()}"
    ax.set_title(f"Harmony {title}\nbar: mean over {seeds} training seeds, dots: seeds",
                 fontsize=11)
    # what the two bar colours are (blue: trained policies, gray: heuristics, one run each)
    ax.legend(handles=[Patch(color="C0", alpha=0.7, label="trained policy (mean over seeds)"),
                       Patch(color="lightgray", alpha=0.7, label="heuristic baseline"),
                       Line2D([], [], color="k", marker=".", ls="", ms=6,
                              label="one training seed / run")],
              loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, fontsize=8)
    plt.tight_layout()
    plt.savefig(RES / f"{name}.png", dpi=120)
    plt.close()


def pipeline_fig8():
    """Fig. 8's instances: mean over training seeds of the true- and predicted-reward policies
    (bars: min-max over training seeds of the per-seed means) and the baselines."""
    path = RES / "reward_pipeline_fig8.csv"
    if not path.exists():
        return
    df = pd.read_csv(path)
    df["method"] = df["method"].replace({"harmony": "true_s0"})
    m = df.groupby(["method", "pattern"])["avg_jct"].mean().unstack()
    cols, lo, hi = {}, {}, {}
    for grp in ("true", "model"):
        g = m.loc[[i for i in m.index if i.startswith(grp + "_")]]
        cols[f"{grp} reward"], lo[f"{grp} reward"], hi[f"{grp} reward"] = g.mean(), g.min(), g.max()
    for b in ORDER[1:]:
        cols[b] = lo[b] = hi[b] = m.loc[b]
    mean, lo, hi = pd.DataFrame(cols), pd.DataFrame(lo), pd.DataFrame(hi)
    err = [[(mean[c] - lo[c]).values, (hi[c] - mean[c]).values] for c in mean.columns]
    ax = mean.plot.bar(figsize=(8.5, 4), rot=0, yerr=err, capsize=2)
    ax.set_ylabel("average JCT (intervals, lower is better)")
    ax.set_title("Harmony Fig. 8 instances: policies trained on true vs predicted rewards\n"
                 "(mean over 5 training seeds, bars: min-max over seeds; baselines are not trained)",
                 fontsize=11)
    _legend_outside(ax)
    plt.tight_layout()
    plt.savefig(RES / "reward_pipeline_fig8.png", dpi=120)
    plt.close()


if __name__ == "__main__":
    arrivals("fig8", "Fig. 8 at 2-core scale (12 servers)")
    arrivals("sim30_paper_load", "30 servers, the paper's arrival rates")
    arrivals("sim30_scaled_load", "30 servers, arrivals scaled 2.5x")
    variants("table2_seeds", "Table II ablations (mini, 600 episodes, 20 held-out instances)")
    variants("fig10_seeds", "Fig. 10 width / depth (mini, 400 episodes, 20 held-out instances)")
    variants("reward_pipeline", "Ground-truth (full) vs predicted rewards (model_reward), mini",
             also=("table2_seeds", "full"))
    pipeline_fig8()
