"""``placement_milp``'s ``rc_fix`` (reduced-cost fixing from share's Lagrangian,
mlopt/families/harmony/share_fixing.py): it refuses without ``upper``, keeps the optimum with
``upper`` = OPT (the tightest valid value) and = a checked schedule's, makes the model
infeasible with ``upper`` below OPT (never a wrong optimum), on the review's instance and on
random widened instances; and its windows by hand."""
from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_harmony_crowd_bound import WIDE

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.share_fixing import pooled_combinations, share_windows
from mlopt.models.harmony import build_placement_milp
from mlopt.solve import Status, solve
from mlopt.workload import Workload

FAM = get_family("harmony")
RESNET = {"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}


def test_refuses_without_upper():
    w = make_workload([RESNET] * 2, n_servers=1, horizon=4)
    with pytest.raises(InputError) as err:
        build_placement_milp(w, rc_fix=True)
    assert err.value.field == "rc_fix"


def test_windows_by_hand():
    # share's hand case: two 4-epoch ResNets on one server, OPT = 1 + 2 = 3 (each needs one
    # interval alone; together the server holds one).  share's LP is 3 too, so with U = 3 the
    # slack is 0: one job runs in 1 and the other in 2 -- by symmetry both may start in 1 or
    # 2, and nothing runs after interval 2.  U = 2 < OPT: slack < 0, no start at all
    w = make_workload([RESNET] * 2, n_servers=1, horizon=4)
    win = share_windows(w, 3)
    assert all(starts <= {1, 2} and last <= 2 for starts, last in win.values())
    assert set().union(*(s for s, _ in win.values())) == {1, 2}
    assert all(starts == set() for starts, _ in share_windows(w, 2).values())
    assert solve(build_placement_milp(w, upper=1.5, rc_fix=True), "highs").objective == \
        pytest.approx(1.5)
    assert solve(build_placement_milp(w, upper=1.0, rc_fix=True),
                 "highs").status == Status.INFEASIBLE


def test_pooled_combinations_by_hand():
    # the same two ResNets: the optimal schedules (one job in interval 1, the other in 2, each
    # one interval long) are among the (start, length) choices that survive U = 3, every
    # surviving run ends by interval 2 (the windows above), and U = 2 < OPT leaves none
    w = make_workload([RESNET] * 2, n_servers=1, horizon=4)
    _, _, combos = pooled_combinations(w, 3)
    combos = set(combos)
    assert {((1, 1), (2, 1)), ((2, 1), (1, 1))} <= combos
    assert all(s + n - 1 <= 2 for c in combos for s, n in c)
    assert list(pooled_combinations(w, 2)[2]) == []


def test_an_upper_below_opt_is_infeasible_never_a_wrong_optimum():
    # the review's instance of `upper` (4 jobs on 3 unequal servers, OPT 3.5)
    w = Workload.load(Path(__file__).parents[1] / "data" / "harmony_upper_below_opt.json")
    assert solve(build_placement_milp(w, upper=3.25, rc_fix=True), "highs",
                 time_limit=60).status == Status.INFEASIBLE
    res = solve(build_placement_milp(w, upper=3.5, rc_fix=True), "highs", time_limit=60)
    assert res.status == Status.OPTIMAL and res.objective == pytest.approx(3.5, abs=1e-6)


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), params=WIDE)
def test_keeps_the_optimum_on_widened_instances(seed, params):
    keeps_the_optimum(FAM.generate("tiny", seed=seed, **params), rc_fix=True)


def keeps_the_optimum(w, **option):
    """``placement_milp`` with ``option`` (rc_fix or rc_runs) and ``upper`` = OPT or a checked
    ``lb`` schedule's value proves OPT; one JCT below OPT it is infeasible, never an
    "optimum".  Shared with test_harmony_rc_runs."""
    ref = solve(build_placement_milp(w), "highs", time_limit=30)
    if ref.status != Status.OPTIMAL:
        return
    uppers = [ref.objective]
    r = pipeline.run_algorithm(w, "lb", family="harmony")
    if r.check.feasible:
        uppers.append(r.check.objective)
    for upper in uppers:
        res = solve(build_placement_milp(w, upper=upper, **option), "highs", time_limit=30)
        assert res.status == Status.OPTIMAL
        assert res.objective == pytest.approx(ref.objective, abs=1e-6)
    below = (round(ref.objective * len(w.jobs)) - 1) / len(w.jobs)
    if below >= 0:
        assert solve(build_placement_milp(w, upper=below, **option), "highs",
                     time_limit=30).status == Status.INFEASIBLE
