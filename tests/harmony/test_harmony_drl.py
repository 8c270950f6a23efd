"""The Harmony DRL scheduler: a short training run beats a random policy on a fixed seed, the
committed checkpoint places checked schedules and never beats the MILP optimum, the train and
run commands, and the Table II ablation switches."""
from __future__ import annotations

import json

import numpy as np
import pytest

from mlopt import pipeline
from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.checker import check_harmony
from mlopt.families.harmony.agent import (DEFAULT_CHECKPOINT, TrainConfig, evaluate_policy,
                                          heuristic_server, load_checkpoint)
from mlopt.families.harmony.training import train
from mlopt.families.harmony.env import PlacementEnv
from mlopt.solve import Status

FAM = get_family("harmony")


def random_policy_reward(workloads, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for w in workloads:
        env = PlacementEnv(w)
        while not env.done:
            env.step(int(rng.choice(np.flatnonzero(env.action_mask()))))
        out.append(env.total_reward)
    return float(np.mean(out))


def greedy_reward(agent, workloads):
    out = []
    for w in workloads:
        env = PlacementEnv(w)
        while not env.done:
            env.step(agent.greedy(env.action_parts(), env.action_mask()))
        out.append(env.total_reward)
    return float(np.mean(out))


def test_short_training_beats_random_policy():
    """A few seconds of training on ``tiny`` (fixed seed) earn more Eq. (1) reward per episode
    than a uniformly random policy on held-out instances."""
    agent, hist = train(TrainConfig(preset="tiny", episodes=40, seed=0))
    assert len(hist) == 40 and all(np.isfinite(h["reward"]) for h in hist)
    held_out = [FAM.preset("tiny")(seed=5000 + s) for s in range(12)]
    assert greedy_reward(agent, held_out) > random_policy_reward(held_out)


@pytest.mark.parametrize("flags", [{"value_net": False}, {"exploration": False},
                                   {"replay": False}])
def test_ablations_train(flags):
    agent, hist = train(TrainConfig(preset="tiny", episodes=4, seed=1, **flags))
    assert len(hist) == 4
    if flags.get("exploration") is False:
        assert all(h["eps"] == 0 for h in hist)
    w = [FAM.preset("tiny")(seed=9)]
    assert evaluate_policy(agent, w) >= 1.0


def test_job_aware_exploration_picks_heuristic_servers():
    w = FAM.preset("mini")(seed=0)
    env = PlacementEnv(w)
    row = next(i for i, n in enumerate(env.slots) if n >= 0)
    bp = heuristic_server(env, row, 0, "bp")
    lb = heuristic_server(env, row, 0, "lb")
    assert env.action_mask()[env.encode(row, 0, bp)] and env.action_mask()[env.encode(row, 0, lb)]
    n = env.slots[row]
    env.step(env.encode(row, 1, 0))  # a PS of the job on server 0
    if env.slots[row] == n:
        assert heuristic_server(env, row, 0, "bp") == 0  # pack: fullest server that fits
        assert heuristic_server(env, row, 0, "lb") != 0  # balance: an empty server


def test_committed_checkpoint_places_checked_schedules_and_never_beats_opt():
    assert DEFAULT_CHECKPOINT.exists()
    agent, meta = load_checkpoint(DEFAULT_CHECKPOINT)
    assert meta["models"] == list(FAM.preset("tiny")(seed=0).extra["speed_model"]["models"])
    for seed in range(3):
        w = FAM.preset("tiny")(seed=seed)
        r = pipeline.run_algorithm(w, "harmony", family="harmony")
        assert r.check.feasible, r.check.summary()
        off = pipeline.solve_offline(w, family="harmony", time_limit=60)
        assert off.solve.status == Status.OPTIMAL
        assert r.check.objective >= off.objective - 1e-9
    w = FAM.preset("mini")(seed=3)
    assert pipeline.run_algorithm(w, "harmony", family="harmony").check.feasible


def test_train_and_run_commands(tmp_path, capsys):
    ckpt = tmp_path / "p.npz"
    assert main(["train", "harmony", "-p", "preset=tiny", "-p", "episodes=3", "-o", str(ckpt),
                 "--json", "--no-progress"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["episodes"] == 3 and ckpt.exists()
    wf = tmp_path / "w.json"
    FAM.preset("tiny")(seed=1).save(wf)
    assert main(["run", "harmony", str(wf), "--option", f"policy={ckpt}", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["feasible"] is True
    # bad input: one line, exit 2
    assert main(["train", "harmony", "-p", "nope=1", "-o", str(ckpt)]) == 2
    assert main(["run", "harmony", str(wf), "--option", f"policy={wf}"]) == 2
    assert "not a Harmony policy checkpoint" in capsys.readouterr().err


def test_policy_places_on_larger_clusters_than_it_was_trained_on():
    w = FAM.preset("uniform")(seed=0, n_servers=14, window=4)
    res = check_harmony(w, FAM.algorithm("harmony")(w))
    assert res.feasible, res.summary()
    assert len(w.servers) > load_checkpoint(DEFAULT_CHECKPOINT)[0].cfg.max_servers


def test_policy_refuses_other_model_types(tmp_path):
    from mlopt.families.harmony.speed import default_params

    p = default_params()
    p["models"]["bert"] = dict(p["models"]["ctc"])
    w = FAM.preset("tiny")(seed=0, speed_params=p)
    with pytest.raises(InputError):
        FAM.algorithm("harmony")(w)
