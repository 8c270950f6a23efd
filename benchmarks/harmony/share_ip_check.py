"""``share_ip`` against the proven optimum on random small instances whose generator parameters
are widened past the presets (1-5 jobs, 1-3 servers, arrivals spread over 1-4 intervals, 1-3
workers and PSs, standalone durations up to 3 intervals), both forms (runs / blocks), pairs automatic and off: one
JSON line per (instance, variant) with share's bound, share_ip's, the optimum (placement_milp,
proven by HiGHS) and whether share_ip <= OPT held.  Reviewers' evidence beside the tests.

    python benchmarks/harmony/share_ip_check.py --count 40 -o benchmarks/harmony/data/share_ip_check.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import random

from mlopt import pipeline
from mlopt.families import get_family
from mlopt.families.harmony.share_ip import share_ip_bound
from mlopt.solve import Status


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    fam = get_family("harmony")
    rng = random.Random(args.seed)
    bad = 0
    with open(args.output, "a") as out:
        for i in range(args.count):
            params = {"n_jobs": rng.randint(1, 5), "n_servers": rng.randint(1, 3),
                      "window": rng.randint(1, 4),
                      "workers": rng.choice([(1, 1), (1, 2), (2, 3), (1, 3)]),
                      "ps": rng.choice([(1, 1), (1, 3), (3, 3)]),
                      "duration": rng.choice([(1.0, 1.0), (1.0, 3.0), (2.5, 3.0)])}
            seed = rng.randint(0, 10_000)
            w = fam.generate("tiny", seed=seed, **params)
            off = pipeline.solve_offline(w, family="harmony", time_limit=60)
            opt = off.objective if off.solve.status == Status.OPTIMAL else None
            for form, pairs in (("runs", None), ("blocks", None), ("runs", False)):
                res = share_ip_bound(w, time_limit=30, form=form, pairs=pairs)
                ok = opt is None or res["bound"] <= opt + 1e-9
                bad += not ok
                row = {"i": i, "seed": seed, "params": params, "form": form, "pairs": pairs,
                       "share": res.get("share"), "share_ip": res["bound"],
                       "ip_status": res.get("ip_status"), "optimum": opt, "ok": ok,
                       "load": os.getloadavg()[0]}
                out.write(json.dumps(row) + "\n")
                out.flush()
    print(f"{args.count} instances x 3 variants: {bad} above the optimum")


if __name__ == "__main__":
    main()
