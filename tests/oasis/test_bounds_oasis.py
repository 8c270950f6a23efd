"""Certified upper bounds on the OASiS optimum: mlopt/bounds, models/oasis/master.py.

The chain every test instance must satisfy (seed 000, Sec. IV-A):

    restricted-master ILP  <=  OPT (utility ILP (1)-(13))  <=  LP(14)  <=  dual certificate

Hand-built instances use slot_seconds=100, M=10 mini-batches of tau=9 s and e=62.5 MB over
b=1 Gbps (2 e / b = 1 s), so one chunk takes 10 * (9 + 1) / 100 = 1 worker-slot and
W_i = E_i N_i worker-slots exactly (as tests/oasis/test_model_oasis.py).

Golden LP file ``tests/data/golden/oasis_master_tiny.lp``: refresh after an intended model
change with ``MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/oasis/test_bounds_oasis.py
-k golden`` and review the diff.
"""
from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest
from mlopt.testing import assert_golden_lp
from mlopt.models.oasis import build_utility_ilp
from mlopt.models.oasis.master import (
    Column,
    build_master,
    column_violations,
    columns_from_schedule,
    extract_master_schedule,
)

import mlopt
from mlopt.families.oasis.online import oasis_online
from mlopt.families.oasis.subroutine import SubJob, best_schedule
from mlopt.families import get_family
from mlopt.families.oasis.bounds import BoundResult
from mlopt.families.oasis.bounds.colgen import (
    MasterLP,
    colgen_bound,
    initial_columns,
    server_classes,
    symmetrize,
)
from mlopt.families.oasis.bounds.dual_certificate import (
    dual_certificate,
    empty_market,
    price_certificate,
    schedulable_jobs,
)
from mlopt.families.oasis.checker import check_oasis
from mlopt.errors import InputError
from mlopt.families.oasis.generator import generate
from mlopt.solve import Status
from mlopt.utility import Constant, Linear
from mlopt.workload import BANDWIDTH, Job, Server, Workload

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "oasis_master_tiny.lp"
RES = ("cpu", BANDWIDTH)
RTOL = 1e-6


def job(jid, arrival, epochs, chunks, utility, worker, ps) -> Job:
    """W = epochs * chunks worker-slots (see the module docstring)."""
    return Job(jid, arrival, epochs, chunks, minibatches=10, minibatch_seconds=9.0,
               gradient_mb=62.5, worker_demand=dict(worker), ps_demand=dict(ps),
               utility=utility)


def hand_workload() -> Workload:
    """T=2; one worker server and one PS server, each {cpu: 2, bw: 2}.

    a: arrives in slot 1, W = 1 worker-slot, one worker {cpu 1, bw 1} and one PS {cpu 1, bw 1}
       (b = B, so (6)+(7) need exactly one PS per worker); f(0) = 10, f(1) = 7.
    z: needs W = 3 worker-slots with at most N = 1 worker per slot in T = 2 slots: L_z is
       empty, it can never be scheduled.
    """
    one = {"cpu": 1.0, BANDWIDTH: 1.0}
    servers = (Server("w1", "worker", {"cpu": 2.0, BANDWIDTH: 2.0}),
               Server("p1", "ps", {"cpu": 2.0, BANDWIDTH: 2.0}))
    jobs = (job("a", 1, 1, 1, Linear(10.0, 3.0), one, one),
            job("z", 1, 3, 1, Constant(50.0), one, one))
    return Workload("hand", 2, 100.0, RES, servers, jobs)


# ---- dual certificate ------------------------------------------------------------------------
def test_price_certificate_equals_hand_arithmetic():
    wl = hand_workload()
    # p[t, h, r], q[t, k, r]; rows t = slot 1, 2; r = (cpu, bw)
    p = np.array([[[2.0, 1.0]], [[0.5, 0.5]]])
    q = np.array([[[1.0, 1.0]], [[3.0, 0.0]]])
    cert = price_certificate(wl, p, q)
    # job a: end in slot 1 costs worker 2*1 + 1*1 = 3 and PS 1 + 1 = 2: payoff 10 - 5 = 5;
    #        end in slot 2 costs worker 0.5 + 0.5 = 1 and PS 3 + 0 = 3: payoff 7 - 4 = 3.
    assert cert.payoff[0] == pytest.approx(5.0, abs=1e-12)
    # job z: no schedule at all, mu = 0 exactly (no tolerance added)
    assert list(cert.schedulable) == [True, False]
    assert cert.mu[1] == 0.0 and cert.tolerance[1] == 0.0
    # sum p c: slot 1: 2*2 + 1*2 = 6, slot 2: 0.5*2 + 0.5*2 = 2; sum q c: 2+2 = 4, 6+0 = 6
    assert cert.worker_term == pytest.approx(8.0, abs=1e-12)
    assert cert.ps_term == pytest.approx(10.0, abs=1e-12)
    # mu_a = 5 + 2 PAYOFF_RTOL max(1, f_max = 10) = 5 + 2e-8
    assert cert.tolerance[0] == pytest.approx(2e-8, rel=1e-12)
    assert cert.bound == pytest.approx(5.0 + 2e-8 + 8.0 + 10.0, abs=1e-12)
    assert cert.summary(wl)["unschedulable"] == ["z"]


def test_dual_certificate_of_an_oasis_run_by_hand():
    """One schedulable job; the oracle prices (22)-(26) and the certificate by hand.

    Worker: c = {2, 2}, w = {1, 1}; PS the same.  W = 1, shortest completion 1 slot, f(0)=10,
    f(T - a) = f(1) = 7.  eta_1 = max(1, T sum c / (ceil(W) sum w)) = 2*4/2 = 4, so
    L_1 = 7 / (4 * 4 * 1 * 2) = 7/32 and U_1^r = 10 / 1 = 10; the PS side is identical.
    (Job z is left out of (23)-(26): it has no schedule.)
    Arrival: all prices L = 7/32, one worker + one PS in slot 1 cost 4 L = 0.875, payoff
    9.125 > 0: admitted.  Afterwards g = v = 1 = c/2 in slot 1, so p = q = L (U/L)^(1/2) =
    sqrt(L U) there, and L in slot 2.
    Certificate: sum p c + sum q c = 2 * [2 * 2 sqrt(LU) + 2 * 2 L]; mu_a = max over end
    slots: slot 1: 10 - 4 sqrt(LU) = 4.084, slot 2: 7 - 4 L = 6.125 -> 6.125 (+ 2e-8).
    """
    wl = hand_workload()
    run = oasis_online(wl)
    L, U = 7.0 / 32.0, 10.0
    assert run.params.L1 == pytest.approx(L) and run.params.L2 == pytest.approx(L)
    assert list(run.schedule.admitted) == ["a"]
    assert run.worker_price[0, 0] == pytest.approx([math.sqrt(L * U)] * 2)
    res = dual_certificate(wl, run)
    expected = (7.0 - 4 * L + 2e-8) + 2 * (4 * math.sqrt(L * U) + 4 * L)
    assert res.upper_bound == pytest.approx(expected, rel=1e-12)
    assert res.method == "dual_certificate"
    assert res.feasible_objective == pytest.approx(10.0)  # a completes in its arrival slot
    assert res.details["unschedulable"] == ["z"]
    # OPT = 10 here (a alone, as early as possible)
    assert res.feasible_objective <= 10.0 + 1e-9 <= res.upper_bound


def test_certificate_rejects_bad_prices():
    wl = hand_workload()
    good = np.ones((2, 1, 2))
    with pytest.raises(InputError, match="shape"):
        price_certificate(wl, np.ones((2, 2, 2)), good)
    with pytest.raises(InputError, match="finite"):
        price_certificate(wl, good, np.full((2, 1, 2), np.nan))
    # tiny negative LP duals are clipped to 0: the certificate is that of the clipped point
    neg = price_certificate(wl, -1e-12 * good, good)
    assert neg.bound == pytest.approx(price_certificate(wl, 0 * good, good).bound)


def test_schedulable_jobs_matches_hand():
    assert list(schedulable_jobs(hand_workload())) == [True, False]


# ---- the chain ILP <= OPT <= LP(14) <= certificates on generated instances --------------------
CASES = [("tiny", 0), ("tiny", 1), ("tiny", 2), ("paper-fig5", 0), ("paper-fig5", 3),
         ("paper-fig5", 4)]


@pytest.fixture(scope="module", params=CASES, ids=[f"{p}-{s}" for p, s in CASES])
def chain(request):
    preset, seed = request.param
    wl = generate(preset, seed=seed)
    run = oasis_online(wl)
    opt = mlopt.solve(build_utility_ilp(wl))
    assert opt.status == Status.OPTIMAL
    cg = colgen_bound(wl, run=run, time_limit=60)
    dc = dual_certificate(wl, run)
    return wl, run, opt.objective, cg, dc


def test_chain_of_bounds(chain):
    wl, run, opt, cg, dc = chain
    ilp = cg.details["ilp"]
    assert ilp["status"] == "optimal" and ilp["checked_feasible"]
    tol = RTOL * max(1.0, opt)
    assert ilp["checked_objective"] <= opt + tol  # restricted master <= OPT
    assert cg.feasible_objective <= opt + tol
    assert cg.method == "lp_optimal"  # column generation terminated with a proof
    assert opt <= cg.lp_value + tol  # OPT <= LP(14)
    assert cg.lp_value <= cg.upper_bound + tol  # LP(14) <= its certificate
    assert cg.upper_bound - cg.lp_value <= cg.details["gap_tol_abs"] + tol
    assert cg.upper_bound <= dc.upper_bound + tol  # LP(14) <= any dual point
    # the feasible side: never worse than OASiS, and checked
    assert cg.feasible_objective >= check_oasis(wl, run.schedule).objective - tol
    assert check_oasis(wl, cg.schedule).feasible
    assert check_oasis(wl, cg.schedule).objective == pytest.approx(cg.feasible_objective)


def test_restricted_master_schedule_passes_the_checker(chain):
    cg = chain[3]
    assert cg.details["ilp"]["checked_feasible"] is True
    assert cg.details["lp_rounding"]["checked_feasible"] is True
    assert cg.details["lp_rounding"]["checked_objective"] <= cg.feasible_objective + 1e-9


# ---- the master model (14)-(18) --------------------------------------------------------------
def _columns(wl: Workload) -> list[Column]:
    """OASiS + greedy columns, plus the best schedule of each job under OASiS's final prices."""
    run = oasis_online(wl)
    cols = initial_columns(wl, run, ("oasis", "greedy"))
    market = empty_market(wl, run.worker_price, run.ps_price)
    for i in range(len(wl.jobs)):
        s = best_schedule(SubJob.from_workload(wl, i), market, unit="worker_slot")
        if s.admit:
            cols.append(Column.from_dense(wl, i, s.workers, s.ps, "pricing"))
    return cols


def test_pyomo_master_matches_highs_master():
    wl = generate("paper-fig5", seed=1)
    cols = _columns(wl)
    lp = mlopt.solve(build_master(wl, cols, relax=True))
    assert lp.status == Status.OPTIMAL
    values = []
    for lazy in (True, False):
        m = MasterLP(wl, lazy_rows=lazy)
        for c in cols:
            m.add(c)
        values.append(m.solve()["value"])
    assert values[0] == pytest.approx(lp.objective, rel=1e-7)
    assert values[1] == pytest.approx(lp.objective, rel=1e-7)
    # integer master: Pyomo + solve layer vs in-memory HiGHS with lazy rows
    model = build_master(wl, cols)
    ilp = mlopt.solve(model)
    assert ilp.status == Status.OPTIMAL
    sched = extract_master_schedule(model, wl, cols)
    chk = check_oasis(wl, sched)
    assert chk.feasible and chk.objective == pytest.approx(ilp.objective, rel=1e-9)
    m = MasterLP(wl)
    for c in cols:
        m.add(c)
    res = m.solve_ilp()
    assert res["status"] == "optimal"
    assert res["objective"] == pytest.approx(ilp.objective, rel=1e-7)
    assert ilp.objective <= lp.objective + 1e-6


def test_colgen_ilp_backends_agree():
    wl = generate("tiny", seed=1)
    a = colgen_bound(wl, ilp_backend="highs")
    b = colgen_bound(wl, ilp_backend="pyomo")
    assert a.details["ilp"]["status"] == b.details["ilp"]["status"] == "optimal"
    assert a.details["ilp"]["checked_objective"] == pytest.approx(
        b.details["ilp"]["checked_objective"], rel=1e-9)
    with pytest.raises(InputError, match="ILP backend"):
        colgen_bound(wl, ilp_backend="cplex")


def test_columns_are_validated():
    wl = hand_workload()
    T, H, K = 2, 1, 1
    w = np.zeros((T, H), dtype=np.int64)
    p = np.zeros((T, K), dtype=np.int64)
    w[0, 0], p[0, 0] = 1, 1
    good = Column.from_dense(wl, 0, w, p)
    assert column_violations(wl, good) == []
    assert good.utility == 10.0 and good.end_slot == 1
    w3 = w.copy()
    w3[0, 0] = 3  # 3 workers x cpu 1 > capacity 2, and > N = 1
    bad = Column.from_dense(wl, 0, w3, p)
    msgs = column_violations(wl, bad)
    assert any("(3)" in m for m in msgs) and any("empty-server cap" in m for m in msgs)
    nops = Column.from_dense(wl, 0, w, np.zeros((T, K), dtype=np.int64))
    assert any("(6)" in m for m in column_violations(wl, nops))
    with pytest.raises(InputError, match="not a schedule"):
        build_master(wl, [good, bad])
    # a schedule read back from a Schedule table is the same column
    sched = oasis_online(wl).schedule
    (back,) = columns_from_schedule(wl, sched, "oasis")
    assert back.key == good.key


def golden_columns():
    wl = hand_workload()
    w = np.zeros((2, 1), dtype=np.int64)
    p = np.zeros((2, 1), dtype=np.int64)
    w[0, 0] = p[0, 0] = 1
    c1 = Column.from_dense(wl, 0, w, p)
    c2 = Column.from_dense(wl, 0, w[::-1].copy(), p[::-1].copy())  # same job, in slot 2
    return wl, [c1, c2]


def test_golden_lp_file():
    wl, cols = golden_columns()
    assert_golden_lp(build_master(wl, cols), GOLDEN.name)
    text = GOLDEN.read_text()
    for name in ("obj14", "c15_worker_capacity(w1_1_cpu)", "c16_ps_capacity(p1_2_bandwidth_gbps)",
                 "c17_one_schedule_per_job(a)", "x(a_0)", "x(a_1)"):
        assert name in text, name


def test_master_ilp_picks_the_early_schedule():
    wl, cols = golden_columns()
    model = build_master(wl, cols)
    res = mlopt.solve(model)
    assert res.objective == pytest.approx(10.0)  # f(0) = 10 beats f(1) = 7, (17) allows one
    sched = extract_master_schedule(model, wl, cols)
    assert check_oasis(wl, sched).objective == pytest.approx(10.0)
    lp = build_master(wl, cols, relax=True)
    with pytest.raises(ValueError, match="no value"):
        extract_master_schedule(lp, wl, cols)


# ---- stabilization and limits ----------------------------------------------------------------
def test_symmetrizing_identical_servers_never_raises_the_certificate():
    """D(p, q) is convex and invariant under swapping identical servers: averaging prices over
    a class of exact copies cannot increase it (the claim colgen's pricing relies on)."""
    base = generate("paper-fig5", seed=2)
    ws, ps = base.worker_servers()[0], base.ps_servers()[0]
    servers = tuple(dataclasses.replace(ws, id=f"w{n}") for n in range(2)) + \
        tuple(dataclasses.replace(ps, id=f"p{n}") for n in range(2))
    wl = Workload("copies", base.horizon, base.slot_seconds, base.resources, servers, base.jobs)
    cw, cp = server_classes(wl)
    assert list(cw) == [0, 0] and list(cp) == [0, 0]
    rng = np.random.default_rng(0)
    T, R = wl.horizon, len(wl.resources)
    for _ in range(3):
        p = rng.exponential(0.3, (T, 2, R))
        q = rng.exponential(0.3, (T, 2, R))
        d = price_certificate(wl, p, q).bound
        d_sym = price_certificate(wl, symmetrize(p, cw), symmetrize(q, cp)).bound
        assert d_sym <= d + 1e-9 * d


def test_colgen_at_an_iteration_limit_still_bounds_opt():
    wl = generate("paper-fig5", seed=0)
    opt = mlopt.solve(build_utility_ilp(wl)).objective
    res = colgen_bound(wl, max_iterations=1, ilp=False)
    assert res.method == "lagrangian_at_limit" and res.iterations == 1
    assert res.upper_bound >= opt - 1e-6
    assert res.lp_value <= res.upper_bound
    assert "ilp" not in res.details


def test_registry():
    """Bounds are found through the family only (one registry per concept)."""
    family = get_family("oasis")
    assert set(family.bounds) == {"dual_certificate", "colgen", "class_relaxation"}
    with pytest.raises(InputError, match="unknown bound"):
        family.bound("nope")
    res = dual_certificate(hand_workload())
    assert isinstance(res, BoundResult)
    d = res.to_dict()
    assert d["name"] == "dual_certificate" and d["gap"] == pytest.approx(res.gap)
    via_family = family.bound("dual_certificate")(hand_workload())
    assert via_family["bound"] == pytest.approx(res.upper_bound)


def test_ilp_over_near_zero_reduced_cost_columns():
    wl = generate("paper-fig5", seed=0)
    run = oasis_online(wl)
    # no primal phase: it adds local-search columns to the master after the ILP
    full = colgen_bound(wl, run=run, ilp_columns="all", primal_time_limit=0)
    near = colgen_bound(wl, run=run, ilp_columns="near_zero_rc", primal_time_limit=0)
    assert near.details["ilp"]["columns"] < full.details["ilp"]["columns"] == full.columns
    assert near.details["ilp"]["checked_feasible"]
    # a subset of the columns: never better than the ILP over all of them (both optimal)
    assert near.details["ilp"]["checked_objective"] <= \
        full.details["ilp"]["checked_objective"] + 1e-9
    assert near.feasible_objective >= check_oasis(wl, run.schedule).objective - 1e-9
    with pytest.raises(InputError, match="ILP column set"):
        colgen_bound(wl, run=run, ilp_columns="some")
