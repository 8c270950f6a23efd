"""Baselines (A_online-E, SRTF, Tiresias-L, BatchSche) and the chain of the issue on random small
instances: zeta=1 bound <= ILP (4) <= exact optimum <= every algorithm's checked total JCT."""
from __future__ import annotations

import pytest
from edgecloud_tiny import OPT, tiny_workload
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.edgecloud.baselines import run_batchsche, run_tiresias_l
from mlopt.families.edgecloud.checker import check_edgecloud
from mlopt.families.edgecloud.generator import generate
from mlopt.models.edgecloud import build_flow_lb, build_jct_milp
from mlopt.solve import Status, solve

ALGS = ("a_online", "a_online_e", "srtf", "tiresias_l", "batchsche")


@pytest.mark.parametrize("alg", ALGS)
def test_tiny_hand_feasible_and_not_below_opt(alg):
    w = tiny_workload()
    res = check_edgecloud(w, get_family("edgecloud").algorithm(alg)(w, seed=0))
    assert res.feasible, res.summary()
    assert res.objective >= OPT


def test_srtf_hand():
    """SRTF on the hand instance: a gets k = min(gpus 1, D 2) = 1 worker (e0, least loaded),
    b the other (e1, ready at 1 + 2 = 3).  a: 2 chunks x 2 slots on e0 in 2..5 -> JCT 4;
    b on e1 in 3..4 -> JCT 3; total 7."""
    w = tiny_workload()
    res = check_edgecloud(w, get_family("edgecloud").algorithm("srtf")(w))
    assert res.objective == 7


def test_edge_only_baselines_never_use_the_cloud():
    w = generate("paper-ratio", 2)
    fam = get_family("edgecloud")
    for alg in ("a_online_e", "srtf", "tiresias_l"):
        df = fam.algorithm(alg)(w).allocations
        assert not (df[df["role"] == "worker"]["server"] == "cloud").any(), alg


def test_batchsche_options():
    w = generate("paper-ratio", 3)
    all_cloud = run_batchsche(w, p_cloud=1.0)
    res = check_edgecloud(w, all_cloud)
    assert res.feasible and (res.per_job["zeta"] == 1).all()
    no_cloud = check_edgecloud(w, run_batchsche(w, p_cloud=0.0, interval=1))
    assert no_cloud.feasible and (no_cloud.per_job["cloud_chunks"] == 0).all()
    with pytest.raises(InputError):
        run_batchsche(w, interval=0)
    with pytest.raises(InputError):
        run_tiresias_l(w, thresholds=(100, 10))


def test_seeded():
    w = generate("paper-ratio", 4)
    a = run_batchsche(w, seed=3).allocations
    assert a.equals(run_batchsche(w, seed=3).allocations)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_jobs=st.integers(1, 5))
def test_chain_on_random_small(seed, n_jobs):
    w = generate("tiny", seed, n_jobs=n_jobs)
    opt = solve(build_jct_milp(w), "highs", time_limit=60)
    assert opt.status == Status.OPTIMAL
    f = solve(build_flow_lb(w), "highs").objective
    z1 = solve(build_flow_lb(w, zeta_one=True), "highs").objective
    assert z1 <= f + 1e-6 <= opt.objective + 2e-6
    fam = get_family("edgecloud")
    for alg in ALGS:
        res = check_edgecloud(w, fam.algorithm(alg)(w, seed=seed))
        assert res.feasible, (alg, res.summary())
        assert res.objective >= opt.objective - 1e-6, alg


def test_metrics_hand():
    """GOOD-like schedule by hand: b on e0 in slots 2 and 4 (one preemption), a in the cloud."""
    from mlopt.families.edgecloud import metrics
    from mlopt.families.edgecloud.table import make_schedule

    rows = [("b", 2, "e0", "worker", 1, "w0#0", 0), ("b", 4, "e0", "worker", 1, "w0#0", 0),
            ("b", 2, "cloud", "ps", 1, "cloud", -1), ("b", 4, "cloud", "ps", 1, "cloud", -1),
            ("a", 4, "cloud", "worker", 1, "cloud", 0), ("a", 4, "cloud", "worker", 1, "cloud", 1),
            ("a", 4, "cloud", "ps", 1, "cloud", -1)]
    w = tiny_workload()
    s = make_schedule(["a", "b"], rows)
    assert check_edgecloud(w, s).feasible
    assert metrics.preemptions(s) == 1 and metrics.preemptions(s, "job") == 1
    assert metrics.makespan(s) == 4
    u = metrics.utilisation(w, s)
    assert list(u) == [0.0, 0.5, 0.0, 0.5]  # 2 edge workers
    # uploads: b 1 slot (e0), a 3 + 3 (two cloud chunks); b (zeta 0) exchanges 1 s = 1 slot
    assert metrics.communication(w, s) == 1 + 6 + 1
