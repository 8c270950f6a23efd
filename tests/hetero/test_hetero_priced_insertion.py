"""Priced list schedules (:mod:`mlopt.families.hetero.priced_insertion`): a hand case where the
price changes the choice, and ``pnb`` with it checked and never worse than its warm start."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt.families import get_family
from mlopt.families.hetero.alpha_points import alpha_order, alpha_points
from mlopt.families.hetero.colgen import Columns
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.price_and_branch import Search, candidate_keys, encode, run_pnb
from mlopt.families.hetero.priced_insertion import Pricer, betas, priced_list
from tests.hetero_fixtures import hand

FAM = get_family("hetero")


def _one_server(d):
    # one server (2 GPUs, 8 vCPUs); A: E D K = 1 * 2 * 3 = 6 mini-batches, w_A = 1; w_B = 6
    d["servers"] = d["servers"][:1]
    d["jobs"][0]["minibatches"] = 3
    d["jobs"][0]["extra"]["weight"] = 1.0
    d["jobs"][1]["extra"]["weight"] = 6.0


def _list(beta):
    w = hand("ra", _one_server)
    data = hetero_data(w)
    keys = [candidate_keys(data, j, set(), 48) for j in range(2)]
    s = priced_list(Search(data, keys), Pricer(data, keys), [0, 1], beta)
    res = FAM.check(w, encode(data, s.pl.values()))
    assert res.feasible
    assert res.objective == pytest.approx(s.value())
    return s


@pytest.mark.parametrize("beta, d_a, total", [(0.0, 2, 39.0), (0.25, 2, 39.0), (0.5, 3, 28.0)])
def test_hand_price_trades_width_for_the_job_after(beta, d_a, total):
    # Order [A, B] on one 2-GPU server (Ring-AllReduce, rho = 2 per worker):
    # A: both GPUs (2 w1 workers, or 1 two-GPU w2) d = 2 (area: all GPUs x 2 = 2), or 1 w1
    #    d = ceil(6 / 2) = 3 (area 1/2 x 3 = 1.5); B (N = 1) runs 3 slots on one GPU.
    # price = beta * w_B = 6 beta.  A wide: 1 * 3 + price * 2; narrow: 1 * 4 + price * 1.5.
    # beta 0 / 0.25 (price 1.5): 3 + 3 = 6 < 4 + 2.25 -> wide: c_A = 3, B waits: c_B = 6,
    #    total 1 * 3 + 6 * 6 = 39.  beta 0.5 (price 3): 3 + 6 = 9 > 4 + 4.5 = 8.5 -> narrow:
    #    c_A = 4, B beside it from slot 1: c_B = 4, total 4 + 24 = 28.
    s = _list(beta)
    assert s.pl[0].d == d_a
    assert s.value() == pytest.approx(total)


def test_betas_ladder():
    assert betas(0.25) == [0.25, 0.5, 0.125]
    assert betas(0.0) == [0.0]


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["tiny", "tiny-ra", "small"]),
       beta=st.sampled_from([0.25, 1.0, 4.0]))
def test_pnb_priced_checked_never_worse_than_warm(seed, preset, beta):
    w = generate(preset, seed=seed, **({"n_jobs": 5} if preset == "small" else {}))
    start = FAM.check(w, FAM.run("tiresias", w, seed=0))
    s = run_pnb(w, time_limit=2, seed=seed, insertion_price=beta, master_share=0.0)
    res = FAM.check(w, s)
    assert res.feasible
    assert res.objective <= start.objective * (1 + 1e-12)


def test_alpha_points_hand():
    # job 0's LP columns by start: 1 (x 0.5), 3 (0.2), 5 (0.3): cumulative 0.5, 0.7, 1.0, so
    # alpha 0.5 -> 1, 0.6 -> 3, 0.71 -> 5, 1.0 -> 5; job 1 has no LP value: its arrival (7)
    cols = Columns(job=np.array([0, 0, 0, 1]), key=np.zeros((4, 4), dtype=int),
                   d=np.ones(4, dtype=int), start=np.array([3, 1, 5, 2]),
                   x=np.array([0.2, 0.5, 0.3, 0.0]))
    arr = np.array([1, 7])
    got = [alpha_points(cols, 2, np.array([a, 0.5]), arr)[0] for a in (0.5, 0.6, 0.71, 1.0)]
    assert got == [1, 3, 5, 5]
    assert alpha_points(cols, 2, np.array([0.5, 0.5]), arr)[1] == 7
    # job 0's alpha-1 point (5) is before job 1's arrival (7)
    assert alpha_order(cols, 2, np.array([1.0, 0.5]), arr, np.zeros(2)) == [0, 1]
    late = np.array([1, 4])  # job 1 arriving at 4 goes before job 0's alpha 1 point (5)
    assert alpha_order(cols, 2, np.array([1.0, 0.5]), late, np.zeros(2)) == [1, 0]

