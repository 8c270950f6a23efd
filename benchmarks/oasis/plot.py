"""Paper-style figures (OASiS, seed 000, Sec. V-A) from harness results stores.

    python benchmarks/oasis/plot.py fig3 benchmarks/oasis/results/fig3
    python benchmarks/oasis/plot.py fig5 benchmarks/oasis/results/fig5
    python benchmarks/oasis/plot.py fig6 benchmarks/oasis/results/fig6
    python benchmarks/oasis/plot.py all      # the three default directories

Each command reads ``DIR/results.sqlite`` (or ``DIR/results.csv``, a CSV export of
:meth:`mlopt.harness.ResultStore.to_frame`), writes ``DIR/<figure>.png`` and ``DIR/<figure>.md``
(the numbers behind the figure) and prints the table.  Only checked-feasible algorithm rows are
used; a failed or rejected run is listed, never averaged in.

* Fig. 3: total utility vs number of jobs, one line per scheme (mean over seeds, min-max band).
* Fig. 5: performance ratio OPT/ALG per (number of servers, priority range) setting; points
  where OPT is proven, interval bars [ratio_low, ratio_high] where it is only bracketed.  The
  x order within a server count follows ln(max_r U^r/L) of the instances (recomputed from the
  regenerated workloads with :func:`mlopt.families.oasis.prices.price_params`).
* Fig. 6: total utility vs estimate factor, one line per cluster size; right panel relative to
  the oracle run of the same instance.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from mlopt.harness.report_figures import plain_log_ticks

HERE = Path(__file__).parent
SCHEME_ORDER = ("oasis", "fifo", "drf", "rrh", "dorm")
COLORS = {"oasis": "tab:red", "fifo": "tab:blue", "drf": "tab:green", "rrh": "tab:purple",
          "dorm": "tab:orange"}


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def load(directory: Path) -> pd.DataFrame:
    sqlite, csv = directory / "results.sqlite", directory / "results.csv"
    if sqlite.exists():
        from mlopt.harness import ResultStore

        with ResultStore(sqlite) as store:
            df = store.to_frame()
    elif csv.exists():
        df = pd.read_csv(csv)
    else:
        raise SystemExit(f"no results.sqlite or results.csv in {directory}")
    df["p"] = df["params"].map(json.loads)
    return df


def algorithm_rows(df: pd.DataFrame) -> pd.DataFrame:
    a = df[df.method_kind == "algorithm"].copy()
    bad = a[a.feasible != True]  # noqa: E712 - NaN (error) and False both count as bad
    if len(bad):
        print(f"WARNING: {len(bad)} algorithm runs failed or were rejected by the checker; "
              f"left out:", file=sys.stderr)
        for r in bad.itertuples():
            print(f"  {r.instance_id} {r.method}: {r.status}", file=sys.stderr)
    return a[a.feasible == True].copy()  # noqa: E712


def _md_table(header, rows) -> list[str]:
    return (["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
            + ["| " + " | ".join(map(str, r)) + " |" for r in rows])


def _write(directory: Path, stem: str, title: str, lines: list[str]) -> None:
    text = "\n".join([f"# {title}", "", *lines, "", f"![{stem}]({stem}.png)", ""])
    (directory / f"{stem}.md").write_text(text)
    print(text)


# ---- Fig. 3 -------------------------------------------------------------------------------------
def fig3(directory: Path) -> None:
    a = algorithm_rows(load(directory))
    a["n_jobs"] = a.p.map(lambda p: p["n_jobs"])
    inst = a.drop_duplicates("task_key")
    lr = {r.task_key: _log_ratio(r.preset, r.p, int(r.seed)) for r in inst.itertuples()}
    a["log_UL"] = a.task_key.map(lr)
    a["admitted"] = a.extra.map(lambda e: json.loads(e).get("admitted"))
    g = a.groupby(["n_jobs", "method"]).objective
    stats = pd.DataFrame({"mean": g.mean(), "min": g.min(), "max": g.max(),
                          "runs": g.size()}).reset_index()
    schemes = [s for s in SCHEME_ORDER if s in set(stats.method)]
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6, 4))
    for s in schemes:
        d = stats[stats.method == s].sort_values("n_jobs")
        ax.plot(d.n_jobs, d["mean"], marker="o", label=s, color=COLORS.get(s))
        ax.fill_between(d.n_jobs, d["min"], d["max"], alpha=0.12, color=COLORS.get(s))
    ax.set_xlabel("number of jobs (T = 300, H = K = 10)")
    ax.set_ylabel("total utility, higher is better\n(mean over seeds; band: min-max)")
    ax.set_title("OASiS Fig. 3 (scaled): total job utility per scheme", fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(directory / "fig3_utility_vs_jobs.png", dpi=120)
    plt.close(fig)

    # table: mean utility per scheme; OASiS / best baseline; wins per instance
    rows = []
    for n, d in stats.groupby("n_jobs"):
        m = dict(zip(d.method, d["mean"]))
        runs = int(d.runs.min())
        inst = a[a.n_jobs == n].pivot_table(index="seed", columns="method", values="objective")
        best_base = inst[[s for s in schemes if s != "oasis"]].max(axis=1)
        wins = int((inst["oasis"] >= best_base * (1 - 1e-9)).sum())
        rows.append([n, runs, f"{a[a.n_jobs == n].log_UL.mean():.0f}"] + [f"{m.get(s, float('nan')):.1f}" for s in schemes]
                    + [max((s for s in schemes if s != "oasis"), key=lambda s: m[s]),
                       f"{m['oasis'] / max(m[s] for s in schemes if s != 'oasis'):.3f}",
                       f"{wins}/{len(inst)}",
                       " / ".join(str(int(a[(a.n_jobs == n) & (a.method == s)].admitted.sum()))
                                  for s in schemes)])
    header = (["jobs", "seeds", "mean ln max U/L"] + [f"{s} mean" for s in schemes]
              + ["best baseline", "oasis / best baseline (means)",
                 "instances where oasis >= every baseline",
                 "completed jobs, all seeds (" + " / ".join(schemes) + ")"])
    _write(directory, "fig3_utility_vs_jobs", "Fig. 3 (scaled): total utility vs number of jobs",
           _md_table(header, rows))


# ---- Fig. 5 -------------------------------------------------------------------------------------
def _log_ratio(preset: str, params: dict, seed: int) -> float:
    """ln max_r(U_1^r/L_1, U_2^r/L_2) of the regenerated instance (oracle parameters)."""
    from mlopt.families.oasis.prices import price_params
    from mlopt.families import get_family

    w = get_family("oasis").preset(preset)(seed=seed, **params)
    pp = price_params(w, "oracle", 1.0)
    return float(max(np.max(pp.log_ratio1), np.max(pp.log_ratio2)))


def fig5(directory: Path) -> None:
    df = load(directory)
    a = algorithm_rows(df)
    a["n_servers"] = a.p.map(lambda p: p["n_servers"])
    a["priority"] = a.p.map(lambda p: tuple(p["priority"]))
    # ln(U/L) per instance, from the regenerated workloads
    inst = a.drop_duplicates("task_key")
    lr = {r.task_key: _log_ratio(r.preset, r.p, int(r.seed)) for r in inst.itertuples()}
    a["log_UL"] = a.task_key.map(lr)
    cells = (a[a.method == "oasis"].groupby(["n_servers", "priority"]).log_UL.mean()
             .reset_index().sort_values(["n_servers", "log_UL"]))
    order = list(zip(cells.n_servers, cells.priority))
    schemes = [s for s in SCHEME_ORDER if s in set(a.method)]
    plt = _plt()
    fig, axes = plt.subplots(2, 1, figsize=(12, 9))
    ax = axes[0]
    o = a[a.method == "oasis"]
    for x, (ns, pr) in enumerate(order):
        d = o[(o.n_servers == ns) & (o.priority == pr)]
        jitter = np.linspace(-0.25, 0.25, len(d)) if len(d) > 1 else np.zeros(len(d))
        proven = d.ratio_low.eq(d.ratio_high) & d.proven.astype(bool)
        ax.scatter(x + jitter[proven.to_numpy()], d.ratio_low[proven], s=10, color="tab:red",
                   alpha=0.6, label="OPT proven" if x == 0 else None)
        for j, r in zip(jitter[~proven.to_numpy()], d[~proven].itertuples()):
            ax.vlines(x + j, r.ratio_low, r.ratio_high, color="k", lw=1.5,
                      label="OPT bracketed" if x == 0 else None)
        ax.hlines(d.ratio_high.mean(), x - 0.35, x + 0.35, color="k", lw=2)
    ax.set_xticks(range(len(order)),
                  [f"{ns} srv\n[{pr[0]:g},{pr[1]:g}]\n{cells.log_UL.iloc[k]:.1f}"
                   for k, (ns, pr) in enumerate(order)], fontsize=7)
    ax.set_xlabel("servers / gamma1 range / mean ln max U/L", fontsize=8)
    ax.set_ylabel("OPT / OASiS (log scale)")
    ax.set_yscale("log")
    plain_log_ticks(ax.yaxis, float(o.ratio_low.min()), float(o.ratio_high.max()))
    ax.axhspan(1.1, 1.5, color="grey", alpha=0.15, label="paper: 1.1-1.5")
    ax.set_title("OASiS Fig. 5: ratio OPT / OASiS per instance (1 = optimal, lower is better; "
                 "bar: mean)")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7)

    ax = axes[1]
    width = 0.8 / len(schemes)
    top = 1.0  # the tallest bar
    for k, s in enumerate(schemes):
        means = []
        for ns, pr in order:
            d = a[(a.method == s) & (a.n_servers == ns) & (a.priority == pr)]
            means.append(d.ratio_high.mean())
        top = max(top, float(np.nanmax(means)))
        ax.bar(np.arange(len(order)) + (k - (len(schemes) - 1) / 2) * width, means, width,
               label=s, color=COLORS.get(s))
    ax.set_xticks(range(len(order)),
                  [f"{ns} srv\n[{pr[0]:g},{pr[1]:g}]" for ns, pr in order], fontsize=7)
    for axx in axes:
        for k in range(1, len(order)):
            if order[k][0] != order[k - 1][0]:
                axx.axvline(k - 0.5, color="grey", lw=0.8)
    ax.set_ylabel("mean OPT / ALG over seeds (log scale)")
    ax.set_yscale("log")
    plain_log_ticks(ax.yaxis, 1.0, top)
    # up to the next 1-2-5 tick: the tallest bar (FIFO, about 40) had no labelled tick above it
    nice = min(m * 10 ** e for e in range(0, 7) for m in (1, 2, 5) if m * 10 ** e >= top)
    ax.set_ylim(0.9, nice * 1.05)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_title("all schemes: mean ratio OPT / ALG per setting (lower is better)")
    ax.set_xlabel("servers / gamma1 range", fontsize=8)
    ax.legend(fontsize=7, ncol=5)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(directory / "fig5_ratio.png", dpi=120)
    plt.close(fig)

    off = df[df.method_kind == "offline"]
    n_proven = int(off.proven.fillna(False).astype(bool).sum())
    rows = []
    for k, (ns, pr) in enumerate(order):
        row = [ns, f"[{pr[0]:g}, {pr[1]:g}]", f"{cells.log_UL.iloc[k]:.1f}"]
        for s in schemes:
            d = a[(a.method == s) & (a.n_servers == ns) & (a.priority == pr)]
            lo, hi = d.ratio_low, d.ratio_high
            med = (f"{lo.median():.3f}" if np.allclose(lo, hi)
                   else f"{lo.median():.3f}-{hi.median():.3f}")
            row.append(f"{med} / {hi.mean():.3f} / {hi.max():.3f}")
        o_d = a[(a.method == "oasis") & (a.n_servers == ns) & (a.priority == pr)]
        row.append(f"{int(((o_d.ratio_high >= 1.1) & (o_d.ratio_high <= 1.5)).sum())}"
                   f"/{len(o_d)}")
        rows.append(row)
    header = (["servers", "gamma1 range", "mean ln max U/L"]
              + [f"{s} median / mean / max" for s in schemes] + ["oasis runs in [1.1, 1.5]"])
    allo = a[a.method == "oasis"].ratio_high
    lines = [f"Offline optimum proven for {n_proven}/{len(off)} instances "
             f"(ratios are point values where proven, else low-high).", "",
             *_md_table(header, rows), "",
             f"OASiS over all {len(allo)} instances: median {allo.median():.3f}, mean "
             f"{allo.mean():.3f}, max {allo.max():.3f}; ratio = 1 (optimal) on "
             f"{int(np.isclose(allo, 1.0).sum())}, in [1.1, 1.5] on "
             f"{int(((allo >= 1.1) & (allo <= 1.5)).sum())}, above 1.5 on "
             f"{int((allo > 1.5).sum())}."]
    # which scheme has the best mean ratio per setting
    best = []
    for ns, pr in order:
        d = a[(a.n_servers == ns) & (a.priority == pr)].groupby("method").ratio_high.mean()
        best.append(f"{ns} srv [{pr[0]:g},{pr[1]:g}]: {d.idxmin()} ({d.min():.3f})")
    lines += ["", "Best mean ratio per setting: " + "; ".join(best) + "."]
    _write(directory, "fig5_ratio", "Fig. 5: performance ratio OPT / ALG", lines)


# ---- Fig. 6 -------------------------------------------------------------------------------------
def fig6(directory: Path) -> None:
    a = algorithm_rows(load(directory))
    a["H"] = a.p.map(lambda p: p["n_worker_servers"])
    a["factor"] = a.extra.map(lambda e: json.loads(e)["options"].get("estimate_factor"))
    oracle = a[a.method == "oasis-oracle"].set_index("task_key").objective
    est = a[a.method != "oasis-oracle"].copy()
    est["rel"] = est.objective / est.task_key.map(oracle)
    inst = a.drop_duplicates("task_key")
    lr = {r.task_key: _log_ratio(r.preset, r.p, int(r.seed)) for r in inst.itertuples()}
    plt = _plt()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    rows = []
    for H, d in est.groupby("H"):
        g = d.groupby("factor")
        m, rel = g.objective.mean(), g.rel.mean()
        label = {10: "scarce", 50: "paper default", 100: "ample"}.get(H, "")
        axes[0].plot(100 * m.index, m.values, marker="o", label=f"H=K={H} ({label})")
        axes[1].plot(100 * rel.index, rel.values, marker="o", label=f"H=K={H} ({label})")
        ln_ul = np.mean([lr[k] for k in d.task_key.unique()])
        for f in m.index:
            dd = d[d.factor == f]
            rows.append([H, label, f"{ln_ul:.0f}", f"{100 * f:g}% ({np.log(f):+.2f})",
                         len(dd), f"{m[f]:.1f}",
                         f"{rel[f]:.4f}", f"{dd.rel.min():.4f}-{dd.rel.max():.4f}",
                         int(dd.extra.map(lambda e: json.loads(e)["admitted"]).sum())])
        same = np.allclose(d[d.factor == 1.0].set_index("task_key").objective,
                           oracle.loc[d[d.factor == 1.0].task_key])
        rows.append([H, label, f"{ln_ul:.0f}", "oracle", len(oracle.loc[d.task_key.unique()]),
                     f"{oracle.loc[d.task_key.unique()].mean():.1f}", "1",
                     f"factor 100% == oracle on every seed: {same}", ""])
    axes[0].set_xlabel("estimate of U/L (% of actual)")
    axes[0].set_ylabel("total utility (mean over seeds, log scale)")
    axes[0].set_yscale("log")
    plain_log_ticks(axes[0].yaxis, 1.0, 1e6)  # utilities span decades: 1-2-5 steps
    axes[1].set_xlabel("estimate of U/L (% of actual)")
    axes[1].set_ylabel("utility / utility with actual U/L (mean)")
    for ax in axes:
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("OASiS Fig. 6: total utility with estimated U/L (T = 300, 200 jobs; higher "
                 "is better)")
    fig.tight_layout()
    fig.savefig(directory / "fig6_estimates.png", dpi=120)
    plt.close(fig)
    header = ["H=K", "resources", "mean ln max U/L", "estimate (shift of ln U/L)", "seeds",
              "mean utility", "mean rel. to oracle",
              "rel. min-max", "admitted (sum)"]
    _write(directory, "fig6_estimates", "Fig. 6: total utility under estimated U/L",
           _md_table(header, rows))


FIGS = {"fig3": fig3, "fig5": fig5, "fig6": fig6}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in (*FIGS, "all"):
        print(__doc__)
        return 2
    if argv[0] == "all":
        for name, fn in FIGS.items():
            fn(HERE / "results" / name)
        return 0
    FIGS[argv[0]](Path(argv[1]) if len(argv) > 1 else HERE / "results" / argv[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
