"""Exact MILP of seed 003's (2) / (15), the max-weight form (7), the lower bound.

Golden LP files ``tests/data/golden/hetero_wct_milp_tiny.lp`` (PS) and
``hetero_wct_milp_tiny-ra.lp`` (Ring-AllReduce) are the symbolic LP of the hand instance reduced
to job A; refresh after an intended change with
``MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/hetero/test_hetero_model.py -k golden``.
"""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt import pipeline
from mlopt.families.hetero.bounds import lower_bound
from mlopt.families.hetero.generator import generate
from mlopt.models.hetero import build_wct_milp
from mlopt.solve import Status, solve
from mlopt.testing import assert_golden_lp
from tests.hetero_fixtures import OPT, OPT_RA, hand

GOLDEN = Path(__file__).resolve().parent.parent / "data" / "golden"


def only_a(d):
    d["jobs"] = d["jobs"][:1]


@pytest.mark.parametrize("arch", ["ps", "ra"])
def test_golden_lp_file(arch):
    name = f"hetero_wct_milp_{'tiny' if arch == 'ps' else 'tiny-ra'}.lp"
    assert_golden_lp(build_wct_milp(hand(arch, mutate=only_a)), name)
    text = (GOLDEN / name).read_text()
    for name in ("c2a_once", "c2b_workers", "c2d_pick", "c2h_capacity", "c2h_link_workers"):
        assert name in text
    assert ("c2i_bandwidth" in text) == (arch == "ps")


@pytest.mark.parametrize("arch, opt", [("ps", OPT), ("ra", OPT_RA)])
def test_hand_instance_optimum(arch, opt):
    # worked out in tests/hetero_fixtures.py: 2 * 2 + 1 * 4 = 8
    res = pipeline.solve_offline(hand(arch), family="hetero")
    assert res.solve.status == Status.OPTIMAL
    assert res.check.feasible and res.objective == pytest.approx(opt)
    assert lower_bound(hand(arch))["bound"] <= opt + 1e-9


def test_max_weight_form_on_hand_instance():
    # deadline tau = 3: A (d = 1) and B (d = 3 > tau - 1 = 2) -> only A: weight 2;
    # tau = 4 admits both on separate servers: weight 3
    for tau, expect in ((3, 2.0), (4, 3.0)):
        m = build_wct_milp(hand(), deadline=tau)
        r = solve(m)
        assert r.status == Status.OPTIMAL and r.objective == pytest.approx(expect)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), ra=st.booleans())
def test_bound_le_opt_le_every_algorithm(seed, ra):
    w = generate("tiny-ra" if ra else "tiny", seed=seed)
    off = pipeline.solve_offline(w, family="hetero", time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.check.feasible
    lb = lower_bound(w)["bound"]
    assert lb <= off.objective * (1 + 1e-9)
    for alg in ("a_online", "fifo", "drf", "antman", "tiresias"):
        res = pipeline.run_algorithm(w, alg, family="hetero")
        assert res.check.feasible
        assert off.objective <= res.check.objective * (1 + 1e-9)
