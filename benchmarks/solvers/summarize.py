"""Per-solver medians and pairwise solve-time ratios of solver-benchmark results (for SUMMARY.md).

    python benchmarks/solvers/summarize.py results/edgecloud-ratio/results.csv

Prints Markdown: per solver the runs, proven optima, checker-accepted incumbents, median and
max wall time; per solver pair the median (and range) of the per-instance time ratio A / B over
instances both proved optimal; and the largest relative spread of the proven optima.
"""
from __future__ import annotations

import argparse
import itertools
import sys

import pandas as pd


def summarize(df: pd.DataFrame) -> str:
    df = df[df["status"] != "error"].copy() if "status" in df else df
    lines = ["| solver | runs | optimal | checked | median time (s) | max time (s) |",
             "|---|---|---|---|---|---|"]
    for solver, g in sorted(df.groupby("solver")):
        checked = int((g["check_feasible"].astype(str).str.lower() == "true").sum())
        lines.append(f"| {solver} | {len(g)} | {int((g['status'] == 'optimal').sum())} | "
                     f"{checked}/{len(g)} | {g['runtime_s'].median():.2f} | "
                     f"{g['runtime_s'].max():.2f} |")
    opt = df[df["status"] == "optimal"]
    t = opt.pivot_table(index="instance", columns="solver", values="runtime_s")
    lines += ["", "| ratio (per instance, both optimal) | instances | median | min | max |",
              "|---|---|---|---|---|"]
    for a, b in itertools.combinations(sorted(t.columns), 2):
        r = (t[a] / t[b]).dropna()
        if len(r):
            lines.append(f"| {a} / {b} | {len(r)} | {r.median():.2f} | {r.min():.2f} | "
                         f"{r.max():.2f} |")
    objs = opt.pivot_table(index="instance", columns="solver", values="objective")
    objs = objs[objs.count(axis=1) >= 2]  # agreement needs two proofs of the same instance
    spread = ((objs.max(axis=1) - objs.min(axis=1)) / objs.abs().max(axis=1).clip(lower=1e-9))
    lines += ["", f"proven optima agree on {int((spread <= 1e-6).sum())}/{len(spread)} instances "
              f"proven by two or more solvers (largest relative spread {spread.max():.1e})"]
    rest = df[df["status"] != "optimal"]
    if len(rest):
        lines += ["", "not proven optimal:", ""]
        for r in rest.sort_values(["instance", "solver"]).itertuples():
            lines.append(f"- {r.instance} {r.solver}: {r.status}, incumbent {r.objective}, "
                         f"bound {r.bound}, gap {r.gap}, {r.runtime_s:.1f} s")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("csv", nargs="+", help="results.csv files written by `mlopt solvers bench`")
    args = p.parse_args(argv)
    for path in args.csv:
        print(f"### {path}\n\n{summarize(pd.read_csv(path))}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
