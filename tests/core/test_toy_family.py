"""A sixth family registered from one folder (tests/toyfamily/) gets every guarantee of the
conformance suite, and the suite fails where a family breaks its contract."""
from __future__ import annotations

import dataclasses
import time

import pytest

from mlopt.families import get_family, register_family, unregister_family
from mlopt.testing import check_family, failures


@pytest.fixture
def toy():
    register_family("toy", "toyfamily.family:FAMILY")
    yield get_family("toy")
    unregister_family("toy")


def _variant(toy, name, **changes):
    fam = dataclasses.replace(toy, name=name, module=toy.module, **changes)
    register_family(fam)
    return fam


def _bracket_variant(toy, name, changes, start=None, **options):
    """``mlopt.bracket.bracket`` (looked up at call time: tests patch the module) without the
    exact model on the tiny seed-0 instance of the toy variant ``name`` with ``changes``;
    ``start(fam, workload)`` gives a start schedule.  The variant is unregistered after."""
    import mlopt.bracket as mb

    _variant(toy, name, **changes)
    try:
        fam = get_family(name)
        w = fam.generate("tiny", seed=0)
        return mb.bracket(w, family=name, exact=False,
                          start_schedule=None if start is None else start(fam, w), **options)
    finally:
        unregister_family(name)


def test_the_toy_family_passes_every_check(toy):
    checks = check_family("toy")
    assert len(checks) >= 8
    for check in checks:
        check()


def test_a_checker_that_accepts_everything_fails_the_suite(toy):
    from functools import partial

    from toyfamily.checker import check

    _variant(toy, "toy_loose", checker=partial(check, strict=False))
    try:
        failed = failures("toy_loose", artifacts=False)
    finally:
        unregister_family("toy_loose")
    assert set(failed) == {"toy_loose:checker_catches_broken_schedules"}, failed
    assert "dropped" in failed["toy_loose:checker_catches_broken_schedules"]


def test_undeclared_options_and_parameters_fail_the_suite(toy):
    from types import SimpleNamespace

    import toyfamily.generator as gen

    algs = {"greedy": dataclasses.replace(toy.algorithms_["greedy"], options=None)}
    legacy = SimpleNamespace(PRESETS=gen.PRESETS, generate=gen.generate)
    _variant(toy, "toy_legacy", algorithms_=algs, generator=legacy)
    try:
        failed = failures("toy_legacy", artifacts=False)
    finally:
        unregister_family("toy_legacy")
    assert {"toy_legacy:algorithms_declare_options", "toy_legacy:presets_declare_parameters",
            "toy_legacy:bad_parameters_refused",
            "toy_legacy:bad_options_refused[greedy]"} <= set(failed), failed


def test_an_algorithm_better_than_the_optimum_is_caught(toy):
    """An 'algorithm' that ignores capacity beats OPT and is infeasible: both are reported."""
    def cheat(workload, *, seed=0):
        from mlopt.schedule import Schedule
        rows = [(j.id, j.arrival, workload.servers[0].id, "worker",
                 int(j.worker_demand["gpu"])) for j in workload.jobs]
        return Schedule.from_rows({r[0] for r in rows}, rows)

    algs = {"cheat": dataclasses.replace(toy.algorithms_["greedy"], name="cheat", run=cheat,
                                         options={})}
    _variant(toy, "toy_cheat", algorithms_=algs)
    try:
        failed = failures("toy_cheat", artifacts=False)
    finally:
        unregister_family("toy_cheat")
    assert "toy_cheat:feasible_and_deterministic[cheat]" in failed


def test_an_improvement_worse_than_its_start_fails_the_suite(toy):
    """``fill`` with a start schedule is checked never worse than it (the best other
    algorithm's schedule); a version that drops the start's rows and adds no job is caught."""
    from mlopt.schedule import Schedule

    names = [c.name for c in check_family("toy")]
    assert "toy:improvement_never_worse[fill]" in names

    def forgetful(workload, *, seed=0, time_limit=5.0, start=None):
        return Schedule.from_rows(set(), [], {"producer": "forgetful"})

    algs = dict(toy.algorithms_)
    algs["fill"] = dataclasses.replace(algs["fill"], run=forgetful)
    _variant(toy, "toy_forgetful", algorithms_=algs)
    try:
        failed = failures("toy_forgetful", artifacts=False)
    finally:
        unregister_family("toy_forgetful")
    assert "toy_forgetful:improvement_never_worse[fill]" in failed
    assert "worse than its start" in failed["toy_forgetful:improvement_never_worse[fill]"]


def test_bracket_reruns_an_improvement_from_the_best_schedule(toy):
    """No bound, so the interval stays open and the anytime ``fill`` runs again: the second
    run starts from the best schedule so far (greedy's or its own first run's) and its row
    says so; the first run starts from nothing."""
    from mlopt.bracket import bracket

    w = toy.generate("tiny", seed=0)
    b = bracket(w, family="toy", time_limit=12, exact=False, bounds=[],
                algorithms=["greedy", "fill"])
    # in order of start (a rerun may start beside the first run and end before it)
    fills = sorted((s for s in b.sources if s.name == "fill"), key=lambda s: s.started_s)
    assert len(fills) >= 2, [s.to_dict() for s in b.sources]
    assert "started from" not in fills[0].note
    assert all(f.note.startswith("started from ") for f in fills[1:])
    # each rerun its own seed; fill settles at once (it stops before its cap without a gain),
    # so the bracket ends long before its budget instead of rerunning it until then
    assert len({f.note for f in fills[1:]}) == len(fills) - 1
    assert b.elapsed_s < 6, b.elapsed_s
    assert b.schedule is not None and toy.check(w, b.schedule).feasible


def _slow_fill(workload, *, seed=0, time_limit=5.0, start=None):
    """fill using its whole cap (as a search that never stops on its own)."""
    import time

    from toyfamily.fill import run

    time.sleep(time_limit)
    return run(workload, seed=seed, time_limit=time_limit, start=start)


def _every_job(workload, *, start=None):
    """A valid upper bound (every job admitted) that says whether it was given a start."""
    return {"bound": float(sum(j.utility.max_value() for j in workload.jobs)),
            "status": "given a start" if start is not None else "no start"}


@pytest.mark.parametrize("algorithms", [["greedy", "fill"], []])
def test_a_bound_taking_the_best_schedule_waits_for_the_searches(toy, algorithms):
    """A bound with ``start_option`` starts once LATE_AT of the budget has passed, with the
    best schedule by then, while a search that uses its whole cap keeps the other core; with
    no algorithm to wait for, it starts at once."""
    from mlopt.bracket import LATE_AT, RERUN_MIN_S
    from mlopt.families.base import Bound

    algs = dict(toy.algorithms_)
    algs["fill"] = dataclasses.replace(algs["fill"], run=_slow_fill)
    late = Bound("every_job", _every_job, start_option="start")
    b = _bracket_variant(toy, "toy_late", {"algorithms_": algs, "bounds_": [late]},
                         time_limit=16, algorithms=algorithms, bounds=["every_job"])
    src = [s for s in b.sources if s.name == "every_job"]
    assert len(src) == 1 and src[0].status == "ok", [s.to_dict() for s in b.sources]
    if algorithms:
        assert (LATE_AT, RERUN_MIN_S) == (0.6, 5.0)
        # the first free core after 0.6 x 16 - 5 = 4.6 s (literals: a bound read from LATE_AT
        # itself passed with LATE_AT = 0)
        assert src[0].started_s >= 0.6 * 16 - 5.0 - 0.5, src[0].to_dict()
        assert "given a start" in src[0].note and "schedule" in src[0].note
        fills = [s for s in b.sources if s.name == "fill"]
        assert len(fills) >= 3  # the first run, then reruns on both cores
        assert max(s.started_s for s in fills) > src[0].started_s  # the other core goes on
        # every run within RERUN_SHARE of the budget (a quarter of 16 s, at least RERUN_MIN_S:
        # 5 s), also after the late bound started (a rerun given all the time left passed)
        assert all(s.runtime_s <= 5.5 for s in fills), [s.to_dict() for s in fills]
    else:
        assert src[0].started_s < 2.0 and "no start" in src[0].note


def test_a_search_that_used_its_clipped_cap_has_not_settled(toy):
    """A rerun's cap is its budget option's value clipped to the option's range: here fill's
    time_limit at most 2 s, below the 4 s inner limit of a 5 s rerun share.  A search that
    used all of it did not stop on its own, so it runs again while time is left (compared
    with 0.9 x 4 s it was marked settled after its first rerun, and a 12 s bracket ended at
    about 4 s: first run about 2 s, both cores' reruns about 2 s)."""
    from mlopt.params import Param

    algs = dict(toy.algorithms_)
    algs["fill"] = dataclasses.replace(
        algs["fill"], run=_slow_fill,
        options={"time_limit": Param.float(1.0, low=0.1, high=2.0)})
    b = _bracket_variant(toy, "toy_clip", {"algorithms_": algs}, time_limit=12, bounds=[],
                         algorithms=["greedy", "fill"])
    fills = [s for s in b.sources if s.name == "fill"]
    # reruns start about every 2.1 s on both cores while more than RERUN_MIN_S (5 s) of the
    # 11.5 s left is left: at about 2, 4 and 6 s, two each, after the first run
    assert len(fills) >= 5, [s.to_dict() for s in b.sources]
    assert b.elapsed_s > 6, b.elapsed_s


@pytest.mark.parametrize("given", [False, True])
def test_a_bound_that_proves_from_a_start_is_late_only_without_one(toy, given):
    """``Bound.proves_from_start`` (OASiS's class_relaxation): with a start schedule it is a
    closer and runs at once, on the exact model's core; without one it is a late bound like
    any ``start_option`` bound (DECISION on late bounds: at oasis-open-2 from scratch, started
    late with the searches' best schedule, it gave the recorded high end), so it waits while
    a slow search holds the other core."""
    from mlopt.families.base import Bound

    algs = dict(toy.algorithms_)
    algs["fill"] = dataclasses.replace(algs["fill"], run=_slow_fill)
    closer = Bound("every_job", _every_job, start_option="start", proves_from_start=True)
    b = _bracket_variant(toy, "toy_closer", {"algorithms_": algs, "bounds_": [closer]},
                         start=(lambda fam, w: fam.run("greedy", w)) if given else None,
                         time_limit=16, algorithms=["greedy", "fill"], bounds=["every_job"])
    src = [s for s in b.sources if s.name == "every_job"]
    assert len(src) == 1 and src[0].status == "ok", [s.to_dict() for s in b.sources]
    if given:
        assert src[0].started_s < 2.0, src[0].to_dict()
    else:  # 0.6 x 16 - RERUN_MIN_S (5 s) = 4.6 s at the earliest
        assert src[0].started_s >= 4.0, src[0].to_dict()


def test_each_rerun_runs_with_the_seed_its_note_names(toy, tmp_path):
    """A rerun's seed reaches the algorithm, not only its note (with every run given seed 0
    and the note still naming its round, the tests on notes passed)."""
    log = tmp_path / "seeds"

    def recording_fill(workload, *, seed=0, time_limit=5.0, start=None):
        from toyfamily.fill import run

        with open(log, "a") as out:  # each run is a child process: a file collects them
            out.write(f"{seed}\n")
        return run(workload, seed=seed, time_limit=time_limit, start=start)

    algs = dict(toy.algorithms_)
    algs["fill"] = dataclasses.replace(algs["fill"], run=recording_fill)
    b = _bracket_variant(toy, "toy_seed", {"algorithms_": algs}, time_limit=12, bounds=[],
                         algorithms=["greedy", "fill"])
    fills = sorted((s for s in b.sources if s.name == "fill"), key=lambda s: s.started_s)
    assert len(fills) >= 2, [s.to_dict() for s in b.sources]
    named = [int(s.note.rsplit("seed ", 1)[-1]) for s in fills[1:]]
    assert sorted(int(x) for x in log.read_text().split()) == sorted([0] + named)
    assert len(set(named)) == len(named) and 0 not in named


def _busy_bound(workload, *, time_limit=5.0):
    """An anytime bound that uses all the time it is given (as column generation may)."""
    import time

    time.sleep(time_limit)
    return {"bound": float(sum(j.utility.max_value() for j in workload.jobs)),
            "status": "busy"}


def test_a_late_bound_runs_on_one_core_after_an_anytime_bound(toy, monkeypatch):
    """One core (as beside a running exact model): the last bound in turn took all the time
    left (left / 1), so the late bound found nothing left ("no time left in the budget").
    Bounds in turn before a late bound end by LATE_AT too, as the searches do: the late bound
    runs with the 0.4 x 16 = 6.4 s after it."""
    import mlopt.bracket as mb
    from mlopt.families.base import Bound

    monkeypatch.setattr(mb, "_cores", lambda: 1)
    busy = Bound("busy", _busy_bound)
    late = Bound("every_job", _every_job, start_option="start")
    b = _bracket_variant(toy, "toy_busy", {"bounds_": [busy, late]}, time_limit=16,
                         algorithms=["greedy", "fill"], bounds=["busy", "every_job"])
    src = {s.name: s for s in b.sources}
    assert src["busy"].status == "ok", [s.to_dict() for s in b.sources]
    assert src["every_job"].status == "ok", [s.to_dict() for s in b.sources]
    assert "given a start" in src["every_job"].note
    assert src["every_job"].started_s <= 0.6 * 16 + 0.5


def _greedy_value(workload):
    """A 'theorem' for the test: greedy's own checked value (so it closes the interval)."""
    fam = get_family("toy_closes")
    return {"bound": float(fam.check(workload, fam.run("greedy", workload)).objective)}


def test_a_theorem_that_closes_the_interval_stops_the_running_exact_model(toy, monkeypatch):
    """An interval closed by a theorem's bound met by a checked schedule is proven without the
    exact model: a running one (here one that reported a bound, so patience keeps it, and then
    sleeps for its whole share) is stopped at once instead of waited for."""
    import mlopt.bracket as mb
    from mlopt.families.base import Bound

    monkeypatch.setattr(mb, "_too_large", lambda fam, w, budget: None)

    def sleeper(fam, workload, solver, threads, share, verify, report=None, given=None):
        def work():
            report(None, 1e9)  # a loose bound at once: the patience rule keeps it
            time.sleep(share)
            return {"build_s": 0.0, "solved": False}
        return mb.Boxed(share, work)
    monkeypatch.setattr(mb, "_start_exact", sleeper)
    _variant(toy, "toy_closes", bounds_=[Bound("greedy_value", _greedy_value)])
    try:
        w = get_family("toy_closes").generate("tiny", seed=0)
        b = mb.bracket(w, family="toy_closes", time_limit=30, algorithms=["greedy"],
                       bounds=["greedy_value"], verify=False)
    finally:
        unregister_family("toy_closes")
    assert b.status == "optimal" and "greedy_value" in b.proof, b.to_dict()
    exact = [s for s in b.sources if s.kind == "exact"]
    assert len(exact) == 1 and "closed with a proof" in exact[0].note, b.to_dict()
    assert b.elapsed_s < 10  # not the 30 s the exact model would have slept
