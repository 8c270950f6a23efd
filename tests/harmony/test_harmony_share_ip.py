"""Harmony's ``share_ip`` bound (mlopt/families/harmony/share_ip.py): a hand value, the golden
LP, a lone job never shared, the committed instance where it lifts ``share`` to OPT, the
fail-safe paths (an ``upper`` below OPT, a stopped / infeasible / unsolved solve, the
tolerance before rounding up) and (hypothesis, widened generator parameters) between ``share``
and the proven optimum."""
from __future__ import annotations

from pathlib import Path

import math
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_harmony_crowd_bound import WIDE

import mlopt.solve
from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony import share_ip as si
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.share_bound import share_bound
from mlopt.solve import SolveResult, Status
from mlopt.testing import assert_golden_lp
from mlopt.workload import Workload

FAM = get_family("harmony")
ROOT = Path(__file__).resolve().parents[2]


def two_resnets():
    # share's hand case: two 1-worker + 1-PS ResNet jobs of 4 epochs on one server, T = 4
    return make_workload([{"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}]
                         * 2, n_servers=1, horizon=4)


def small(i):
    return Workload.load(ROOT / "instances" / "harmony-small" / f"harmony-small-{i}.json")


def test_hand_value_two_resnets_on_one_server():
    # each job needs one interval alone (k = 1) and would lose speed shared; the server holds
    # one exclusive job at a time (g = 1 = M): JCTs 1 + 2 = 3, average 1.5 (= OPT = share)
    out = si.share_ip_bound(two_resnets(), upper=1.5)
    assert out["ip_status"] == "optimal" and out["ip_sum"] == 3 and out["bound"] == 1.5
    assert out["upper_sum"] == 3 and out["upper_source"] == "upper"


def test_golden_lp():
    model, _ = si.build_share_ip(two_resnets(), form="runs")
    assert_golden_lp(model, "harmony_share_ip_tiny.lp")
    model, _ = si.build_share_ip(two_resnets(), form="blocks", pairs=False)
    assert_golden_lp(model, "harmony_share_ip_blocks_tiny.lp")


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), params=WIDE, pairs=st.booleans())
def test_runs_and_blocks_forms_agree_over_every_run(seed, params, pairs):
    # over every run of the horizon the two forms are the same integer set (a block from one
    # start, at least k long, is a run), up to BLOCKS' loss line using T in the float margin
    w = FAM.generate("tiny", seed=seed, **params)
    got = [si.build_share_ip(w, form=form, pairs=pairs) for form in ("runs", "blocks")]
    if got[0] is None:
        assert got[1] is None
        return
    values = []
    for model, _ in got:
        res = mlopt.solve.solve(model, time_limit=30)
        assert res.status == Status.OPTIMAL
        values.append(res.objective)
    assert values[0] == pytest.approx(values[1], abs=1e-6)


def test_a_lone_job_is_never_shared():
    # one job: its shared modes have no partner (the partner row's right side is empty)
    w = make_workload([{"model": "ctc", "workers": 1, "ps": 1, "epochs": 6, "arrival": 2}],
                      n_servers=1, horizon=6)
    model, _ = si.build_share_ip(w)
    res = mlopt.solve.solve(model)
    assert res.status == Status.OPTIMAL
    assert all(model.yP[k].value < 0.5 and model.yF[k].value < 0.5 for k in model.C)
    assert si.share_ip_bound(w)["bound"] == share_bound(w)["bound"]


def test_lifts_share_to_the_optimum_on_harmony_small_3():
    # solu.csv: harmony-small-3 OPT 2.4 (HiGHS, SCIP agrees); share stops at 2.2
    w = small(3)
    out = si.share_ip_bound(w, upper=2.4)
    assert out["share"] == pytest.approx(2.2) and out["bound"] == pytest.approx(2.4)
    # from a U of 15 (3.0 x 5 jobs) the cap min(., U) cannot bind: the IP itself reaches 12
    loose = si.share_ip_bound(w, upper=3.0)
    assert loose["upper_sum"] == 15 and loose["ip_sum"] == 12
    assert loose["bound"] == pytest.approx(2.4)


def test_upper_below_opt_never_gives_a_bound_above_opt():
    # OPT sum 12 at harmony-small-3; an upper of 11 or far below share's Lagrangian (5) gives
    # a weaker bound, never above OPT (THEOREM: min with U; slack < 0 returns share's)
    w = small(3)
    for upper in (2.2, 1.0):
        out = si.share_ip_bound(w, upper=upper)
        assert out["bound"] <= 2.4 + 1e-12 and out["bound"] >= out["share"]
    assert si.share_ip_bound(w, upper=1.0)["bound"] == out["share"]


def _fake(status, objective=None, bound=None):
    def fake_solve(model, solver="highs", **_):
        return SolveResult(status, objective, bound, None, 0.0, solver, "", "min")
    return fake_solve


@pytest.mark.parametrize("status,objective,bound,expect_sum", [
    (Status.FEASIBLE, 13.0, 11.3, 12),  # stopped: the dual bound, rounded up
    (Status.FEASIBLE, 13.0, 12.0004, 12),  # within the tolerance of 12: not 13
    (Status.FEASIBLE, 13.0, 11.9995, 12),
    (Status.NO_SOLUTION, None, None, None),  # nothing: share's bound
    (Status.INFEASIBLE, None, None, None),  # the solver's word against a checked U: share's
    (Status.FEASIBLE, 13.0, 40.0, 12)])  # a bound above U is capped at U (upper = 2.4)
def test_stopped_or_failed_solves_are_weaker_never_wrong(monkeypatch, status, objective,
                                                         bound, expect_sum):
    w = small(3)
    monkeypatch.setattr(mlopt.solve, "solve", _fake(status, objective, bound))
    out = si.share_ip_bound(w, upper=2.4)
    assert out["ip_status"] == status.value
    assert out.get("ip_sum") == expect_sum
    want = max(out["share"], expect_sum / 5) if expect_sum is not None else out["share"]
    assert out["bound"] == pytest.approx(want)


@settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), params=WIDE, form=st.sampled_from(["runs", "blocks"]),
       pairs=st.sampled_from([None, False]))
def test_between_share_and_the_optimum_on_widened_instances(seed, params, form, pairs):
    w = FAM.generate("tiny", seed=seed, **params)
    out = si.share_ip_bound(w, time_limit=20, form=form, pairs=pairs)  # U: local_search's
    share = share_bound(w)
    assert out["bound"] >= share["bound"] - 1e-12
    if out.get("ip_status") == "optimal" and form == "runs":  # share's LP in integers
        assert share["lp"] is None or out["ip_objective"] >= share["lp"] * len(w.jobs) - 1e-6
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    if off.solve.status == Status.OPTIMAL:
        assert off.check.feasible and out["bound"] <= off.objective + 1e-9


def test_registered_as_a_solver_bound_that_bracket_runs_late():
    """A MILP's dual bound (one solver's word), among bracket's default sources, given the
    best schedule (start_option), so bracket runs it late (mlopt.bracket, late bounds)."""
    b = FAM.bounds_["share_ip"]
    assert b.solver is True and b.bracket is True
    assert b.start_option == "start_schedule" and not b.proves_from_start


def test_bad_input():
    with pytest.raises(InputError) as err:
        si.share_ip_bound(two_resnets(), upper=-1.0)
    assert err.value.field == "upper" and "-1.0" in str(err.value)
    w = two_resnets()
    w.jobs[0].extra["workers"] = 2.5
    with pytest.raises(InputError) as err:
        si.share_ip_bound(w)
    assert "workers" in str(err.value.field) and "2.5" in str(err.value)


@pytest.mark.parametrize("name", [f"harmony-tiny-{i}" for i in range(5)]
                         + [f"harmony-small-{i}" for i in range(5)])
def test_never_above_the_recorded_optima(name):
    # the committed proven sets (solu.csv, HiGHS + SCIP): upper = OPT itself (the tightest
    # slack a checked schedule can give) must keep the optimum's runs
    import csv

    row = next(r for r in csv.DictReader(open(ROOT / "instances" / "solu.csv"))
               if r["instance"] == name)
    assert row["status"] == "optimal"
    opt = float(row["objective"])
    w = Workload.load(ROOT / "instances" / name.rsplit("-", 1)[0] / f"{name}.json")
    out = si.share_ip_bound(w, upper=opt)
    assert out["share"] - 1e-12 <= out["bound"] <= opt + 1e-9
    # U = OPT caps the result at OPT whatever the rows say: with U two units above OPT's sum
    # the cap cannot bind, so the IP's own (uncapped) sum is what must stay <= OPT's
    J = len(w.jobs)
    loose = si.share_ip_bound(w, upper=opt + 2.0 / J)
    assert loose["upper_sum"] == round(opt * J) + 2
    if loose.get("ip_bound") is not None:
        db = loose["ip_bound"]
        assert math.ceil(db - si.INT_TOL * (1.0 + abs(db))) <= round(opt * J)


def test_start_schedule_as_a_file(tmp_path):
    # `mlopt bound --option start_schedule="..."` passes a path: its checked sum is U
    w = small(3)
    sched = FAM.run("local_search", w, seed=0, options={"time_limit": 1})
    path = tmp_path / "s.json"
    sched.save(path)
    out = si.share_ip_bound(w, start_schedule=str(path))
    assert out["upper_source"] == "start_schedule"
    assert out["upper_sum"] == round(FAM.check(w, sched).objective * 5)
    assert out["status"] in ("ip_optimal", "ip_stopped") and out["bound"] <= 2.4 + 1e-9


def test_a_second_solver_confirms_the_lift_and_refuses_a_wrong_one():
    # harmony-small-3: the IP lifts share (2.2) to 2.4, sum 12; SCIP's own optimum of the
    # same IP is 12 (confirmed), while a claimed 13 is refused (SCIP's bound rounds to 12)
    w = small(3)
    out = si.share_ip_bound(w, upper=2.4, confirm="scip")
    assert out["bound"] == pytest.approx(2.4) and out["source"] == "share_ip"
    assert out["confirm"]["confirmed"] and out["confirm"]["sum"] == 12
    assert out["verified_by"].startswith("scip")
    model, _ = si.build_share_ip(w)
    wrong = si.confirm_bound(model, 13, 15, "scip", time_limit=60)
    assert not wrong["confirmed"] and wrong["sum"] == 12
    # capped at U as the first solver's sum: a U of 11 below the IP's 12 confirms 11 only
    assert si.confirm_bound(model, 12, 11, "scip", time_limit=60)["sum"] == 11
    # not asked: None, the first solver again, or nothing lifted (share's own bound stands)
    for confirm in (None, "highs"):
        out = si.share_ip_bound(w, upper=2.4, confirm=confirm)
        assert "confirm" not in out and "verified_by" not in out
    out = si.share_ip_bound(w, upper=1.0, confirm="scip")  # U below OPT: share's bound
    assert out["bound"] == out["share"] and "confirm" not in out


@pytest.mark.parametrize("status,objective,bound,confirmed", [
    (Status.OPTIMAL, 12.0, 12.0, True), (Status.FEASIBLE, 13.0, 11.3, True),
    (Status.FEASIBLE, 13.0, 11.0002, False), (Status.FEASIBLE, 13.0, 10.9, False), (Status.NO_SOLUTION, None, None, False),
    (Status.INFEASIBLE, None, None, False), (Status.OPTIMAL, 12.0, None, True)])
def test_the_second_answer_confirms_only_a_bound_that_reaches_the_sum(
        monkeypatch, status, objective, bound, confirmed):
    # sum 12 claimed: a second bound of 11.3 rounds up to 12 (the IP's sums are integers);
    # 11.0002 is within INT_TOL (1e-4 x 12) of 11 and 10.9 rounds to 11 (not confirmed);
    # nothing, or "infeasible" (a disagreement), confirms nothing
    monkeypatch.setattr(mlopt.solve, "solve", _fake(status, objective, bound))
    model, _ = si.build_share_ip(two_resnets())
    assert si.confirm_bound(model, 12, 15, "scip", time_limit=5)["confirmed"] is confirmed


def test_a_confirmation_reaches_the_bracket_source_without_a_level():
    # share_ip's answer names no ``level`` (it confirms its own bound, not a level near a
    # schedule): the source gets verified_by and no confirmed_at, so it closes nothing alone
    from mlopt.bracket import _confirmation

    got = _confirmation({"verified_by": "scip 10", "confirm": {
        "solver": "scip 10", "status": "optimal", "bound": 190.0, "sum": 190,
        "runtime_s": 50.0, "confirmed": True}})
    assert got["verified_by"] == "scip 10" and "confirmed_at" not in got
    assert "scip 10: optimal, bound 190.0" in got["asked"]
    assert _confirmation({"confirm": {"solver": "scip", "status": "time_limit",
                                      "bound": 188.0}}).keys() == {"asked"}


@pytest.mark.parametrize("confirm,field", [(3, "confirm"), ("nosuch", None)])
def test_bad_confirm_refused(confirm, field):
    with pytest.raises(InputError) as err:
        si.share_ip_bound(two_resnets(), confirm=confirm)
    assert field is None or err.value.field == field


def test_a_second_solver_without_continuous_columns_is_refused_first():
    # CP-SAT takes no continuous column (the IP's losses): refused by name before anything
    # is built, instead of after the first solve (its lift lost with the error)
    from mlopt.solvers.base import available_backends

    if "cpsat" not in available_backends():
        pytest.skip("CP-SAT not installed")
    t0 = time.perf_counter()
    with pytest.raises(InputError) as err:
        si.share_ip_bound(small(3), upper=2.4, confirm="cpsat")
    assert err.value.field == "confirm" and err.value.value == "cpsat"
    assert time.perf_counter() - t0 < 1.0


def test_a_budget_too_short_for_the_runs_returns_share_in_time(monkeypatch):
    # listing the runs within the slack past LIST_SHARE of the budget, or a build that leaves
    # no second to solve, gives share's bound (a theorem) instead of a bound killed with
    # nothing at the bracket's hard limit
    import time

    from mlopt.families.harmony.share_fixing import share_slack_columns

    w = small(3)
    assert share_slack_columns(w, 12, deadline=time.perf_counter() - 1.0) is None
    assert share_slack_columns(w, 12) is not None
    monkeypatch.setattr(si, "LIST_SHARE", 0.0)
    out = si.share_ip_bound(w, upper=2.4)
    assert out["bound"] == out["share"] == pytest.approx(2.2)
    assert out["ip_status"].startswith("not_run") and "ip_sum" not in out
    monkeypatch.setattr(si, "LIST_SHARE", 0.5)
    slow = si.build_share_ip

    def late_build(*args, **kwargs):
        built = slow(*args, **kwargs)
        time.sleep(1.2)  # past the 1 s budget: nothing left to solve with
        return built
    monkeypatch.setattr(si, "build_share_ip", late_build)
    out = si.share_ip_bound(w, upper=2.4, time_limit=1.0)
    assert out["bound"] == out["share"] and out["ip_status"].startswith("not_run")


def test_cli_bound_json_keeps_the_second_solvers_answer(capsys):
    # `mlopt bound --json` keeps flat dict details (the confirm answer) beside the scalars
    import json

    from mlopt.cli import main

    path = ROOT / "instances" / "harmony-small" / "harmony-small-3.json"
    assert main(["bound", str(path), "--bound", "share_ip", "--time-limit", "60",
                 "--option", "upper=2.4", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["value"] == pytest.approx(2.4)
    assert d["details"]["confirm"]["confirmed"] is True
    assert d["details"]["verified_by"].startswith("scip")
