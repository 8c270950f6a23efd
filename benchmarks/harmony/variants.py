"""Table II (ablations) and Fig. 10 (width and depth) of seed 002 at 2-core scale: train policy
variants from the same seed and evaluate each greedily on the same held-out instances (checked
average JCT). Every variant is a TrainConfig override of the committed checkpoint's recipe.

    python benchmarks/harmony/variants.py table2 -o benchmarks/harmony/results/table2.csv
    python benchmarks/harmony/variants.py fig10 -o benchmarks/harmony/results/fig10.csv
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from mlopt.families import get_family
from mlopt.families.harmony.checker import check_harmony
from mlopt.families.harmony.drl import TrainConfig, evaluate_policy, train

VARIANTS = {
    "table2": {"full": {}, "no_value_network": {"value_net": False},
               "no_exploration": {"exploration": False}, "no_replay": {"replay": False}},
    "fig10": {"width32": {"hidden": (32, 32)}, "width64": {"hidden": (64, 64)},
              "width128": {"hidden": (128, 128)}, "width256": {"hidden": (256, 256)},
              "depth1": {"hidden": (128,)}, "depth2": {"hidden": (128, 64)},
              "depth3": {"hidden": (128, 64, 64)}, "depth4": {"hidden": (128, 64, 64, 64)}},
}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("which", choices=sorted(VARIANTS))
    ap.add_argument("--episodes", type=int, default=600)
    ap.add_argument("--preset", default="mini")
    ap.add_argument("--eval", type=int, default=20, help="held-out instances")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args(argv)
    fam = get_family("harmony")
    held = [fam.preset(args.preset)(seed=10_000 + s) for s in range(args.eval)]
    rows = []
    for alg in ("lb", "tetris", "lif_line", "lif_quad"):
        jct = np.mean([check_harmony(w, fam.algorithm(alg)(w)).objective for w in held])
        rows.append({"variant": alg, "kind": "baseline", "avg_jct": jct, "train_s": 0.0})
    for name, over in VARIANTS[args.which].items():
        cfg = TrainConfig(preset=args.preset, episodes=args.episodes, seed=args.seed, **over)
        t0 = time.perf_counter()
        agent, hist = train(cfg)
        secs = time.perf_counter() - t0
        jct = evaluate_policy(agent, held)
        rows.append({"variant": name, "kind": "policy", "avg_jct": jct, "train_s": secs,
                     "params": agent.policy.n_params()})
        print(name, round(jct, 3), round(secs, 1), flush=True)
    df = pd.DataFrame(rows)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(args.out, index=False)
    print(df.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
