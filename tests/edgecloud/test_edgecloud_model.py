"""Edge-cloud formulations (models/edgecloud.py): hand-computed optima, golden LP files, the
relaxation chain zeta=1 bound <= ILP (4) <= exact optimum, and pinned >= unpinned.

Refresh golden files after an intended model change with
    MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/edgecloud/test_edgecloud_model.py -k golden
and review the .lp diff like code.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from edgecloud_tiny import FLOW_LB, FLOW_LB_ZETA1, OPT, tiny_workload

from mlopt.testing import assert_golden_lp
from mlopt.families.edgecloud.bounds import flow_lb, flow_lb_zeta1, jct_unpinned
from mlopt.families.edgecloud.checker import check_edgecloud
from mlopt.families.edgecloud.generator import generate
from mlopt.models.edgecloud import build_flow_lb, build_jct_milp, extract_schedule
from mlopt.errors import InputError
from mlopt.solve import Status, solve

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"


def _opt(w):
    m = build_jct_milp(w)
    res = solve(m, "highs", time_limit=60)
    assert res.status == Status.OPTIMAL
    return m, res


def test_tiny_hand_optimum_and_schedule():
    w = tiny_workload()
    m, res = _opt(w)
    assert res.objective == pytest.approx(OPT)
    s = extract_schedule(m, w)
    chk = check_edgecloud(w, s)
    assert chk.feasible, chk.summary()
    assert chk.objective == OPT
    pj = chk.per_job.set_index("job")
    assert pj.loc["a", "zeta"] == 1 and pj.loc["a", "completion"] == 4  # a in the cloud
    assert pj.loc["b", "completion"] == 3


def test_tiny_hand_lower_bounds():
    w = tiny_workload()
    assert solve(build_flow_lb(w), "highs").objective == pytest.approx(FLOW_LB)
    assert solve(build_flow_lb(w, zeta_one=True), "highs").objective == \
        pytest.approx(FLOW_LB_ZETA1)
    assert flow_lb(w)["bound"] == 4.0 and flow_lb_zeta1(w)["bound"] == 3.0  # ceil: integer JCT
    assert jct_unpinned(w)["bound"] <= OPT


@pytest.mark.parametrize("name,build", [
    ("edgecloud_jct_milp_tiny.lp", lambda w: build_jct_milp(w)),
    ("edgecloud_jct_milp_unpinned_tiny.lp", lambda w: build_jct_milp(w, pin_chunks=False)),
    ("edgecloud_flow_lb_tiny.lp", lambda w: build_flow_lb(w)),
    ("edgecloud_flow_lb_zeta1_tiny.lp", lambda w: build_flow_lb(w, zeta_one=True)),
])
def test_golden(name, build):
    assert_golden_lp(build(tiny_workload()), name)


def test_unpinned_has_no_schedule():
    w = tiny_workload()
    m = build_jct_milp(w, pin_chunks=False)
    solve(m, "highs")
    with pytest.raises(InputError):
        extract_schedule(m, w)


@pytest.mark.parametrize("seed", range(4))
def test_bound_chain_random(seed):
    """zeta=1 bound <= ILP (4) <= unpinned (2) <= pinned optimum = checker's objective."""
    w = generate("tiny", seed, n_jobs=4)
    m, res = _opt(w)
    chk = check_edgecloud(w, extract_schedule(m, w))
    assert chk.feasible and chk.objective == pytest.approx(res.objective)
    z1 = solve(build_flow_lb(w, zeta_one=True), "highs").objective
    f = solve(build_flow_lb(w), "highs").objective
    u = solve(build_jct_milp(w, pin_chunks=False), "highs").objective
    assert z1 <= f + 1e-6 <= u + 2e-6 <= res.objective + 3e-6


def test_storage_extension_hand_and_random():
    """Hand: 1 GB per edge server, 1 GB chunks -> the optimum (b on e0, a in the cloud) stores one
    chunk on e0 and stays 5.  Random: the storage optimum is >= the plain one, checked."""
    w = tiny_workload(storage=True)
    m, res = _opt(w)
    assert res.objective == pytest.approx(OPT)
    assert check_edgecloud(w, extract_schedule(m, w)).feasible
    for seed in range(3):
        plain = generate("paper-ratio", seed, n_jobs=4)
        w = generate("paper-ratio", seed, n_jobs=4, storage_gb=(0.1, 0.2))
        m, res = _opt(w)
        chk = check_edgecloud(w, extract_schedule(m, w))
        assert chk.feasible and chk.objective == pytest.approx(res.objective)
        assert res.objective >= _opt(plain)[1].objective - 1e-6
