"""The laws every certified Harmony bound obeys, checked together on the same instances:
``standalone <= volume <= share <= crowd`` (each returns the max of itself and the one before), and
the strongest below the proven optimum of ``placement_milp`` and below every checked
schedule (hypothesis), below the committed verified optima, registered as theorems
(``solver=False``).  Each bound's own hand-computed cases are in its own test file."""
from __future__ import annotations

import csv
import json

import pytest
from conftest import ROOT
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt import pipeline
from mlopt.families import get_family
from mlopt.families.harmony.bounds import standalone_bound
from mlopt.families.harmony.crowd_bound import crowd_bound
from mlopt.families.harmony.share_bound import share_bound
from mlopt.families.harmony.volume_bound import volume_bound
from mlopt.solve import Status
from mlopt.workload import Workload

FAM = get_family("harmony")
ALGS = ("harmony", "lb", "tetris", "lif_line", "lif_quad")
#: weakest first: each bound is never below the one before it
CHAIN = (("standalone", standalone_bound), ("volume", volume_bound), ("share", share_bound),
         ("crowd", crowd_bound))


def chain(w) -> list[float]:
    values = [fn(w)["bound"] for _, fn in CHAIN]
    for (weak, a), (strong, b) in zip(zip(CHAIN, values), zip(CHAIN[1:], values[1:])):
        assert a <= b + 1e-12, (weak[0], a, strong[0], b)
    return values


def below_checked_schedules(w, bound: float) -> None:
    for alg in ALGS:
        r = pipeline.run_algorithm(w, alg, family="harmony")
        if r.check.feasible:
            assert bound <= r.check.objective + 1e-9, alg


@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(preset=st.sampled_from(["tiny", "small"]), seed=st.integers(0, 10_000))
def test_chain_below_the_optimum_and_every_checked_schedule(preset, seed):
    w = FAM.generate(preset, seed=seed)
    strongest = chain(w)[-1]
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    if off.solve.status == Status.OPTIMAL:
        assert off.check.feasible and strongest <= off.objective + 1e-9
    below_checked_schedules(w, strongest)


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000))
def test_chain_below_every_checked_schedule_on_mini(seed):
    """A larger preset (4 servers, up to 3 workers: jobs that must spread), algorithms only."""
    w = FAM.generate("mini", seed=seed)
    below_checked_schedules(w, chain(w)[-1])


def test_chain_below_the_verified_optima_of_the_committed_instances():
    optima = {r["instance"]: float(r["objective"])
              for r in csv.DictReader((ROOT / "instances" / "solu.csv").open())
              if r["family"] == "harmony" and r["status"] == "optimal"}
    # the proven sets (a locally built harmony-open file has no optimum to compare with)
    paths = [p for p in sorted((ROOT / "instances").glob("harmony-*/*.json"))
             if not p.parent.name.endswith("-open")]
    assert paths and all(p.stem in optima for p in paths)
    for p in paths:
        w = Workload.from_dict(json.loads(p.read_text()))
        assert chain(w)[-1] <= optima[p.stem] + 1e-9, p.stem


@pytest.mark.parametrize("name", [n for n, _ in CHAIN])
def test_registered_as_a_theorem_bound(name):
    assert FAM.bounds_[name].solver is False
