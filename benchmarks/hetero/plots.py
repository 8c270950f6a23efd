"""Plots (one PNG per figure) and the README's tables from the committed sweep results in data/.

    python benchmarks/hetero/plots.py            # writes data/fig*.png, prints markdown tables

Means are over the seeds in the CSVs; a missing CSV skips its figure.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from mlopt.harness.report_figures import plain_log_ticks  # noqa: E402

HERE = Path(__file__).parent
ARCH = {"ps": "PS", "ra": "Ring-AllReduce"}
BASELINES = ["fifo", "drf", "antman", "tiresias"]
COLORS = dict(zip(["a_online", "a_online-compact", *BASELINES],
                  ["tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown"]))




def _load(data: Path, name: str) -> pd.DataFrame | None:
    p = data / name
    if not p.exists():
        return None
    df = pd.read_csv(p)
    return df[df["feasible"] == True] if "feasible" in df else df  # noqa: E712


def _table(df: pd.DataFrame, index: str, value: str = "ratio_to_lb", scale: float = 1.0) -> str:
    t = df.pivot_table(index=["arch", index], columns="algorithm", values=value,
                       aggfunc="mean") / scale
    n = df.groupby(["arch", index])["seed"].nunique()
    cols = [c for c in ["a_online", "a_online-compact", *BASELINES] if c in t.columns]
    lines = [f"| arch | {index} | seeds | " + " | ".join(cols) + " |",
             "|" + "---|" * (len(cols) + 3)]
    for (arch, x), row in t.iterrows():
        cells = " | ".join("" if pd.isna(row[c]) else f"{row[c]:.2f}" for c in cols)
        lines.append(f"| {ARCH[arch]} | {x} | {n[(arch, x)]} | {cells} |")
    return "\n".join(lines)


def _lines(ax, df, x, algs, logx=False, value="wct", scale=1.0):
    for alg in algs:
        d = df[df["algorithm"] == alg].groupby(x)[value].mean() / scale
        if len(d):
            ax.plot(d.index, d.values, marker="o", label=alg, color=COLORS[alg])
    if logx:
        ax.set_xscale("log")


def _save(fig, path: Path) -> None:
    """Every figure: each panel's title starts with the family's name, one legend for all its
    panels below them (inside a panel it covered lines; every line of every panel is named),
    tight layout, 110 dpi PNG, closed (no pyplot state carried over).  A panel without data says so instead of showing empty axes."""
    handles: dict[str, object] = {}
    for ax in fig.axes:
        if ax.get_title() and not ax.get_title().startswith("hetero"):
            ax.set_title("hetero " + ax.get_title())
        if not ax.lines and not ax.collections and not ax.patches and not ax.texts:
            ax.text(0.5, 0.5, "no runs in the committed CSV", ha="center", va="center",
                    transform=ax.transAxes, color="grey")
            ax.set_xticks([])
            ax.set_yticks([])
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    bottom = 0.0
    if handles and not any(ax.get_legend() for ax in fig.axes):
        ncol = min(len(handles), 2 if fig.get_figwidth() < 8 else 6)
        rows = -(-len(handles) // ncol)
        fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=ncol,
                   fontsize=8, frameon=False)
        bottom = (0.3 * rows + 0.1) / fig.get_figheight()
    fig.tight_layout(rect=(0, bottom, 1, 1))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def fig_jobs(data: Path, out: Path) -> str:
    df = _load(data, "wct_vs_jobs.csv")
    if df is None:
        return ""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for k, arch in enumerate(["ps", "ra"]):
        ax = axes[k]
        _lines(ax, df[df["arch"] == arch], "jobs", ["a_online", "a_online-compact", *BASELINES],
               value="ratio_to_lb")
        ax.set_title(f"Fig. {2 if arch == 'ps' else 5}: {ARCH[arch]}")
        ax.set_xlabel("jobs")
        ax.set_ylabel("WCT / lower bound (lower is better)")
    _save(fig, out / "wct_vs_jobs.png")
    return "mean WCT / lower bound:\n\n" + _table(df, "jobs")


def fig_servers(data: Path, out: Path) -> str:
    df = _load(data, "wct_vs_servers.csv")
    if df is None:
        return ""
    caps = sorted(df["capacity"].unique())
    fig, axes = plt.subplots(len(caps), 2, figsize=(10, 3.6 * len(caps)), squeeze=False)
    text = []
    for i, cap in enumerate(caps):
        for k, arch in enumerate(["ps", "ra"]):
            d = df[(df["capacity"] == cap) & (df["arch"] == arch)]
            ax = axes[i][k]
            _lines(ax, d, "servers", ["a_online", "a_online-compact", *BASELINES], scale=1e6)
            if d.empty:  # the sweep ran growing capacity for RA only (README, Fig. 3 / 6)
                ax.text(0.5, 0.5, f"not run: {ARCH[arch]} with capacity {cap}\n"
                        "(the README's Fig. 3 / 6 command runs it for RA only)", ha="center",
                        va="center", transform=ax.transAxes, color="grey")
                ax.set_xticks([])
                ax.set_yticks([])
            ax.set_title(f"Fig. {3 if arch == 'ps' else 6}: {ARCH[arch]}, capacity {cap}")
            ax.set_xlabel("servers H")
            ax.set_ylabel("total weighted completion time\n(millions; lower is better)")
            sub = df[df["capacity"] == cap]
        text.append(f"capacity {cap} (mean WCT / lower bound):\n\n" + _table(sub, "servers"))
        text.append(f"capacity {cap} (mean WCT, millions):\n\n"
                    + _table(sub, "servers", "wct", 1e6))
    _save(fig, out / "fig3_6_wct_vs_servers.png")
    return "\n\n".join(text)


def fig_F(data: Path, out: Path) -> str:
    df = _load(data, "wct_vs_F.csv")
    if df is None:
        return ""
    df["setting"] = [f"J={j}, H={h}" for j, h in zip(df["jobs"], df["servers"])]
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
    for k, arch in enumerate(["ps", "ra"]):
        ax = axes[k]
        for (setting, alg), d in df[df["arch"] == arch].groupby(["setting", "algorithm"]):
            m = d.groupby("factor")["ratio_to_lb"].mean()
            ax.plot(m.index, m.values, marker="o", label=f"{alg}, {setting}",
                    color=COLORS[alg], ls="-" if setting.endswith("H=20") else ":")
        ax.set_xscale("log")
        ax.set_ylim(0, 1.1 * ax.get_ylim()[1])  # from 0: a 0.2% change is no jump
        ax.set_title(f"Fig. 4: A_online vs F, {ARCH[arch]}")
        ax.set_xlabel("F / default F")
        ax.set_ylabel("WCT / lower bound (lower is better)")
    _save(fig, out / "fig4_wct_vs_F.png")
    t = df.pivot_table(index=["arch", "setting", "algorithm"], columns="factor",
                       values="ratio_to_lb", aggfunc="mean")
    n = df.groupby(["arch", "setting"])["seed"].nunique()
    cols = list(t.columns)
    lines = ["| arch | instances | seeds | algorithm | " + " | ".join(f"F x {c:g}" for c in cols)
             + " |", "|" + "---|" * (len(cols) + 4)]
    for (arch, setting, alg), row in t.iterrows():
        cells = " | ".join("" if pd.isna(row[c]) else f"{row[c]:.3f}" for c in cols)
        lines.append(f"| {ARCH[arch]} | {setting} | {n[(arch, setting)]} | {alg} | {cells} |")
    return "mean WCT / lower bound:\n\n" + "\n".join(lines)


def _restricted_fig(df, what, title, fname, out):
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    for k, arch in enumerate(["ps", "ra"]):
        d = df[df["arch"] == arch]
        ax = axes[k]
        for alg in sorted(d["algorithm"].unique()):
            m = d[d["algorithm"] == alg].groupby(what, sort=False)["ratio_to_lb"].mean()
            order = ["all"] + sorted([v for v in m.index if v != "all"],
                                     key=lambda v: (len(str(v)), str(v)))
            m = m.reindex([v for v in order if v in m.index])
            ax.plot([str(v) for v in m.index], m.values, marker="o", label=alg,
                    color=COLORS[alg])
        ax.set_title(f"{title}, {ARCH[arch]}")
        ax.set_xlabel(what + ' ("all" = A_online chooses)')
        ax.set_ylabel("mean WCT / lower bound\n(log; lower is better)")
        ax.set_yscale("log")
        plotted = [v for line in ax.lines for v in line.get_ydata()]
        plain_log_ticks(ax.yaxis, min(plotted), max(plotted))
        # the top reaches the next 1-2-5 tick, so the highest point has a labelled tick above it
        ax.set_ylim(top=_next_125(max(plotted)) * 1.02)
    _save(fig, out / fname)


def _next_125(x: float) -> float:
    """The smallest of 1, 2, 5 x 10^k that is >= x (x > 0)."""
    k = math.floor(math.log10(x))
    return next(m * 10.0 ** k for m in (1, 2, 5, 10) if m * 10.0 ** k >= x)


def _restricted_table(df, what):
    t = df.pivot_table(index=["arch", "algorithm"], columns=what, values="ratio_to_lb",
                       aggfunc="mean")
    cols = ["all"] + sorted([c for c in t.columns if c != "all"],
                            key=lambda v: (len(str(v)), str(v)))
    lines = ["| arch | algorithm | " + " | ".join(map(str, cols)) + " |",
             "|" + "---|" * (len(cols) + 2)]
    for (arch, alg), row in t.iterrows():
        cells = " | ".join("" if pd.isna(row[c]) else f"{row[c]:.2f}" for c in cols)
        lines.append(f"| {ARCH[arch]} | {alg} | {cells} |")
    return "\n".join(lines)


def fig_types(data: Path, out: Path) -> str:
    """Worker type ids are drawn per seed (w1 of seed 0 is not w1 of seed 1), so besides the
    per-id plot the table compares, per seed, A_online's free choice with the best and the worst
    single type."""
    df = _load(data, "fixed_worker_types.csv")
    if df is None:
        return ""
    df["worker_type"] = df["worker_type"].astype(str)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    for k, arch in enumerate(["ps", "ra"]):
        ax = axes[k]
        for i, alg in enumerate(sorted(df["algorithm"].unique())):
            d = df[(df["arch"] == arch) & (df["algorithm"] == alg)]
            fixed = d[d["worker_type"] != "all"]
            free = d[d["worker_type"] == "all"]
            dx = 0.15 * (2 * i - 1)
            ax.scatter(fixed["seed"] + dx, fixed["ratio_to_lb"], marker="_", s=120,
                       color=COLORS[alg], alpha=0.6, label=f"{alg}: one type (each)")
            ax.scatter(free["seed"] + dx, free["ratio_to_lb"], marker="*", s=140,
                       color=COLORS[alg], edgecolor="k", label=f"{alg}: free choice")
        ax.set_title(f"Fig. 9: one worker type for all jobs, {ARCH[arch]}")
        ax.set_xticks(sorted(df["seed"].unique()))
        ax.set_xlabel("seed (each seed draws its own 8 worker types)")
        ax.set_ylabel("WCT / lower bound (lower is better)")
    _save(fig, out / "fig9_fixed_worker_types.png")
    lines = ["| arch | algorithm | seed | free choice | best single type | worst single type "
             "| free / best |", "|---|---|---|---|---|---|---|"]
    for (arch, alg, seed), d in df.groupby(["arch", "algorithm", "seed"]):
        free = d[d["worker_type"] == "all"]["ratio_to_lb"]
        fixed = d[d["worker_type"] != "all"].set_index("worker_type")["ratio_to_lb"]
        if not len(free) or not len(fixed):
            continue
        f = float(free.iloc[0])
        lines.append(f"| {ARCH[arch]} | {alg} | {seed} | {f:.2f} | {fixed.min():.2f} "
                     f"({fixed.idxmin()}) | {fixed.max():.2f} ({fixed.idxmax()}) | "
                     f"{f / fixed.min():.3f} |")
    return ("WCT / lower bound; each seed has its own 8 worker types:\n\n" + "\n".join(lines))


def fig_workers(data: Path, out: Path) -> str:
    df = _load(data, "workers.csv")
    if df is None:
        return ""
    df["workers"] = df["workers"].astype(str)
    _restricted_fig(df, "workers", "Fig. 10: exactly min(k, D_j) workers",
                    "fig10_workers.png", out)
    return "mean WCT / lower bound:\n\n" + _restricted_table(df, "workers")


def fig_maxweight(data: Path, out: Path) -> str:
    df = _load(data, "maxweight_sweeps.csv")
    if df is None:
        return ""
    text = []
    specs = [("F", "factor", "Fig. 11: A_maxweight vs F", "F / default F", True,
              "fig11_maxweight_vs_F.png"),
             ("servers", "servers", "Fig. 12: A_maxweight vs H", "servers H", False, None),
             ("jobs", "jobs", "Fig. 12: A_maxweight vs jobs", "jobs", False, None)]
    fig12, ax12 = plt.subplots(1, 2, figsize=(10, 3.6))
    for sweep, x, title, xlabel, logx, fname in specs:
        d = df[df["sweep"] == sweep]
        if not len(d):
            continue
        if fname:
            fig, axes = plt.subplots(1, 1, figsize=(5.5, 3.6))
            ax = axes
        else:
            ax = ax12[0 if sweep == "servers" else 1]
        for arch in ["ps", "ra"]:
            m = d[d["arch"] == arch].groupby(x)[["weight", "jain"]].mean()
            if len(m):
                ax.plot(m.index, m["weight"], marker="o", label=f"A_maxweight {ARCH[arch]}")
                ax.plot(m.index, m["jain"], ls="--", marker="x", label=f"Jain {ARCH[arch]}")
        if logx:
            ax.set_xscale("log")
        ax.set_title(title)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("total scheduled weight (higher is better)")
        if fname:
            _save(fig, out / fname)
        g = d.groupby(["arch", x])
        t = g[["weight", "jain", "admitted", "offered_weight", "upper_over_weight",
               "theorem3_bound"]].mean()
        n = g["seed"].nunique()
        lines = [f"{title} (means; tau = {int(d['tau'].iloc[0])}):\n",
                 f"| arch | {x} | seeds | A_maxweight | admitted | Jain | offered | "
                 "upper / A_maxweight | 2 log lambda |", "|" + "---|" * 9]
        for (arch, v), r in t.iterrows():
            lines.append(f"| {ARCH[arch]} | {v} | {n[(arch, v)]} | {r['weight']:.0f} | "
                         f"{r['admitted']:.1f} | {r['jain']:.0f} | {r['offered_weight']:.0f} | "
                         f"{r['upper_over_weight']:.2f} | {r['theorem3_bound']:.1f} |")
        text.append("\n".join(lines))
    _save(fig12, out / "fig12_maxweight_vs_servers_jobs.png")
    return "\n\n".join(text)


def fig_twin(data: Path, out: Path) -> str:
    df = _load(data, "ps_vs_ra.csv")
    if df is None:
        return ""
    algs = [a for a in ["a_online", "a_online-compact", *BASELINES] if a in set(df["algorithm"])]
    m = df.pivot_table(index="algorithm", columns="arch", values="wct", aggfunc="mean")
    fig, ax = plt.subplots(figsize=(7, 3.6))
    xs = range(len(algs))
    for k, arch in enumerate(["ps", "ra"]):
        ax.bar([x + 0.4 * k - 0.2 for x in xs], [m.loc[a, arch] / 1e6 for a in algs],
               width=0.4, label=ARCH[arch])
    ax.set_xticks(list(xs), algs, fontsize=8)
    ax.set_ylabel("total weighted completion time\n(millions; lower is better)")
    ax.set_title("PS vs Ring-AllReduce on the same jobs and cluster")
    ax.legend(fontsize=7)
    _save(fig, out / "ps_vs_ra.png")
    per = df.pivot_table(index=["seed", "algorithm"], columns="arch", values="wct")
    ratio = (per["ra"] / per["ps"]).groupby("algorithm").agg(["mean", "min", "max"])
    lines = ["| algorithm | WCT PS (mean) | WCT RA (mean) | RA / PS mean (min-max over seeds) |",
             "|---|---|---|---|"]
    for a in algs:
        r = ratio.loc[a]
        lines.append(f"| {a} | {m.loc[a, 'ps']:.3g} | {m.loc[a, 'ra']:.3g} | "
                     f"{r['mean']:.2f} ({r['min']:.2f}-{r['max']:.2f}) |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(HERE / "data"))
    a = ap.parse_args(argv)
    data = Path(a.data)
    for name, fn in [("Fig. 2 / 5", fig_jobs), ("Fig. 3 / 6", fig_servers), ("Fig. 4", fig_F),
                     ("Fig. 9", fig_types),
                     ("Fig. 10", fig_workers), ("Fig. 11 / 12", fig_maxweight),
                     ("PS vs RA", fig_twin)]:
        text = fn(data, data)
        if text:
            print(f"## {name}\n\n{text}\n")


if __name__ == "__main__":
    main()
