"""``local_search``'s perturbations side by side at ``uniform`` (Fig. 8 scale): kicks of random
jobs against ruin and recreate of related jobs (mlopt/families/harmony/ruin.py).

One run per (seed, perturb, size), one after the other in one process, each for
``--time-limit`` seconds with ``rounds`` unbounded (so every run ends by its time limit);
one JSON line each: the checked objective, the perturbation rounds done, the process's CPU
seconds and the load average (a shared machine).  Each schedule is written to ``--schedules``.

    python benchmarks/harmony/ls_perturb.py --seeds 0 1 2 --time-limit 60 \\
        --runs kick:3 ruin:4 ruin:4:0.02 -o benchmarks/harmony/data/ls_perturb_60.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from mlopt.families import get_family


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--runs", nargs="+", default=["kick:3", "ruin:6"],
                    help="perturb:size[:accept] (accept default 0)")
    ap.add_argument("--schedules", default=None, help="a folder for the schedules")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    fam = get_family("harmony")
    with open(args.output, "a") as out:
        for seed in args.seeds:
            w = fam.generate("uniform", seed=seed)
            for run in args.runs:
                perturb, size, *acc = run.split(":")
                accept = float(acc[0]) if acc else 0.0
                c0, t0, load0 = time.process_time(), time.perf_counter(), os.getloadavg()[0]
                sched = fam.run("local_search", w, options={
                    "time_limit": args.time_limit, "rounds": 1_000_000, "kick": int(size),
                    "perturb": perturb, "accept": accept})
                check = fam.check(w, sched)
                assert check.feasible, check.violations[:1]
                row = {"seed": seed, "perturb": perturb, "size": int(size), "accept": accept,
                       "time_limit": args.time_limit, "objective": check.objective,
                       "rounds_done": sched.meta.get("kicks"),
                       "cpu_s": round(time.process_time() - c0, 1),
                       "wall_s": round(time.perf_counter() - t0, 1),
                       "load_start": load0, "load_end": os.getloadavg()[0]}
                if args.schedules:
                    Path(args.schedules).mkdir(parents=True, exist_ok=True)
                    sched.save(Path(args.schedules) / f"u{seed}_{run.replace(':', '_')}.json")
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
