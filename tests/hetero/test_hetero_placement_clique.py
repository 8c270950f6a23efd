"""``placement_clique`` (``placement_ti`` plus per-slot clique rows) keeps the optimum and only
tightens the LP relaxation.

Golden LP files ``tests/data/golden/hetero_placement_clique_tiny.lp`` (PS: the hand instance on
one server with 6-Gbps PSs) and ``..._tiny-ra.lp`` (Ring-AllReduce: the hand instance on one
server with 2-GPU workers), each with a clique row; refresh after an intended change with
``MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/hetero/test_hetero_placement_clique.py -k golden``.
"""
from __future__ import annotations

import json
from pathlib import Path

import pyomo.environ as pyo
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from pyomo.environ import value

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.hetero.generator import generate
from mlopt.modelsize import estimate, measure
from mlopt.models.hetero.placement_clique import build_placement_clique, cliques, patterns
from mlopt.models.hetero.placement_ti import build_placement_ti, encode, extract_schedule
from mlopt.solve import Status, solve
from mlopt.testing import assert_golden_lp
from mlopt.workload import Workload
from tests.hetero_fixtures import hand

FAM = get_family("hetero")
ROOT = Path(__file__).resolve().parents[2]


def one_server_wide_ps(d):
    """The hand instance on server s1 only, every PS using 6 of its 10 Gbps, job A with one
    chunk (so one worker): A (w = 2) runs 1 slot, B (w = 1) 3 slots, each with one worker and
    one PS: 1 + 6 = 7 Gbps each, 14 > 10 together, so they never share a slot."""
    d["servers"] = d["servers"][:1]
    for p in d["extra"]["hetero"]["ps_types"]:
        p["demand"]["bandwidth_gbps"] = 6
    for j in d["jobs"]:
        j["ps_demand"]["bandwidth_gbps"] = 6
    d["jobs"][0]["chunks"] = 1


def lp(model) -> float:
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(model)
    r = solve(model, time_limit=60)
    assert r.status == Status.OPTIMAL
    return r.objective


def optimum(build, w) -> float:
    m = build(w)
    r = solve(m, time_limit=60)
    assert r.status == Status.OPTIMAL
    res = FAM.check(w, extract_schedule(m, w))
    assert res.feasible, res.violations[:3]
    assert res.objective == pytest.approx(r.objective, rel=1e-9)
    return res.objective


def one_server_wide_workers(d):
    """Ring-AllReduce: the hand instance on s1 only with w1 workers of 2 GPUs (each worker
    takes the server's GPUs, so two jobs never share a slot)."""
    d["servers"] = d["servers"][:1]
    d["extra"]["hetero"]["worker_types"][0]["demand"]["gpu"] = 2
    for j in d["jobs"]:
        j["worker_demand"]["gpu"] = 2


@pytest.mark.parametrize("arch", ["ps", "ra"])
def test_golden_lp_file(arch):
    w = hand("ps", mutate=one_server_wide_ps) if arch == "ps" else \
        hand("ra", mutate=one_server_wide_workers)
    assert_golden_lp(build_placement_clique(w),
                     f"hetero_placement_clique_{'tiny' if arch == 'ps' else 'tiny-ra'}.lp")


def test_hand_clique_row_closes_the_lp():
    # one_server_wide_ps: OPT runs A in slot 1 (c = 2) then B in 2..4 (c = 5): 2 * 2 + 5 = 9
    # (B first: 4 + 2 * 5 = 14).  placement_ti's LP: bandwidth 7 x_A + 7 x_B <= 10 per slot,
    # so B starts at 1 with 3/7 beside A and at 2 with 4/7:
    # 2 * 2 + (3/7) * 4 + (4/7) * 5 = 4 + 32/7 = 60/7.  The clique row x_A,1 + x_B,1 <= 1
    # (slot 1) forbids the 3/7: the LP is 9 = OPT.
    w = hand("ps", mutate=one_server_wide_ps)
    assert optimum(build_placement_ti, w) == pytest.approx(9)
    assert optimum(build_placement_clique, w) == pytest.approx(9)
    assert lp(build_placement_ti(w)) == pytest.approx(60 / 7)
    assert lp(build_placement_clique(w)) == pytest.approx(9)
    m = build_placement_clique(w)
    assert len(m.clique) >= 1


def test_conflicts_use_the_checker_tolerance():
    # the checker accepts up to 10 (1 + 1e-9) + 1e-9 = 10 + 1.1e-8 Gbps: 5 + 5 and 5 + (5 +
    # 1e-8) do not conflict, (5 + 1e-8) twice (10 + 2e-8) does: only b is in a clique
    import numpy as np

    cap = np.array([[2.0, 10.0]])
    a, b = np.array([[0.0, 5.0]]), np.array([[0.0, 5.0 + 1e-8]])
    assert cliques([a, b], cap) == [[1]]
    assert cliques([a, a * 1.0], cap) == []
    c = np.array([[1.5, 0.0]])  # 1.5 GPUs: conflicts with itself, not with the 5-Gbps ones
    assert cliques([a, b, c], cap) == [[1], [2]]
    assert cliques([], cap) == []  # no placement at all: no rows (not a crash)


def test_patterns_are_shared_across_jobs():
    w = generate("small", seed=3)
    m = build_placement_ti(w)
    uses, of = patterns(m._hetero["placements"])
    assert len(uses) < sum(len(p) for p in m._hetero["placements"].values())
    assert set(of.values()) == set(range(len(uses)))


def test_size_estimate_exact():
    for preset, seed in (("tiny", 0), ("tiny-ra", 1), ("small", 2)):
        w = generate(preset, seed=seed)
        est, got = estimate(FAM, w, "placement_clique"), measure(build_placement_clique(w))
        assert (est.variables, est.rows, est.nonzeros) == (got.variables, got.rows,
                                                           got.nonzeros)


def test_too_large_refused():
    w = generate("paper-default", seed=0)
    with pytest.raises(InputError) as err:
        build_placement_clique(w)
    assert err.value.field == "jobs" and err.value.value == len(w.jobs)


def _solu() -> dict[str, float]:
    import csv

    with open(ROOT / "instances" / "solu.csv") as f:
        return {r[0]: float(r[3]) for r in csv.reader(f) if r and r[0].startswith("hetero-")
                and r[4] == "optimal"}


# the committed instances whose optimum (confirmed by a second solver) is known and which solve
# in about a second
@pytest.mark.parametrize("name", [n for n in sorted(_solu())
                                  if "tiny" in n or n.endswith("small-1")])
def test_committed_instances_equal_proven_optimum(name):
    path = ROOT / "instances" / name.rsplit("-", 1)[0] / f"{name}.json"
    w = Workload.from_dict(json.loads(path.read_text()))
    assert optimum(build_placement_clique, w) == pytest.approx(_solu()[name], rel=1e-7)


SHAPES = st.lists(st.sampled_from(["g3.8xlarge", "g3.4xlarge", "p3.2xlarge", "p3.8xlarge"]),
                  min_size=1, max_size=2, unique=True)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), ra=st.booleans(), n_servers=st.integers(1, 3),
       shapes=SHAPES, ps_bw=st.floats(3.0, 9.5), window=st.integers(1, 5))
def test_equals_placement_ti_on_widened_instances(seed, ra, n_servers, shapes, ps_bw,
                                                  window):
    # generator parameters widened to reach the rows' edge shapes: one to three servers of
    # unequal shapes, PSs of 1.5-9.5 of 10 Gbps (self-conflicting or not), workers up to 6 Gbps,
    # late arrivals; the optimum is placement_ti's, the LP never below it, and every checked
    # algorithm schedule encoded into the model satisfies every clique row
    try:
        w = generate("tiny-ra" if ra else "tiny", seed=seed, n_jobs=4, n_servers=n_servers,
                     server_shapes=shapes, ps_bandwidth_gbps=[ps_bw / 2, ps_bw],
                     worker_bandwidth_gbps=[0.1, 6.0], arrival_window=window)
        build_placement_ti(w)
    except InputError:  # no job fits this cluster
        return
    assert optimum(build_placement_clique, w) == pytest.approx(
        optimum(build_placement_ti, w), rel=1e-7)
    assert lp(build_placement_clique(w)) >= lp(build_placement_ti(w)) * (1 - 1e-9)
    for alg in ("fifo", "tiresias"):
        sched = FAM.run(alg, w, seed=0)
        assert FAM.check(w, sched).feasible
        m = build_placement_clique(w)
        start = encode(m, w, sched)
        for v, x in start.items():
            v.value = x
        if sum(1 for x in start.values() if x == 1.0) < len(w.jobs):
            continue  # a partial start: the rows are only checked on full ones
        for c in m.clique.values():
            assert value(c.body) <= 1 + 1e-9


def test_a_pair_the_checker_accepts_at_its_float_limit_is_no_conflict():
    """The review's instance: two PS jobs on one g3.8xlarge server, worker e and PS z Gbps; the
    checker sums the rows one by one, ((z + e) + z) + e = 10.000000011000001, exactly its
    limit, and accepts both jobs in one slot, while 2 fl(e + z) lies one ulp above it.  Before
    FLOAT_MARGIN the clique rows forbade the pair and placement_clique reported a false
    optimum of 17,567.75; placement_ti's and the checker's value is 14,455.9."""
    from pathlib import Path

    from mlopt.pipeline import solve_offline
    from mlopt.workload import Workload
    w = Workload.load(Path(__file__).parents[1] / "data" / "hetero_clique_float_edge.json")
    ti = solve_offline(w, model="placement_ti", time_limit=60)
    clique = solve_offline(w, model="placement_clique", time_limit=60)
    assert ti.solve.status.value == clique.solve.status.value == "optimal"
    assert clique.objective == pytest.approx(ti.objective, rel=1e-9)
    assert clique.objective == pytest.approx(14455.9, abs=0.05)
