"""The exact edge-cloud models admit every schedule the checker accepts (DECISION in
mlopt.tolerance).  The checker's only tolerance is on storage (7b): 1e-9 relative + 1e-9
absolute; work, worker and PS capacities are whole slots / counts, the same integers in the
models.  Before the fix the storage row used the exact U_s and the instance below had a checked
schedule (4) below the models' "optimal" 10 and below split_lb's bound (10)."""
from __future__ import annotations

import pytest

from edgecloud_tiny import tiny_job
from mlopt import pipeline
from mlopt.families.edgecloud.checker import check_edgecloud
from mlopt.families.edgecloud.split import split_lb
from mlopt.families.edgecloud.table import make_schedule
from mlopt.solve import Status
from mlopt.workload import BANDWIDTH, Server, Workload, validate


def storage_slack_instance() -> tuple[Workload, list]:
    """The hand instance's servers (one w0 worker each, p0 = 2 slots a chunk), 2000 GB of
    storage on each edge server; one job of 2 chunks of 1000.000001 GB, delays e0: 1, e1 and
    cloud: 10.  Both chunks on e0 (slots 2-3, 4-5) store 2000.000002 <= 2000 (1 + 1e-9) + 1e-9
    GB (the checker's slack): c = 5, JCT 4.  The exact row (2000.000002 > 2000 by 2e-6, beyond
    HiGHS's feasibility tolerance) sent a chunk to e1 or the cloud: JCT 10.  (With 2 GB and
    chunks of 1 + 1e-9 GB the excess, 2e-9, is inside HiGHS's tolerance: no counterexample.)"""
    servers = (Server("e0", "any", {BANDWIDTH: 10.0}, location="edge"),
               Server("e1", "any", {BANDWIDTH: 10.0}, location="edge"),
               Server("cloud", "any", {BANDWIDTH: 1e6}, location="cloud"))
    extra = {"edgecloud": {"cloud": "cloud", "servers": {
        s: {"workers": {"w0": 1}, "ps": {"p0": 1}, "storage_gb": 2000.0} for s in ("e0", "e1")}}}
    job = tiny_job("a", 2, {"e0": 1, "e1": 10, "cloud": 10}, chunk_gb=1000.000001)
    wl = validate(Workload("edgecloud-storage-slack", 6, 1.0, (BANDWIDTH,), servers, (job,),
                           {"family": "edgecloud"}, extra))
    rows = [("a", t, "e0", "worker", 1, "w0#0", 0) for t in (2, 3)] + \
        [("a", t, "e0", "worker", 1, "w0#0", 1) for t in (4, 5)] + \
        [("a", t, "cloud", "ps", 1, "cloud", -1) for t in (2, 3, 4, 5)]
    return wl, rows


@pytest.mark.parametrize("model", ["jct_milp", "jct_step"])
def test_the_storage_row_admits_the_checkers_slack(model):
    wl, rows = storage_slack_instance()
    checked = check_edgecloud(wl, make_schedule(["a"], rows))
    assert checked.feasible and checked.objective == 4.0
    res = pipeline.solve_offline(wl, family="edgecloud", model=model, time_limit=30)
    assert res.solve.status == Status.OPTIMAL and res.check.feasible
    assert res.objective <= 4.0  # was 10


def test_split_lb_is_not_above_the_checked_schedule():
    wl, _ = storage_slack_instance()
    assert split_lb(wl, time_limit=20)["bound"] <= 4.0  # was 10


def test_a_store_beyond_the_slack_is_still_refused():
    """Chunks of 1000.00001 GB: two store 2000.00002 > 2000.000002001 GB, rejected by the
    checker and by the model (which then uses e1 or the cloud: JCT 10)."""
    wl, rows = storage_slack_instance()
    d = wl.to_dict()
    d["jobs"][0]["extra"]["chunk_gb"] = 1000.00001
    wl = Workload.from_dict(d)
    assert check_edgecloud(wl, make_schedule(["a"], rows)).constraints_violated() == \
        {"c7b_storage"}
    res = pipeline.solve_offline(wl, family="edgecloud", time_limit=30)
    assert res.solve.status == Status.OPTIMAL and res.objective == 10.0
