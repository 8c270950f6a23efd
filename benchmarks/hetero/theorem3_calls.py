"""Theorem 3 of seed 003 on every A_maxweight call (issue 10): the dual (9)/(10) at the call's
final prices over the weight it admitted, an upper bound on the call's real approximation
ratio, against 2 log lambda; split by whether A1/A2 held on the admitted placements.

    python benchmarks/hetero/theorem3_calls.py -o benchmarks/hetero/data/theorem3_calls.json

Two settings: the quick spec's instances (`tiny`, seeds 0-3, A_online and its compact
variant: the numbers the quickstart's hetero report aggregates) and `tiny` with capacities
scaled up 30x / 40x and 30 / 40 jobs (seeds 0-2), where each placement is a small fraction of a
server, so A2 holds on most calls.
"""
from __future__ import annotations

import argparse
import json
import time

from mlopt.families.hetero import theory
from mlopt.families.hetero.generator import generate


def summarize(label: str, runs: list[tuple[dict, float]]) -> dict:
    calls = [c for cs, _ in runs for c in cs]
    bounds = [b for _, b in runs]
    over = [c for cs, b in runs for c in cs if c["ratio_upper"] > b * (1 + theory.RATIO_TOL)]
    held = [c for c in calls if c["assumptions_held"]]
    return {"setting": label, "calls": len(calls), "exceeding": len(over),
            "exceeding_with_a1_a2": sum(c["assumptions_held"] for c in over),
            "ratio_max": max(c["ratio_upper"] for c in calls),
            "calls_a1_a2_held": len(held),
            "ratio_range_a1_a2_held": [min(c["ratio_upper"] for c in held),
                                       max(c["ratio_upper"] for c in held)] if held else None,
            "bound_range": [min(bounds), max(bounds)]}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-o", "--out", default="benchmarks/hetero/results/theorem3_calls.json")
    a = ap.parse_args(argv)
    quick, scaled = [], []
    for seed in range(4):
        for opts in ({}, {"compact": True}):
            run, calls = theory.observed_run(generate("tiny", seed), **opts)
            quick.append((calls, theory.theorem3_ratio(run.lam)))
    for seed in range(3):
        for scale, jobs in ((30.0, 30), (40.0, 40)):
            w = generate("tiny", seed, n_jobs=jobs, capacity_scale=scale)
            run, calls = theory.observed_run(w)
            scaled.append((calls, theory.theorem3_ratio(run.lam)))
    out = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "summary": [summarize("quick spec: tiny seeds 0-3, a_online + compact", quick),
                       summarize("tiny x30/x40 capacity, 30/40 jobs, seeds 0-2", scaled)]}
    for s in out["summary"]:
        print(json.dumps(s))
    with open(a.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
