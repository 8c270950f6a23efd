"""The bracket ladder: for each family, instances from tiny to the paper's headline scale; the
certified interval width ``mlopt bracket`` reaches within a wall-clock budget, beside what the
exact model alone (``solve``: the solver's checked incumbent and its bound) reaches in the same
budget, in the same run.

    python benchmarks/bracket/ladder.py --budgets 60 600 -o benchmarks/bracket/data/ladder.csv
    python benchmarks/bracket/ladder.py --summary benchmarks/bracket/data/ladder.csv

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
          "high", "width", "status", "low_source", "high_source", "elapsed_s", "load1", "note"]


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


def _rows_done(out: Path) -> set:
    if not out.exists():
        return set()
    with open(out, newline="") as fh:
        return {(r["family"], r["rung"], float(r["budget_s"]), r["method"])
                for r in csv.DictReader(fh)}


def _write(out: Path, row: dict, lock) -> None:
    """Append one row (under ``lock``: streams share the file); a file written before a
    column was added keeps its header, the new column is left out of its rows."""
    with lock:
        new = not out.exists()
        fields = FIELDS
        if not new:
            with open(out, newline="") as fh:
                fields = next(csv.reader(fh), FIELDS)
        with open(out, "a", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=fields, extrasaction="ignore")
            if new:
                writer.writeheader()
            writer.writerow(row)


def _rung(family: str, rung: str, preset: str, params: dict, budgets: list[float], out: Path,
          seed: int, done: set, lock) -> None:
    import json

    from mlopt.bracket import bracket
    from mlopt.families import get_family

    fam = get_family(family)
    workload = fam.generate(preset, seed=seed, **params)
    for budget in budgets:
        base = {"family": family, "rung": rung, "preset": preset,
                "params": json.dumps(params, sort_keys=True), "seed": seed,
                "jobs": len(workload.jobs), "budget_s": budget}
        if (family, rung, float(budget), "bracket") not in done:
            load = round(os.getloadavg()[0], 1)
            t0 = time.perf_counter()
            b = bracket(workload, time_limit=budget)
            _write(out, {**base, "method": "bracket", "low": b.low, "high": b.high,
                         "width": width(b.low, b.high), "status": b.status,
                         "low_source": b.low_source, "high_source": b.high_source,
                         "elapsed_s": round(time.perf_counter() - t0, 2), "load1": load,
                         "note": b.proof or ""}, lock)
            print(f"{family:9} {rung:16} {budget:5g}s bracket [{b.low}, {b.high}] "
                  f"{b.status} (load {load})", file=sys.stderr)
        if (family, rung, float(budget), "solve") not in done:
            load = round(os.getloadavg()[0], 1)
            s = solve_alone(fam, workload, budget)
            _write(out, {**base, "method": "solve", "low": s["low"], "high": s["high"],
                         "width": width(s["low"], s["high"]), "status": s["status"],
                         "low_source": "highs", "high_source": "highs",
                         "elapsed_s": round(s["elapsed_s"], 2), "load1": load,
                         "note": s["note"]}, lock)
            print(f"{family:9} {rung:16} {budget:5g}s solve   [{s['low']}, {s['high']}] "
                  f"{s['status']} (load {load})", file=sys.stderr)


def run(budgets: list[float], out: Path, seed: int, only: list[str] | None,
        streams: int = 1) -> None:
    """Every rung (of the families in ``only``, default all) at every budget, appended to
    ``out``; ``streams`` > 1 runs that many rungs at once, each in its own process (each
    bracket itself uses two cores: on a 2-core machine more than one stream measures a
    loaded machine, which the ``load1`` column records)."""
    import multiprocessing

    out.parent.mkdir(parents=True, exist_ok=True)
    done = _rows_done(out)
    rungs = [r for r in LADDER if not only or r[0] in only]
    ctx = multiprocessing.get_context("fork")
    lock = ctx.Lock()
    if streams <= 1:
        for rung in rungs:
            _rung(*rung, budgets, out, seed, done, lock)
        return
    # the longest rungs (the papers' scale, last of each family) first; non-daemonic worker
    # processes (a bracket forks children of its own), fed from one queue
    def depth(r):
        return [x for x in LADDER if x[0] == r[0]].index(r)
    queue = ctx.Queue()
    for rung in sorted(rungs, key=lambda r: -depth(r)):
        queue.put(rung)

    def worker():
        import queue as q

        while True:
            try:
                rung = queue.get(timeout=1)
            except q.Empty:
                return
            _rung(*rung, budgets, out, seed, done, lock)

    procs = [ctx.Process(target=worker) for _ in range(streams)]
    for proc in procs:
        proc.start()
    for proc in procs:
        proc.join()


def summary_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    """The ladder table of a ladder CSV: its header cells and one row of cells per rung (the
    README's table, and what ``benchmarks/claims/bracket.py`` checks it against)."""
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

    header = ["family", "rung", "jobs"] + [f"{m} {b} s" for b in budgets
                                           for m in ("bracket", "solve")] + [
        "bracket ends (largest budget)"]
    table = []
    for f, rung in order:
        rs = [key.get((f, rung, b, m)) for b in budgets for m in ("bracket", "solve")]
        if not any(rs):
            continue
        first = next(r for r in rs if r)
        last = key.get((f, rung, budgets[-1], "bracket"))
        ends = (f"[{float(last['low']):.6g} ({last['low_source']}), "
                f"{float(last['high']):.6g} ({last['high_source']})]"
                if last and last["low"] and last["high"] else "-")
        table.append([f, rung, first["jobs"]] + [fmt_w(r) for r in rs] + [ends])
    return header, table


def summary(path: Path) -> str:
    """The ladder table of a ladder CSV in Markdown."""
    header, table = summary_rows(path)
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in table]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", type=float, nargs="+", default=[60.0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--family", nargs="*", help="only these families")
    ap.add_argument("--streams", type=int, default=1,
                    help="rungs run at once, each in its own process (default 1: a quiet "
                         "machine is what the table should measure)")
    ap.add_argument("-o", "--output", type=Path,
                    default=Path(__file__).parent / "data" / "ladder.csv")
    ap.add_argument("--summary", type=Path, help="print the Markdown table of a ladder CSV")
    args = ap.parse_args()
    if args.summary:
        print(summary(args.summary))
        return 0
    print(f"# {platform.node() and 'host'} python {platform.python_version()}, "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    run(args.budgets, args.output, args.seed, args.family, args.streams)
    return 0


if __name__ == "__main__":
    sys.exit(main())
