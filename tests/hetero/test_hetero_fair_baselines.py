"""Issue 23: FIFO and DRF report how many jobs they start with fewer workers than their policy
asked because the asked count fits on no server (``meta["shrunk_jobs"]``)."""
from __future__ import annotations

import numpy as np
import pytest

from mlopt.families import get_family
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from tests.hetero_fixtures import hand

FAM = get_family("hetero")


def _wide_a(d):
    """Job A alone with D = 8 chunks."""
    d["jobs"] = [d["jobs"][0]]
    d["jobs"][0]["chunks"] = 8


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_fifo_shrinks_a_drawn_count_that_fits_nowhere(seed):
    """Two servers of 2 GPUs; A's ideal worker type w2 takes 2 GPUs, so at most 2 w2 workers
    exist in the cluster (one per server).  FIFO draws N ~ U{1..8} (max_workers = 8, capped at
    D = 8): a draw above 2 fits nowhere and is shrunk to 2; either way A runs with min(N, 2)."""
    w = hand(mutate=_wide_a)
    s = FAM.run("fifo", w, seed=seed, options={"max_workers": 8})
    drawn = int(np.random.default_rng(seed).integers(1, 9))
    assert s.meta["shrunk_jobs"] == int(drawn > 2)
    res = FAM.check(w, s)
    assert res.feasible
    workers = s.allocations.query("role == 'worker' and slot == 1")["count"].sum()
    assert workers == min(drawn, 2)


def test_drf_share_that_fits_is_not_shrunk():
    """DRF alone: share 1, one w2 worker (+ its PS share) has dominant share 2 / 4 GPUs = 0.5,
    so N = min(D = 8, floor(1 / 0.5)) = 2, which fits: nothing shrunk."""
    w = hand(mutate=_wide_a)
    s = FAM.run("drf", w)
    assert s.meta["shrunk_jobs"] == 0 and FAM.check(w, s).feasible


@pytest.mark.parametrize("alg", ["fifo", "drf"])
def test_shrunk_count_deterministic_and_bounded(alg):
    # 10 jobs on 10 bench servers: fifo shrinks 4, drf 2 (20 / 20 took 5 s per run)
    w = generate("bench", seed=0, n_jobs=10, n_servers=10)
    a, b = FAM.run(alg, w, seed=0), FAM.run(alg, w, seed=0)
    assert a.meta["shrunk_jobs"] == b.meta["shrunk_jobs"]
    assert 0 < a.meta["shrunk_jobs"] <= len(hetero_data(w).job_ids)
    assert a.allocations.equals(b.allocations) and FAM.check(w, a).feasible
