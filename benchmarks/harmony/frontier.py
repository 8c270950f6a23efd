"""Harmony's certified interval at the Fig. 8 scale (``uniform``), from committed schedules.

For each seed: the workload (``uniform`` preset, regenerated), the three certified lower bounds
(``standalone``, ``volume``, ``share``; their wall clock on this machine), and every committed
schedule ``benchmarks/harmony/data/schedules/u<seed>_<label>.json`` re-checked by the family's
checker (its objective, not the producer's claim, goes into the table).  The schedules are the
outputs of the runs frontier.md lists (``mlopt run ALG u<seed>.json -o ...``), so the numbers
rest on committed data and re-running this script reproduces the CSV.

    python benchmarks/harmony/frontier.py --seeds 0 1 2 \
        -o benchmarks/harmony/data/frontier_uniform.csv
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from mlopt.families import get_family
from mlopt.schedule import Schedule

HERE = Path(__file__).resolve().parent
SCHEDULES = HERE / "data" / "schedules"
BOUNDS = ("standalone", "volume", "share")


def rows(seeds, schedules: Path = SCHEDULES):
    fam = get_family("harmony")
    for seed in seeds:
        w = fam.generate("uniform", seed=seed)
        row = {"seed": seed, "jobs": len(w.jobs), "horizon": w.horizon}
        for name in BOUNDS:
            t0 = time.perf_counter()
            out = fam.bound(name)(w)
            row[name] = float(out["bound"])
            row[f"{name}_s"] = round(time.perf_counter() - t0, 2)
        best = None
        for path in sorted(schedules.glob(f"u{seed}_*.json")):
            label = path.stem.split("_", 1)[1]
            check = fam.check(w, Schedule.load(path))
            if not check.feasible:
                raise SystemExit(f"{path.name}: infeasible ({check.violations[0]})")
            row[label] = float(check.objective)
            best = min(best, row[label]) if best is not None else row[label]
        lower = max(row[b] for b in BOUNDS)
        row["best"] = best
        row["width_pct"] = None if best is None else 100 * (best - lower) / best
        yield row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("-o", "--output", default=str(HERE / "data" / "frontier_uniform.csv"))
    args = ap.parse_args(argv)
    df = pd.DataFrame(list(rows(args.seeds)))
    df.to_csv(args.output, index=False, float_format="%.6f")
    print(df.to_string(index=False))


if __name__ == "__main__":
    main()
