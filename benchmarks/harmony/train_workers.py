"""Harmony DRL training with 1 process vs N collecting workers (``workers``), side by side in
one run (alternating, ``--repeats`` each): wall clock, CPU time of the process and its workers,
and the greedy policies' checked average JCT on the held-out ``mini`` instances of variants.py
(seeds 10000+), so a speed-up is not bought with a worse policy unnoticed. Also checks that
``workers = 1`` reproduces the committed checkpoint's weights bit for bit (600 episodes, seed 0).

    python benchmarks/harmony/train_workers.py --episodes 600 --repeats 3 \
        -o benchmarks/harmony/results/train_workers.json
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np

from mlopt.families import get_family
from mlopt.families.harmony.agent import DEFAULT_CHECKPOINT, TrainConfig, evaluate_policy
from mlopt.families.harmony.training import train
from mlopt.machine import cpu_model


def same_as_committed(agent) -> bool:
    """Weights equal to the committed checkpoint's as stored (float32)."""
    ref = np.load(DEFAULT_CHECKPOINT)
    arrays = {**agent.policy.to_arrays("policy"), **agent.value.to_arrays("value")}
    return all(np.array_equal(v.astype(np.float32), ref[k]) for k, v in arrays.items())


def cpu_seconds() -> float:
    """User + system CPU time of this process and its finished children (the workers, joined
    at the end of training)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--episodes", type=int, default=600)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--eval", type=int, default=20)
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args()
    fam = get_family("harmony")
    held = [fam.preset("mini")(seed=10_000 + s) for s in range(args.eval)]
    counts = [int(x) for x in args.workers.split(",")]
    runs = []
    for rep in range(args.repeats):
        for n in counts:  # alternating, so machine load drifts over both alike
            load0 = os.getloadavg()
            c0 = cpu_seconds()
            t0 = time.perf_counter()
            agent, _ = train(TrainConfig(preset="mini", episodes=args.episodes, seed=args.seed,
                                         workers=n))
            seconds = time.perf_counter() - t0
            cpu = cpu_seconds() - c0
            row = {"workers": n, "repeat": rep, "train_s": round(seconds, 2),
                   "cpu_s": round(cpu, 2),
                   "load_before": [round(x, 2) for x in load0],
                   "load_after": [round(x, 2) for x in os.getloadavg()],
                   "heldout_avg_jct": round(evaluate_policy(agent, held), 4)}
            if n == 1 and args.episodes == 600 and args.seed == 0:
                row["same_as_committed_checkpoint"] = same_as_committed(agent)
            runs.append(row)
            print(json.dumps(row), flush=True)
    med = {n: float(np.median([r["train_s"] for r in runs if r["workers"] == n]))
           for n in counts}
    cpu = {n: float(np.median([r["cpu_s"] for r in runs if r["workers"] == n])) for n in counts}
    summary = {
        "command": "python benchmarks/harmony/train_workers.py --episodes "
                   f"{args.episodes} --repeats {args.repeats} --workers {args.workers}",
        "machine": {"cpu": cpu_model(), "cores": os.cpu_count(), "python": platform.python_version(),
                    "note": "shared by several helpers' jobs while measured: see load averages"},
        "median_train_s": {str(n): round(v, 2) for n, v in med.items()},
        "speedup_vs_1": {str(n): round(med[counts[0]] / v, 3) for n, v in med.items()},
        "median_cpu_s": {str(n): round(v, 2) for n, v in cpu.items()},
        "runs": runs,
    }
    with open(args.output, "w") as fh:
        json.dump(summary, fh, indent=1)
        fh.write("\n")
    print(json.dumps({k: summary[k] for k in ("median_train_s", "speedup_vs_1", "median_cpu_s")}))


if __name__ == "__main__":
    main()
