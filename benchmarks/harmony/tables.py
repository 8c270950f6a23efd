"""The README's tables from the committed result CSVs (markdown on stdout).

    python benchmarks/harmony/tables.py

Arrival-pattern runs (fig8.py output): mean average JCT per pattern and method, the improvement
of the learned policy over each baseline, (baseline - harmony) / baseline of the means, and on
how many instance seeds the policy is strictly better. Variant runs (variants.py output): mean,
std (ddof 1), min and max over the training seeds, and whether a variant differs from the
reference beyond seed noise. DECISION (seed noise): with 3 training seeds a difference counts
as beyond seed noise only when the two variants' min-max ranges over seeds do not overlap.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

RES = Path(__file__).with_name("results")
DATA = Path(__file__).with_name("data")  # newer results (the paper's training choices)
BASELINES = ["lb", "tetris", "lif_line", "lif_quad"]


def _md(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(str(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def arrivals(name: str, policy: str = "harmony", baselines=BASELINES) -> str:
    df = pd.read_csv(RES / f"{name}.csv")
    assert df["feasible"].all(), f"{name}: an infeasible placement"
    piv = df.pivot_table(index=["pattern", "seed"], columns="method", values="avg_jct")
    rows = []
    for pattern, g in piv.groupby(level=0, sort=False):
        row = {"pattern": pattern, "seeds": len(g), "jobs": round(
            df.loc[df.pattern == pattern, "jobs"].mean(), 1)}
        for m in [policy, *baselines]:
            row[m] = round(g[m].mean(), 3)
        for b in baselines:
            imp = (g[b].mean() - g[policy].mean()) / g[b].mean()
            wins = int((g[policy] < g[b] - 1e-9).sum())
            row[f"vs {b}"] = f"{imp:+.0%} ({wins}/{len(g)})"
        rows.append(row)
    return _md(pd.DataFrame(rows))


def variants(name: str, reference: str, extra: str | None = None, res: Path = RES) -> str:
    df = pd.read_csv(res / f"{name}.csv")
    if extra:  # e.g. the reference's rows from another file
        ref = pd.read_csv(res / f"{extra}.csv")
        df = pd.concat([ref[ref.variant == reference], df[df.variant != reference]])
    pol = df[df.kind == "policy"]
    ref = pol.loc[pol.variant == reference, "avg_jct"]
    order = [reference] + [v for v in dict.fromkeys(pol.variant) if v != reference]
    pol = pol.set_index("variant").loc[order].reset_index()
    rows = []
    for v, g in pol.groupby("variant", sort=False):
        x = g["avg_jct"]
        beyond = x.min() > ref.max() or x.max() < ref.min()
        noise = "-" if v == reference or min(len(x), len(ref)) < 2 else ("yes" if beyond else "no")
        rows.append({"variant": v, "episodes": int(g["episodes"].iloc[0]), "seeds": len(x),
                     "mean": round(x.mean(), 3), "std": round(x.std(ddof=1), 3) if len(x) > 1 else "-",
                     "min": round(x.min(), 3), "max": round(x.max(), 3),
                     f"vs {reference}": "-" if v == reference else
                     f"{(x.mean() - ref.mean()) / ref.mean():+.1%}",
                     "beyond seed noise": noise})
    base = df[df.kind == "baseline"].drop_duplicates("variant")
    tail = ", ".join(f"{r.variant} {r.avg_jct:.3f}" for r in base.itertuples())
    return _md(pd.DataFrame(rows)) + f"\n\nBaselines on the same instances: {tail}."


def pipeline_fig8(name: str) -> str:
    """Fig. 8's instances: each policy checkpoint (harmony = the committed one = true_s0), the
    mean per training-reward group, and the baselines; mean average JCT per pattern."""
    df = pd.read_csv(RES / f"{name}.csv")
    assert df["feasible"].all(), f"{name}: an infeasible placement"
    df["method"] = df["method"].replace({"harmony": "true_s0"})
    m = df.groupby(["method", "pattern"])["avg_jct"].mean().unstack()
    pols = sorted(i for i in m.index if i.startswith(("true_", "model_")))
    pols.sort(key=lambda v: (v.split("_")[0] != "true", int(v.split("_s")[1])))
    rows = [m.loc[pols]]
    for grp in ("true", "model"):
        g = m.loc[[p for p in pols if p.startswith(grp + "_")]]
        rows.append(g.mean().to_frame(f"{grp}: mean over {len(g)} seeds").T)
    rows.append(m.loc[BASELINES])
    out = pd.concat(rows).round(3)
    out.insert(0, "policy", out.index)
    return _md(out)


def main():
    for name in ("fig8", "sim30_paper_load", "sim30_scaled_load"):
        if (RES / f"{name}.csv").exists():
            print(f"### {name}\n\n{arrivals(name)}\n")
    if (RES / "table2_seeds.csv").exists():
        print(f"### table2_seeds\n\n{variants('table2_seeds', 'full')}\n")
    if (RES / "fig10_seeds.csv").exists():
        print(f"### fig10_seeds\n\n{variants('fig10_seeds', 'depth2')}\n")
    if (RES / "reward_pipeline.csv").exists() and (RES / "table2_seeds.csv").exists():
        print("### reward_pipeline\n\n"
              f"{variants('reward_pipeline', 'full', extra='table2_seeds')}\n")
    if (DATA / "paper_choices.csv").exists():
        print(f"### paper_choices\n\n{variants('paper_choices', 'mlopt', res=DATA)}\n")
    if (RES / "reward_pipeline_fig8.csv").exists():
        print(f"### reward_pipeline_fig8\n\n{pipeline_fig8('reward_pipeline_fig8')}\n")

if __name__ == "__main__":
    main()
