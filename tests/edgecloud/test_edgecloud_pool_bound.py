"""pool_lb (mlopt/families/edgecloud/pool_bound.py): a hand-computed value, <= the proven optimum
on every committed instance and on random small ones (hypothesis), registered as a theorem
bound, one InputError for a bad workload."""
from __future__ import annotations

import pytest
from edgecloud_tiny import FLOW_LB, OPT, tiny_job, tiny_workload
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.edgecloud.generator import generate
from mlopt.families.edgecloud.pool_bound import pool_lb
from mlopt.instances import load_set, read_solu
from mlopt.models.edgecloud import build_jct_milp
from mlopt.solve import Status, solve


def test_tiny_hand_value():
    # pool w0 has M = 2 workers.  a: H = 1 + 3 + 1 - 1 = 4, h = 3, e = 2, V = 2*2 = 4, k = 2,
    # n = 2, g_t = (4 - t - 1/2) / 4: g_2 = 3/8, g_3 = 1/8.  b: H = 1 + 4 + 1 - 1 = 5, h = 4,
    # e = 2, V = 2, k = 1, n = 2, g_t = (5 - t - 1/2) / 2: g_2 = 5/4, g_3 = 3/4, g_4 = 1/4.
    # LP: b takes one worker in slots 2, 3 (5/4 + 3/4 = 2), a the other (3/8 + 1/8 = 1/2):
    # saving 5/2, bound 3 + 4 - 5/2 = 4.5 -> 5 = OPT (flow_lb: 3.75 -> 4).
    out = pool_lb(tiny_workload())
    assert out["raw_bound"] == pytest.approx(4.5, abs=1e-9)
    assert out["bound"] == OPT and out["bound"] > FLOW_LB
    # slot prices 0 (no LP): a saves 3/4 + 1/4 = 1, b 5/4 + 3/4 = 2 -> 7 - 3 = 4
    assert pool_lb(tiny_workload(), lp=False)["raw_bound"] == pytest.approx(4.0, abs=1e-9)


def test_one_job_is_its_fastest_edge_completion():
    # b alone: on e0 slots 2-3 (JCT 2) vs the cloud (JCT 4): the bound is exactly 2
    w = tiny_workload(jobs=(tiny_job("b", 1, {"e0": 1, "e1": 2, "cloud": 4}),))
    assert pool_lb(w)["bound"] == 2.0


SOLU = read_solu()


@pytest.mark.parametrize("name", sorted(n for n, r in SOLU.items()
                                        if r["family"] == "edgecloud"
                                        and r["status"] == "optimal"))
def test_below_recorded_optimum(name):
    rec = SOLU[name]
    iset = load_set(rec["set"])
    w = iset.load(next(e for e in iset.entries if e.name == name))
    assert pool_lb(w)["bound"] <= rec["objective"] + 1e-9


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_jobs=st.integers(1, 4),
       preset=st.sampled_from(["tiny", "paper-ratio"]))
def test_below_optimum_random(seed, n_jobs, preset):
    w = generate(preset, seed, n_jobs=n_jobs)
    res = solve(build_jct_milp(w), "highs", time_limit=30)
    b = pool_lb(w)["bound"]
    assert res.status == Status.OPTIMAL  # 4 jobs: proven in well under a second
    assert b <= res.objective + 1e-6


def test_registered_as_theorem():
    fam = get_family("edgecloud")
    rec = fam.bounds_["pool_lb"]
    assert rec.solver is False
    assert fam.bound("pool_lb")(tiny_workload())["bound"] == OPT


def test_bad_workload_one_input_error():
    w = tiny_workload(jobs=(tiny_job("a", 2, {"e0": 1, "e1": 1}),))  # no cloud delay
    with pytest.raises(InputError) as err:
        pool_lb(w)
    assert err.value.field == "jobs[0].extra.delay.cloud"


# ---- pool_greedy: the offline reference heuristic beside pool_lb ------------------------------
def _run_checked(w):
    from mlopt.families.edgecloud.checker import check_edgecloud
    from mlopt.families.edgecloud.pool_greedy import run_pool_greedy

    chk = check_edgecloud(w, run_pool_greedy(w))
    assert chk.feasible, chk.summary()
    return chk.objective


def test_pool_greedy_tiny_hand():
    # by saving per worker-slot b goes first (H 5 - edge completion 3 over 2 = 1 vs a's
    # (4 - 3) / 4): b on e0 slots 2-3 (JCT 2); a cannot finish both chunks on the edge before
    # H_a = 4, so it stays in the cloud (JCT 3): 5 = OPT (arrival order would give 2 + 4 = 6)
    assert _run_checked(tiny_workload()) == OPT


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_jobs=st.integers(1, 12),
       preset=st.sampled_from(["tiny", "paper-ratio"]))
def test_pool_greedy_checked_between_bound_and_all_cloud(seed, n_jobs, preset):
    from mlopt.families.edgecloud.fields import EdgeCloud

    w = generate(preset, seed, n_jobs=n_jobs)
    ec = EdgeCloud(w)
    all_cloud = sum(ec.horizon_bound(jv) - jv.arrival for jv in ec.jobs)  # its start
    obj = _run_checked(w)
    assert pool_lb(w)["bound"] <= obj <= all_cloud


def test_pool_greedy_refuses_storage():
    w = tiny_workload(storage=True)
    with pytest.raises(InputError) as err:
        get_family("edgecloud").run("pool_greedy", w)
    assert err.value.field == "extra.edgecloud.servers.storage_gb"


def test_lp_runs_after_highs_started_its_thread_pool_with_another_count():
    # see tests/harmony/test_harmony_volume_bound.py: without the pool reset the LP is refused
    # and the slot prices fall back to 0 (the weaker 4.0 instead of 4.5 on the hand case)
    import highspy
    import numpy as np

    from mlopt.solvers.quiet_highs import quiet_highs

    highspy.Highs.resetGlobalScheduler(True)  # whatever earlier tests left: a pool of 2
    h = quiet_highs()
    h.setOptionValue("threads", 2)
    h.addVar(0.0, 1.0)
    h.addRow(0.0, 1.0, 1, np.array([0], dtype=np.int32), np.array([1.0]))
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    assert pool_lb(tiny_workload(), threads=1)["raw_bound"] == pytest.approx(4.5, abs=1e-9)
