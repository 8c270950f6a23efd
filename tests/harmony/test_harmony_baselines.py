"""Harmony baselines (LB, Tetris, LIF-Line, LIF-Quad): checked placements, their defining choices,
and the LIF fits."""
from __future__ import annotations

import numpy as np
import pytest

from mlopt import pipeline
from mlopt.families import get_family
from mlopt.families.harmony.baselines import lif
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.speed import SpeedModel

FAM = get_family("harmony")
BASELINES = ("lb", "tetris", "lif_line", "lif_quad")


@pytest.mark.parametrize("preset,seed", [("tiny", 0), ("small", 1), ("mini", 2), ("poisson", 0)])
@pytest.mark.parametrize("alg", BASELINES)
def test_baselines_produce_checked_placements(preset, seed, alg):
    w = FAM.preset(preset)(seed=seed)
    r = pipeline.run_algorithm(w, alg, family="harmony")
    assert r.check.feasible, r.check.summary()
    assert r.schedule.admitted == {j.id for j in w.jobs}
    # deterministic
    again = pipeline.run_algorithm(w, alg, family="harmony")
    assert again.schedule.allocations.equals(r.schedule.allocations)


def _two_jobs():
    return make_workload([
        {"model": "resnet", "workers": 2, "ps": 1, "epochs": 8, "arrival": 1},
        {"model": "ctc", "workers": 1, "ps": 1, "epochs": 6, "arrival": 1}],
        n_servers=3, horizon=10)


def _servers_of(sched, job):
    return set(sched.rows_for(job)["server"])


def test_lb_spreads_and_tetris_packs():
    w = _two_jobs()
    lb = FAM.algorithm("lb")(w)
    tetris = FAM.algorithm("tetris")(w)
    # LB: PS on s0 (all empty, lowest index), workers on the least-loaded servers s1 and s2
    assert _servers_of(lb, "j0") == {"s0", "s1", "s2"}
    # Tetris packs job 0 onto one server (its PS and two workers fit a 2-GPU server)
    assert len(_servers_of(tetris, "j0")) == 1


def test_lif_fits_are_better_for_ctc_than_for_seq2seq():
    """Fig. 9b: LIF's CPU + bandwidth model predicts CTC (CPU-bound) well and Seq2Seq
    (PCIe-bound) poorly; quadratic fits at least as well as linear in-sample."""
    sm = SpeedModel.default()
    data = lif.profile(sm, 300, seed=0)
    err = {}
    for kind in ("line", "quad"):
        theta = lif.fit(sm, kind)
        for name in ("ctc", "seq2seq"):
            cpu, bw, y = data[name]
            pred = lif.predict(theta, sm.index(name), cpu, bw, kind)
            # the paper's metric: relative error of the predicted speed, |c' - c| / c
            err[kind, name] = float(np.mean(np.abs(pred - y) / (1.0 - y)))
    for kind in ("line", "quad"):
        assert err[kind, "ctc"] < err[kind, "seq2seq"]
        assert err["quad", "ctc"] <= err["line", "ctc"] + 1e-12
