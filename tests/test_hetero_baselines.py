"""Baselines of seed 003 (FIFO, DRF, AntMan, Tiresias) and Jain et al.'s greedy."""
from __future__ import annotations

import pytest

from mlopt import pipeline
from mlopt.families.hetero.baselines.jain import jain_greedy
from mlopt.families.hetero.data import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.maxweight import a_maxweight, default_F, lam_of
from tests.hetero_fixtures import hand


@pytest.mark.parametrize("alg", ["fifo", "drf", "antman", "tiresias"])
@pytest.mark.parametrize("preset", ["small", "small-ra"])
def test_baselines_feasible(alg, preset):
    for seed in range(3):
        res = pipeline.run_algorithm(generate(preset, seed=seed), alg, family="hetero")
        assert res.check.feasible, res.check.summary()


def test_tiresias_on_hand_instance():
    # ideal configs: A 2 x w1 co-located, d = 1; B 1 x w1, d = 3.  Both fit at slot 1 on the two
    # servers: c_A = 2, c_B = 4 -> the optimum 8.
    res = pipeline.run_algorithm(hand(), "tiresias", family="hetero")
    assert res.check.feasible and res.check.objective == pytest.approx(8.0)


def test_jain_greedy_respects_deadline_and_capacity():
    w = generate("small", seed=1)
    d = hetero_data(w)
    jobs = list(range(len(d.job_ids)))
    out = jain_greedy(d, jobs, tau=6)
    assert all(t + pl.d <= 6 for pl, t in out)
    mw = a_maxweight(d, jobs, 6, lam_of(d, default_F(d)))
    assert mw.weight >= 0 and all(pl.completion <= 6 for pl in mw.admitted)
