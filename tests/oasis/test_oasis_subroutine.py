"""OASiS subroutine, Alg. 2 of seed 000 (Sec. IV-C): fast DP vs MILPs of (27) vs transliteration.

* ``best_schedule`` (fast) is exact for (27) + per-slot chunk integrality: its payoff equals the
  optimum of MILP (b) (``models/oasis/subproblem.py``, ``chunk_integral=True``);
* MILP (a), (27) proper, can only be better (it counts worker-slots, not whole chunks);
* the plain transliteration ``best_schedule_reference`` finds the same payoff;
* returned schedules are feasible for (27)(+b) and their reported cost/payoff recompute.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import mlopt.families.oasis.subroutine as sub
from mlopt.testing import assert_golden_lp
from mlopt.families.oasis.reference import best_schedule_reference
from mlopt.families.oasis.subroutine import (
    Market, SubJob, _prefix_costs, best_schedule, schedule_cost, unit_capacity)
from mlopt.errors import InputError
from mlopt.models.oasis.subproblem import build_subproblem, extract_subproblem
from mlopt.solve import Status, solve
from mlopt.utility import Constant, Linear, Sigmoid

TOL = 1e-6


def close(x: float, y: float) -> bool:
    return abs(x - y) <= TOL * max(1.0, abs(x), abs(y))


def milp_payoff(job: SubJob, market: Market, chunk_integral: bool):
    model = build_subproblem(job, market, chunk_integral=chunk_integral)
    res = solve(model)
    assert res.status == Status.OPTIMAL, res
    return res.objective, extract_subproblem(model, job, market)


def violations(job: SubJob, market: Market, s, chunk_integral: bool = True) -> list[str]:
    """Independent check of (27), with per-slot chunk integrality (b) if asked, of a JobSchedule."""
    out = []
    y, z, d = s.workers, s.ps, s.chunks
    if (y < 0).any() or (z < 0).any() or (d < 0).any():
        out.append("negative count")
    if s.end_slot is None:
        if y.any() or z.any():
            out.append("allocation without an end slot")
        return out
    a, end = job.arrival, s.end_slot
    Y, Z = y.sum(axis=1), z.sum(axis=1)
    if Y[: a - 1].any() or Z[: a - 1].any():
        out.append("(9)/(10) work before arrival")
    if Y[end:].any() or Z[end:].any():
        out.append("(8) work after the end slot")
    if Y[end - 1] <= 0:
        out.append("(8) no worker in the end slot")
    if (Y > job.max_workers).any():
        out.append("(3) too many workers")
    if (job.worker_bw * Y > job.ps_bw * Z * (1 + 1e-9) + 1e-9).any():
        out.append("(6) PS bandwidth")
    if (Z > Y).any():
        out.append("(7) more PSs than workers")
    wd, pd_ = job.worker_demand, job.ps_demand
    if (y[:, :, None] * wd > market.worker_free + 1e-9).any():
        out.append("(30) worker capacity")
    if (z[:, :, None] * pd_ > market.ps_free + 1e-9).any():
        out.append("(31) PS capacity")
    if Y.sum() < job.work * (1 - 1e-9):
        out.append("(2) work")
    if chunk_integral and ((Y < d * job.chunk_slots - 1e-9).any() or d.sum() < job.chunks_total):
        out.append("(b) chunk integrality")
    return out


# ---- random small instances ---------------------------------------------------------------
GRID = [x / 4 for x in range(13)]  # prices 0, 0.25, ..., 3: ties are common, on purpose


@st.composite
def instances(draw):
    T = draw(st.integers(1, 5))
    H, K, R = draw(st.integers(1, 3)), draw(st.integers(1, 3)), 2
    a = draw(st.integers(1, T))
    N, E = draw(st.integers(1, 4)), draw(st.integers(1, 3))
    cs = draw(st.sampled_from([0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 1.0, 1.5]))
    w = np.array([draw(st.integers(0, 2)), draw(st.integers(1, 2))], dtype=float)
    s = np.array([draw(st.integers(0, 1)), draw(st.integers(1, 3))], dtype=float)
    b, B = draw(st.sampled_from([1.0, 2.0])), draw(st.sampled_from([1.0, 2.0, 3.0, 4.0]))
    util = draw(st.one_of(
        st.builds(Sigmoid, st.integers(1, 60).map(float), st.sampled_from([0.0, 0.5, 1.0, 3.0]),
                  st.integers(0, 4).map(float)),
        st.builds(Linear, st.integers(1, 60).map(float), st.integers(0, 15).map(float)),
        st.builds(Constant, st.integers(1, 60).map(float))))

    def arr(shape, elems):
        n = int(np.prod(shape))
        return np.array(draw(st.lists(elems, min_size=n, max_size=n)), dtype=float).reshape(shape)

    market = Market(arr((T, H, R), st.sampled_from(GRID)), arr((T, K, R), st.sampled_from(GRID)),
                    arr((T, H, R), st.integers(0, 6)), arr((T, K, R), st.integers(0, 6)))
    return SubJob(a, E * N, N, cs, w, s, b, B, util), market


@settings(max_examples=60, deadline=None)
@given(instances())
def test_dp_equals_chunk_milp_and_never_beats_worker_slot_milp(case):
    job, market = case
    fast = best_schedule(job, market)
    # feasibility and honest bookkeeping of the returned schedule
    assert violations(job, market, fast) == []
    assert close(fast.cost, schedule_cost(job, market, fast.workers, fast.ps))
    if fast.admit:
        assert fast.payoff > 0
        assert close(fast.utility, float(job.utility(fast.end_slot - job.arrival)))
        assert close(fast.payoff, fast.utility - fast.cost)
    else:
        assert fast.payoff == 0.0
    # (b): exact; (a): can only be better
    obj_b, sched_b = milp_payoff(job, market, chunk_integral=True)
    obj_a, sched_a = milp_payoff(job, market, chunk_integral=False)
    assert close(fast.payoff, obj_b), (fast.payoff, obj_b)
    assert violations(job, market, sched_b) == []
    assert obj_a >= fast.payoff - TOL * max(1.0, abs(obj_a))
    assert violations(job, market, sched_a, chunk_integral=False) == []
    # the same DP counting worker-slots is exact for (a)
    proper = best_schedule(job, market, unit="worker_slot")
    assert close(proper.payoff, obj_a), (proper.payoff, obj_a)
    assert violations(job, market, proper, chunk_integral=False) == []
    assert close(proper.cost, schedule_cost(job, market, proper.workers, proper.ps))
    # the literal transliteration agrees
    ref = best_schedule_reference(job, market)
    assert close(ref.payoff, fast.payoff), (ref.payoff, fast.payoff)
    assert violations(job, market, ref) == []


@settings(max_examples=40, deadline=None)
@given(instances())
def test_gather_and_loop_relaxations_agree(case):
    """The DP's two inner-loop forms (gather for narrow windows, loop for wide) give one result."""
    job, market = case
    default = best_schedule(job, market)
    saved = sub.WIDE
    try:
        sub.WIDE = 0  # every window takes the loop path
        looped = best_schedule(job, market)
    finally:
        sub.WIDE = saved
    assert close(default.payoff, looped.payoff)
    assert default.end_slot == looped.end_slot
    np.testing.assert_array_equal(default.workers, looped.workers)


def test_random_cases_are_not_vacuous():
    """The strategy above must produce admitted, multi-slot and chunk-limited cases."""
    rng = np.random.default_rng(7)
    admitted = multi = 0
    for _ in range(300):
        T, H, K = int(rng.integers(1, 6)), int(rng.integers(1, 4)), int(rng.integers(1, 4))
        N, E = int(rng.integers(1, 5)), int(rng.integers(1, 4))
        job = SubJob(int(rng.integers(1, T + 1)), E * N, N, float(rng.choice([0.3, 0.5, 0.75])),
                     np.array([1.0, 1.0]), np.array([0.0, 1.0]), 1.0, 2.0,
                     Linear(float(rng.integers(5, 60)), float(rng.integers(0, 10))))
        market = Market(rng.choice(GRID, (T, H, 2)), rng.choice(GRID, (T, K, 2)),
                        rng.integers(0, 7, (T, H, 2)).astype(float),
                        rng.integers(0, 7, (T, K, 2)).astype(float))
        fast = best_schedule(job, market)
        ref = best_schedule_reference(job, market)
        assert close(fast.payoff, ref.payoff)
        admitted += fast.admit
        multi += fast.admit and (fast.workers.sum(axis=1) > 0).sum() > 1
    assert admitted >= 60 and multi >= 10, (admitted, multi)


# ---- hand-computed cases ------------------------------------------------------------------
def hand_market():
    """T=3, two worker servers h0/h1, one PS server; one resource (cpu) per worker and PS.

    per-worker price pi_h(t) = p_h(t) * 1:   slot1: h0 1, h1 3 | slot2: 2, 2 | slot3: 5, 1
    per-PS price sigma(t):                    slot1: 1          | slot2: 0.5   | slot3: 1
    residual capacity: one worker per server and slot, two PSs per slot.
    """
    p = np.array([[[1.0], [3.0]], [[2.0], [2.0]], [[5.0], [1.0]]])
    q = np.array([[[1.0]], [[0.5]], [[1.0]]])
    return Market(p, q, np.ones((3, 2, 1)), np.full((3, 1, 1), 2.0))


def test_hand_computed_best_schedule():
    """Job: a=1, N=2, E=2 -> D=4 chunks; chunk_slots 0.5 (k workers train 2k chunks);
    b=1, B=2 -> ceil(k/2) PSs; f(d) = 20 - 0.25 d.

    Slot costs (k workers on the cheapest servers + ceil(k/2) PSs):
        slot1: k=1 -> 1 + 1 = 2,   k=2 -> 1 + 3 + 1 = 5
        slot2: k=1 -> 2 + 0.5 = 2.5, k=2 -> 4 + 0.5 = 4.5
        slot3: k=1 -> 1 + 1 = 2,   k=2 -> 6 + 1 = 7
    4 chunks need k=2 once or k=1 twice:
        end 1: 5                         -> payoff 20    - 5   = 15
        end 2: min(2 + 2.5, 4.5) = 4.5   -> payoff 19.75 - 4.5 = 15.25
        end 3: slot1 k=1 + slot3 k=1 = 4 -> payoff 19.5  - 4   = 15.5   <- best, unique
    Schedule: slot 1 one worker on h0 + one PS; slot 3 one worker on h1 + one PS.
    """
    job = SubJob(1, 4, 2, 0.5, np.array([1.0]), np.array([1.0]), 1.0, 2.0, Linear(20.0, 0.25))
    market = hand_market()
    for solver in (best_schedule, best_schedule_reference):
        s = solver(job, market)
        assert s.end_slot == 3
        assert s.payoff == pytest.approx(15.5)
        assert s.cost == pytest.approx(4.0)
        np.testing.assert_array_equal(s.workers, [[1, 0], [0, 0], [0, 1]])
        np.testing.assert_array_equal(s.ps, [[1], [0], [1]])
        np.testing.assert_array_equal(s.chunks, [2, 0, 2])
    assert milp_payoff(job, market, True)[0] == pytest.approx(15.5)
    assert milp_payoff(job, market, False)[0] == pytest.approx(15.5)


def test_hand_computed_rounding_loss_against_27_proper():
    """chunk_slots 0.6, N=1, E=3: D=3 chunks, W=1.8 worker-slots; one worker at price 1 per slot,
    free PSs (price 0, b=B); f(d) = 10 - 2 d.

    (27) proper: 2 worker-slots cover 1.8 -> workers in slots 1, 2: payoff f(1) - 2 = 6.
    Chunk-integral: 1 worker trains floor(1/0.6) = 1 chunk per slot -> 3 slots: f(2) - 3 = 3.
    """
    job = SubJob(1, 3, 1, 0.6, np.array([1.0]), np.array([1.0]), 1.0, 1.0, Linear(10.0, 2.0))
    market = Market(np.ones((3, 1, 1)), np.zeros((3, 1, 1)), np.ones((3, 1, 1)),
                    np.ones((3, 1, 1)))
    fast = best_schedule(job, market)
    assert fast.payoff == pytest.approx(3.0) and fast.end_slot == 3
    assert milp_payoff(job, market, True)[0] == pytest.approx(3.0)
    obj_a, sched_a = milp_payoff(job, market, False)
    assert obj_a == pytest.approx(6.0) and sched_a.end_slot == 2
    proper = best_schedule(job, market, unit="worker_slot")
    assert proper.payoff == pytest.approx(6.0) and proper.end_slot == 2
    np.testing.assert_array_equal(proper.workers[:, 0], [1, 1, 0])
    with pytest.raises(InputError):
        best_schedule(job, market, unit="minibatch")


@pytest.mark.parametrize("change, why", [
    (dict(worker_bw=3.0, ps_bw=2.0), "b > B: (6) and (7) exclude every worker"),
    (dict(chunk_slots=2.5), "N=2 workers cannot train one whole chunk in a slot"),
    (dict(utility=Constant(1.0)), "utility 1 < the cheapest schedule's cost 4"),
])
def test_no_positive_payoff(change, why):
    base = dict(arrival=1, chunks_total=4, max_workers=2, chunk_slots=0.5,
                worker_demand=np.array([1.0]), ps_demand=np.array([1.0]), worker_bw=1.0,
                ps_bw=2.0, utility=Linear(20.0, 0.25))
    job = SubJob(**{**base, **change})
    for solver in (best_schedule, best_schedule_reference):
        s = solver(job, hand_market())
        assert not s.admit and s.payoff == 0.0 and not s.workers.any(), why


def test_full_server_is_skipped_and_capacity_respected():
    """With h1 full in slot 3, the slot-3 worker must go to h0 (price 5): the best end moves."""
    market = hand_market()
    free = market.worker_free.copy()
    free[2, 1, 0] = 0.0
    market = Market(market.worker_price, market.ps_price, free, market.ps_free)
    job = SubJob(1, 4, 2, 0.5, np.array([1.0]), np.array([1.0]), 1.0, 2.0, Linear(20.0, 0.25))
    s = best_schedule(job, market)
    # end 3 now costs min(2 + 6, 4.5) = 4.5 -> 15.0 < end 2's 15.25, which is a tie between
    # two schedules of cost 4.5; the payoff is what must match
    assert s.end_slot == 2 and s.payoff == pytest.approx(15.25)
    assert violations(job, market, s) == []


# ---- helpers -------------------------------------------------------------------------------
def test_unit_capacity_ignores_unused_resources():
    free = np.array([[[0.0, 7.0, 5.0]]])  # no GPU left, 7 cpu, 5 GB
    assert unit_capacity(free, np.array([0.0, 2.0, 1.0]), 10)[0, 0] == 3  # GPU not needed
    assert unit_capacity(free, np.array([1.0, 2.0, 1.0]), 10)[0, 0] == 0  # GPU needed
    assert unit_capacity(free, np.array([0.0, 0.1, 0.1]), 4)[0, 0] == 4  # capped at N
    # 0.3 / 0.1 is 2.9999999999999996 in floating point and must count as 3
    assert unit_capacity(np.array([[[0.3]]]), np.array([0.1]), 10)[0, 0] == 3


def test_prefix_costs_match_brute_force():
    rng = np.random.default_rng(3)
    for _ in range(50):
        n, S, cap = 4, int(rng.integers(1, 5)), int(rng.integers(1, 6))
        price = rng.choice(GRID, (n, S))
        units = rng.integers(0, 4, (n, S))
        costs, _ = _prefix_costs(price, units, cap)
        for t in range(n):
            unit_prices = sorted(p for s in range(S) for p in [price[t, s]] * units[t, s])
            for k in range(cap + 1):
                want = sum(unit_prices[:k]) if k <= len(unit_prices) else np.inf
                assert costs[t, k] == pytest.approx(want)


def test_bad_market_is_input_error():
    with pytest.raises(InputError):
        Market(np.zeros((2, 1, 1)), np.zeros((3, 1, 1)), np.zeros((2, 1, 1)), np.zeros((3, 1, 1)))
    job = SubJob(1, 4, 2, 0.5, np.array([1.0]), np.array([1.0]), 1.0, 2.0, Linear(20.0, 0.25))
    bad = Market(np.full((3, 2, 1), np.nan), np.zeros((3, 1, 1)), np.ones((3, 2, 1)),
                 np.ones((3, 1, 1)))
    with pytest.raises(InputError):
        best_schedule(job, bad)


# ---- golden LP of the subproblem MILP ------------------------------------------------------
GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "oasis_subproblem_tiny.lp"


def test_golden_lp_file():
    """Variant (b) of (27) on a 2-slot job; refresh after an intended change with
    MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/oasis/test_oasis_subroutine.py -k golden
    and review the .lp diff like code."""
    job = SubJob(1, 2, 2, 0.5, np.array([1.0]), np.array([1.0]), 1.0, 2.0, Linear(20.0, 4.0))
    market = Market(np.array([[[1.0]], [[2.0]]]), np.array([[[0.5]], [[0.25]]]),
                    np.full((2, 1, 1), 2.0), np.ones((2, 1, 1)))
    assert_golden_lp(build_subproblem(job, market, chunk_integral=True), GOLDEN.name)
    text = GOLDEN.read_text()
    for row in ("c2_work_covered", "c3_max_workers", "c6_ps_bandwidth", "c7_ps_at_most_workers",
                "c8_one_completion", "c27_worker_capacity", "c27_ps_capacity",
                "cb_chunks_per_slot", "cb_chunks_total"):
        assert row in text
