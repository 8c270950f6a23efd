"""Plots of the Harmony benchmarks from the committed CSVs (results/*.csv -> results/*.png).

    python benchmarks/harmony/plot.py
"""
from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

RES = Path(__file__).with_name("results")
ORDER = ["harmony", "lb", "tetris", "lif_line", "lif_quad"]


def fig8():
    df = pd.read_csv(RES / "fig8.csv")
    s = df.groupby(["pattern", "method"])["avg_jct"].mean().unstack()[ORDER]
    ax = s.plot.bar(figsize=(7, 4), rot=0)
    ax.set_ylabel("average JCT (intervals)")
    ax.set_title("Fig. 8 at 2-core scale (12 servers, mean over 4 seeds)")
    plt.tight_layout()
    plt.savefig(RES / "fig8.png", dpi=120)
    plt.close()


def variants(name, title):
    path = RES / f"{name}.csv"
    if not path.exists():
        return
    df = pd.read_csv(path)
    ax = df.plot.bar(x="variant", y="avg_jct", legend=False, figsize=(7, 4), rot=30,
                     color=["gray" if k == "baseline" else "C0" for k in df["kind"]])
    ax.set_ylabel("average JCT (intervals)")
    ax.set_title(title)
    plt.tight_layout()
    plt.savefig(RES / f"{name}.png", dpi=120)
    plt.close()


if __name__ == "__main__":
    fig8()
    variants("table2", "Table II ablations (mini preset, 20 held-out instances)")
    variants("fig10", "Fig. 10 width / depth of the scoring network (mini, 400 episodes)")
