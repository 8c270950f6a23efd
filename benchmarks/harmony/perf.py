"""Harmony performance at the paper's simulation scale (30 servers, N = 12 jobs in the state):
policy inference time per scheduling interval (committed checkpoint, greedy), and environment
steps per second (mask + observation + step) against a plain-Python reference of the mask in the
same run (the reference's masks are asserted equal).

    python benchmarks/harmony/perf.py -o benchmarks/harmony/results/perf.json
"""
from __future__ import annotations

import argparse
import json
import platform
import time

import numpy as np

from mlopt.families import get_family
from mlopt.families.harmony.drl import DEFAULT_CHECKPOINT, load_checkpoint
from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.nn import one_thread
from mlopt.machine import cpu_model


def reference_mask(env) -> list[bool]:
    """The action mask with plain Python loops (no numpy)."""
    st = env.state
    free = st.free.tolist()
    out = [False] * env.n_actions
    for i, n in enumerate(env.slots):
        if n < 0:
            continue
        for role in (0, 1):
            need = int(st.jobs.workers[n] if role == 0 else st.jobs.ps[n])
            placed = int(sum(st.x[role, n].tolist()))
            if placed >= need:
                continue
            dem = (st.jobs.dw[n] if role == 0 else st.jobs.dp[n]).tolist()
            for m in range(env.M):
                if all(free[m][r] >= dem[r] - 1e-9 for r in range(len(dem))):
                    out[(2 * i + role) * env.Mmax + m] = True
    return out


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--servers", type=int, default=30)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args(argv)
    fam = get_family("harmony")
    agent, _ = load_checkpoint(DEFAULT_CHECKPOINT)
    per_interval, steps, t_env, t_ref, n_mask, t_mask = [], 0, 0.0, 0.0, 0, 0.0
    with one_thread():
        for seed in range(args.seeds):
            w = fam.preset("uniform")(seed=seed, n_servers=args.servers)
            env = PlacementEnv(w, max_servers=args.servers)
            acc, t_int = 0.0, env.state.t
            while not env.done:
                t0 = time.perf_counter()
                a = agent.greedy(env.action_parts(), env.action_mask())
                acc += time.perf_counter() - t0
                env.step(a)
                if env.state.t != t_int:
                    per_interval.append(acc)
                    acc, t_int = 0.0, env.state.t
            # environment throughput: random valid actions, numpy mask vs plain-Python mask
            rng = np.random.default_rng(seed)
            env = PlacementEnv(w, max_servers=args.servers)
            while not env.done:
                t0 = time.perf_counter()
                mask = env.action_mask()
                t_mask += time.perf_counter() - t0
                env.observe()
                a = int(rng.choice(np.flatnonzero(mask)))
                t1 = time.perf_counter()
                ref = reference_mask(env)
                t2 = time.perf_counter()
                assert ref == mask.tolist()
                n_mask += 1
                env.step(a)
                t3 = time.perf_counter()
                t_env += (t1 - t0) + (t3 - t2)
                t_ref += t2 - t1
                steps += 1
    res = {
        "machine": cpu_model(), "python": platform.python_version(), "numpy": np.__version__,
        "servers": args.servers, "N": 12, "intervals": len(per_interval),
        "inference_per_interval_ms": {
            "median": 1e3 * float(np.median(per_interval)),
            "p90": 1e3 * float(np.percentile(per_interval, 90)),
            "max": 1e3 * float(np.max(per_interval))},
        "env_steps_per_s": steps / t_env,
        "env_step_us (mask + observation + step)": 1e6 * t_env / steps,
        "mask_numpy_us": 1e6 * t_mask / n_mask,
        "mask_plain_python_us": 1e6 * t_ref / n_mask,
    }
    print(json.dumps(res, indent=1))
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)


if __name__ == "__main__":
    main()
