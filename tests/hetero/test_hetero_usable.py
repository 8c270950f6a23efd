"""Usable capacity (:mod:`mlopt.families.hetero.usable`) and ``colgen_lb``'s usable rows,
clique rows and priced packing: hand knapsacks, brute force on random small servers, hand
instances where the new rows bind, and the bound below OPT (and above the old one) on random
instances."""
from __future__ import annotations

from itertools import product

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt.errors import InputError
from mlopt.families.hetero.colgen import colgen_lb
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.usable import knapsack_max, priced_capacity, usable_capacity
from mlopt.models.hetero.placement_ti import build_placement_ti
from mlopt.solve import Status, solve
from tests.hetero_fixtures import hand


def _one_worker_each(d):
    # RA, two servers of (2 GPU, 3 CPU, 32 GB, 10 Gbps); w1 = (1 GPU, 2 CPU), w2 = (2 GPU,
    # 1 CPU): a server holds one w1 or one w2, never two workers ((1+2, 2+1) = (3, 3) and
    # (2, 4) and (4, 2) all exceed (2, 3))
    for s in d["servers"]:
        s["capacity"].update(gpu=2, cpu=3)
    w1, w2 = (t["demand"] for t in d["extra"]["hetero"]["worker_types"])
    w1.update(gpu=1, cpu=2)
    w2.update(gpu=2, cpu=1)


def test_hand_usable_capacity():
    w = hand("ra", mutate=_one_worker_each)
    K = usable_capacity(hetero_data(w))
    # GPU: one w2 fills 2 of 2; CPU: one w1 uses 2 of 3; memory 4 or 8 of 32 (w2: 8 GB);
    # bandwidth 1 or 2 of 10 (w2: 2 Gbps)
    assert np.allclose(K, [[2, 2, 8, 2]] * 2, rtol=1e-8, atol=0)
    # and never above the capacity itself
    assert (K <= hetero_data(w).cap * (1 + 1e-8)).all()


def test_hand_knapsack():
    # cap (4 GPU, 4 CPU); items (1, 2), (2, 4), (0, 3): CPU is filled by 2 x (1, 2) = 4 or
    # 1 x (0, 3) + ... = 3: max CPU 4; GPU: 2 x (1, 2) -> 2 (CPU runs out): max GPU 2
    use = np.array([[1.0, 2.0], [2.0, 4.0], [0.0, 3.0]])
    cap = np.array([4.0, 4.0])
    assert knapsack_max(cap, use, use[:, 1]) == pytest.approx(4.0, rel=1e-6)
    assert knapsack_max(cap, use, use[:, 0]) == pytest.approx(2.0, rel=1e-6)
    # an empty server: nothing fits, nothing is usable
    assert knapsack_max(np.zeros(2), use, use[:, 0]) == pytest.approx(0.0, abs=1e-6)


def test_knapsack_tiny_price_not_lost():
    # cap (0, 1); items (0, 1) and (0, 2); prices (5.96e-8, 1.0): item 2 never fits, item 1
    # fits once, worth 5.96e-8.  HiGHS's dual bound alone said 0 (a reduced cost of 6e-8 is
    # below its dual tolerance): the bound must stay >= 5.96e-8
    use = np.array([[0.0, 1.0], [0.0, 2.0]])
    got = knapsack_max(np.array([0.0, 1.0]), use, np.array([5.96e-8, 1.0]))
    assert 5.96e-8 <= got <= 5.96e-8 + 1e-8
    # a small price that is not tiny goes to the MIP, and is not lost either: 3 x 1e-5 fits
    got = knapsack_max(np.array([0.0, 3.0]), use, np.array([1e-5, 1.0]))
    # cap 3: 1 x item 2 (2) + 1 x item 1 (1) = 1 + 1e-5 is the max (3 x item 1 = 3e-5)
    assert 1.0 + 1e-5 <= got <= 1.0 + 1e-5 + 1e-6


def test_knapsack_item_that_fits_nowhere_sets_no_scale():
    # cap 5; item 1 uses 10 (fits nowhere) at price 1e9, items 2-4 use 1 at price 1: the max
    # is 5 (five of them).  Scaled by item 1's price, items 2-4 were "tiny" (1e-9 < 1e-6)
    # and each added at its most alone, 3 x 5 = 15
    use = np.array([[10.0], [1.0], [1.0], [1.0]])
    got = knapsack_max(np.array([5.0]), use, np.array([1e9, 1.0, 1.0, 1.0]))
    assert 5.0 <= got <= 5.0 + 1e-6
    # prices (1e-12 for item 1, 1.01e-6 for item 2 that fits nowhere): 3 x 1e-12 fits; the
    # bound was 2.9999999999999997e-12, an ulp below that packing
    use = np.array([[0.0, 1.0], [0.0, 0.1]])
    got = knapsack_max(np.array([0.0, 0.3]), use[::-1], np.array([1e-12, 1.01e-6]))
    assert got >= 3e-12
    assert knapsack_max(np.array([1.0]), np.array([[2.0]]), np.array([1.0])) == 0.0


_PRICES = [0.0, 1e-15, 1e-12, 5.96e-8, 9.99e-7, 1.01e-6, 1e-5, 0.3, 1.0, 7.0, 1e6, 1e12]
_AMOUNTS = [0.0, 0.1, 0.2, 0.1 + 0.2, 1.0, 1.5, 2.0, 3.0]


@settings(max_examples=40, deadline=None)
@given(cap=st.lists(st.sampled_from([0.0, 0.1 + 0.2, 0.7, 1.0, 3.0, 5.5]), min_size=2,
                    max_size=2),
       use=st.lists(st.lists(st.sampled_from(_AMOUNTS), min_size=2, max_size=2), min_size=1,
                    max_size=3),
       price=st.lists(st.sampled_from(_PRICES), min_size=3, max_size=3))
def test_knapsack_never_below_a_packing_at_extreme_price_ratios(cap, use, price):
    # prices 1e-15 .. 1e12 apart, zero and float capacities (0.1 + 0.2), items that fit
    # nowhere: never below the best packing the checker accepts; at most 1e-6 of the largest
    # price that fits, per copy, above it
    use = np.array(use, dtype=float)
    use = use[(use > 0).any(axis=1)]
    if len(use) == 0:
        return
    cap, value = np.array(cap), np.array(price[:len(use)])
    room = cap * (1 + 1e-9) + 1e-9  # mlopt.tolerance.accepted_capacity
    fits = [int(min(room[r] // u[r] for r in range(2) if u[r] > 0)) for u in use]
    best = 0.0
    for n in product(*[range(f + 1) for f in fits]):  # at most 3 x 55 copies: every packing
        n = np.array(n, dtype=float)
        if (n @ use <= room).all():
            best = max(best, float(n @ value))
    got = knapsack_max(cap, use, value)
    assert got >= best
    top = max([v for v, f in zip(value, fits) if f >= 1], default=0.0)
    assert got <= best + 1e-6 * top * sum(fits)


@settings(max_examples=25, deadline=None)
@given(cap=st.lists(st.integers(0, 9), min_size=2, max_size=2),
       use=st.lists(st.lists(st.integers(0, 5), min_size=2, max_size=2), min_size=1,
                    max_size=3),
       price=st.lists(st.floats(0, 3), min_size=3, max_size=3))
def test_knapsack_matches_brute_force(cap, use, price):
    use = np.array(use, dtype=float)
    use = use[use.sum(axis=1) > 0]  # an item using nothing is not a server's content
    if len(use) == 0:
        return
    cap = np.array(cap, dtype=float)
    # each resource's use, and arbitrary prices per item (the priced packing)
    for value in (use[:, 0], use[:, 1], np.array(price[:len(use)])):
        best = 0.0
        for n in product(range(10), repeat=len(use)):  # every packing (counts <= 9 suffice)
            n = np.array(n)
            if (n @ use <= cap).all():
                best = max(best, float(n @ value))
        got = knapsack_max(cap, use, value)
        assert got >= best - 1e-9  # certified: never below a packing's value
        assert got <= best + 1e-6 * max(1.0, best)  # and exact here (the MIP finishes)


def _prefer(d):
    # the servers above; A (w = 2, a = 1, D = 2) runs fastest on w1 (v = 0.3), B (w = 1, a = 1,
    # D = 1) on w2 (v = 1.0; w1: v = 2.0)
    _one_worker_each(d)
    d["jobs"][0]["extra"]["minibatch_slots"] = [0.3, 0.5]
    d["jobs"][1]["extra"]["minibatch_slots"] = [2.0, 1.0]


def test_usable_rows_bind_on_hand_instance():
    # RA.  A's only 1-slot configuration is two w1 split over both servers ((14): rate
    # 1 / (0.3 + 0.001 / 2), d = ceil(4 / (2 rate)) = 1); B's only 3-slot one is one w2
    # (3 / (1 / 1.0) = 3).  Both from slot 1 would give 2 * 2 + 1 * 4 = 8 (the trivial bound),
    # but that needs three workers at once and a server holds one: OPT = 9 (A split in slot 1,
    # B from slot 2: 2 * 2 + 1 * 5).  The old rows admit that point -- GPU 1 + 1 + 2 = 4 <= 4,
    # CPU 2 + 2 + 1 = 5 <= 6, w1 2 <= 2, w2 1 <= 2 -- so the old bound is 8; the usable CPU
    # row (2 + 2 = 4 CPUs usable) cuts it (5 > 4): measured 8 -> 8.5
    w = hand("ra", mutate=_prefer)
    res = solve(build_placement_ti(w), time_limit=30)
    assert res.status == Status.OPTIMAL and res.objective == pytest.approx(9.0)
    off = colgen_lb(w, time_limit=10, primal=False, usable_rows=False)
    on = colgen_lb(w, time_limit=10, primal=False)
    assert off["converged"] and on["converged"]
    assert off["bound"] == pytest.approx(8.0, rel=1e-8)
    assert on["bound"] == pytest.approx(8.5, rel=1e-8) and on["bound"] <= res.objective


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["tiny", "tiny-ra", "small"]))
def test_new_rows_below_opt_and_above_without(seed, preset):
    w = generate(preset, seed=seed, **({"n_jobs": 4} if preset == "small" else {}))
    res = solve(build_placement_ti(w), time_limit=60)
    assert res.status == Status.OPTIMAL
    on = colgen_lb(w, time_limit=20, primal=False, priced_packing=True)
    off = colgen_lb(w, time_limit=20, primal=False, usable_rows=False, cliques=0)
    assert on["bound"] <= res.objective * (1 + 1e-9)
    if on["converged"] and off["converged"]:  # tighter rows: a larger LP optimum
        assert on["bound"] >= off["bound"] * (1 - 1e-6)


@pytest.mark.parametrize("field, value", [
    ("usable_rows", 1), ("usable_rows", "yes"), ("usable_rows", None), ("priced_packing", 1),
    ("priced_packing", None), ("cliques", -1), ("cliques", 21), ("cliques", True),
    ("cliques", 1.5)])
def test_bad_options_refused(field, value):
    with pytest.raises(InputError) as err:
        colgen_lb(hand(), **{field: value})
    assert err.value.field == field and err.value.value == value


def test_hand_priced_capacity():
    # the servers of _one_worker_each hold one worker each: at prices (w1: 3, w2: 2) a server
    # is worth at most 3, the two 6 (+ the 1e-6 relative margin), below the fallback 100;
    # zero prices are worth 0; where the fallback (5) is smaller it stands
    data = hetero_data(hand("ra", mutate=_one_worker_each))
    got = priced_capacity(data, np.array([[3.0, 2.0], [0.0, 0.0], [3.0, 2.0]]),
                          fallback=np.array([100.0, 7.0, 5.0]))
    assert got[0] == pytest.approx(6.0, rel=1e-5) and got[0] >= 6.0
    assert got[1] == 0.0 and got[2] == 5.0


def _two_big(d):
    # RA; s1 has 4 GPUs, s2 none (it holds no worker); w1 = (3 GPU, 1 CPU), w2 = (3 GPU,
    # 2 CPU): no two workers run at once.  A (w = 2, a = 1, D = 1, work 2): w1 d = 2 * 0.5 = 1
    # (w2: 10); B (w = 1, a = 1, D = 1, work 3): w2 d = ceil(3 * 0.3) = 1 (w1: 15)
    d["servers"][0]["capacity"].update(gpu=4)
    d["servers"][1]["capacity"].update(gpu=0)
    w1, w2 = (t["demand"] for t in d["extra"]["hetero"]["worker_types"])
    w1.update(gpu=3, cpu=1)
    w2.update(gpu=3, cpu=2)
    a, b = d["jobs"]
    a["chunks"], a["minibatches"], a["extra"]["minibatch_slots"] = 1, 2, [0.5, 5.0]
    b["chunks"], b["minibatches"], b["extra"]["minibatch_slots"] = 1, 3, [5.0, 0.3]


def test_clique_rows_bind_on_hand_instance():
    # OPT: A in slot 1, B in slot 2: 2 * 2 + 1 * 3 = 7.  Pooled GPU rows (4) let the LP run A
    # whole and 1/3 of B in slot 1 (3 + 3 / 3 = 4), the rest of B in slot 2: 2 * 2 + 1 * (2 / 3
    # + 3 * 2 / 3) = 6.667 (type rows: one w1 and 1/3 w2, each <= floor(4 / 3) = 1).  The
    # clique row "columns using more than 4 / 2 GPUs: at most one" gives x_A1 + x_B1 <= 1: 7.
    # (The usable GPU row, 3: only one 3-GPU worker fits s1, closes it as well.)
    w = hand("ra", mutate=_two_big)
    res = solve(build_placement_ti(w), time_limit=30)
    assert res.status == Status.OPTIMAL and res.objective == pytest.approx(7.0)
    plain = colgen_lb(w, time_limit=10, primal=False, usable_rows=False, cliques=0)["bound"]
    clique = colgen_lb(w, time_limit=10, primal=False, usable_rows=False, cliques=1)["bound"]
    usable = colgen_lb(w, time_limit=10, primal=False, cliques=0)["bound"]
    assert plain == pytest.approx(20 / 3, rel=1e-8)
    assert clique == pytest.approx(7.0, rel=1e-8) and usable == pytest.approx(7.0, rel=1e-8)
    assert max(clique, usable) <= res.objective
