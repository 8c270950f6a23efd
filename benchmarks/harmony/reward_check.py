"""How well the reward model predicts the rewards the DRL sees: along random-action episodes of
the ``mini`` held-out instances, compare the ground-truth speeds of the running jobs each interval
with the reward model's predictions (per job: speed and speed factor; per interval: Eq. (1)'s
reward). Unlike Fig. 9a's test split (random full placements on 6 servers) these are the
placements the policy actually builds, on 4 servers.

    python benchmarks/harmony/reward_check.py --reward-model rm.npz \
        -o benchmarks/harmony/results/reward_check.json
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from mlopt.families import get_family
from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.reward_model import RewardModel


def _stats(true, pred) -> dict:
    true, pred = np.asarray(true), np.asarray(pred)
    return {"n": int(len(true)),
            "mean_relative_error": round(float(np.mean(np.abs(pred - true) / true)), 4),
            "correlation": round(float(np.corrcoef(true, pred)[0, 1]), 4),
            "true_mean": round(float(true.mean()), 4), "true_std": round(float(true.std()), 4)}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--reward-model", required=True)
    ap.add_argument("--preset", default="mini")
    ap.add_argument("--instances", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0, help="of the random actions")
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args(argv)
    predict = RewardModel.load(args.reward_model).env_reward_fn()
    fam = get_family("harmony")
    rng = np.random.default_rng(args.seed)
    speed, factor, reward = ([], []), ([], []), ([], [])
    for i in range(args.instances):
        env = PlacementEnv(fam.preset(args.preset)(seed=10_000 + i), max_servers=12)
        # the env computes the true speeds; the model's prediction must see the same placement,
        # so predict just before the interval is trained (same inputs as reward=model training)
        advance = env.state.advance

        def checked_advance(env=env, advance=advance):
            st = env.state
            run = st.running()
            pred = predict(env, run)[run]
            c = advance()
            true = c[run]
            alone = st.sm.standalone(st.jobs.model[run], st.jobs.workers[run])
            for (t, p), (a, b) in ((speed, (true, pred)), (factor, (true / alone, pred / alone))):
                t.extend(a.tolist())
                p.extend(b.tolist())
            if run.any():
                reward[0].append(float((true / st.jobs.epochs[run]).sum()))
                reward[1].append(float((pred / st.jobs.epochs[run]).sum()))
            return c

        env.state.advance = checked_advance
        while not env.done:
            env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
    out = {"preset": args.preset, "instances": args.instances, "policy": "uniform random actions",
           "job_speed": _stats(*speed), "job_speed_factor": _stats(*factor),
           "interval_reward": _stats(*reward)}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
