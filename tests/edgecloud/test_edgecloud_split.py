"""``split_lb`` (mlopt/families/edgecloud/split.py): the blocks of a workload, the restriction
theorem it rests on (a checked schedule restricted to a block passes the checker on that block,
and the blocks' totals add up), its bound against the exact optimum (never above; equal where
every block is proven), its schedule checked, and fail-safe when a block's solver gives nothing.

Nothing here depends on the wall clock: the instances are tiny and the limits far above what
HiGHS needs on them.
"""
from __future__ import annotations

import math

import pytest
from edgecloud_tiny import OPT, tiny_job, tiny_workload
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt.families import get_family
from mlopt.families.edgecloud import split
from mlopt.families.edgecloud.generator import generate
from mlopt.models.edgecloud import build_jct_milp
from mlopt.solve import SolveResult, Status, solve

FAM = get_family("edgecloud")


def _late_hand():
    """The hand instance (OPT 5: a and b compete for slots 2-3) plus job c arriving at 6 (the
    horizon).  H_a = 1 + 3 + 1 - 1 = 4, H_b = 1 + 4 + 1 - 1 = 5 (arrival + cloud delay + p1 - 1),
    so c's window [6, 9] meets neither: two blocks.  c alone: one chunk on e0 in slots 7-8
    (delay 1, p0 = 2), JCT 8 - 6 = 2; so OPT = 5 + 2 = 7."""
    base = tiny_workload()
    c = tiny_job("c", 1, {"e0": 1, "e1": 1, "cloud": 3}, arrival=6)
    return tiny_workload(jobs=(*base.jobs, c))


def test_hand_blocks_and_bound():
    w = _late_hand()
    assert split.job_blocks(w) == [["a", "b"], ["c"]]
    out = split.split_lb(w, time_limit=60)
    assert out["bound"] == pytest.approx(OPT + 2)  # 5 + 2, module docstring of _late_hand
    assert out["upper"] == pytest.approx(OPT + 2)
    assert out["status"] == "optimal"
    assert [r["bound"] for r in out["blocks"]] == [5, 2]
    assert FAM.check(w, out["schedule"]).objective == pytest.approx(OPT + 2)


def test_one_block_when_windows_overlap():
    w = tiny_workload()  # a and b: same type, windows [1, 4] and [1, 5]
    assert split.job_blocks(w) == [["a", "b"]]


WIDE = {"delay_edge": [1, 4], "workers_per_server": [1, 3], "chunk_scale": 0.03}


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_jobs=st.integers(1, 6),
       preset=st.sampled_from(["tiny", "paper-ratio"]), wide=st.booleans(),
       window=st.sampled_from([None, 30]))
def test_bound_equals_the_optimum_on_random_instances(seed, n_jobs, preset, wide, window):
    # wide: edge-delay spreads of 1-4 (late workers, what broke jct_step's floor before);
    # window 30: arrivals spread out, so that several blocks per type occur
    kw = dict(WIDE) if wide else {}
    if window is not None:
        kw["arrival_window"] = window
    w = generate(preset, seed, n_jobs=n_jobs, **kw)
    ref = solve(build_jct_milp(w), "highs", time_limit=60)
    assert ref.status == Status.OPTIMAL
    # the restriction theorem on a checked schedule: each block passes, the totals add up
    s = FAM.run("pool_greedy", w, seed=0)
    whole = FAM.check(w, s)
    parts = []
    for ids in split.job_blocks(w):
        chk = FAM.check(split.sub_workload(w, ids), split.restrict(s, ids))
        assert chk.feasible, chk.summary()
        parts.append(chk.objective)
    assert sum(parts) == pytest.approx(whole.objective)
    out = split.split_lb(w, time_limit=120)
    assert out["bound"] <= ref.objective + 1e-6  # a lower bound, never above OPT
    assert out["status"] == "optimal"  # tiny blocks: every one proven
    assert out["bound"] == pytest.approx(ref.objective)
    chk = FAM.check(w, out["schedule"])
    assert chk.feasible and chk.objective == pytest.approx(out["upper"])


def test_stopped_blocks_fall_back_to_pool_lb(monkeypatch):
    """Fail-safe: a block whose solver returns nothing (no bound, no schedule) keeps pool_lb
    (a theorem's bound, <= OPT) and the result is "stopped", never "optimal"."""
    import mlopt.warmstart as ws
    from mlopt.families.edgecloud.pool_bound import pool_lb

    def nothing(model, start, solver="highs", **kw):
        return SolveResult(Status.NO_SOLUTION, None, None, None, 0.0, solver, "", "min")

    monkeypatch.setattr(ws, "solve_warm", nothing)
    w = _late_hand()
    out = split.split_lb(w, time_limit=10)
    assert out["status"] == "stopped"
    want = sum(math.ceil(pool_lb(split.sub_workload(w, ids))["raw_bound"] - 1e-6)
               for ids in split.job_blocks(w))
    assert out["bound"] == pytest.approx(want)
    assert out["bound"] <= OPT + 2
    # the start (pool_greedy) still comes back, checked
    assert FAM.check(w, out["schedule"]).feasible


def test_registered_as_a_solver_bound():
    b = FAM.bounds_["split_lb"]
    assert b.solver is True
    out = FAM.bound("split_lb")(tiny_workload(), time_limit=30)
    assert out["bound"] == pytest.approx(OPT)


def test_blocks_beyond_the_size_limit_keep_pool_lb(monkeypatch):
    """A block whose model is refused (here every block: the cell limit set to 1) keeps its
    pool_lb; the result is "stopped" with the start's schedule, never "optimal"."""
    import mlopt.models.edgecloud.common as common
    from mlopt.families.edgecloud.pool_bound import pool_lb

    monkeypatch.setattr(common, "MAX_MODEL_CELLS", 1)
    w = _late_hand()
    out = split.split_lb(w, time_limit=10)
    assert out["status"] == "stopped"
    assert {r["status"] for r in out["blocks"]} == {"refused"}
    want = sum(math.ceil(pool_lb(split.sub_workload(w, ids))["raw_bound"] - 1e-6)
               for ids in split.job_blocks(w))
    assert out["bound"] == pytest.approx(want) and out["bound"] <= OPT + 2
    assert FAM.check(w, out["schedule"]).feasible


def test_storage_blocks_share_a_server_and_stay_below_the_optimum():
    """With the storage extension, blocks of different windows still share each server's
    storage; the bound (restriction theorem) stays <= OPT, and a merged schedule is reported
    only when the checker accepts it on the whole workload."""
    base = tiny_workload(storage=True)
    c = tiny_job("c", 1, {"e0": 1, "e1": 1, "cloud": 3}, arrival=6, chunk_gb=1.0)
    w = tiny_workload(jobs=(*base.jobs, c), storage=True)
    ref = solve(build_jct_milp(w), "highs", time_limit=60)
    assert ref.status == Status.OPTIMAL
    out = split.split_lb(w, time_limit=60)
    assert out["bound"] <= ref.objective + 1e-6
    if out["schedule"] is not None:
        chk = FAM.check(w, out["schedule"])
        assert chk.feasible and chk.objective >= ref.objective - 1e-6
