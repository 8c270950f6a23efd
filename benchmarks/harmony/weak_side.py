"""Which side of Harmony's interval is weak?  Against proven optima on `small` instances.

For each (jobs, seed): the workload (`small` preset, `-p n_jobs=N`), the `share` bound, a
`local_search` schedule (its defaults: start `insertion`, 30 s cap, `rounds` 20) and
`placement_milp` solved by HiGHS (one thread, warm-started from `local_search`'s schedule,
`--time-limit` seconds).  Where HiGHS proves the optimum, share / OPT and local_search / OPT say
how far each end of the interval sits from it.  One JSON line per instance, every objective the
checker's.  Every step is a CLI call, so each line can be reproduced by hand:

    python benchmarks/harmony/weak_side.py --jobs 6 8 --seeds 0 1 2 --time-limit 120 \
        -o benchmarks/harmony/data/weak_side.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path


def _cli(*args) -> dict:
    out = subprocess.run([sys.executable, "-m", "mlopt", *args], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out[out.index("{"):])


def measure(n_jobs: int, seed: int, time_limit: float, tmp: Path, extra=()) -> dict:
    w = tmp / f"s{n_jobs}_{seed}.json"
    subprocess.run([sys.executable, "-m", "mlopt", "generate", "harmony", "--preset", "small",
                    "-p", f"n_jobs={n_jobs}", "--seed", str(seed), "-o", str(w)], check=True,
                   capture_output=True)
    share = _cli("bound", str(w), "--bound", "share", "--json")
    ls = _cli("run", "local_search", str(w), "--json")
    milp = _cli("solve", str(w), "--time-limit", str(time_limit), "--warm-start",
                "local_search", "--json", *extra)
    row = {"jobs": n_jobs, "seed": seed, "share": share["value"], "volume":
           share["details"].get("volume"), "local_search": ls["objective"],
           "milp_status": milp["status"], "milp_objective": milp["objective"],
           "milp_bound": milp["bound"], "milp_s": round(milp["runtime_s"], 1),
           "load": os.getloadavg()[0]}
    if milp["status"] == "optimal":
        opt = milp["objective"]
        row.update(share_over_opt=share["value"] / opt, ls_over_opt=ls["objective"] / opt)
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, nargs="+", default=[6, 8])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as d, open(args.output, "a") as out:
        for n in args.jobs:
            for seed in args.seeds:
                row = measure(n, seed, args.time_limit, Path(d))
                out.write(json.dumps(row) + "\n")
                out.flush()
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
