"""PD-ORS formulations (models/pdors.py): the exact DMLRS MILP on the hand-worked instance,
the per-slot packing-covering IP (23)-(26) and its LP, golden LP files.

Golden LP files ``tests/data/golden/pdors_*.lp`` are the symbolic-label LPs of the instances
below; after an intended model change refresh them with
``MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/pdors/test_pdors_models.py -k golden`` and review.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pyomo.environ as pyo
import pytest

from mlopt import pipeline
from mlopt.testing import assert_golden_lp
from mlopt.errors import InputError
from mlopt.families.pdors.examples import HAND_OPTIMUM, hand_tiny
from mlopt.models.pdors import build_dmlrs_milp, build_pricing_milp, build_slot_ip
from mlopt.solve import Status, solve

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden"


def test_hand_optimum_two_jobs_colocated():
    """Both jobs co-located, one per machine, finish in slot 1: 10 + 10 (examples docstring)."""
    r = pipeline.solve_offline(hand_tiny(), family="pdors")
    assert r.solve.status == Status.OPTIMAL
    assert r.objective == pytest.approx(HAND_OPTIMUM) and r.check.feasible
    assert r.solve.bound == pytest.approx(HAND_OPTIMUM)


def test_without_internal_mode_the_job_takes_three_slots():
    """z fixed to 0 (no internal credit): 9 worker-slots at <= 4 per slot -> slot 3, u(2) = 4."""
    m = build_dmlrs_milp(hand_tiny(1))
    for v in m.z.values():
        v.fix(0)
    res = solve(m, "highs")
    assert res.status == Status.OPTIMAL and res.objective == pytest.approx(4.0)


def test_unknown_option():
    with pytest.raises(InputError, match="options.nope"):
        build_dmlrs_milp(hand_tiny(), nope=1)


def slot_case():
    """Two machines with 3 CPUs free each; worker and PS need 1 CPU; F = 4, gamma = 2,
    demand 3 workers.  Worker prices 1 (machine 0) and 3 (machine 1), PS prices 1 and 1.
    IP: all 3 workers on machine 0 (cost 3, machine 0 full), PSs on machine 1 with
    2 s >= 3 -> s = 2 (cost 2): 5 (any worker on machine 1 costs 3 alone).
    LP: the same with s = 1.5: 4.5."""
    return dict(pw=np.array([1.0, 3.0]), ps=np.array([1.0, 1.0]), alpha=np.array([1.0]),
                beta=np.array([1.0]), free=np.array([[3.0], [3.0]]), batch=4, gamma=2,
                demand=3)


def test_slot_ip_and_lp_hand_values():
    ip = build_slot_ip(**slot_case())
    lp = build_slot_ip(**slot_case(), relax=True)
    r_ip, r_lp = solve(ip, "highs"), solve(lp, "highs")
    assert r_ip.objective == pytest.approx(5.0)
    assert r_lp.objective == pytest.approx(4.5)
    assert r_lp.objective <= r_ip.objective + 1e-9


def pricing_case():
    w = hand_tiny(1)
    job = {"a": 1, "F": 4, "gamma": 1, "n_int": 2.0, "n_ext": 9.0, "alpha": [1, 1, 1, 1],
           "beta": [0, 1, 1, 1], "utility": w.jobs[0].utility}
    price = np.full((3, 2, 4), 0.1)
    free = np.broadcast_to(np.array([2.0, 4.0, 16.0, 100.0]), (3, 2, 4)).copy()
    return job, price, free


def test_pricing_milp_hand_value():
    """Alone on an empty cluster, prices 0.1 per unit: internal in slot 1 with 2 workers (4
    units each: 0.4) + 2 PSs (3 units: 0.3): cost 1.4, payoff 10 - 1.4 = 8.6."""
    job, price, free = pricing_case()
    res = solve(build_pricing_milp(job, price, free, grid=4), "highs")
    assert res.status == Status.OPTIMAL and res.objective == pytest.approx(8.6)


@pytest.mark.parametrize("name, build", [
    ("pdors_dmlrs_milp_tiny.lp", lambda: build_dmlrs_milp(hand_tiny(1))),
    ("pdors_slot_ip.lp", lambda: build_slot_ip(**slot_case())),
    ("pdors_slot_lp.lp", lambda: build_slot_ip(**slot_case(), relax=True)),
    ("pdors_pricing_milp.lp", lambda: build_pricing_milp(*pricing_case(), grid=2)),
])
def test_golden_lp_files(name, build):
    assert_golden_lp(build(), name)


def test_golden_dmlrs_has_the_papers_rows():
    text = (GOLDEN / "pdors_dmlrs_milp_tiny.lp").read_text()
    for row in ("c3_work", "c4_batch_until_completion", "c5_capacity", "c6_work_in_completion",
                "ratio_ps_cover", "ratio_ps_le_workers", "fact1_alone_on_h",
                "fact1_credit_if_internal"):
        assert row in text, row


def test_dmlrs_extract_roundtrip_and_bound():
    """The extracted optimum is checked and equals the solver objective."""
    w = hand_tiny()
    m = build_dmlrs_milp(w)
    res = solve(m, "highs")
    assert res.status == Status.OPTIMAL
    assert pyo.value(m.obj_total_utility) == pytest.approx(HAND_OPTIMUM)
