"""The exact DMLRS MILP and PD-ORS's bounds admit every schedule the checker accepts
(DECISION in mlopt.tolerance).  The checker grants 1e-9 relative + 1e-9 absolute on capacities
and 1e-9 relative on work; before the fix the model, ``job_sum`` and ``colgen`` used the exact
capacity and work, and each of the instances below had a checked schedule above the model's
"optimal" (and above the bounds), exactly like the OASiS review's counterexample."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt import pipeline
from mlopt.bracket import bracket
from mlopt.families.pdors.checker import check_pdors
from mlopt.families.pdors.colgen import colgen_bound
from mlopt.families.pdors.fields import (capacity_limits, core_fields, pdors_arrays,
                                         work_limits)
from mlopt.families.pdors.generator import generate
from mlopt.families.pdors.theory import job_sum_bound
from mlopt.models.pdors import build_dmlrs_milp
from mlopt.schedule import Schedule
from mlopt.solve import Status, solve
from mlopt.utility import Linear
from mlopt.workload import Job, Server, Workload, validate


def one_job(*, cpu_per_worker: float, machines: int, samples: int, sample_seconds: float,
            batch: int, ps_ratio: int, horizon: int) -> Workload:
    """One job on ``machines`` machines of 2 CPUs, slots of 1 s, no communication (param_mb 0:
    n^int = n^ext = samples * sample_seconds worker-slots), PSs need no CPU, u(d) = 10 - 3 d."""
    servers = tuple(Server(f"m{k + 1}", "any", {"cpu": 2.0, "bandwidth_gbps": 1e6})
                    for k in range(machines))
    extra = {"samples": samples, "batch": batch, "ps_ratio": ps_ratio,
             "sample_seconds": sample_seconds, "param_mb": 0.0, "bw_internal_gbps": 1.0,
             "bw_external_gbps": 1.0}
    c = core_fields(extra, 1, ("cpu",))
    job = Job("j1", 1, c["epochs"], c["chunks"], c["minibatches"], c["minibatch_seconds"],
              c["gradient_mb"], {"cpu": cpu_per_worker, "bandwidth_gbps": c["worker_bw"]},
              {"cpu": 0.0, "bandwidth_gbps": c["ps_bw"]}, Linear(10.0, 3.0), extra)
    return validate(Workload("tolerance", horizon, 1.0, ("cpu", "bandwidth_gbps"), servers,
                             (job,), {"family": "pdors"}))


def capacity_slack_instance():
    """Two workers of 1 + 1e-9 CPU on a 2-CPU machine (2.000000002 <= 2 (1 + 1e-9) + 1e-9, the
    checker's slack) with one PS do the job's 2 worker-slots in slot 1: u(0) = 10.  The exact
    row allowed floor(2 / 1.000000001) = 1 worker, so the job could not finish (T = 1)."""
    wl = one_job(cpu_per_worker=1.0 + 1e-9, machines=1, samples=2, sample_seconds=1.0,
                 batch=2, ps_ratio=2, horizon=1)
    return wl, Schedule.from_rows(["j1"], [("j1", 1, "m1", "worker", 2),
                                           ("j1", 1, "m1", "ps", 1)], {"producer": "hand"})


def work_slack_instance():
    """n = 2.0000000014 worker-slots, F = 1, T = 2: one worker in slots 1 and 2 does
    2 / 2.0000000014 = 0.9999999993 >= 1 - 1e-9 of the job (the checker's slack), finishing in
    slot 2: u(1) = 7.  The model's cut ceil(n / F) = 3 slots > T (and the work row n) left it
    0; job_sum said the job could not finish (bound 0)."""
    wl = one_job(cpu_per_worker=1.0, machines=1, samples=1, sample_seconds=2.0000000014,
                 batch=1, ps_ratio=1, horizon=2)
    rows = [("j1", t, "m1", role, 1) for t in (1, 2) for role in ("worker", "ps")]
    return wl, Schedule.from_rows(["j1"], rows, {"producer": "hand"})


@pytest.mark.parametrize("case", [capacity_slack_instance, work_slack_instance])
def test_the_milp_and_job_sum_admit_the_checkers_slack(case):
    wl, checked = case()
    got = check_pdors(wl, checked)
    assert got.feasible
    res = solve(build_dmlrs_milp(wl), "highs")
    assert res.status == Status.OPTIMAL
    assert res.objective >= got.objective - 1e-9  # was 0 (the false "optimal")
    assert job_sum_bound(wl)["bound"] >= got.objective - 1e-9


def test_the_capacity_row_is_the_accepted_load_and_the_work_row_the_accepted_work():
    wl, _ = capacity_slack_instance()
    m = build_dmlrs_milp(wl)
    assert m.c5_capacity["m1", 1, "cpu"].upper == pytest.approx(2 * (1 + 1e-9) + 1e-9, abs=0)
    wl, _ = work_slack_instance()
    m = build_dmlrs_milp(wl)
    coef = {v.name: c for v, c in zip(*_linear(m.c3_work["j1"].body))}
    assert abs(coef["x[j1]"]) == pytest.approx(2.0000000014 * (1 - 1e-9), rel=1e-15)


def _linear(expr):
    from pyomo.repn import generate_standard_repn

    repn = generate_standard_repn(expr)
    return repn.linear_vars, repn.linear_coefs


def test_colgen_admits_the_checkers_capacity_slack_across_machines():
    """Four workers of 1 + 1e-9 CPU, two on each 2-CPU machine (external speed), do the job's
    4 worker-slots in slot 1: u(0) = 10.  colgen's relaxed pricing used the exact capacity (at
    most floor(2 / 1.000000001) = 1 worker a machine) and certified 0."""
    wl = one_job(cpu_per_worker=1.0 + 1e-9, machines=2, samples=4, sample_seconds=1.0,
                 batch=4, ps_ratio=4, horizon=1)
    checked = Schedule.from_rows(["j1"], [("j1", 1, "m1", "worker", 2),
                                          ("j1", 1, "m2", "worker", 2),
                                          ("j1", 1, "m1", "ps", 1)], {"producer": "hand"})
    got = check_pdors(wl, checked)
    assert got.feasible and got.objective == 10.0
    assert colgen_bound(wl, time_limit=10, primal=False)["bound"] >= 10.0 - 1e-9  # was 0
    wl, checked = work_slack_instance()
    assert colgen_bound(wl, time_limit=10, primal=False)["bound"] >= 7.0 - 1e-9  # was 0


def test_bracket_does_not_call_a_value_below_a_checked_schedule_optimal():
    """The bracket on the capacity instance said ``optimal`` 0 (the MILP's); the checker
    accepts 10."""
    wl, checked = capacity_slack_instance()
    b = bracket(wl, family="pdors", time_limit=30, algorithms=[])
    assert b.high >= 10.0 - 1e-9
    assert not (b.status == "optimal" and b.low < 10.0 - 1e-9)


def test_a_near_integer_count_loads_as_its_integer():
    """Workers of 1.0000000018 CPU: 2 of them load 2.0000000036 > 2.000000003 (rejected); a
    count of 1.9999999991 (an integer up to the checker's 1e-9) used to load only
    2.0000000027 and pass, a slack no integer model can follow.  Now it loads as 2."""
    wl = one_job(cpu_per_worker=1.0000000018, machines=1, samples=2, sample_seconds=1.0,
                 batch=2, ps_ratio=2, horizon=1)
    for count in (2, 1.9999999991):
        got = check_pdors(wl, Schedule.from_rows(["j1"], [("j1", 1, "m1", "worker", count),
                                                          ("j1", 1, "m1", "ps", 1)], {}))
        assert not got.feasible and got.constraints_violated() == {"c5_capacity"}, count


def test_integer_data_keep_exact_limits():
    """capacity_limits / work_limits are the exact C and n^ext on integer data (the golden LP
    file is unchanged), the accepted ones otherwise."""
    wl, _ = capacity_slack_instance()
    arr = pdors_arrays(wl)
    assert capacity_limits(arr)[0, 0] == pytest.approx(2 * (1 + 1e-9) + 1e-9, abs=0)
    wl = one_job(cpu_per_worker=1.0, machines=1, samples=2, sample_seconds=1.0, batch=2,
                 ps_ratio=2, horizon=1)
    arr = pdors_arrays(wl)
    assert capacity_limits(arr)[0, 0] == 2.0 and work_limits(arr)[0] == 2.0


@settings(max_examples=300, deadline=None)
@given(n_int=st.integers(1, 300), more=st.integers(0, 3000), w_ext=st.integers(0, 3300),
       w_int=st.integers(0, 300))
def test_exact_work_row_on_integer_work_is_the_checkers_test(n_int, more, w_ext, w_int):
    """Integer n^int, n^ext (product < 1e8): the checker's float test done >= 1 - 1e-9 holds
    exactly when the exact row w_ext + w_int n^ext / n^int >= n^ext does (in integers:
    w_ext n^int + w_int n^ext >= n^ext n^int), so keeping the exact row loses nothing."""
    n_ext = n_int + more  # n^ext >= n^int (validate_pdors)
    done = w_ext / n_ext + w_int / n_int
    assert (done >= 1 - 1e-9) == (w_ext * n_int + w_int * n_ext >= n_ext * n_int)


def within_slack(wl: Workload, factor: float = 1 + 9e-10) -> Workload:
    """``wl`` with the worker / PS demands and sample_seconds times ``factor``: a schedule
    feasible on ``wl`` loads at most C (1 + 9e-10) and does at least 1 / (1 + 9e-10) >=
    1 - 1e-9 of each job, so the checker still accepts it here.  A demand that would then
    exceed some machine's capacity alone stays (the workload check refuses a worker that fits
    no machine exactly)."""
    d = wl.to_dict()
    least = {r: min(s["capacity"][r] for s in d["servers"]) for r in d["resources"]}
    for j in d["jobs"]:
        for key in ("worker_demand", "ps_demand"):
            j[key] = {r: v * factor if v * factor <= least[r] else v for r, v in j[key].items()}
        j["extra"]["sample_seconds"] *= factor
    return Workload.from_dict(d)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_a_schedule_within_the_slack_is_never_above_the_exact_optimum(seed):
    """Random tiny instances: the optimum of ``wl`` is checked on ``within_slack(wl)``, so the
    DMLRS optimum and the bounds there are at least its value."""
    wl = generate("tiny", seed=seed)
    off = pipeline.solve_offline(wl, family="pdors", time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.check.feasible
    near = within_slack(wl)
    again = check_pdors(near, off.schedule)
    assert again.feasible and again.objective == pytest.approx(off.objective)
    res = pipeline.solve_offline(near, family="pdors", time_limit=60)
    assert res.solve.status == Status.OPTIMAL and res.check.feasible
    assert res.objective >= off.objective * (1 - 1e-9)
    assert job_sum_bound(near)["bound"] >= off.objective * (1 - 1e-9)


def test_the_first_completion_cut_is_the_checkers_count():
    """n = 2.000000003 worker-slots, F = 2, T = 1: two workers in slot 1 do 2 / 2.000000003 =
    0.9999999985 < 1 - 1e-9 of the job (the checker rejects it), so the job cannot finish by
    T.  The cut ceil(n (1 - 1e-9) / F - 1e-9) = 1 slot left the work row 2 >= 2.000000001 to
    HiGHS, whose feasibility tolerance (1e-7) passed it: "optimal" 10 with a schedule the
    checker rejects.  The checker's own count (2 slots) leaves the job out: 0."""
    wl = one_job(cpu_per_worker=1.0, machines=1, samples=2, sample_seconds=1.0000000015,
                 batch=2, ps_ratio=2, horizon=1)
    two = Schedule.from_rows(["j1"], [("j1", 1, "m1", "worker", 2), ("j1", 1, "m1", "ps", 1)],
                             {})
    assert check_pdors(wl, two).constraints_violated() == {"c3_work"}
    res = pipeline.solve_offline(wl, family="pdors", time_limit=30)
    assert res.solve.status == Status.OPTIMAL and res.check.feasible and res.objective == 0.0
    assert job_sum_bound(wl)["bound"] == 0.0


@settings(max_examples=120, deadline=None)
@given(t=st.integers(1, 4), F=st.integers(1, 2), samples=st.integers(1, 9),
       ulps=st.integers(-8, 8))
def test_fastest_slots_is_the_checkers_fewest(t, F, samples, ulps):
    """Work at the boundary t F / n = 1 - 1e-9 up to a few ulps of sample_seconds:
    ``fastest_slots`` is the fewest slots the checker accepts -- F co-located workers in that
    many slots pass (3), one slot fewer fails."""
    import math

    from mlopt.families.pdors.fields import fastest_slots

    ss = t * F / (samples * (1 - 1e-9))
    ss += ulps * math.ulp(ss)
    wl = one_job(cpu_per_worker=1.0, machines=1, samples=samples, sample_seconds=ss, batch=F,
                 ps_ratio=F, horizon=6)
    k = int(fastest_slots(pdors_arrays(wl), 6)[0])

    def run(slots):
        rows = [("j1", s, "m1", role, F if role == "worker" else 1)
                for s in range(1, slots + 1) for role in ("worker", "ps")]
        return check_pdors(wl, Schedule.from_rows(["j1"], rows, {}))
    assert run(k).feasible
    if k > 1:
        assert run(k - 1).constraints_violated() == {"c3_work"}
