"""``colgen_lb``: the column-generation Lagrangian bound lies below OPT and above the trivial
bound, and refuses a bad ``slots``."""
from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.hetero.bounds import lower_bound
from mlopt.families.hetero.colgen import colgen_lb
from mlopt.families.hetero.generator import generate
from mlopt.models.hetero.placement_ti import build_placement_ti
from mlopt.solve import Status, solve
from mlopt.workload import Workload
from tests.hetero_fixtures import OPT, hand

ROOT = Path(__file__).resolve().parents[2]


def test_registered():
    fam = get_family("hetero")
    assert "colgen_lb" in fam.bounds_ and not fam.bounds_["colgen_lb"].solver


@pytest.mark.parametrize("arch", ["ps", "ra"])
def test_hand_instance(arch):
    # cluster: 4 GPUs.  A (w = 2) needs 2 w1 GPUs for 1 slot from a = 1: c_A >= 2; B (w = 1)
    # needs 3 slots from a = 1: c_B >= 4.  Both fit together, so the bound is 2*2 + 1*4 = 8 = OPT
    r = colgen_lb(hand(arch), time_limit=10)
    assert r["converged"]
    assert r["bound"] == pytest.approx(OPT, rel=1e-8) and r["bound"] <= OPT


def _solu():
    with open(ROOT / "instances" / "solu.csv") as f:
        return {r[0]: float(r[3]) for r in csv.reader(f) if r and r[0].startswith("hetero-")
                and r[4] == "optimal"}


@pytest.mark.parametrize("name", sorted(_solu()))
def test_committed_instances_below_optimum(name):
    path = ROOT / "instances" / name.rsplit("-", 1)[0] / f"{name}.json"
    w = Workload.from_dict(json.loads(path.read_text()))
    r = colgen_lb(w, time_limit=30)
    assert r["converged"]
    lb = lower_bound(w)
    # iteration 0 prices at pi = 0: exactly sum_j w_j (a_j + dmin_j)
    assert r["bound"] >= lb["arrival_plus_dmin"] * (1 - 1e-8)
    assert r["bound"] <= _solu()[name]


def test_tighter_than_lower_bound_on_small_0():
    # measured: colgen 65,198 vs lower_bound 55,187 (OPT 69,851.345)
    w = Workload.from_dict(json.loads(
        (ROOT / "instances" / "hetero-small" / "hetero-small-0.json").read_text()))
    assert colgen_lb(w, time_limit=30)["bound"] > 1.1 * lower_bound(w)["bound"]


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["tiny", "tiny-ra", "small"]),
       slots=st.one_of(st.none(), st.integers(1, 12)), class_rows=st.booleans())
def test_bound_le_opt_on_random_small(seed, preset, slots, class_rows):
    # small with 4 jobs: proven in about a second even on a loaded machine
    w = generate(preset, seed=seed, **({"n_jobs": 4} if preset == "small" else {}))
    m = build_placement_ti(w)
    res = solve(m, time_limit=60)
    assert res.status == Status.OPTIMAL
    r = colgen_lb(w, time_limit=20, slots=slots, class_rows=class_rows)
    assert r["bound"] <= res.objective * (1 + 1e-9)


def test_class_rows_bind_on_mixed_servers():
    # the hand instance with s2 cut to 1 GPU, D = 1 (one worker) and w1 100x slower, so each job
    # runs one 2-GPU w2 worker co-located, and only s1 holds one: A (work 2, rate 1) takes 2
    # slots, B (work 3) 3 slots, one after the other on s1.  OPT = 2 * 3 + 1 * 6 = 12.  The
    # cluster's 3 GPUs let the LP overlap them more than s1's class rows (2 GPUs) do: measured
    # 11 without class rows, 11.5 with them
    def shape(d):
        d["servers"][1]["capacity"]["gpu"] = 1
        for job in d["jobs"]:
            job["chunks"] = 1
            job["extra"]["minibatch_slots"] = [100.0, 1.0]  # w1 far slower: w2 it is
    w = hand(mutate=shape)
    # the usable and clique rows (tests/hetero/test_hetero_usable.py) would close it too
    old = {"usable_rows": False, "cliques": 0}
    on = colgen_lb(w, time_limit=10, type_rows=False, **old)["bound"]
    off = colgen_lb(w, time_limit=10, class_rows=False, type_rows=False, **old)["bound"]
    m = build_placement_ti(w)
    opt = solve(m, time_limit=30).objective
    assert off < on <= opt * (1 + 1e-9)
    # TYPE ROWS alone close it: s1 holds one w2 worker, s2 (1 GPU) none, so at most one w2
    # worker runs per slot, A and B run one after the other, and the bound is OPT = 12
    types = colgen_lb(w, time_limit=10, class_rows=False, **old)["bound"]
    assert types == pytest.approx(12.0, rel=1e-8) and types <= opt * (1 + 1e-9)
    assert opt == pytest.approx(12.0)


@pytest.mark.parametrize("field, value", [
    ("slots", 0), ("slots", -3), ("slots", True), ("slots", 10 ** 9), ("slots", 3.5),
    ("smoothing", 1.0), ("smoothing", -0.1), ("smoothing", "0.5"), ("columns_per_job", 0),
    ("max_iterations", -1), ("class_rows", 1), ("class_rows", "yes"), ("type_rows", 0),
    ("primal", 1), ("primal_share", 1.0), ("primal_share", 0)])
def test_bad_options_refused(field, value):
    with pytest.raises(InputError) as err:
        colgen_lb(hand(), **{field: value})
    assert err.value.field == field and err.value.value == value
