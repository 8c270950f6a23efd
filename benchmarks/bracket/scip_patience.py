"""A ``--solver scip`` bracket whose exact model is warm-started (the default) and runs past
EXACT_PATIENCE: OASiS paper-fig5 with 30 jobs, H = 20, seed 0, 20 s, no registered bound (so
the dual end is the exact model's alone).  Before SCIP's warm-started solve reported progress,
patience read it as silent and stopped it at 10 s (no_bound); one JSON line per run, with the
load before and after.

    python benchmarks/bracket/scip_patience.py >> benchmarks/bracket/data/scip-patience-2026-11-29.jsonl
"""
from __future__ import annotations

import json
import os
import subprocess

import mlopt.bracket as b
from mlopt.families import get_family


def main() -> None:
    w = get_family("oasis").generate("paper-fig5", seed=0, n_jobs=30, horizon=20)
    load0 = os.getloadavg()[0]
    r = b.bracket(w, time_limit=20, solver="scip", bounds=[])
    exact = next(s for s in r.sources if s.kind == "exact")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    print(json.dumps({"commit": commit, "status": r.status, "low": r.low, "high": r.high,
                      "elapsed_s": round(r.elapsed_s, 3), "exact_status": exact.status,
                      "exact_runtime_s": round(exact.runtime_s, 2), "exact_bound": exact.bound,
                      "exact_note": exact.note, "load_before": round(load0, 2),
                      "load_after": round(os.getloadavg()[0], 2)}))


if __name__ == "__main__":
    main()
