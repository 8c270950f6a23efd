"""Harmony performance at the paper's simulation scale (30 servers, N = 12 jobs in the state):

* policy inference per scheduling interval: the committed checkpoint, greedy, all the
  interval's decisions (policy features + mask + network), wall clock and CPU time of the
  process (the machine is shared: CPU time is what the work costs, wall clock what it waited);
* environment steps per second, the numpy environment against its plain-Python reference
  (:mod:`mlopt.families.harmony.env_reference`) in the same run on the same random actions,
  one step = paper state + policy features + mask + step; every step's outputs are asserted
  equal, and the two are timed alternately so load hits both alike.

    python benchmarks/harmony/perf.py --seeds 3 -o benchmarks/harmony/results/perf.json
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time

import numpy as np

from mlopt.families import get_family
from mlopt.families.harmony.agent import DEFAULT_CHECKPOINT, load_checkpoint
from mlopt.families.harmony.env import PlacementEnv
from mlopt.families.harmony.env_reference import ReferencePlacementEnv
from mlopt.families.harmony.nn import one_thread
from mlopt.machine import cpu_model


def timed_step(env, action_of, clock):
    """One environment step (state, features, mask, step); returns (seconds, outputs)."""
    t0 = clock()
    obs, parts, mask = env.observe(), env.action_parts(), env.action_mask()
    a = action_of(mask)
    out = env.step(a)
    return clock() - t0, (obs, parts, mask, a, out, list(env.closed_rewards))


def same(x, y) -> bool:
    (ox, px, mx, ax, rx, cx), (oy, py, my, ay, ry, cy) = x, y
    return (np.array_equal(ox, oy) and all(np.array_equal(p, q) for p, q in zip(px, py))
            and np.array_equal(mx, my) and ax == ay and rx == ry and cx == cy)


def stats(seconds) -> dict:
    s = 1e3 * np.asarray(seconds)
    return {"median": round(float(np.median(s)), 3), "p90": round(float(np.percentile(s, 90)), 3),
            "max": round(float(s.max()), 3)}


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--servers", type=int, default=30)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("-o", "--out", required=True)
    args = ap.parse_args(argv)
    fam = get_family("harmony")
    agent, _ = load_checkpoint(DEFAULT_CHECKPOINT)
    load_before = os.getloadavg()
    wall, cpu, decisions = [], [], []
    step_fast, step_ref = [], []
    with one_thread():
        for seed in range(args.seeds):
            w = fam.preset("uniform")(seed=seed, n_servers=args.servers)
            env = PlacementEnv(w, max_servers=args.servers)
            acc_w = acc_c = 0.0
            k, t_int = 0, env.state.t
            while not env.done:
                t0, c0 = time.perf_counter(), time.process_time()
                a = agent.greedy(env.action_parts(), env.action_mask())
                acc_w += time.perf_counter() - t0
                acc_c += time.process_time() - c0
                k += 1
                env.step(a)
                if env.state.t != t_int:  # the interval closed (with its decisions)
                    wall.append(acc_w)
                    cpu.append(acc_c)
                    decisions.append(k)
                    acc_w = acc_c = 0.0
                    k, t_int = 0, env.state.t
            # environment steps: the same random valid actions on both implementations
            fast = PlacementEnv(w, max_servers=args.servers)
            ref = ReferencePlacementEnv(w, max_servers=args.servers)
            rng_f, rng_r = np.random.default_rng(seed), np.random.default_rng(seed)
            i = 0
            while not fast.done:
                pick_f = lambda mask: int(rng_f.choice(np.flatnonzero(mask)))  # noqa: E731
                pick_r = lambda mask: int(rng_r.choice(np.flatnonzero(mask)))  # noqa: E731
                if i % 2 == 0:
                    tf, of = timed_step(fast, pick_f, time.perf_counter)
                    tr, orf = timed_step(ref, pick_r, time.perf_counter)
                else:
                    tr, orf = timed_step(ref, pick_r, time.perf_counter)
                    tf, of = timed_step(fast, pick_f, time.perf_counter)
                assert same(of, orf), f"seed {seed} step {i}: numpy and reference differ"
                step_fast.append(tf)
                step_ref.append(tr)
                i += 1
            assert ref.done and fast.schedule("x").to_dict() == ref.schedule("x").to_dict()
    med_f, med_r = float(np.median(step_fast)), float(np.median(step_ref))
    res = {
        "machine": cpu_model(), "python": platform.python_version(), "numpy": np.__version__,
        "load_average_1_5_15_before": [round(x, 2) for x in load_before],
        "load_average_1_5_15_after": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(),
        "servers": args.servers, "N": 12, "seeds": args.seeds, "intervals": len(wall),
        "decisions_per_interval_median": float(np.median(decisions)),
        "inference_per_interval_ms": {"wall": stats(wall), "cpu": stats(cpu)},
        "env_steps": len(step_fast),
        "env_step_ms (state + features + mask + step)": {
            "numpy": stats(step_fast), "plain_python_reference": stats(step_ref)},
        "env_steps_per_s": {"numpy": round(len(step_fast) / sum(step_fast), 1),
                            "plain_python_reference": round(len(step_ref) / sum(step_ref), 1)},
        "reference_over_numpy_median_step": round(med_r / med_f, 2),
        "outputs_equal": True,  # asserted step by step above
    }
    print(json.dumps(res, indent=1))
    with open(args.out, "w") as f:
        json.dump(res, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
