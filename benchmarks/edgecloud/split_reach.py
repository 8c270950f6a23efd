"""``split_lb`` on exact_reach.py's shape (paper-ratio, 5 edge servers, n jobs over n / 2
slots; issue 21): the blocks, each block's bound, schedule and time, the summed certified
bound and the merged checked schedule, with the load average at start and end.

    python benchmarks/edgecloud/split_reach.py --jobs 100 --seeds 1 --time-limit 600 \\
        > benchmarks/edgecloud/data/split_reach_seed1.json

``--start FILE``: warm-start the blocks from that schedule (checked first) instead of
pool_greedy's; ``-o FILE``: save the merged schedule (one seed).  ``--block I``: block I
(``job_blocks``' order) alone, with all of ``--time-limit``: its own bound and schedule (a
second solver's confirmation of one block), not a bound on the whole workload.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from mlopt.families import get_family
from mlopt.families.edgecloud.generator import generate
from mlopt.families.edgecloud import split
from mlopt.families.edgecloud.split import split_lb
from mlopt.machine import cpu_model
from mlopt.schedule import Schedule


def one(n: int, seed: int, limit: float, start: str | None, solver: str,
        block: int | None = None) -> tuple[dict, object]:
    fam = get_family("edgecloud")
    w = generate("paper-ratio", seed, n_jobs=n, arrival_window=n / 2)
    given = None
    if start:
        given = Schedule.load(start)
        chk = fam.check(w, given)
        assert chk.feasible, chk.summary()
    load0 = [round(x, 1) for x in os.getloadavg()]
    t0 = time.perf_counter()
    if block is None:
        out = split_lb(w, time_limit=limit, threads=1, solver=solver, start_schedule=given)
        sched = out.pop("schedule")
    else:  # one block alone (module docstring)
        ids = split.job_blocks(w)[block]
        part = split.sub_workload(w, ids)
        got = split._solve_block(part, None if given is None else split.restrict(given, ids),
                                 solver, limit, 1)
        out, sched = {"block_only": block, **got["row"]}, None
    wall = time.perf_counter() - t0
    return {"jobs": n, "seed": seed, "solver": solver, "start": start or "pool_greedy",
            "wall_s": round(wall, 1), "load_start": load0,
            "load_end": [round(x, 1) for x in os.getloadavg()], **out}, sched


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, nargs="+", default=[100])
    ap.add_argument("--seeds", type=int, nargs="+", default=[1])
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--solver", default="highs", help="highs or scip (one thread)")
    ap.add_argument("--start", help="a schedule file to warm-start from (checked)")
    ap.add_argument("-o", "--output", help="save the merged schedule (one run only)")
    ap.add_argument("--block", type=int, help="solve this block alone (module docstring)")
    a = ap.parse_args()
    out = {"machine": cpu_model(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "time_limit_s": a.time_limit, "threads": 1, "argv": sys.argv[1:], "runs": []}
    for n in a.jobs:
        for seed in a.seeds:
            row, sched = one(n, seed, a.time_limit, a.start, a.solver, a.block)
            out["runs"].append(row)
            print(json.dumps(row), flush=True, file=sys.stderr)
            if a.output and sched is not None:
                sched.save(a.output)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
