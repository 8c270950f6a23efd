"""How many (start, run length) combinations of all jobs a schedule of JCT sum <= U can use,
by ``share``'s reduced costs (mlopt/families/harmony/share_fixing.py): the combinations whose
reduced costs sum within the slack U - L, then those whose running jobs' demands fit the
cluster's pooled capacity in every interval, then those where a per-interval packing of the
tasks into the servers exists (interference ignored: each stage is a relaxation, so a
combination it drops has no schedule).  One JSON line per run, with the load average.

    python benchmarks/harmony/rc_combos.py --seed 2 --sum 34 -p n_jobs=10 \\
        -o benchmarks/harmony/data/rc_combos.jsonl
"""
from __future__ import annotations

import argparse
import functools
import json
import os
import time
from fractions import Fraction

from mlopt.families import get_family
from mlopt.families.harmony.share_fixing import pooled_combinations
from mlopt.families.harmony.speed import RESOURCES
from mlopt.families.harmony.volume_bound import MARGIN, TOL


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="small")
    ap.add_argument("-p", "--param", action="append", default=[])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--sum", type=int, required=True, help="U: the sum of JCTs to rule out")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    params = {k: int(v) for k, v in (p.split("=", 1) for p in args.param)}
    w = get_family("harmony").generate(args.preset, seed=args.seed, **params)
    t0, c0, load0 = time.perf_counter(), time.process_time(), os.getloadavg()[0]
    slack, runs, combinations = pooled_combinations(w, args.sum)
    T = int(w.horizon)
    servers = [s for s in w.servers if s.role == "any"]
    K = [{r: (Fraction(s.capacity[r]) + TOL) * MARGIN for r in RESOURCES} for s in servers]
    task = [({r: Fraction(j.worker_demand[r]) for r in RESOURCES}, int(j.extra["workers"]),
             {r: Fraction(j.ps_demand[r]) for r in RESOURCES}, int(j.extra["ps"]))
            for j in w.jobs]

    @functools.lru_cache(maxsize=None)
    def packs(running: frozenset) -> bool:
        """Some split of every running job's workers and PSs over the servers fits."""
        order, rem = sorted(running), [dict(k) for k in K]

        def place(i):
            if i == len(order):
                return True
            wd, W, pd, P = task[order[i]]

            def spread(m, wl, pl):
                if m == len(rem):
                    return wl == 0 and pl == 0 and place(i + 1)
                for x in range(wl + 1):
                    for y in range(pl + 1):
                        need = {r: x * wd[r] + y * pd[r] for r in RESOURCES}
                        if any(need[r] > rem[m][r] for r in RESOURCES):
                            break
                        for r in RESOURCES:
                            rem[m][r] -= need[r]
                        ok = spread(m + 1, wl - x, pl - y)
                        for r in RESOURCES:
                            rem[m][r] += need[r]
                        if ok:
                            return True
                return False
            return spread(0, W, P)
        return place(0)

    counts = {"within_slack": 0, "pooled": 0, "packed": 0}
    def count(i, used):  # every combination within the slack, no capacity test
        if i == len(runs):
            return 1
        return sum(count(i + 1, used + rc) for rc, _, _ in runs[i] if used + rc <= slack)

    counts["within_slack"] = count(0, 0.0)
    for pick in combinations:  # within the slack and the pooled capacity
        counts["pooled"] += 1
        counts["packed"] += all(packs(frozenset(
            j for j, (s, n) in enumerate(pick) if s <= t < s + n)) or not any(
            s <= t < s + n for s, n in pick) for t in range(1, T + 1))
    row = {"preset": args.preset, "params": params, "seed": args.seed, "sum": args.sum,
           "slack": slack, "runs_per_job": [len(r) for r in runs], **counts,
           "wall_s": round(time.perf_counter() - t0, 2),
           "cpu_s": round(time.process_time() - c0, 2),
           "load_start": load0, "load_end": os.getloadavg()[0]}
    with open(args.output, "a") as out:
        out.write(json.dumps(row) + "\n")
    print(json.dumps(row))


if __name__ == "__main__":
    main()
