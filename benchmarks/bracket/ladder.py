"""The bracket ladder: for each family, instances from tiny to the paper's headline scale; the
certified interval width ``mlopt bracket`` reaches within a wall-clock budget, beside what the
exact model alone (``solve``: the solver's checked incumbent and its bound) reaches in the same
budget, in the same run.

    python benchmarks/bracket/ladder.py --budgets 60 -o benchmarks/bracket/results/ladder.csv
    python benchmarks/bracket/ladder.py --summary benchmarks/bracket/results/ladder.csv

Rows are appended as they finish (one CSV row per rung x budget x method); a rerun skips the
rows already there, so an interrupted ladder resumes.  Both methods get the same wall-clock
budget, model build included (the exact model alone runs in a child process killed at the
budget plus 5 s, like every bracket source).  Width = (high - low) / max(|low|, |high|); an
open end is an infinite width.
"""
from __future__ import annotations

import argparse
import csv
import math
import os
import platform
import sys
import time
from pathlib import Path

#: (family, rung label, preset, parameter overrides): tiny -> the paper's headline scale
LADDER = [
    ("oasis", "tiny", "tiny", {}),
    ("oasis", "fig5-10jobs", "paper-fig5", {}),
    ("oasis", "50jobs-T50", "paper-default", {"n_jobs": 50, "horizon": 50}),
    ("oasis", "paper-200jobs", "paper-default", {}),
    ("pdors", "tiny", "tiny", {}),
    ("pdors", "small", "small", {}),
    ("pdors", "15jobs-6m", "paper-fig6", {"n_jobs": 15, "n_machines": 6}),
    ("pdors", "paper-fig9", "paper-fig9", {}),
    ("hetero", "tiny", "tiny", {}),
    ("hetero", "small", "small", {}),
    ("hetero", "bench", "bench", {}),
    ("hetero", "paper-100jobs", "paper-default", {"n_jobs": 100}),
    ("edgecloud", "tiny", "tiny", {}),
    ("edgecloud", "paper-ratio", "paper-ratio", {}),
    ("edgecloud", "paper-sim", "paper-sim", {}),
    ("harmony", "tiny", "tiny", {}),
    ("harmony", "small", "small", {}),
    ("harmony", "uniform", "uniform", {}),
]
FIELDS = ["family", "rung", "preset", "params", "seed", "jobs", "budget_s", "method", "low",
          "high", "width", "status", "low_source", "high_source", "elapsed_s", "note"]


def width(low, high) -> float:
    if low is None or high is None:
        return math.inf
    scale = max(abs(low), abs(high))
    return 0.0 if high - low <= 0 else ((high - low) / scale if scale else math.inf)


def solve_alone(fam, workload, budget: float) -> dict:
    """The exact model alone, build included, inside ``budget`` seconds of wall clock."""
    from mlopt.bracket import run_boxed
    from mlopt.solve import solve

    deadline = time.perf_counter() + budget

    def work():
        form = fam.exact_formulation()
        model = fam.model(form.name)(workload)
        left = deadline - time.perf_counter()
        if left <= 1:
            return {"status": "build_only", "incumbent": None, "bound": None}
        res = solve(model, "highs", time_limit=max(0.5, left - max(1.0, 0.1 * left)))
        value = None
        if res.has_solution:
            from mlopt.families.base import resolve

            check = fam.check(workload, resolve(form.extract)(model, workload))
            value = float(check.objective) if check.feasible else None
        return {"status": res.status.value, "incumbent": value, "bound": res.bound}

    t0 = time.perf_counter()
    kind, out = run_boxed(budget + 5.0, work)
    elapsed = time.perf_counter() - t0
    if kind != "ok":
        return {"low": None, "high": None, "status": kind, "elapsed_s": elapsed,
                "note": str(out)[:200]}
    inc, bound = out["incumbent"], out["bound"]
    if bound is not None and not math.isfinite(bound):
        bound = None
    low, high = (inc, bound) if fam.sense == "max" else (bound, inc)
    return {"low": low, "high": high, "status": out["status"], "elapsed_s": elapsed,
            "note": ""}


def run(budgets: list[float], out: Path, seed: int, only: list[str] | None) -> None:
    import json

    from mlopt.bracket import bracket
    from mlopt.families import get_family

    out.parent.mkdir(parents=True, exist_ok=True)
    done = set()
    if out.exists():
        with open(out, newline="") as fh:
            done = {(r["family"], r["rung"], float(r["budget_s"]), r["method"])
                    for r in csv.DictReader(fh)}
    new = not out.exists()
    with open(out, "a", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=FIELDS)
        if new:
            writer.writeheader()
        for family, rung, preset, params in LADDER:
            if only and family not in only:
                continue
            fam = get_family(family)
            workload = fam.generate(preset, seed=seed, **params)
            for budget in budgets:
                base = {"family": family, "rung": rung, "preset": preset,
                        "params": json.dumps(params, sort_keys=True), "seed": seed,
                        "jobs": len(workload.jobs), "budget_s": budget}
                if (family, rung, float(budget), "bracket") not in done:
                    t0 = time.perf_counter()
                    b = bracket(workload, time_limit=budget)
                    writer.writerow({**base, "method": "bracket", "low": b.low, "high": b.high,
                                     "width": width(b.low, b.high), "status": b.status,
                                     "low_source": b.low_source, "high_source": b.high_source,
                                     "elapsed_s": round(time.perf_counter() - t0, 2),
                                     "note": b.proof or ""})
                    fh.flush()
                    print(f"{family:9} {rung:16} {budget:5g}s bracket [{b.low}, {b.high}] "
                          f"{b.status}", file=sys.stderr)
                if (family, rung, float(budget), "solve") not in done:
                    s = solve_alone(fam, workload, budget)
                    writer.writerow({**base, "method": "solve", "low": s["low"],
                                     "high": s["high"], "width": width(s["low"], s["high"]),
                                     "status": s["status"], "low_source": "highs",
                                     "high_source": "highs",
                                     "elapsed_s": round(s["elapsed_s"], 2), "note": s["note"]})
                    fh.flush()
                    print(f"{family:9} {rung:16} {budget:5g}s solve   [{s['low']}, "
                          f"{s['high']}] {s['status']}", file=sys.stderr)


def summary(path: Path) -> str:
    with open(path, newline="") as fh:
        rows = list(csv.DictReader(fh))
    key = {}
    for r in rows:
        key[(r["family"], r["rung"], r["budget_s"], r["method"])] = r
    order = [(f, r) for f, r, _, _ in LADDER]
    budgets = sorted({r["budget_s"] for r in rows}, key=float)

    def fmt_w(r):
        if r is None:
            return "-"
        w = float(r["width"])
        return "open" if not math.isfinite(w) else f"{100 * w:.2f}%"

    lines = ["| family | rung | jobs | " + " | ".join(
        f"bracket {b} s | solve {b} s" for b in budgets) + " | bracket ends (largest budget) |",
        "|---|---|---|" + "---|---|" * len(budgets) + "---|"]
    for f, rung in order:
        rs = [key.get((f, rung, b, m)) for b in budgets for m in ("bracket", "solve")]
        if not any(rs):
            continue
        first = next(r for r in rs if r)
        last = key.get((f, rung, budgets[-1], "bracket"))
        ends = (f"[{float(last['low']):.6g} ({last['low_source']}), "
                f"{float(last['high']):.6g} ({last['high_source']})]"
                if last and last["low"] and last["high"] else "-")
        lines.append(f"| {f} | {rung} | {first['jobs']} | " +
                     " | ".join(fmt_w(r) for r in rs) + f" | {ends} |")
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", type=float, nargs="+", default=[60.0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--family", nargs="*", help="only these families")
    ap.add_argument("-o", "--output", type=Path,
                    default=Path(__file__).parent / "results" / "ladder.csv")
    ap.add_argument("--summary", type=Path, help="print the Markdown table of a ladder CSV")
    args = ap.parse_args()
    if args.summary:
        print(summary(args.summary))
        return 0
    print(f"# {platform.node() and 'host'} python {platform.python_version()}, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    run(args.budgets, args.output, args.seed, args.family)
    return 0


if __name__ == "__main__":
    sys.exit(main())
