"""Fig. 8 of seed 002 at 2-core scale: average JCT of Harmony (a committed or given policy
checkpoint) and the four baselines under uniform, Poisson and trace arrivals; every placement
checked, the checker's average JCT reported. ``--extra-policy LABEL=CKPT`` adds other policy
checkpoints on the same instances; ``-p KEY=VALUE`` overrides the generator (e.g. n_servers=30).

    python benchmarks/harmony/fig8.py --seeds 5 -o benchmarks/harmony/results/fig8.csv

Rows are written as they finish; rows already in ``-o`` (same pattern, seed and method) are
skipped, so an interrupted run resumes and ``--seeds`` can be raised later.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from mlopt.families import get_family
from mlopt.families.harmony.checker import check_harmony

ALGS = ("harmony", "lb", "tetris", "lif_line", "lif_quad")


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--patterns", default="uniform,poisson,trace")
    ap.add_argument("--policy", default=None, help="checkpoint (default: the committed one)")
    ap.add_argument("--extra-policy", action="append", default=[], metavar="LABEL=CKPT")
    ap.add_argument("-p", "--param", action="append", default=[], metavar="KEY=VALUE",
                    help="generator override, e.g. n_servers=8 (JSON values; each pattern "
                    "gets the ones it declares)")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args(argv)
    import json

    params = {k: json.loads(v) for k, v in (s.split("=", 1) for s in args.param)}
    fam = get_family("harmony")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = pd.read_csv(out).to_dict("records") if out.exists() else []
    done = {(r["pattern"], int(r["seed"]), r["method"]) for r in rows}
    methods = [(a, a, {}) for a in ALGS]
    if args.policy:
        methods[0] = ("harmony", "harmony", {"policy": args.policy})
    for spec in args.extra_policy:
        label, ckpt = spec.split("=", 1)
        methods.append((label, "harmony", {"policy": ckpt}))
    for pattern in args.patterns.split(","):
        for seed in range(args.seeds):
            try:
                # each pattern takes its own parameters (uniform_counts, poisson_rate, n_jobs)
                schema = fam.param_schema(pattern)
                w = fam.preset(pattern)(seed=1000 + seed,
                                        **{k: v for k, v in params.items() if k in schema})
            except Exception as err:  # the trace pattern needs ../shared/traces
                print(f"skip {pattern}: {err}")
                break
            for label, alg, opts in methods:
                if (pattern, 1000 + seed, label) in done:
                    continue
                t0 = time.perf_counter()
                sched = fam.algorithm(alg)(w, **opts)
                rt = time.perf_counter() - t0
                res = check_harmony(w, sched)
                rows.append({"pattern": pattern, "seed": 1000 + seed, "method": label,
                             "jobs": len(w.jobs), "servers": len(w.servers),
                             "feasible": res.feasible, "avg_jct": res.objective,
                             "runtime_s": rt})
                pd.DataFrame(rows).to_csv(out.with_suffix(".tmp"), index=False)
                out.with_suffix(".tmp").replace(out)  # never a truncated CSV
                print(pattern, seed, label, res.feasible, round(res.objective, 3), flush=True)
    df = pd.DataFrame(rows)
    summary = df.groupby(["pattern", "method"])["avg_jct"].mean().unstack()
    print(summary.round(3).to_string())


if __name__ == "__main__":
    main()
