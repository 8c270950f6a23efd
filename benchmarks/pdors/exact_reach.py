"""PD-ORS exact reach (issue 22, "PD-ORS `small` scale doubled"): ``mlopt bracket`` on the
``small`` preset with more jobs, one row per (jobs, seed): the certified interval, its sources,
the proof and the load average when the run started and ended (the machine is shared).

    python benchmarks/pdors/exact_reach.py --jobs 12 --seeds 0 1 2 --time-limit 600 \
        -o benchmarks/pdors/data/exact_reach_small.csv

Rows already in ``-o`` (same jobs, seed and time limit) are kept and not rerun, so the 24-job
runs can be appended to the 12-job ones.  Every other generator parameter is the preset's
(2 machines, T = 6): only ``n_jobs`` changes, as the issue asks.
"""
from __future__ import annotations

import argparse
import csv
import os
from pathlib import Path

from mlopt.bracket import bracket
from mlopt.families.pdors.generator import generate

FIELDS = ["n_jobs", "seed", "time_limit", "status", "low", "high", "gap", "low_source",
          "high_source", "proof", "pdors", "elapsed_s", "load_start", "load_end"]


def row_of(n_jobs: int, seed: int, time_limit: float) -> dict:
    """Bracket one generated instance and return its CSV row."""
    w = generate("small", seed=seed, n_jobs=n_jobs)
    load0 = os.getloadavg()[0]
    b = bracket(w, time_limit=time_limit)
    pdors = next((s.value for s in b.sources if s.name == "pdors" and s.status == "ok"), None)
    return {"n_jobs": n_jobs, "seed": seed, "time_limit": time_limit, "status": b.status,
            "low": b.low, "high": b.high, "gap": b.gap, "low_source": b.low_source,
            "high_source": b.high_source, "proof": b.proof or "", "pdors": pdors,
            "elapsed_s": round(b.elapsed_s, 1), "load_start": round(load0, 2),
            "load_end": round(os.getloadavg()[0], 2)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, nargs="+", default=[12])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args(argv)
    out = Path(a.out)
    rows = list(csv.DictReader(out.open())) if out.exists() else []
    done = {(int(r["n_jobs"]), int(r["seed"]), float(r["time_limit"])) for r in rows}
    for n in a.jobs:
        for seed in a.seeds:
            if (n, seed, a.time_limit) in done:
                continue
            rows.append(row_of(n, seed, a.time_limit))
            tmp = out.with_suffix(".tmp")
            with tmp.open("w", newline="") as f:
                wr = csv.DictWriter(f, FIELDS)
                wr.writeheader()
                wr.writerows(rows)
            tmp.replace(out)  # a killed run never leaves a truncated CSV
            r = rows[-1]
            print(n, seed, r["status"], r["low"], r["high"], r["elapsed_s"], flush=True)


if __name__ == "__main__":
    main()
