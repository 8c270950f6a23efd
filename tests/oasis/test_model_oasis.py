"""OASiS offline utility ILP (1)-(13), seed 000 Sec. III-C: models/oasis/__init__.py.

Golden LP file: ``tests/data/golden/oasis_utility_ilp_tiny.lp`` is the symbolic-label LP of
:func:`golden_workload`.  The test rebuilds it and compares the text exactly.  After an
intended change to the model, refresh it with

    MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/oasis/test_model_oasis.py -k golden

and review the diff of the .lp file like code.

Every instance here uses slot_seconds=100, M=10 mini-batches of tau=9 s and e=62.5 MB over
b=1 Gbps (2 e / b = 2*8*62.5/1000 = 1 s), so one chunk takes 10*(9+1)/100 = 1 worker-slot
and W_i = E_i * N_i worker-slots exactly.
"""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pyomo.environ as pyo
import pytest

import mlopt
from mlopt.testing import assert_golden_lp
from mlopt.families.oasis.checker import check_oasis
from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.solve import OPTIMALITY_GAP_TOL, Status
from mlopt.utility import Constant, Linear, Sigmoid
from mlopt.workload import BANDWIDTH, Job, Server, Workload
from mlopt.models.oasis import build_utility_ilp, extract_schedule

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "oasis_utility_ilp_tiny.lp"
RES = ("gpu", "cpu", BANDWIDTH)
WORKER = {"gpu": 1.0, "cpu": 1.0, BANDWIDTH: 1.0}  # b_i = 1 Gbps
PS = {"gpu": 0.0, "cpu": 1.0, BANDWIDTH: 1.0}  # B_i = b_i: (6)+(7) force z = y


def job(jid, arrival, epochs, chunks, utility, worker=WORKER, ps=PS) -> Job:
    """W = epochs * chunks worker-slots (see the module docstring)."""
    return Job(jid, arrival, epochs, chunks, minibatches=10, minibatch_seconds=9.0,
               gradient_mb=62.5, worker_demand=dict(worker), ps_demand=dict(ps),
               utility=utility)


def cluster(worker_gpu: float, ps_cpu: float) -> tuple[Server, Server]:
    return (Server("w1", "worker", {"gpu": worker_gpu, "cpu": 16.0, BANDWIDTH: 10.0}),
            Server("p1", "ps", {"gpu": 0.0, "cpu": ps_cpu, BANDWIDTH: 10.0}))


def workload(horizon, servers, jobs, name="test") -> Workload:
    return Workload(name, horizon, 100.0, RES, tuple(servers), tuple(jobs))


def solve_and_extract(wl, **options):
    model = build_utility_ilp(wl, **options)
    result = mlopt.solve(model)
    return model, result, extract_schedule(model, wl)


# ---- independent checks of (2)-(7), (9)-(10) on an extracted schedule ---------------------
def assert_oasis_feasible(wl: Workload, sched: Schedule, tol: float = 1e-6) -> float:
    """Check the schedule against (2)-(7),(9),(10) with pandas; return the recomputed (1)."""
    df = sched.allocations
    jobs = {j.id: j for j in wl.jobs}
    servers = {s.id: s for s in wl.servers}
    if df.empty:
        assert not sched.admitted
        return 0.0
    assert set(df["job"]) <= set(sched.admitted), "allocation for a rejected job"
    assert (df["count"] > 0).all() and (df["count"] == df["count"].round()).all()
    arrival = df["job"].map({i: j.arrival for i, j in jobs.items()})
    assert (df["slot"] >= arrival).all() and (df["slot"] <= wl.horizon).all()  # (9),(10)
    w = df[df["role"] == "worker"]
    p = df[df["role"] == "ps"]
    assert all(servers[s].hosts_workers() for s in w["server"])
    assert all(servers[s].hosts_ps() for s in p["server"])
    # (2) enough worker-slots
    got = w.groupby("job")["count"].sum()
    for i in sched.admitted:
        assert got.get(i, 0) >= wl.work(jobs[i]) - tol, f"(2) job {i}"
    per_slot = pd.DataFrame({
        "workers": w.groupby(["job", "slot"])["count"].sum(),
        "ps": p.groupby(["job", "slot"])["count"].sum()}).fillna(0)
    for (i, t), row in per_slot.iterrows():
        assert row.workers <= jobs[i].chunks, f"(3) {i} t={t}"
        assert (row.workers * jobs[i].worker_bandwidth
                <= row.ps * jobs[i].ps_bandwidth + tol), f"(6) {i} t={t}"
        assert row.ps <= row.workers, f"(7) {i} t={t}"
    for part, attr in ((w, "worker_demand"), (p, "ps_demand")):  # (4), (5)
        for r in wl.resources:
            use = part["count"] * part["job"].map({i: getattr(j, attr)[r]
                                                  for i, j in jobs.items()})
            load = use.groupby([part["server"], part["slot"]]).sum()
            for (s, t), v in load.items():
                assert v <= servers[s].capacity[r] + tol, f"capacity {s} t={t} {r}"
    # (8) completion = last slot with workers; (1) recomputed from it
    done = w.groupby("job")["slot"].max()
    assert {i: int(t) for i, t in done.items()} == sched.meta["completion"]
    return float(sum(jobs[i].utility(t - jobs[i].arrival) for i, t in done.items()))


def assert_checker_agrees(wl, sched, objective):
    """The independent checker (mlopt/families/oasis/checker.py, another module) must agree."""
    res = check_oasis(wl, sched)
    assert res.feasible, res.summary()
    assert res.objective == pytest.approx(objective, abs=1e-6)


# ---- golden LP ------------------------------------------------------------------------------
def golden_workload() -> Workload:
    """2 jobs, T=3, one worker server, one PS server.

    a: a=1, W=2*2=4, at most 2 workers -> earliest completion slot 2 (u(a_1) is not created);
       PS bandwidth B=2 > b=1, so (6) reads y <= 2 z.
    b: a=2, W=1, constant utility; its PS needs no GPU, so no PS gpu row is written.
    """
    return workload(3, cluster(worker_gpu=2.0, ps_cpu=2.0), [
        job("a", 1, 2, 2, Linear(10.0, 4.0), ps={"gpu": 0.0, "cpu": 1.0, BANDWIDTH: 2.0}),
        job("b", 2, 1, 1, Constant(5.0)),
    ], name="golden")


def test_golden_lp_file():
    assert_golden_lp(build_utility_ilp(golden_workload()), GOLDEN.name)


def test_golden_lp_contents_are_the_papers_rows():
    text = GOLDEN.read_text()
    for name in ("obj1_total_utility", "c2_work_covered(a)", "c3_max_workers(a_1)",
                 "c4_worker_capacity(w1_1_gpu)", "c5_ps_capacity(p1_2_cpu)",
                 "c6_ps_bandwidth(a_1)", "c7_ps_at_most_workers(b_2)",
                 "c8_one_completion(a)", "c8_no_work_after_completion(a_3)",
                 "c8_work_in_completion_slot(b_2)"):
        assert name in text, name
    assert "u(a_1)" not in text  # completion window: a cannot finish in slot 1
    assert "c5_ps_capacity(p1_1_gpu)" not in text  # no PS uses GPUs: no row
    assert "y(b_w1_1)" not in text  # (9): nothing before b's arrival


# ---- hand-solved optimum -------------------------------------------------------------------
def test_hand_computed_optimum():
    """T=3; worker server w1 has 3 GPUs (3 workers/slot), PS server p1 has 2 CPUs (2 PSs/slot).
    Every job has B = b, so (6) z >= y and (7) z <= y give z = y: at most 2 workers per slot in
    total, i.e. 6 worker-slots over the horizon (the PS rows (5),(6) are what binds).

      A: a=1, W=1*2=2, f = 10 - 4d  -> completes slot 1 with 2 workers: f(0) = 10
      B: a=1, W=2*2=4, f = 9 - d    -> earliest slot 2 (f=8); slot 3 gives f(2) = 7
      C: a=2, W=1*1=1, f = 5 (constant)
    A+B+C needs 7 > 6 worker-slots: at most two jobs.
      A+B: A in slot 1 (10) leaves slots 2-3 for B, done in 3 (7): 17.
           B first (slots 1-2, 8) pushes A to slot 3 (10-8=2): 10; sharing: A done 2 (6) and
           B done 3 (7): 13.
      A+C: A slot 1 (10) + C (5) = 15.    B+C: B slots 1-2 (8) + C slot 3 (5) = 13.
    Optimum 17: admit {A, B}, A completes in slot 1, B in slot 3.  Without the PS rows it would
    be 23 (3 workers/slot), so this also shows (5)/(6) are enforced.
    """
    wl = workload(3, cluster(worker_gpu=3.0, ps_cpu=2.0), [
        job("A", 1, 1, 2, Linear(10.0, 4.0)),
        job("B", 1, 2, 2, Linear(9.0, 1.0)),
        job("C", 2, 1, 1, Constant(5.0)),
    ])
    assert [wl.work(j) for j in wl.jobs] == [2.0, 4.0, 1.0]
    model, res, sched = solve_and_extract(wl)
    assert res.status == Status.OPTIMAL
    assert res.objective == pytest.approx(17.0, abs=1e-9)
    assert sched.admitted == {"A", "B"}
    assert sched.meta["completion"] == {"A": 1, "B": 3}
    assert sched.meta["objective"] == pytest.approx(17.0, abs=1e-9)
    w = sched.allocations[sched.allocations["role"] == "worker"]
    assert sorted(zip(w["job"], w["slot"], w["count"])) == [("A", 1, 2), ("B", 2, 2),
                                                            ("B", 3, 2)]
    assert assert_oasis_feasible(wl, sched) == pytest.approx(17.0)
    assert_checker_agrees(wl, sched, 17.0)


def test_completion_window_is_a_valid_tightening():
    """Same optimum with and without fixing u before a_i + ceil(W_i/M_i) - 1."""
    wl = workload(3, cluster(worker_gpu=3.0, ps_cpu=2.0), [
        job("A", 1, 1, 2, Linear(10.0, 4.0)), job("B", 1, 2, 2, Linear(9.0, 1.0)),
        job("C", 2, 1, 1, Constant(5.0))])
    tight = build_utility_ilp(wl)
    loose = build_utility_ilp(wl, completion_window=False)
    # B: W=4, M=2 -> earliest completion 1 + 2 - 1 = 2
    assert [t for (i, t) in tight.JU if i == "B"] == [2, 3]
    assert [t for (i, t) in loose.JU if i == "B"] == [1, 2, 3]
    for m in (tight, loose):
        assert mlopt.solve(m).objective == pytest.approx(17.0, abs=1e-9)


def test_constant_utility_is_a_knapsack():
    """T=2, one GPU (1 worker/slot): 2 worker-slots in total.
    P: a=1, W=2, worth 3; Q: a=2, W=1, worth 4; R: a=1, W=1, worth 2.
    P alone fills both slots (3); Q+R fit (R in slot 1, Q in slot 2): 6.  Optimum 6.
    P has N=2 but only one GPU: M_P = 1, so P can only complete in slot 1 + 2 - 1 = 2.
    """
    wl = workload(2, cluster(worker_gpu=1.0, ps_cpu=4.0), [
        job("P", 1, 1, 2, Constant(3.0)), job("Q", 2, 1, 1, Constant(4.0)),
        job("R", 1, 1, 1, Constant(2.0))])
    model, res, sched = solve_and_extract(wl)
    assert [t for (i, t) in model.JU if i == "P"] == [2]
    assert res.status == Status.OPTIMAL and res.objective == pytest.approx(6.0, abs=1e-9)
    assert sched.admitted == {"Q", "R"}
    assert sched.meta["completion"] == {"R": 1, "Q": 2}
    assert assert_oasis_feasible(wl, sched) == pytest.approx(6.0)
    assert_checker_agrees(wl, sched, 6.0)


def test_no_job_can_be_admitted():
    """T=2. X needs W=3*1=3 worker-slots at most 1 per slot (N=1): earliest completion is
    slot 3 > T.  Y's parameter server fits on no PS machine (built without validation), so
    (6) forbids any worker.  Nothing is admitted, objective 0, empty schedule."""
    wl = workload(2, cluster(worker_gpu=4.0, ps_cpu=4.0), [
        job("X", 1, 3, 1, Constant(100.0)),
        job("Y", 1, 1, 1, Constant(100.0), ps={"gpu": 0.0, "cpu": 8.0, BANDWIDTH: 1.0})])
    model, res, sched = solve_and_extract(wl)
    assert not [k for k in model.JU]  # neither job has a possible completion slot
    assert not [k for k in model.JKT if k[0] == "Y"]  # Y's PS fits nowhere: no z
    assert res.status == Status.OPTIMAL and res.objective == pytest.approx(0.0, abs=1e-12)
    assert sched.admitted == frozenset() and sched.allocations.empty
    assert sched.meta["objective"] == 0.0 and sched.meta["completion"] == {}
    assert_checker_agrees(wl, sched, 0.0)


# ---- exactness of the (8) linearization against brute force --------------------------------
def brute_force_optimum(wl: Workload) -> float:
    """Enumerate every worker plan of (1)-(13) on one worker and one PS server.

    Per job: a worker count per slot t >= a_i (0..N_i); a plan either places nobody (x=0) or
    covers W_i (x=1, (2)+(3)).  Per slot the fewest PSs satisfying (6), ceil(b y / B), is always
    best (fewer PSs only relax (5)); (7) then needs it <= y.  Value f_i(last worker slot - a_i).
    """
    import itertools

    (ws,), (ps,) = wl.worker_servers(), wl.ps_servers()
    T = wl.horizon
    plans = []
    for j in wl.jobs:
        options = [[0] * T]
        ranges = [range(j.chunks + 1) if t + 1 >= j.arrival else [0] for t in range(T)]
        for ys in itertools.product(*ranges):
            if sum(ys) >= wl.work(j) - 1e-9:
                options.append(list(ys))
        plans.append(options)
    best = 0.0
    for combo in itertools.product(*plans):
        value, ok = 0.0, True
        for t in range(T):
            zs = [math.ceil(y * j.worker_bandwidth / j.ps_bandwidth - 1e-9)
                  for j, ys in zip(wl.jobs, combo) for y in [ys[t]]]
            if any(z > ys[t] for z, ys in zip(zs, combo)):
                ok = False
                break
            for r in wl.resources:
                if (sum(j.worker_demand[r] * ys[t] for j, ys in zip(wl.jobs, combo))
                        > ws.capacity[r] + 1e-9 or
                        sum(j.ps_demand[r] * z for j, z in zip(wl.jobs, zs))
                        > ps.capacity[r] + 1e-9):
                    ok = False
                    break
            if not ok:
                break
        if not ok:
            continue
        for j, ys in zip(wl.jobs, combo):
            if any(ys):
                last = max(t + 1 for t in range(T) if ys[t])
                value += float(j.utility(last - j.arrival))
        best = max(best, value)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_linearization_matches_brute_force(seed):
    """Random tiny instances (T=3, 2-3 jobs, tight servers, mixed utilities, B_i < or > b_i):
    the MILP optimum equals exhaustive enumeration of (1)-(13), with and without the
    completion window, and the extracted schedule re-evaluates to it."""
    rng = np.random.default_rng(seed)
    utilities = [lambda: Linear(float(rng.integers(1, 20)), float(rng.integers(0, 8))),
                 lambda: Constant(float(rng.integers(1, 20))),
                 lambda: Sigmoid(float(rng.integers(1, 20)), float(rng.uniform(0, 2)),
                                 float(rng.integers(0, 3)))]
    jobs = [job(f"j{n}", int(rng.integers(1, 3)), int(rng.integers(1, 3)),
                int(rng.integers(1, 3)), utilities[int(rng.integers(3))](),
                worker={"gpu": float(rng.integers(1, 3)), "cpu": 1.0, BANDWIDTH: 1.0},
                ps={"gpu": 0.0, "cpu": float(rng.integers(1, 3)),
                    BANDWIDTH: float(rng.choice([0.5, 1.0, 2.0]))})
            for n in range(int(rng.integers(2, 4)))]
    wl = workload(3, cluster(worker_gpu=float(rng.integers(2, 5)),
                             ps_cpu=float(rng.integers(2, 5))), jobs)
    expected = brute_force_optimum(wl)
    for window in (True, False):
        model, res, sched = solve_and_extract(wl, completion_window=window)
        assert res.status == Status.OPTIMAL
        assert res.objective == pytest.approx(expected, abs=1e-6)
        assert assert_oasis_feasible(wl, sched) == pytest.approx(expected, abs=1e-6)
        assert_checker_agrees(wl, sched, expected)


# ---- structure: index sets, bounds, skipped rows ---------------------------------------------
def test_bounds_from_capacity_and_chunks_never_divide_by_zero():
    """w1 has 8 GPUs, 16 CPUs; a worker of G needs 3 GPUs and 0 CPUs (no row, no division):
    floor(8/3) = 2 < N=5.  A worker of H needs 1 GPU: min(N=3, 8) = 3.  PS: 0 GPU demand on a
    0-GPU machine is fine; floor(4 CPUs / 3) = 1 for G; H is capped by N=3 (PS cpu 1 -> 4)."""
    servers = (Server("w1", "worker", {"gpu": 8.0, "cpu": 16.0, BANDWIDTH: 100.0}),
               Server("p1", "ps", {"gpu": 0.0, "cpu": 4.0, BANDWIDTH: 100.0}))
    wl = workload(3, servers, [
        job("G", 2, 1, 5, Constant(1.0), worker={"gpu": 3.0, "cpu": 0.0, BANDWIDTH: 1.0},
            ps={"gpu": 0.0, "cpu": 3.0, BANDWIDTH: 1.0}),
        job("H", 1, 1, 3, Constant(1.0))])
    m = build_utility_ilp(wl)
    assert m.y["G", "w1", 2].bounds == (0, 2)
    assert m.y["H", "w1", 1].bounds == (0, 3)
    assert m.z["G", "p1", 3].bounds == (0, 1)
    assert m.z["H", "p1", 1].bounds == (0, 3)
    # (9)/(10): nothing before G's arrival in slot 2
    assert ("G", "w1", 1) not in m.JHT and ("G", "p1", 1) not in m.JKT
    # G uses no CPU on workers: the worker cpu row for slot 2 holds H only
    row = m.c4_worker_capacity["w1", 2, "cpu"]
    assert {v.index()[0] for v in pyo.expr.identify_variables(row.body)} == {"H"}
    assert ("p1", 1, "gpu") not in m.KTR  # no job's PS uses GPUs
    assert m.name == "oasis_utility_ilp"


def test_work_is_rounded_up_to_whole_worker_slots():
    """(2) with integer y: W = 2.5 needs 3 worker-slots; W = 3.0000000000000004 (float noise
    from 0.1 s + 0.2 s) needs 3, not 4.  One GPU = one worker per slot, so T slots give T
    worker-slots: T=3 admits both jobs, T=2 admits neither (2 < 2.5), and a "needs 4" reading
    would reject the noisy job at T=3."""
    half = Job("h", 1, 1, 5, minibatches=5, minibatch_seconds=9.0, gradient_mb=62.5,
               worker_demand=dict(WORKER), ps_demand=dict(PS), utility=Constant(1.0))
    noisy = Job("n", 1, 1, 1, minibatches=10, minibatch_seconds=0.1, gradient_mb=12.5,
                worker_demand=dict(WORKER), ps_demand=dict(PS), utility=Constant(1.0))
    for horizon, value in ((3, 1.0), (2, 0.0)):
        half_wl = workload(horizon, cluster(1.0, 4.0), [half])
        noisy_wl = Workload("noise", horizon, 1.0, RES, cluster(1.0, 4.0), (noisy,))
        assert half_wl.work(half) == 2.5 and noisy_wl.work(noisy) > 3.0
        for w, jid in ((half_wl, "h"), (noisy_wl, "n")):
            m = build_utility_ilp(w)
            row = m.c2_work_covered[jid]
            coefs = {v.name: c for c, v in zip(*_linear(row.body))}
            assert abs(coefs[f"x[{jid}]"]) == 3
            res = mlopt.solve(m)
            sched = extract_schedule(m, w)
            assert res.status == Status.OPTIMAL
            assert res.objective == pytest.approx(value, abs=1e-9)
            assert sched.allocations.query("role == 'worker'")["count"].sum() == 3 * value
            assert_oasis_feasible(w, sched)
            assert_checker_agrees(w, sched, value)


def _linear(expr):
    from pyomo.repn import generate_standard_repn

    repn = generate_standard_repn(expr)
    return repn.linear_coefs, repn.linear_vars


def test_bad_options_and_shared_servers_are_input_errors():
    wl = golden_workload()
    with pytest.raises(InputError, match="unknown option"):
        build_utility_ilp(wl, window=True)
    shared = (Server("s", "any", {"gpu": 4.0, "cpu": 8.0, BANDWIDTH: 10.0}),)
    with pytest.raises(InputError, match="separate machines"):
        build_utility_ilp(workload(2, shared, [job("a", 1, 1, 1, Constant(1.0))]))


def test_extract_refuses_unsolved_or_fractional_models():
    wl = golden_workload()
    m = build_utility_ilp(wl)
    with pytest.raises(ValueError, match="no value"):
        extract_schedule(m, wl)
    mlopt.solve(m)
    m.y["a", "w1", 2].set_value(1.0 + 1e-7, skip_validation=True)  # within 1e-6: rounded
    extract_schedule(m, wl)
    m.y["a", "w1", 2].set_value(0.5, skip_validation=True)
    with pytest.raises(ValueError, match="not integral"):
        extract_schedule(m, wl)
    other = workload(3, cluster(2.0, 2.0), [job("zz", 1, 1, 1, Constant(1.0))])
    with pytest.raises(ValueError, match="different workload"):
        extract_schedule(m, other)


# ---- a larger random instance under a time limit ------------------------------------------
def random_workload(seed: int, n_jobs=20, horizon=12, n_workers=4, n_ps=3) -> Workload:
    rng = np.random.default_rng(seed)
    res = ("gpu", "cpu", "memory_gb", BANDWIDTH)
    servers = [Server(f"w{h}", "worker", {"gpu": 8.0, "cpu": 32.0, "memory_gb": 200.0,
                                          BANDWIDTH: 40.0}) for h in range(n_workers)]
    servers += [Server(f"p{k}", "ps", {"gpu": 0.0, "cpu": 36.0, "memory_gb": 60.0,
                                       BANDWIDTH: 40.0}) for k in range(n_ps)]
    jobs = [Job(f"j{i:02d}", int(rng.integers(1, horizon // 2 + 1)), int(rng.integers(5, 20)),
                int(rng.integers(5, 30)), int(rng.integers(10, 50)),
                float(rng.uniform(0.001, 0.01)), float(rng.uniform(30, 575)),
                {"gpu": float(rng.integers(0, 5)), "cpu": float(rng.integers(1, 11)),
                 "memory_gb": float(rng.integers(2, 33)), BANDWIDTH: float(rng.integers(1, 6))},
                {"gpu": 0.0, "cpu": float(rng.integers(1, 11)),
                 "memory_gb": float(rng.integers(2, 33)), BANDWIDTH: float(rng.integers(5, 21))},
                Sigmoid(float(rng.uniform(1, 100)), float(rng.uniform(0, 1)),
                        float(rng.uniform(1, 15))))
            for i in range(n_jobs)]
    return Workload(f"random-{seed}", horizon, 3600.0, res, tuple(servers), tuple(jobs))


def test_time_limited_solve_reports_honestly():
    wl = random_workload(0)
    model = build_utility_ilp(wl)
    res = mlopt.solve(model, time_limit=1.0)
    if not res.has_solution:  # a loaded machine: no incumbent in 1 s, and it says so honestly
        assert res.status not in (Status.OPTIMAL, Status.FEASIBLE) and res.objective is None
        assert res.termination == "maxTimeLimit"
        return
    assert res.status in (Status.OPTIMAL, Status.FEASIBLE)
    assert res.bound is not None and res.objective <= res.bound + 1e-6  # maximization
    if res.status == Status.OPTIMAL:
        assert res.gap <= OPTIMALITY_GAP_TOL or res.bound - res.objective <= 1e-6
    else:
        assert res.gap > 0 and res.termination == "maxTimeLimit"
    sched = extract_schedule(model, wl)
    assert sched.meta["objective"] == pytest.approx(res.objective, rel=1e-9)
    recomputed = assert_oasis_feasible(wl, sched)
    assert recomputed == pytest.approx(res.objective, rel=1e-7, abs=1e-6)
    assert_checker_agrees(wl, sched, res.objective)


def checker_slack_instance():
    """The independent review's instance (workers of 1 + 1e-9 CPU: two fit a 2-CPU server
    within the checker's slack, 2.000000002 <= 2 (1 + 1e-9) + 1e-9), the start "a alone" and
    the schedule running a and c each on two workers in its own slot: (workload, start, both).
    N = 2 chunks, W = 2 worker-slots per job."""
    servers = (Server("w1", "worker", {"cpu": 2.0, BANDWIDTH: 2.0}),
               Server("p1", "ps", {"cpu": 3.0, BANDWIDTH: 3.0}))

    def tjob(name, arrival, utility):
        return Job(name, arrival, 1, 2, minibatches=10, minibatch_seconds=9.0,
                   gradient_mb=62.5, worker_demand={"cpu": 1.0 + 1e-9, BANDWIDTH: 1.0},
                   ps_demand={"cpu": 1.0, BANDWIDTH: 2.0}, utility=utility)

    wl = Workload("tol", 2, 100.0, ("cpu", BANDWIDTH), servers,
                  (tjob("a", 1, Linear(10.0, 9.0)), tjob("c", 2, Linear(5.0, 1.0))))
    start = Schedule.from_rows(["a"], [("a", 1, "w1", "worker", 2), ("a", 1, "p1", "ps", 1)],
                               {"producer": "hand"})
    both = Schedule.from_rows(["a", "c"], [
        ("a", 1, "w1", "worker", 2), ("a", 1, "p1", "ps", 1),
        ("c", 2, "w1", "worker", 2), ("c", 2, "p1", "ps", 1)], {"producer": "hand"})
    return wl, start, both


def test_the_model_allows_every_load_the_checker_accepts():
    """The ILP is a relaxation of the checker (DECISION at ``accepted_capacity``).  Found by an
    independent review: two workers of 1 + 1e-9 CPU on a 2-CPU server are within the checker's
    slack (2.000000002 <= 2 (1 + 1e-9) + 1e-9), so a and c each on two workers in their own
    slot is a checked schedule; the ILP allowed one worker (floor(2 / 1.000000001) = 1), so
    neither job could finish, and called 1 optimal.  Now its optimum is at least the checked
    schedule's."""
    wl, _, both = checker_slack_instance()
    checked = check_oasis(wl, both)
    assert checked.feasible
    model, result, schedule = solve_and_extract(wl)
    assert result.status == Status.OPTIMAL
    assert result.objective >= checked.objective - 1e-9  # was 1, below the checked schedule
    got = check_oasis(wl, schedule)
    assert got.feasible and got.objective == pytest.approx(result.objective)
    # non-integer demands: the row's right-hand side is the checker's accepted load (integer
    # data keep the exact capacity, so the golden LP is unchanged)
    assert model.c4_worker_capacity["w1", 1, "cpu"].upper == pytest.approx(2 * (1 + 1e-9) + 1e-9)
