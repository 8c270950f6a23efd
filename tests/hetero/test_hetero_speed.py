"""The speed-ups of hetero's A_mincost search change no result (seed 003).

* job_configs (vectorized over N) equals the scalar loop over HeteroData.rate / duration;
* _g_limit equals a brute-force scan over g;
* a configuration that fits nowhere on the empty cluster (Searcher.fits_empty False) has no
  placement in any busy window either, so dropping it from the search is safe.
"""
from __future__ import annotations

import numpy as np
from hetero_fixtures import tiny_draw
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt.families.hetero.configs import Config, cluster_workers, fits_alone, job_configs
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.mincost import _EPS, Searcher, Window, _g_limit, _units_before


def _scalar_configs(data, j):
    """The printed enumeration: every (m, p, q, N), keep the smallest N per (m, p, q, d)."""
    ps = data.architecture == "ps"
    out = {}
    for m in range(len(data.e)):
        for p in (range(len(data.z)) if ps else (-1,)):
            for q in (1, 0):
                for n in range(1, int(data.chunks[j]) + 1):
                    if not ps and q == 0 and n == 1:
                        continue
                    d = data.duration(j, n, data.rate(j, m, p, q, n))
                    out.setdefault((m, p, q, d), Config(m, p, q, n, d))
    return sorted(out.values(), key=lambda c: (c.d, c.n, c.m, c.p, -c.q))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), ra=st.booleans(), preset=st.sampled_from(["small", "bench"]))
def test_job_configs_equal_scalar_loop(seed, ra, preset):
    name = preset + ("-ra" if ra else "")
    data = hetero_data(generate(name, seed=seed, n_jobs=2, n_servers=2))
    w = cluster_workers(data)  # more workers than the cluster holds fit nowhere: not listed
    for j in range(len(data.job_ids)):
        full = _scalar_configs(data, j)
        assert job_configs(data, j) == [c for c in full if c.n <= w]
        assert not any(fits_alone(data, c) for c in full if c.n > w)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), gmax=st.integers(0, 12))
def test_g_limit_equals_brute_force(seed, gmax):
    rng = np.random.default_rng(seed)
    e = rng.choice([0.0, 0.1, 0.5, 1.0, 3.0], size=3)
    wmin = rng.choice([0.0, 0.3, 1.0, 2.0, 6.0, 10.0], size=(2, 3, 3)) - rng.choice([0, 1e-12], size=(2, 3, 3))
    brute = max((g for g in range(gmax + 1) if (wmin >= g * e - _EPS).all(axis=2).any()),
                default=-1)
    assert _g_limit(wmin, e, gmax) == brute


def test_g_limit_hand_case():
    # one server, one start: 7 GPUs free, a worker needs 2 -> 3 workers fit (6 <= 7), 4 do not
    wmin = np.array([[[7.0, 100.0]]])
    e = np.array([2.0, 1.0])
    assert _g_limit(wmin, e, 10) == 3
    assert _g_limit(wmin, e, 2) == 2  # capped by gmax
    assert _g_limit(wmin - 8.0, e, 10) == -1  # nothing fits, not even g = 0 (negative room)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), ra=st.booleans())
def test_configs_that_fit_nowhere_are_never_feasible(seed, ra):
    rng = np.random.default_rng(seed)
    w = tiny_draw(seed, ra, rng, n_jobs=4)
    data = hetero_data(w)
    tau = 8
    s = Searcher(data)
    win = Window(data, tau, lam=50.0)
    for j in rng.permutation(len(data.job_ids)):
        pl = s.best(int(j), win)
        if pl is not None:
            win.commit(pl)
    dropped = 0
    for j in range(len(data.job_ids)):
        for c in s.configs(j):
            if c.d > tau - 1 or s.fits_empty(c):
                continue
            dropped += 1
            assert s.cost_fixed(j, win, c, 1) is None, c
            assert s.cost_fixed(j, Window(data, tau, lam=50.0), c, 1) is None, c
    # the kept ones are exactly those the subroutine can place on the empty window
    empty = Window(data, tau, lam=50.0)
    for j in range(len(data.job_ids)):
        for c in s.configs(j):
            if c.d <= tau - 1:
                assert s.fits_empty(c) == (s.cost_fixed(j, empty, c, 1) is not None), c


def _fresh(data, tau, lam, placed):
    """A new window holding the same commits: nothing cached."""
    win = Window(data, tau, lam)
    for pl in placed:
        win.commit(pl)
    return win


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), ra=st.booleans())
def test_window_cache_equals_fresh_computation_after_commits(seed, ra):
    # every job is asked twice per state (the second answer comes from Window.by_len), and
    # after each commit the cached window must answer like a freshly built one
    rng = np.random.default_rng(seed)
    data = hetero_data(generate("small-ra" if ra else "small", seed=seed, n_jobs=6,
                                n_servers=4))
    tau = int(rng.choice([8, 16]))
    lam = float(rng.choice([5.0, 50.0, 1e4]))
    s = Searcher(data)
    win, placed = Window(data, tau, lam), []
    for j in rng.permutation(len(data.job_ids)).tolist():
        fresh = Searcher(data).best(j, _fresh(data, tau, lam, placed))
        for _ in range(2):
            got = s.best(j, win)
            assert (got is None) == (fresh is None)
            if got is not None:
                assert (got.cost, got.start, got.d, got.m, got.p, got.q, got.n, got.y, got.s) == (
                    fresh.cost, fresh.start, fresh.d, fresh.m, fresh.p, fresh.q, fresh.n,
                    fresh.y, fresh.s)
        if got is not None and rng.random() < 0.7:
            assert win.by_len  # answers of this state were cached ...
            win.commit(got)
            placed.append(got)
            assert not win.by_len  # ... and a commit drops them


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_units_before_equals_broadcast_count(seed):
    rng = np.random.default_rng(seed)
    S, H = int(rng.integers(1, 6)), int(rng.integers(1, 7))
    cum = np.cumsum(rng.integers(0, 5, size=(S, H)).astype(float), axis=1)
    k = np.arange(int(rng.integers(1, 25)))
    assert (_units_before(cum, k) == (cum[:, :, None] <= k[None, None, :]).sum(axis=1)).all()


def test_units_before_hand_case():
    # caps 2, 0, 3 -> running sums 2, 2, 5: units 0-1 sit at position 0, units 2-4 at position
    # 2 (position 1 holds none), unit 5 at position 3 = past the end
    assert _units_before(np.array([[2.0, 2.0, 5.0]]), np.arange(6)).tolist() == [[0, 0, 2, 2, 2, 3]]


def test_window_cache_respects_its_memory_budget(monkeypatch):
    # with no budget nothing is cached and the answers are those of the cached run
    import mlopt.families.hetero.mincost as mc
    data = hetero_data(generate("small", seed=3, n_jobs=6, n_servers=4))
    answers = {}
    for budget in (mc.CACHE_BYTES, 0):
        monkeypatch.setattr(mc, "CACHE_BYTES", budget)
        s, win, got = Searcher(data), Window(data, 16, 50.0), []
        for j in range(len(data.job_ids)):
            pl = s.best(j, win)
            assert win.by_len_bytes <= budget and (budget or not win.by_len)
            got.append(None if pl is None else (pl.cost, pl.start, pl.d, pl.y, pl.s))
            if pl is not None:
                win.commit(pl)
        answers[budget] = got
    assert answers[0] == answers[mc.CACHE_BYTES] and any(answers[0])


def _same(a, b) -> bool:
    return (a is None) == (b is None) and (a is None or vars(a) == vars(b))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 100_000), ra=st.booleans())
def test_candidate_starts_give_the_answer_of_all_starts(seed, ra):
    # Window.candidates keeps C, C - L, C - L + 1, C - 1 (its docstring proves nothing else can
    # be best): searching every start 1..tau-L instead must give the very same placements,
    # in busy windows full of ties (small lambda, integer-like prices)
    import mlopt.families.hetero.mincost as mc
    rng = np.random.default_rng(seed)
    data = hetero_data(generate("small-ra" if ra else "small", seed=seed, n_jobs=6,
                                n_servers=int(rng.integers(2, 5))))
    tau = int(rng.choice([8, 16, 32]))
    lam = float(rng.choice([2.0, 5.0, 1e4]))
    original = mc.Window.candidates

    def every_start(self, L):
        return np.arange(1, self.tau - L + 1)

    wins = [Window(data, tau, lam), Window(data, tau, lam)]
    for j in rng.permutation(len(data.job_ids)).tolist():
        got = Searcher(data).best(j, wins[0])
        mc.Window.candidates = every_start
        try:
            full = Searcher(data).best(j, wins[1])
        finally:
            mc.Window.candidates = original
        assert _same(got, full), (got, full)
        if got is not None:
            for w in wins:
                w.commit(got)


def test_stable_order_equals_stable_argsort():
    from mlopt.families.hetero.mincost import _stable_order
    rng = np.random.default_rng(0)
    om = rng.choice([0.0, -0.0, 1e-300, 0.5, 1.0, 1.0 + 2e-16, 3e8, 1e300], size=(40, 30))
    assert (_stable_order(om) == np.argsort(np.where(om == 0, 0.0, om), axis=1,
                                            kind="stable")).all()
    assert (_stable_order(np.abs(om)) == np.argsort(np.abs(om), axis=1, kind="stable")).all()


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000))
def test_unit_costs_bound_the_cheapest_slots(seed):
    # _LenCache.lower's table never exceeds the cost of the k cheapest worker slots (listed
    # slot by slot), is 0 while free slots last and inf exactly beyond the last slot
    import mlopt.families.hetero.mincost as mc
    rng = np.random.default_rng(seed)
    data = hetero_data(generate("small", seed=seed % 50, n_jobs=3, n_servers=3))
    win = Window(data, 8, 5.0)
    s = Searcher(data)
    for j in range(3):
        pl = s.best(j, win)
        if pl is not None and rng.random() < 0.8:
            win.commit(pl)
    win._refresh()
    L = int(rng.integers(1, 5))
    lc = mc._LenCache(win, L, True)
    for m in range(len(data.e)):
        table = lc._unit_costs(m)
        k = table.shape[1] - 1
        for r in range(len(lc.starts)):
            slots = sorted(c for h in range(len(data.cap))
                           for c in [lc.Wc[m, r, h]] * int(max(0, lc.prep.raw(m)[r, h])))
            exact = np.concatenate([[0.0], np.cumsum((slots + [np.inf] * k)[:k])])
            assert (table[r] <= exact * (1 + 1e-12)).all()
            assert (np.isinf(table[r]) == np.isinf(exact)).all()
            free = sum(1 for c in slots if c == 0.0)
            assert (table[r, : free + 1] == 0).all()


@pytest.mark.parametrize("preset,seed", [("small", 1), ("small", 9), ("small-ra", 1)])
def test_the_start_just_before_a_wall_is_searched(preset, seed):
    # One server, tau = 12: slots 1-4 are 30% used (priced), slot 5 is free and slots 6-11 are
    # full (a wall).  A configuration of length L >= 2 fits only in windows ending by slot 5,
    # and the cheapest of them is the last, t = 6 - L: the point c - L of the wall's change
    # point c = 6, and not a change point itself (C = {1, 5, 6}).  Searching change points
    # only would return start 1 (all L slots priced) instead.
    from mlopt.families.hetero.configs import job_config_arrays
    data = hetero_data(generate(preset, seed=seed, n_jobs=1, n_servers=1))

    def at_least_two(d, j):
        a = job_config_arrays(d, j)
        return a[a[:, 4] >= 2]

    win = Window(data, 12, 50.0)
    win.beta[0, :, 0:4] = 0.3 * data.cap[0][:, None]
    win.beta[0, :, 5:] = data.cap[0][:, None]
    win.changes = {1, 5, 6}
    got = Searcher(data, at_least_two).best(0, win)
    assert got is not None and 2 <= got.d <= 4
    assert got.start == 6 - got.d
