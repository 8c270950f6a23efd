"""Theorem 1 / 6 of seed 003: A_mincost1/2 (PS) and A^RA_mincost1/2 solve the fixed-type,
fixed-window cost problems (13) / (21) optimally -- checked against a MILP of (13) / (21) under
the same prices on random small cases (with the printed algorithms' bugs fixed, see mincost.py).
"""
from __future__ import annotations

import numpy as np
from hetero_fixtures import tiny_draw
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt.families.hetero.configs import job_configs
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.mincost import Searcher, Window
from mlopt.models.hetero import build_mincost13
from mlopt.solve import Status, solve


def _busy_window(data, rng, tau):
    """A window with a few jobs already committed (cheapest placements), so prices are > 0."""
    win = Window(data, tau, lam=rng.choice([5.0, 50.0, 1e4]))
    s = Searcher(data)
    for j in rng.permutation(len(data.job_ids))[: rng.integers(1, len(data.job_ids) + 1)]:
        pl = s.best(int(j), win)
        if pl is not None:
            win.commit(pl)
    return win, s


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), ra=st.booleans(), pick=st.integers(0, 10_000))
def test_mincost_equals_milp_of_13(seed, ra, pick):
    rng = np.random.default_rng(seed)
    w = tiny_draw(seed, ra, rng, n_jobs=4)
    data = hetero_data(w)
    tau = 8
    win, s = _busy_window(data, rng, tau)
    j = pick % len(data.job_ids)
    cands = [c for c in job_configs(data, j) if c.d <= tau - 1]
    if not cands:
        return
    c = cands[pick % len(cands)]
    start = 1 + (pick // 7) % (tau - c.d)
    ours = s.cost_fixed(j, win, c, start)
    omega = data.cap[:, :, None] - win.beta
    m = build_mincost13(data, j, win.prices(), omega, c, start)
    res = solve(m)
    if ours is None:
        assert res.status in (Status.INFEASIBLE, Status.NO_SOLUTION) or not res.has_solution, \
            (c, start, res.status, res.objective)
    else:
        assert res.status == Status.OPTIMAL, (c, start, res.status)
        assert ours == pytest.approx(res.objective, rel=1e-7, abs=1e-9), (c, start)
