"""Class-aggregated relaxation of the OASiS utility ILP (bounds/class_relaxation.py): a valid
upper bound on OPT (never below the exact optimum), loose where bins matter."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlopt
from mlopt.errors import InputError
from mlopt.families.oasis.bounds import REGISTRY
from mlopt.families.oasis.bounds.class_relaxation import aggregate_servers, class_relaxation
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import generate
from mlopt.models.oasis import build_utility_ilp
from mlopt.solve import Status
from mlopt.utility import Linear
from mlopt.workload import BANDWIDTH, Job, Server, Workload

RES = ("cpu", BANDWIDTH)


def split_bins() -> Workload:
    """T = 2; two worker servers {cpu 2, bw 2} (one class), one PS server {cpu 3, bw 3}; jobs
    a, b, c alike: arrive in slot 1, W = 1 worker-slot (10 minibatches x (9 s + 2 x 62.5 MB /
    1 Gbps) = 100 s = one slot), N = 1, a worker {cpu 1.2, bw 1}, a PS {cpu 1, bw 1},
    f(0) = 10, f(1) = 7.  A worker server holds one worker (2 x 1.2 > 2), so slot 1 runs two
    jobs: OPT = 10 + 10 + 7 = 27.  Merged, the class has cpu 4 >= 3 x 1.2 and each job's own
    bound is 2 workers, so all three finish in slot 1: the relaxation's optimum is 30.  The
    packing cut u^(1) on cpu (1.2 / 2 > 1/2: one such worker per server) allows two workers
    per slot on the class: the relaxation's optimum is then 27 = OPT."""
    servers = (Server("w1", "worker", {"cpu": 2.0, BANDWIDTH: 2.0}),
               Server("w2", "worker", {"cpu": 2.0, BANDWIDTH: 2.0}),
               Server("p1", "ps", {"cpu": 3.0, BANDWIDTH: 3.0}))
    jobs = tuple(Job(j, 1, 1, 1, minibatches=10, minibatch_seconds=9.0, gradient_mb=62.5,
                     worker_demand={"cpu": 1.2, BANDWIDTH: 1.0},
                     ps_demand={"cpu": 1.0, BANDWIDTH: 1.0},
                     utility=Linear(10.0, 3.0)) for j in "abc")
    return Workload("bins", 2, 100.0, RES, servers, jobs)


def test_merged_cluster_by_hand():
    wl = split_bins()
    merged, members = aggregate_servers(wl)
    caps = sorted((s.role, s.capacity["cpu"], len(members[s.id])) for s in merged.servers)
    # 2 + 2 cpu in one worker server; the demands (1.2) are not integers, so each member's
    # capacity is the load the checker accepts, 2 (1 + 1e-9) + 1e-9 (ps: 3, the same way)
    assert [(r, n) for r, _, n in caps] == [("ps", 1), ("worker", 2)]
    assert caps[0][1] == 3 * (1 + 1e-9) + 1e-9 and caps[1][1] == 2 * (2 * (1 + 1e-9) + 1e-9)
    opt = mlopt.solve(build_utility_ilp(wl), time_limit=30)
    assert opt.status == Status.OPTIMAL and opt.objective == pytest.approx(27.0)
    rel = class_relaxation(wl, time_limit=30, packing_cuts=False)
    assert rel["status"] == "optimal" and rel["bound"] == pytest.approx(30.0)
    assert rel["classes"] == 2 and rel["servers"] == 3
    # its merged optimum runs a, b, c in slot 1 on the class; the split packs two of them
    # (one per server) and drops the lowest-utility one (ties by id: a): 10 + 10 = 20; the
    # local search re-inserts a in slot 2 (f(1) = 7): 27
    assert rel["feasible_objective"] == pytest.approx(27.0) and rel["dropped"] == ["a"]
    cut = class_relaxation(wl, time_limit=30)
    # with the packing cut the merged optimum is OPT and splits without a drop: proven
    assert cut["status"] == "optimal" and cut["bound"] == pytest.approx(27.0)
    assert cut["feasible_objective"] == pytest.approx(27.0) and cut["dropped"] == []
    assert check_oasis(wl, cut["schedule"]).feasible


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000))
def test_relaxation_bound_is_at_least_the_optimum(seed):
    wl = generate("paper-fig5", seed=seed)
    opt = mlopt.solve(build_utility_ilp(wl), time_limit=30)
    assert opt.has_solution  # OPT >= its incumbent, equal when optimal
    rel = REGISTRY["class_relaxation"](wl, time_limit=30, threads=1)
    assert rel["bound"] >= opt.objective - 1e-6 * max(1.0, opt.objective)
    if opt.status == Status.OPTIMAL and rel["status"] == "optimal":
        # the relaxation's optimum is a real optimum of a larger feasible set
        assert rel["relaxation_objective"] >= opt.objective - 1e-6 * max(1.0, opt.objective)


def test_unknown_solver_is_one_input_error():
    with pytest.raises(InputError) as err:
        class_relaxation(split_bins(), solver="nope")
    assert err.value.field == "solver" and err.value.value == "nope"


def test_bad_round_count_is_one_input_error():
    with pytest.raises(InputError) as err:
        class_relaxation(split_bins(), max_rounds=0)
    assert err.value.field == "max_rounds" and err.value.value == 0
