"""OASiS per-job decision time (seed 000, Alg. 1 + Alg. 2) and fast-vs-plain subroutine speed-up.

Part 1: online OASiS on the generator's ``paper-default`` preset (T=300, H=K=50, 5 resource
types, 200 jobs), oracle prices; wall time of each arriving job's decision (subroutine plus
price update): median, p95, max.  Targets: median <= 100 ms, p95 <= 1 s.  A stress row repeats
it with every job time-insensitive (constant utility: the DP cannot stop early).
Part 2: at every arrival of an online run on a small instance, the fast DP
(:mod:`mlopt.families.oasis.subroutine`) and the plain transliteration
(:mod:`mlopt.families.oasis.reference`) solve the *same* subproblem; we report both medians,
the ratio of medians and the median of per-job ratios, and check that the payoffs agree.

    python benchmarks/oasis/decision_time.py            # full run, writes the .md
    python benchmarks/oasis/decision_time.py --quick    # smoke run, prints only
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

import mlopt.families.oasis.online as oasis_mod
from mlopt.families.oasis.online import oasis_online
from mlopt.families.oasis.reference import best_schedule_reference
from mlopt.families.oasis.subroutine import best_schedule
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import generate
from mlopt.machine import cpu_model

HERE = Path(__file__).resolve().parent


def machine() -> str:
    cpu = cpu_model()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (f"{cpu}, {os.cpu_count()} cores (1-min load {load:.1f} at start); "
            f"Python {platform.python_version()}, numpy {np.__version__}; "
            f"{dt.datetime.now().astimezone():%Y-%m-%d %H:%M %Z}")


def ms(x) -> str:
    return f"{1e3 * float(x):.1f}"


def decision_times(preset: str, seed: int, work_unit: str = "chunk", **overrides) -> dict:
    w = generate(preset, seed=seed, **overrides)
    start = time.perf_counter()
    run = oasis_online(w, work_unit=work_unit)
    total = time.perf_counter() - start
    secs = run.decision_seconds
    check = check_oasis(w, run.schedule)
    return {"jobs": len(w.jobs), "T": w.horizon, "H": len(w.arrays.cap_worker),
            "K": len(w.arrays.cap_ps), "R": len(w.resources), "median": np.median(secs),
            "p95": np.percentile(secs, 95), "max": secs.max(), "total": total,
            "admitted": len(run.schedule.admitted), "utility": check.objective,
            "feasible": check.feasible, "log_L1": run.params.log_L1, "alpha": run.params.alpha,
            "raised": run.schedule.meta["final_prices"]["worker"]["raised_fraction"]}


def rounding_loss(preset: str, seeds, **overrides) -> dict:
    """At each arrival of the paper's OASiS (chunk DP), also solve (27) proper exactly
    (worker-slot DP) on the same market: how much payoff does chunk integrality lose?"""
    pairs = []

    def both(job, market):
        chunk = best_schedule(job, market)
        pairs.append((chunk.payoff, best_schedule(job, market, unit="worker_slot").payoff))
        return chunk

    saved = oasis_mod.SUBROUTINES["fast"]
    oasis_mod.SUBROUTINES["fast"] = both
    try:
        for seed in seeds:
            oasis_online(generate(preset, seed=seed, **overrides))
    finally:
        oasis_mod.SUBROUTINES["fast"] = saved
    b, a = np.array(pairs).T
    pos = a > 0
    rel = np.where(pos, (a - b) / np.where(pos, a, 1.0), 0.0)
    return {"calls": len(a), "positive": int(pos.sum()),
            "lossy": int((a - b > 1e-9 * np.maximum(1.0, a)).sum()),
            "flipped": int(((a > 0) & (b <= 0)).sum()), "median_rel": float(np.median(rel[pos]))
            if pos.any() else 0.0, "max_rel": float(rel.max()) if len(rel) else 0.0,
            "total_rel": float((a - b).sum() / max(a.sum(), 1e-12))}


def paired_subroutines(preset: str, seeds, **overrides) -> dict:
    """At each arrival, time fast and reference on the same market; the run follows fast."""
    fast_t, ref_t, worst = [], [], 0.0

    def both(job, market):
        nonlocal worst
        t0 = time.perf_counter()
        fast = best_schedule(job, market)
        t1 = time.perf_counter()
        ref = best_schedule_reference(job, market)
        t2 = time.perf_counter()
        fast_t.append(t1 - t0)
        ref_t.append(t2 - t1)
        worst = max(worst, abs(fast.payoff - ref.payoff) / max(1.0, abs(ref.payoff)))
        return fast

    saved = oasis_mod.SUBROUTINES["fast"]
    oasis_mod.SUBROUTINES["fast"] = both
    try:
        for seed in seeds:
            oasis_online(generate(preset, seed=seed, **overrides))
    finally:
        oasis_mod.SUBROUTINES["fast"] = saved
    f, r = np.array(fast_t), np.array(ref_t)
    return {"calls": len(f), "fast": np.median(f), "ref": np.median(r),
            "ratio_of_medians": np.median(r) / np.median(f), "median_ratio": np.median(r / f),
            "worst_payoff_rel_diff": worst}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small smoke run, no summary file")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=HERE / "decision_time.md")
    args = ap.parse_args(argv)

    stamp = machine()
    print(stamp, flush=True)
    if args.quick:
        rows = [("paper-default, 20 jobs", decision_times("paper-default", args.seed, n_jobs=20))]
        pair_spec = ("tiny", range(args.seed, args.seed + 2), {})
    else:
        rows = [("paper-default (Alg. 2: whole chunks per slot)",
                 decision_times("paper-default", args.seed)),
                ("paper-default, worker-slot DP ((27) proper)",
                 decision_times("paper-default", args.seed, work_unit="worker_slot")),
                ("paper-default, all time-insensitive (stress)",
                 decision_times("paper-default", args.seed, class_split=(1.0, 0.0, 0.0)))]
        # paper-fig5 with N_i in [5, 20] (preset: [1, 10]): D = E N up to 600 chunks, where the
        # plain O(T D^2) Python DP still takes well under a second per job
        pair_spec = ("paper-fig5", range(args.seed, args.seed + 3), {"chunks": (5, 20)})
    for name, r in rows:
        print(f"{name}: median {ms(r['median'])} ms, p95 {ms(r['p95'])} ms, "
              f"max {ms(r['max'])} ms; admitted {r['admitted']}/{r['jobs']}, checked utility "
              f"{r['utility']:.2f} ({'feasible' if r['feasible'] else 'INFEASIBLE'})", flush=True)
    loss_specs = ([("paper-default, 20 jobs", "paper-default", [args.seed], {"n_jobs": 20})]
                  if args.quick else
                  [("paper-default", "paper-default", [args.seed], {}),
                   ("paper-fig5", "paper-fig5", range(args.seed, args.seed + 10), {}),
                   ("tiny", "tiny", range(args.seed, args.seed + 30), {})])
    losses = []
    for name, preset, seeds, over in loss_specs:
        loss = rounding_loss(preset, seeds, **over)
        losses.append((name, list(seeds), loss))
        print(f"rounding loss on {name} ({loss['calls']} arrivals): {loss['lossy']} lose payoff, "
              f"{loss['flipped']} rejected only because of it, median rel. loss among (27) > 0 "
              f"{loss['median_rel']:.2e}, max {loss['max_rel']:.2e}, total "
              f"{loss['total_rel']:.2e}", flush=True)
    preset, seeds, over = pair_spec
    pair = paired_subroutines(preset, seeds, **over)
    print(f"fast vs reference on {preset} {over or ''} seeds {list(seeds)} "
          f"({pair['calls']} subproblems): "
          f"median {ms(pair['fast'])} ms vs {ms(pair['ref'])} ms, ratio of medians "
          f"{pair['ratio_of_medians']:.1f}x, median per-job ratio {pair['median_ratio']:.1f}x, "
          f"worst payoff rel. diff {pair['worst_payoff_rel_diff']:.1e}", flush=True)
    ok = all(r["feasible"] for _, r in rows) and pair["worst_payoff_rel_diff"] <= 1e-9
    if args.quick:
        return 0 if ok else 1

    lines = [
        "# OASiS decision time (seed 000, Alg. 1 + Alg. 2)", "",
        f"Machine: {stamp}.", "",
        f"Command: `python benchmarks/oasis/decision_time.py` (seed {args.seed}); "
        "oracle prices; wall time per arriving job (subroutine + price update).", "",
        "| instance | T | H | K | R | jobs | median ms | p95 ms | max ms | admitted | "
        "checked utility |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in rows:
        lines.append(f"| {name} | {r['T']} | {r['H']} | {r['K']} | {r['R']} | {r['jobs']} | "
                     f"{ms(r['median'])} | {ms(r['p95'])} | {ms(r['max'])} | "
                     f"{r['admitted']} | {r['utility']:.2f}"
                     f"{'' if r['feasible'] else ' INFEASIBLE'} |")
    lines += [
        "", "Targets (paper-default): median <= 100 ms, p95 <= 1 s.", "",
        "Oracle price parameters (23)-(26): " + "; ".join(
            f"{name}: ln L_1 = {r['log_L1']:.1f}, alpha = max ln(U/L) = {r['alpha']:.1f}, "
            f"worker prices above L_1 at the end: {100 * r['raised']:.0f}% of (slot, server, "
            "resource)" for name, r in rows) + ".  With sigmoid utilities evaluated ~300 slots "
        "past their target, min_i f_i(T - a_i) is ~e^-1600, so L is far below any utility and "
        "prices stay ~0 until a resource is nearly full (hence the log-space prices).", "",
        "## Payoff lost to whole chunks per slot", "",
        "At each arrival of an online OASiS run (Alg. 2, chunk DP), the same DP counting "
        "worker-slots also solves (27) proper exactly on the same prices and capacities "
        "(`best_schedule(..., unit=\"worker_slot\")`, checked against the MILP in the tests). "
        "Relative loss = ((27) payoff - chunk payoff) / (27) payoff.", "",
        "| instance | seeds | arrivals | (27) payoff > 0 | chunk DP loses payoff | "
        "rejected only by rounding | median rel. loss | max rel. loss | total rel. loss |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, lseeds, loss in losses:
        lines.append(f"| {name} | {lseeds[0]}-{lseeds[-1]} | {loss['calls']} | "
                     f"{loss['positive']} | {loss['lossy']} | {loss['flipped']} | {loss['median_rel']:.2e} | "
                     f"{loss['max_rel']:.2e} | {loss['total_rel']:.2e} |")
    lines += [
        "", "A paper-default chunk takes ~0.03 worker-slots (1-hour slots), so whole chunks cost "
        "almost nothing; `tiny` (1-minute slots, chunks of 0.1-3 worker-slots) shows the "
        "effect.", "",
        "## Fast DP vs plain transliteration of Alg. 2", "",
        f"Same subproblem at each of the {pair['calls']} arrivals of online runs on `{preset}` "
        f"with overrides {over} (T=10, D = E N <= 600 chunks), seeds {list(seeds)}; the plain "
        "version is O(T D^2) in pure Python, so it only finishes at such a scale:", "",
        "| fast median ms | plain median ms | ratio of medians | median per-job ratio | "
        "worst payoff rel. diff |",
        "|---|---|---|---|---|",
        f"| {ms(pair['fast'])} | {ms(pair['ref'])} | {pair['ratio_of_medians']:.1f}x | "
        f"{pair['median_ratio']:.1f}x | {pair['worst_payoff_rel_diff']:.1e} |", "",
        "Shared machine: absolute times drift with load; the ratio is measured side by side.",
    ]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
