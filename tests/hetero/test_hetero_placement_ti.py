"""The per-placement time-indexed formulation ``placement_ti`` equals ``wct_milp``.

Golden LP files ``tests/data/golden/hetero_placement_ti_tiny.lp`` (PS) and
``hetero_placement_ti_tiny-ra.lp`` (Ring-AllReduce): the hand instance reduced to job A; refresh
after an intended change with
``MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/hetero/test_hetero_placement_ti.py -k golden``.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from pyomo.environ import value
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.placements import canonical, job_placements, server_classes
from mlopt.models.hetero import build_wct_milp
from mlopt.models.hetero.placement_ti import build_placement_ti, encode, extract_schedule
from mlopt.solve import Status, solve
from mlopt.testing import assert_golden_lp
from mlopt.warmstart import best_start
from mlopt.workload import Workload
from tests.hetero_fixtures import OPT, OPT_RA, hand

ROOT = Path(__file__).resolve().parents[2]
FAM = get_family("hetero")


def only_a(d):
    d["jobs"] = d["jobs"][:1]


def solved(w, time_limit=60):
    m = build_placement_ti(w)
    r = solve(m, time_limit=time_limit)
    assert r.status == Status.OPTIMAL
    res = FAM.check(w, extract_schedule(m, w))
    assert res.feasible, res.violations[:3]
    assert res.objective == pytest.approx(r.objective, rel=1e-9)
    return m, res.objective


@pytest.mark.parametrize("arch", ["ps", "ra"])
def test_golden_lp_file(arch):
    name = f"hetero_placement_ti_{'tiny' if arch == 'ps' else 'tiny-ra'}.lp"
    assert_golden_lp(build_placement_ti(hand(arch, mutate=only_a)), name)


@pytest.mark.parametrize("arch, opt", [("ps", OPT), ("ra", OPT_RA)])
def test_hand_instance_optimum(arch, opt):
    # tests/hetero_fixtures.py: A (w = 2) runs 2 w1 workers for 1 slot from a = 1 (c = 2), B
    # (w = 1) runs 3 slots from 1 on the other server (c = 4): 2 * 2 + 1 * 4 = 8
    _, obj = solved(hand(arch))
    assert obj == pytest.approx(opt)


def test_hand_placements():
    # job A (D = 2, work 4) on w1: rho = 2 co-located, so N = 2 on one server takes 1 slot;
    # split 1 + 1 is q = 0 (rate 1 / 0.501 < 2: 2 slots) and uses no less: dominated by 2 on
    # one server with one p1 PS (b = 1 < B = 1.5 is not needed: co-located)
    pl = job_placements(hetero_data(hand()), 0)
    assert pl.d.min() == 1
    fast = np.flatnonzero(pl.d == 1)
    assert all(pl.q[fast] == 1) and all(pl.n[fast] == 2)
    # no kept placement puts PSs on two servers (one PS server dominates: module docstring)
    assert ((pl.s > 0).sum(axis=1) == 1).all()
    # both servers are identical: the canonical job keeps only use on s1 >= use on s2
    keep = canonical(pl, server_classes(hetero_data(hand())))
    assert 0 < keep.sum() < len(pl)


def _solu():
    with open(ROOT / "instances" / "solu.csv") as f:
        return {r[0]: float(r[3]) for r in csv.reader(f) if r and r[0].startswith("hetero-")
                and r[4] == "optimal"}


@pytest.mark.parametrize("name", sorted(_solu()))
def test_committed_instances_equal_proven_optimum(name):
    # solu.csv: wct_milp's optimum, confirmed by a second solver
    path = ROOT / "instances" / name.rsplit("-", 1)[0] / f"{name}.json"
    w = Workload.from_dict(json.loads(path.read_text()))
    _, obj = solved(w)
    assert obj == pytest.approx(_solu()[name], rel=1e-7)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), ra=st.booleans())
def test_equals_wct_milp_on_random_tiny(seed, ra):
    w = generate("tiny-ra" if ra else "tiny", seed=seed)
    _, obj = solved(w)
    r = solve(build_wct_milp(w), time_limit=60)
    assert r.status == Status.OPTIMAL
    assert obj == pytest.approx(r.objective, rel=1e-7)


def test_warm_start_never_worse_than_its_schedule():
    w = generate("small", seed=3)
    best = best_start(w, "hetero")
    m = build_placement_ti(w)
    start = encode(m, w, best.schedule)
    chosen = [v for v, x in start.items() if x == 1.0]
    assert len(chosen) == len(w.jobs)  # a full start: one column per job
    for v, x in start.items():
        v.value = x
    assert value(m.obj) <= best.objective * (1 + 1e-9)
    for c in m.capacity.values():  # the start satisfies every capacity row
        assert value(c.body) <= c.upper + 1e-9


def test_warm_start_full_for_mirrored_schedule():
    # small's two servers are identical: the schedule with them swapped is as good, and the
    # encoder permutes it back so the symmetry-restricted job is canonical (a full start)
    w = generate("small", seed=3)
    best = best_start(w, "hetero")
    a, b = (s.id for s in w.servers)
    rows = best.schedule.allocations.copy()
    rows["server"] = rows["server"].map({a: b, b: a})
    mirrored = type(best.schedule)(best.schedule.admitted, rows, dict(best.schedule.meta))
    assert FAM.check(w, mirrored).feasible
    for sched in (best.schedule, mirrored):
        m = build_placement_ti(w)
        start = encode(m, w, sched)
        assert sum(1 for x in start.values() if x == 1.0) == len(w.jobs)
        for v, x in start.items():
            v.value = x
        assert value(m.obj) <= best.objective * (1 + 1e-9)


def test_too_large_refused():
    w = generate("paper-default", seed=0)
    with pytest.raises(InputError) as err:
        build_placement_ti(w)
    assert err.value.field == "jobs"


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), ra=st.booleans())
def test_equals_wct_milp_on_mixed_servers(seed, ra):
    # three servers of two shapes: two classes of identical servers (symmetry breaking on one
    # class of two, the other class a singleton); colgen_lb stays below the optimum too
    from mlopt.families.hetero.colgen import colgen_lb

    w = generate("small-ra" if ra else "small", seed=seed, n_jobs=3, n_servers=3,
                 server_shapes=["g3.8xlarge", "g3.4xlarge"])
    _, obj = solved(w)
    r = solve(build_wct_milp(w), time_limit=60)
    assert r.status == Status.OPTIMAL
    assert obj == pytest.approx(r.objective, rel=1e-7)
    assert colgen_lb(w, time_limit=10)["bound"] <= obj * (1 + 1e-9)
