"""The fast A_mincost search (mincost.Searcher) returns what the plain transliteration of the
printed loops (reference.ReferenceSearcher) returns, on random small cases, PS and RA (seed 003).
"""
from __future__ import annotations

import numpy as np
from hetero_fixtures import tiny_draw
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.mincost import Placement, Searcher, Window
from mlopt.families.hetero.online import a_online
from mlopt.families.hetero.reference import ReferenceSearcher


def _price(win: Window, pl: Placement) -> float:
    """sum_t sum_h sum_r delta f / C of a placement, straight from the price table."""
    d = win.data
    unit = win.prices() / np.where(d.cap > 0, d.cap, np.inf)[:, :, None]
    sl = slice(pl.start - 1, pl.start - 1 + pl.d)
    return float(sum((unit[h, :, sl] * vec[:, None]).sum() for h, vec in pl.usage(d).items()))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), ra=st.booleans(), tau=st.sampled_from([4, 8, 12]))
def test_fast_search_equals_transliteration(seed, ra, tau):
    rng = np.random.default_rng(seed)
    w = tiny_draw(seed, ra, rng, n_jobs=5)
    data = hetero_data(w)
    win = Window(data, tau, lam=float(rng.choice([5.0, 50.0, 1e4])))
    fast, ref = Searcher(data), ReferenceSearcher(data)
    for j in map(int, rng.permutation(len(data.job_ids))):
        a, b = fast.best(j, win), ref.best(j, win)
        assert (a is None) == (b is None), (j, a, b)
        if a is None:
            continue
        # Theorem 1's optimum and the tie rule (earliest completion): the same
        assert a.cost == pytest.approx(b.cost, rel=1e-9, abs=1e-12), (a, b)
        assert a.completion == b.completion, (a, b)
        # and the fast search's reported cost is its placement's price
        assert a.cost == pytest.approx(_price(win, a), rel=1e-9, abs=1e-12)
        if data.weight[j] > a.cost:  # commit like A_maxweight so later prices are > 0
            win.commit(a)


@pytest.mark.parametrize("preset,seed", [("tiny", 0), ("tiny", 3), ("tiny-ra", 1),
                                         ("small", 2), ("small-ra", 4)])
def test_a_online_same_schedule_with_either_search(preset, seed):
    w = generate(preset, seed=seed)
    fast = a_online(w)
    ref = a_online(w, search=ReferenceSearcher)
    assert fast.F == ref.F and fast.lam == ref.lam
    key = {j: (vars(p), s) for j, (p, s) in fast.placements.items()}
    assert key == {j: (vars(p), s) for j, (p, s) in ref.placements.items()}


def test_reference_hand_case():
    """One empty server pair, tiny preset seed 0: with zero prices every placement is free, so
    both searches return the earliest-completing configuration at start 1."""
    data = hetero_data(generate("tiny", seed=0))
    win = Window(data, 8, lam=50.0)
    ref = ReferenceSearcher(data).best(0, win)
    fast = Searcher(data).best(0, win)
    assert ref.cost == 0.0 and ref.start == 1
    assert vars(ref) == vars(fast)
    shortest = min(c.d for c in ReferenceSearcher(data).configs(0)
                   if Searcher(data).fits_empty(c))
    assert ref.d == shortest
