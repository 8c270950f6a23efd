"""Table II (ablations) and Fig. 10 (width and depth) of seed 002 at 2-core scale: train policy
variants, each from several training seeds, and evaluate each greedily on the same held-out
instances (checked average JCT). Every variant is a TrainConfig override of the committed
checkpoint's recipe. Group ``reward`` trains the recipe on the reward model's predictions
(``--reward-model rm.npz``), the paper's pipeline, to compare with ``table2``'s ``full``.

    python benchmarks/harmony/variants.py table2 --train-seeds 0,1000,2000 \
        -o benchmarks/harmony/results/table2_seeds.csv

Rows are written as they finish and rows already in ``-o`` (same variant, training seed and
episodes) are skipped, so an interrupted run resumes; a ``*_summary.csv`` next to ``-o`` holds
per-variant mean, std (ddof 1), min and max over the training seeds.

Training seeds are spaced 1000 apart (decision): seed ``s`` trains on the generated instances
``s + 1 .. s + episodes``, so seeds 0, 1000, 2000 see disjoint training instances (and none of
the held-out ones, seeds 10000 + i) and the spread covers both initialisation/sampling and data.
"""
from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd

from mlopt.families import get_family
from mlopt.families.harmony.checker import check_harmony
from mlopt.families.harmony.agent import TrainConfig, evaluate_policy, save_checkpoint
from mlopt.families.harmony.training import train
from mlopt.families.harmony.env import PlacementEnv

VARIANTS = {
    "table2": {"full": {}, "no_value_network": {"value_net": False},
               "no_exploration": {"exploration": False}, "no_replay": {"replay": False}},
    "fig10": {"width32": {"hidden": (32, 32)}, "width64": {"hidden": (64, 64)},
              "width128": {"hidden": (128, 128)}, "width256": {"hidden": (256, 256)},
              "depth1": {"hidden": (128,)}, "depth2": {"hidden": (128, 64)},
              "depth3": {"hidden": (128, 64, 64)}, "depth4": {"hidden": (128, 64, 64, 64)}},
    "reward": {"model_reward": {"reward": "model"}},  # reward_model path from --reward-model
    # the paper's training choices (agent.py's docstring) against mlopt's defaults: all four
    # together, the three besides the learning rate, the learning rate alone, the critic alone
    "paper": {"mlopt": {},
              "paper": {"critic": "td", "lr": 1e-4, "value_lr": 1e-4, "standardize": False,
                        "grad_clip": False},
              "paper_lr3e-3": {"critic": "td", "standardize": False, "grad_clip": False},
              "lr1e-4": {"lr": 1e-4, "value_lr": 1e-4},
              "td": {"critic": "td"}},
}
KEY = ["variant", "train_seed", "episodes"]


def summarize(df: pd.DataFrame) -> pd.DataFrame:
    """Per-variant mean / std / min / max of the average JCT over training seeds."""
    g = df.groupby(["variant", "kind"], sort=False)["avg_jct"]
    out = g.agg(n="count", mean="mean", std="std", min="min", max="max").reset_index()
    out["std"] = out["std"].fillna(0.0)
    return out


def _write(rows, out: Path):
    df = pd.DataFrame(rows)
    tmp = out.with_suffix(".tmp")
    df.to_csv(tmp, index=False)
    tmp.replace(out)  # a killed run never leaves a truncated CSV behind
    summarize(df).to_csv(out.with_name(out.stem + "_summary.csv"), index=False)
    return df


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("which", choices=sorted(VARIANTS))
    ap.add_argument("--episodes", type=int, default=600)
    ap.add_argument("--preset", default="mini")
    ap.add_argument("--eval", type=int, default=20, help="held-out instances")
    ap.add_argument("--train-seeds", default="0", help="comma-separated training seeds")
    ap.add_argument("--only", default=None, help="comma-separated subset of the variants")
    ap.add_argument("--reward-model", default=None, help="reward-model checkpoint (group reward)")
    ap.add_argument("--save-dir", default=None, help="also write each policy's checkpoint here")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args(argv)
    if args.which == "reward" and not args.reward_model:
        ap.error("group reward needs --reward-model")
    seeds = [int(s) for s in args.train_seeds.split(",")]
    variants = VARIANTS[args.which]
    if args.only:
        variants = {k: variants[k] for k in args.only.split(",")}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = pd.read_csv(out).to_dict("records") if out.exists() else []
    done = {(r["variant"], int(r["train_seed"]), int(r["episodes"])) for r in rows}
    fam = get_family("harmony")
    held = [fam.preset(args.preset)(seed=10_000 + s) for s in range(args.eval)]
    for alg in ("lb", "tetris", "lif_line", "lif_quad"):  # deterministic: one row each
        if (alg, -1, 0) not in done:
            jct = np.mean([check_harmony(w, fam.algorithm(alg)(w)).objective for w in held])
            rows.append({"variant": alg, "kind": "baseline", "train_seed": -1, "episodes": 0,
                         "avg_jct": jct, "train_s": 0.0})
    _write(rows, out)
    for seed in seeds:  # seed-major: a partial run has every variant at the first seeds
        for name, over in variants.items():
            if (name, seed, args.episodes) in done:
                continue
            if over.get("reward") == "model":
                over = dict(over, reward_model=args.reward_model)
            cfg = TrainConfig(preset=args.preset, episodes=args.episodes, seed=seed, **over)
            t0 = time.perf_counter()
            agent, _ = train(cfg)
            secs = time.perf_counter() - t0
            jct = evaluate_policy(agent, held)
            if args.save_dir:
                env = PlacementEnv(held[0], max_servers=cfg.max_servers)
                Path(args.save_dir).mkdir(parents=True, exist_ok=True)
                save_checkpoint(agent, Path(args.save_dir) / f"{name}_s{seed}.npz",
                                obs_dim=env.obs_dim, n_actions=env.n_actions,
                                models=env.state.sm.models)
            rows.append({"variant": name, "kind": "policy", "train_seed": seed,
                         "episodes": args.episodes, "avg_jct": jct, "train_s": secs,
                         "params": agent.policy.n_params()})
            _write(rows, out)
            print(name, seed, round(jct, 3), round(secs, 1), flush=True)
    print(summarize(pd.DataFrame(rows)).round(3).to_string(index=False))


if __name__ == "__main__":
    main()
