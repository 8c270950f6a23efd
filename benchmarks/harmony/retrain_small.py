"""Retraining equivalence at a small scale (issue 23): what holds when the recipe of the
committed checkpoint is retrained on another CPU, whose BLAS kernels round matrix products
differently in the last bits (training amplifies them, so the weights differ; see
`mlopt/families/harmony/agent.py`, "Reproducibility").

Trains the recipe (``TrainConfig`` defaults, seed 0) for ``--episodes`` episodes, once as it is
and once per ``--perturb`` k with every initial weight multiplied by (1 + k ``--scale``): a
difference in the low bits of the kind another kernel makes (kernels differ by ~1e-16 relative
per product, at every update; one nudge at the start stands in for them), reproducible on any
machine.  Each
policy is evaluated greedily on the held-out ``mini`` instances (seeds 10000 + i) beside the
committed checkpoint and load balancing (LB).  `tests/harmony/test_train_equivalence.py`
retrains the unperturbed and one perturbed policy and compares them with this file's rows.

    python benchmarks/harmony/retrain_small.py --episodes 150 --eval 10 --perturb 1 2 3 4 \
        --scale 1e-12 1e-9 1e-6 -o benchmarks/harmony/data/retrain_small.csv
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np

from mlopt.families import get_family
from mlopt.families.harmony.agent import (DEFAULT_CHECKPOINT, TrainConfig, evaluate_policy,
                                          load_checkpoint)
from mlopt.families.harmony.checker import check_harmony
from mlopt.families.harmony.training import train

FIELDS = ["kind", "scale", "perturb", "episodes", "avg_jct", "train_cpu_s"]


def held_out(n: int) -> list:
    """The held-out ``mini`` instances of variants.py (seeds 10000 + i)."""
    gen = get_family("harmony").preset("mini")
    return [gen(seed=10_000 + i) for i in range(n)]


def nudge(k: int, scale: float):
    """``on_start`` of :func:`.training.train`: every initial weight times (1 + k scale)."""
    def on_start(agent):
        for net in (agent.policy, agent.value):
            for v in net.params.values():
                v *= 1.0 + k * scale
    return None if k == 0 else on_start


def retrained_jct(episodes: int, k: int, scale: float, held) -> tuple[float, float]:
    """(held-out average JCT, CPU seconds of training) of the recipe at seed 0, nudged by k
    scale."""
    t0 = time.process_time()
    agent, _ = train(TrainConfig(episodes=episodes, seed=0), on_start=nudge(k, scale))
    return evaluate_policy(agent, held), time.process_time() - t0


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--episodes", type=int, default=150)
    ap.add_argument("--eval", type=int, default=10, help="held-out instances")
    ap.add_argument("--perturb", type=int, nargs="*", default=[1, 2, 3, 4])
    ap.add_argument("--scale", type=float, nargs="+", default=[1e-12])
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args(argv)
    held = held_out(a.eval)
    fam = get_family("harmony")
    rows = [{"kind": "checkpoint", "scale": "", "perturb": "", "episodes": 600,
             "avg_jct": evaluate_policy(load_checkpoint(DEFAULT_CHECKPOINT)[0], held),
             "train_cpu_s": ""},
            {"kind": "lb", "scale": "", "perturb": "", "episodes": 0, "train_cpu_s": "",
             "avg_jct": float(np.mean([check_harmony(w, fam.algorithm("lb")(w)).objective
                                       for w in held]))}]
    runs = [(0.0, 0)] + [(sc, k) for sc in a.scale for k in a.perturb]
    for sc, k in runs:
        jct, cpu = retrained_jct(a.episodes, k, sc, held)
        rows.append({"kind": "retrain", "scale": sc, "perturb": k, "episodes": a.episodes,
                     "avg_jct": jct, "train_cpu_s": round(cpu, 1)})
        print(sc, k, round(jct, 4), round(cpu, 1), flush=True)
    out = Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", newline="") as f:
        w = csv.DictWriter(f, FIELDS)
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
