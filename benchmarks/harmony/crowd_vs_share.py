"""``crowd`` / ``pair`` / ``config`` / ``share_ip`` against ``share`` in one run (one process, one
after the other): the certified values, the LP values, column-generation rounds and seconds, at the given presets /
seeds / time budgets, with the load average.  One JSON line per (instance, budget, bound).

    python benchmarks/harmony/crowd_vs_share.py --preset uniform --seeds 0 1 2 \\
        --time-limits 60 600 -o benchmarks/harmony/data/crowd_vs_share.jsonl
    python benchmarks/harmony/crowd_vs_share.py --preset small -p n_jobs=10 --seeds 0 1 2 \\
        --time-limits 60 -o benchmarks/harmony/data/crowd_vs_share.jsonl
    python benchmarks/harmony/crowd_vs_share.py --bounds share pair --preset uniform \
        --seeds 0 1 2 --time-limits 60 -o benchmarks/harmony/data/pair_vs_share.jsonl
    python benchmarks/harmony/crowd_vs_share.py --bounds share pair config --time-limits 120 \
        --instances harmony-tiny-{0..4} harmony-small-{0..4} -o benchmarks/harmony/data/config_proven.jsonl
    python benchmarks/harmony/crowd_vs_share.py --bounds config --preset small -p n_jobs=10 \
        --seeds 0 1 2 --time-limits 300 -o benchmarks/harmony/data/pair_vs_share.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import time

from mlopt.families import get_family
from mlopt.instances import load_instance, read_solu
from mlopt.families.harmony.config_bound import config_bound
from mlopt.families.harmony.crowd_bound import crowd_bound
from mlopt.families.harmony.pair_bound import pair_bound
from mlopt.families.harmony.share_bound import share_bound
from mlopt.families.harmony.share_ip import share_ip_bound
from mlopt.schedule import Schedule

BOUNDS = {"share": share_bound, "crowd": crowd_bound, "pair": pair_bound,
          "config": config_bound, "share_ip": share_ip_bound}
#: share_ip's own outputs, copied into each line
IP_KEYS = ("ip_status", "ip_objective", "ip_bound", "ip_sum", "upper_sum", "upper_source",
           "slack", "runs", "form", "pairs", "build_s")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="uniform")
    ap.add_argument("-p", "--param", action="append", default=[],
                    help="generator parameter NAME=INT (e.g. n_jobs=10)")
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--time-limits", type=float, nargs="+", default=[60.0])
    ap.add_argument("--bounds", nargs="+", choices=tuple(BOUNDS), default=["share", "crowd"])
    ap.add_argument("--instances", nargs="+", default=[],
                    help="committed instances (e.g. harmony-small-4) instead of generated ones; "
                         "each line then carries the instance's recorded optimum")
    ap.add_argument("--start", default=None,
                    help="share_ip: a checked schedule file per instance, a format string with "
                         "{seed} / {instance} (its JCT sum is U; default: local_search's)")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    params = {k: int(v) for k, v in (p.split("=", 1) for p in args.param)}
    fam = get_family("harmony")
    solu = read_solu()
    cases = [(name, None, load_instance(name)) for name in args.instances] or \
        [(None, seed, fam.generate(args.preset, seed=seed, **params)) for seed in args.seeds]
    with open(args.output, "a") as out:
        for instance, seed, w in cases:
            for limit in args.time_limits:
                for name in args.bounds:
                    fn = BOUNDS[name]
                    c0, t0, load0 = time.process_time(), time.perf_counter(), os.getloadavg()[0]
                    more = {}
                    if name == "share_ip" and args.start:
                        more["start_schedule"] = Schedule.load(
                            args.start.format(seed=seed, instance=instance))
                    res = fn(w, time_limit=limit, **more)
                    row = {"preset": None if instance else args.preset,
                           "params": {} if instance else params, "seed": seed,
                           **({"instance": instance, "optimum": float(solu[instance]["objective"])
                               if solu.get(instance, {}).get("status") == "optimal" else None}
                              if instance else {}),
                           "jobs": len(w.jobs), "time_limit": limit, "bound": name,
                           "value": res["bound"], "source": res.get("source"),
                           "share_value": res.get("share_value"), "lp": res.get("lp"),
                           "crowd_value": res.get("crowd_value"),
                           "crowd_lp": res.get("crowd_lp"),
                           "pair_value": res.get("pair_value"), "pair_lp": res.get("pair_lp"),
                           "config_value": res.get("config_value"),
                           "config_lp": res.get("config_lp"),
                           "config_count": res.get("config_count"),
                           "config_refused": res.get("config_refused"),
                           "rounds": res.get(f"{name}_rounds", res.get("rounds")),
                           **{k: res.get(k) for k in IP_KEYS if name == "share_ip"},
                           "wall_s": round(time.perf_counter() - t0, 2),
                           "cpu_s": round(time.process_time() - c0, 2),
                           "load_start": load0, "load_end": os.getloadavg()[0]}
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
