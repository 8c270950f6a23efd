"""Independent OASiS checker (mlopt/families/oasis/checker.py; seed 000, constraints (1)-(13)).

Hand-built workload, T = 3, slot_seconds = 3600:

servers  w1 worker: gpu 2, cpu 16, mem 64, storage 100, bw 10
         w2 worker: gpu 4, cpu 16, mem 64, storage 100, bw 10
         p1 ps:     gpu 0, cpu 4,  mem 32, storage 100, bw 20
         p2 ps:     gpu 0, cpu 8,  mem 32, storage 100, bw 20

job A  a=1, E=3, N=2, M=1000, tau=0.2 s, e=100 MB, b=1 Gbps, B=2 Gbps
       2e/b = 2*8*100/(1000*1) = 1.6 s; mini-batch 1.8 s; chunk 1000*1.8 = 1800 s = 0.5 slot;
       work W = 3*2*0.5 = 3 worker-slots.  worker (gpu 1, cpu 4, mem 8, sto 5, bw 1),
       PS (gpu 0, cpu 2, mem 4, sto 5, bw 2).  f(d) = 10 / (1 + exp(d - 1)).
job B  a=2, E=1, N=1, M=500, tau=0.6 s, e=150 MB, b=2, B=4
       2e/b = 2*8*150/2000 = 1.2 s; mini-batch 1.8 s; chunk 900 s = 0.25 slot; W = 0.25.
       worker (gpu 2, cpu 4, mem 16, sto 5, bw 2), PS (gpu 0, cpu 3, mem 8, sto 5, bw 4).
       f(d) = max(0, 8 - 2 d).
job C  a=1, never admitted.

Feasible schedule (admitted A, B):
  A: slot 1: 2 workers on w1, 1 PS on p1;  slot 2: 1 worker on w1, 1 PS on p1
     worker-slots 2 + 1 = 3 >= W = 3;  (6) slot 1: 2*1 = 2 <= 1*2 = 2;  slot 2: 1 <= 2
     w1 slot 1: gpu 2 <= 2 (tight), cpu 8, mem 16, bw 2
  B: slot 2: 1 worker on w2, 1 PS on p2;  (6) 1*2 = 2 <= 1*4 = 4
  completions: A slot 2 -> f_A(2 - 1) = 10 / (1 + e^0) = 5;  B slot 2 -> f_B(0) = 8
  objective (1) = 5 + 8 = 13
"""
from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from mlopt.families.oasis.checker import CONSTRAINTS, check_oasis
from mlopt.schedule import Schedule
from mlopt.utility import Constant, Linear, Sigmoid
from mlopt.workload import BANDWIDTH, DEFAULT_RESOURCES, Job, Server, Workload, validate


def cap(gpu, cpu, mem, bw, storage=100.0):
    return {"gpu": gpu, "cpu": cpu, "memory_gb": mem, "storage_gb": storage, BANDWIDTH: bw}


def hand_workload() -> Workload:
    servers = (Server("w1", "worker", cap(2, 16, 64, 10)),
               Server("w2", "worker", cap(4, 16, 64, 10)),
               Server("p1", "ps", cap(0, 4, 32, 20)), Server("p2", "ps", cap(0, 8, 32, 20)))
    jobs = (
        Job("A", 1, 3, 2, 1000, 0.2, 100.0, cap(1, 4, 8, 1.0, 5), cap(0, 2, 4, 2.0, 5),
            Sigmoid(10.0, 1.0, 1.0)),
        Job("B", 2, 1, 1, 500, 0.6, 150.0, cap(2, 4, 16, 2.0, 5), cap(0, 3, 8, 4.0, 5),
            Linear(8.0, 2.0)),
        Job("C", 1, 1, 1, 100, 1.0, 10.0, cap(1, 1, 1, 1.0, 5), cap(0, 1, 1, 1.0, 5),
            Constant(100.0)),
    )
    return validate(Workload("hand", 3, 3600.0, DEFAULT_RESOURCES, servers, jobs))


FEASIBLE = [
    ("A", 1, "w1", "worker", 2), ("A", 1, "p1", "ps", 1),
    ("A", 2, "w1", "worker", 1), ("A", 2, "p1", "ps", 1),
    ("B", 2, "w2", "worker", 1), ("B", 2, "p2", "ps", 1),
]


def sched(rows, admitted=("A", "B")) -> Schedule:
    return Schedule.from_rows(admitted, rows)


def replace(rows, old, new):
    """Copy of ``rows`` with the row ``old`` replaced by ``new`` (None: dropped)."""
    assert old in rows
    return [r for r in rows if r != old] + ([new] if new is not None else [])


@pytest.fixture(scope="module")
def wl():
    return hand_workload()


def test_work_of_the_hand_workload(wl):
    # chunk and work as computed in the module docstring (float noise only)
    assert wl.work(wl.jobs[0]) == pytest.approx(3.0, abs=1e-12)
    assert wl.work(wl.jobs[1]) == pytest.approx(0.25, abs=1e-12)


def test_feasible_schedule_and_exact_objective(wl):
    res = check_oasis(wl, sched(FEASIBLE))
    assert res.feasible, res.summary()
    assert res.violations == [] and res.sense == "max"
    assert res.objective == pytest.approx(5.0 + 8.0, abs=1e-12)
    pj = res.per_job.set_index("job")
    assert list(pj.index) == ["A", "B", "C"]
    assert list(pj["admitted"]) == [True, True, False]
    assert pj.loc["A", "completion"] == 2 and pj.loc["B", "completion"] == 2
    assert pd.isna(pj.loc["C", "completion"])
    assert list(pj["utility"]) == pytest.approx([5.0, 8.0, 0.0])
    assert list(pj["worker_slots"]) == [3.0, 1.0, 0.0]


def test_objective_follows_the_last_worker_slot(wl):
    # A finishes its 3 worker-slots in slot 3 instead: f_A(3 - 1) = 10 / (1 + e) = 2.6894...
    rows = replace(FEASIBLE, ("A", 2, "w1", "worker", 1), ("A", 3, "w1", "worker", 1))
    rows = replace(rows, ("A", 2, "p1", "ps", 1), ("A", 3, "p1", "ps", 1))
    res = check_oasis(wl, sched(rows))
    assert res.feasible
    assert res.objective == pytest.approx(10 / (1 + math.e) + 8.0, abs=1e-12)


def test_duplicate_rows_add_up(wl):
    # two rows of 1 worker on w1 in slot 1 are the same as one row of 2
    rows = replace(FEASIBLE, ("A", 1, "w1", "worker", 2), ("A", 1, "w1", "worker", 1))
    rows.append(("A", 1, "w1", "worker", 1))
    res = check_oasis(wl, sched(rows))
    assert res.feasible and res.objective == pytest.approx(13.0)


# ---- one test per constraint family: break it, and only it -----------------------------------
BREAKS = {
    # (2) A gets 2 worker-slots < W = 3 (its slot-2 worker and PS removed)
    "c2_work_covered": lambda r: replace(replace(r, ("A", 2, "w1", "worker", 1), None),
                                         ("A", 2, "p1", "ps", 1), None),
    # (3) A: 3 workers (2 on w1, 1 on w2) > N = 2 in slot 1; 2 PSs keep (6) 3 <= 4 and (7)
    "c3_max_workers": lambda r: replace(r, ("A", 1, "p1", "ps", 1), ("A", 1, "p1", "ps", 2))
    + [("A", 1, "w2", "worker", 1)],
    # (4) B's worker moved to w1: gpu 1 (A) + 2 (B) = 3 > 2 in slot 2
    "c4_worker_capacity": lambda r: replace(r, ("B", 2, "w2", "worker", 1),
                                            ("B", 2, "w1", "worker", 1)),
    # (5) B's PS moved to p1: cpu 2 (A) + 3 (B) = 5 > 4 in slot 2
    "c5_ps_capacity": lambda r: replace(r, ("B", 2, "p2", "ps", 1), ("B", 2, "p1", "ps", 1)),
    # (6) A has 2 workers and no PS in slot 1: 2*1 = 2 > 0
    "c6_ps_bandwidth": lambda r: replace(r, ("A", 1, "p1", "ps", 1), None),
    # (7) A has 2 PSs for 1 worker in slot 2 (p2: cpu 3 + 2 = 5 <= 8)
    "c7_ps_le_workers": lambda r: r + [("A", 2, "p2", "ps", 1)],
    # (12) 1.5 workers of A in slot 2 (all sums still fit: gpu 1.5 <= 2, 1.5 <= N, 1.5 <= 2)
    "c12_integer_workers": lambda r: replace(r, ("A", 2, "w1", "worker", 1),
                                             ("A", 2, "w1", "worker", 1.5)),
    # (13) 1.5 PSs of A in slot 1 (p1 cpu 3 <= 4, 1.5 <= 2 workers)
    "c13_integer_ps": lambda r: replace(r, ("A", 1, "p1", "ps", 1), ("A", 1, "p1", "ps", 1.5)),
    "unknown_job": lambda r: r + [("Z", 1, "w2", "worker", 1)],
    "unknown_server": lambda r: r + [("A", 1, "w9", "worker", 1)],
    "unknown_role": lambda r: r + [("A", 1, "w2", "chief", 1)],
    # a worker of A on the PS server p2
    "wrong_server_role": lambda r: r + [("A", 1, "p2", "worker", 1)],
    "slot_out_of_range": lambda r: r + [("A", 4, "w2", "worker", 1), ("A", 0, "w2", "worker", 1)],
    # C is not admitted
    "not_admitted": lambda r: r + [("C", 1, "w2", "worker", 1), ("C", 1, "p2", "ps", 1)],
}


@pytest.mark.parametrize("constraint", sorted(BREAKS))
def test_each_constraint_broken_alone_is_caught_by_name(wl, constraint):
    assert constraint in CONSTRAINTS
    res = check_oasis(wl, sched(BREAKS[constraint](list(FEASIBLE))))
    assert not res.feasible
    assert res.constraints_violated() == {constraint}, res.summary(10)
    assert all(v.detail for v in res.violations)
    # the untouched schedule is still clean
    assert check_oasis(wl, sched(FEASIBLE)).feasible


def test_before_arrival_c9_c10(wl):
    # B arrives in slot 2; a worker (w2) and its PS (p2) in slot 1 break (9) and (10) only.
    rows = FEASIBLE + [("B", 1, "w2", "worker", 1), ("B", 1, "p2", "ps", 1)]
    res = check_oasis(wl, sched(rows))
    assert res.constraints_violated() == {"c9_worker_before_arrival", "c10_ps_before_arrival"}
    v9 = next(v for v in res.violations if v.constraint == "c9_worker_before_arrival")
    assert (v9.job, v9.slot, v9.server) == ("B", 1, "w2")


def test_negative_count_is_caught(wl):
    rows = replace(FEASIBLE, ("B", 2, "p2", "ps", 1), ("B", 2, "p2", "ps", -1))
    res = check_oasis(wl, sched(rows))
    assert "c13_integer_ps" in res.constraints_violated()


def test_admitted_job_without_workers_violates_c2_and_earns_nothing(wl):
    res = check_oasis(wl, sched(FEASIBLE, admitted=("A", "B", "C")))
    assert res.constraints_violated() == {"c2_work_covered"}
    assert res.objective == pytest.approx(13.0)  # C has no completion slot: utility 0
    assert pd.isna(res.per_job.set_index("job").loc["C", "completion"])


def test_unknown_admitted_id(wl):
    res = check_oasis(wl, sched(FEASIBLE, admitted=("A", "B", "Z")))
    assert res.constraints_violated() == {"unknown_job"}


def test_work_tolerance_is_relative_1e_9():
    # One chunk: M (tau + 2e/b) / slot = 100 (0.1 + 2*8*10/(1000*0.5)) / 6 = 100 * 0.42 / 6 = 7
    # worker-slots exactly, but 7.000000000000001 in floats: the 1e-9 relative tolerance of (2)
    # accepts 7 worker-slots, and 6 are still short.
    servers = (Server("w", "worker", cap(1, 8, 64, 10)), Server("p", "ps", cap(0, 8, 64, 10)))
    job = Job("J", 1, 1, 1, 100, 0.1, 10.0, cap(1, 1, 1, 0.5, 5), cap(0, 1, 1, 0.5, 5),
              Constant(1.0))
    wl = validate(Workload("tol", 7, 6.0, DEFAULT_RESOURCES, servers, (job,)))
    assert wl.work(job) > 7 and wl.work(job) == pytest.approx(7, abs=1e-12)

    def rows(n):
        return [r for t in range(1, n + 1) for r in (("J", t, "w", "worker", 1),
                                                     ("J", t, "p", "ps", 1))]
    ok = check_oasis(wl, sched(rows(7), admitted=("J",)))
    assert ok.feasible and ok.objective == 1.0
    short = check_oasis(wl, sched(rows(6), admitted=("J",)))
    assert short.constraints_violated() == {"c2_work_covered"}


def test_shared_server_capacity_counts_workers_and_ps_together():
    # an "any" server hosts both roles: worker cpu 3 + PS cpu 2 = 5 > 4
    servers = (Server("x", "any", cap(1, 4, 100, 100)),)
    job = Job("J", 1, 1, 1, 1, 1.0, 0.0, cap(1, 3, 1, 1.0), cap(0, 2, 1, 1.0), Constant(1.0))
    wl = validate(Workload("any", 1, 3600.0, DEFAULT_RESOURCES, servers, (job,)))
    res = check_oasis(wl, sched([("J", 1, "x", "worker", 1), ("J", 1, "x", "ps", 1)],
                                admitted=("J",)))
    assert res.constraints_violated() == {"c4_c5_shared_capacity"}


def test_empty_schedule_is_feasible_with_zero_utility(wl):
    res = check_oasis(wl, Schedule.empty())
    assert res.feasible and res.objective == 0.0
    assert not res.per_job["admitted"].any()


# ---- property test: the vectorized checker vs a plain-loop reference --------------------------
def reference(wl: Workload, admitted, rows):
    """Straight transcription of (1)-(10) with dicts and loops (structurally valid rows only)."""
    jobs = {j.id: j for j in wl.jobs}
    servers = {s.id: s for s in wl.servers}
    found, y, z = set(), defaultdict(float), defaultdict(float)
    load = defaultdict(float)
    for job, t, srv, role, n in rows:
        if job not in admitted:
            found.add("not_admitted")
            continue
        j = jobs[job]
        if t < j.arrival:
            found.add("c9_worker_before_arrival" if role == "worker" else "c10_ps_before_arrival")
        (y if role == "worker" else z)[job, t] += n
        demand = j.worker_demand if role == "worker" else j.ps_demand
        for r in wl.resources:
            load[srv, t, r] += n * demand[r]
    for (srv, t, r), used in load.items():
        if used > servers[srv].capacity[r] * (1 + 1e-9) + 1e-9:
            found.add("c4_worker_capacity" if servers[srv].role == "worker" else "c5_ps_capacity")
    objective = 0.0
    for job in admitted:
        j = jobs[job]
        for t in range(1, wl.horizon + 1):
            if y[job, t] > j.chunks:
                found.add("c3_max_workers")
            if y[job, t] * j.worker_bandwidth > z[job, t] * j.ps_bandwidth * (1 + 1e-9) + 1e-9:
                found.add("c6_ps_bandwidth")
            if z[job, t] > y[job, t]:
                found.add("c7_ps_le_workers")
        if sum(y[job, t] for t in range(1, wl.horizon + 1)) < wl.work(j) * (1 - 1e-9):
            found.add("c2_work_covered")
        busy = [t for t in range(1, wl.horizon + 1) if y[job, t] > 0]
        if busy:
            objective += j.utility(max(busy) - j.arrival)
    return found, objective


ROW = st.tuples(st.sampled_from(["A", "B", "C"]), st.integers(1, 3),
                st.sampled_from([("w1", "worker"), ("w2", "worker"), ("p1", "ps"), ("p2", "ps")]),
                st.integers(1, 3))


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(ROW, max_size=12), admitted=st.sets(st.sampled_from(["A", "B", "C"])))
def test_checker_matches_plain_reference(rows, admitted):
    wl = hand_workload()
    flat = [(j, t, s, r, n) for j, t, (s, r), n in rows]
    res = check_oasis(wl, sched(flat, admitted=admitted))
    found, objective = reference(wl, admitted, flat)
    assert res.constraints_violated() == found
    assert res.feasible == (not found)
    assert res.objective == pytest.approx(objective, abs=1e-12)


def test_checker_on_a_paper_sized_schedule_is_consistent():
    """200 jobs, T=300, 100 servers: a greedy one-worker-one-PS schedule, checked in one pass."""
    from mlopt.families.oasis.generator import generate

    wl = generate("paper-default", seed=0)
    rows, admitted = [], []
    used = defaultdict(lambda: np.zeros(len(wl.resources)))
    caps = {s.id: np.array([s.capacity[r] for r in wl.resources]) for s in wl.servers}
    for j in wl.jobs:
        need = math.ceil(wl.work(j) - 1e-9)
        if j.arrival + need - 1 > wl.horizon:
            continue
        plan = []
        for t in range(j.arrival, j.arrival + need):
            w = next((s.id for s in wl.worker_servers() if np.all(used[s.id, t] + np.array(
                [j.worker_demand[r] for r in wl.resources]) <= caps[s.id])), None)
            p = next((s.id for s in wl.ps_servers() if np.all(used[s.id, t] + np.array(
                [j.ps_demand[r] for r in wl.resources]) <= caps[s.id])), None)
            if w is None or p is None:
                break
            plan.append((t, w, p))
        if len(plan) < need:
            continue
        admitted.append(j.id)
        for t, w, p in plan:
            used[w, t] += np.array([j.worker_demand[r] for r in wl.resources])
            used[p, t] += np.array([j.ps_demand[r] for r in wl.resources])
            rows += [(j.id, t, w, "worker", 1), (j.id, t, p, "ps", 1)]
    res = check_oasis(wl, sched(rows, admitted=admitted))
    assert admitted and res.feasible, res.summary()
    expected = sum(j.utility(j.arrival + math.ceil(wl.work(j) - 1e-9) - 1 - j.arrival)
                   for j in wl.jobs if j.id in admitted)
    assert res.objective == pytest.approx(expected, rel=1e-12)
    # a second PS for one worker of the first admitted job (duplicate rows add up) breaks (7)
    first_ps = next(r for r in rows if r[3] == "ps")
    bad = check_oasis(wl, sched(rows + [first_ps], admitted=admitted))
    assert "c7_ps_le_workers" in bad.constraints_violated()
    assert all(v.job == first_ps[0] for v in bad.violations if v.constraint == "c7_ps_le_workers")
