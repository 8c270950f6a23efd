"""``mlopt bracket``: the interval contains the proven optimum, both ends are certified (the low
end of a max family / the high end of a min family is a checked schedule with that objective),
and the budget is wall clock."""
from __future__ import annotations

import csv
import json
import math
import time
from pathlib import Path

import numpy as np
import pytest

from mlopt.bracket import bracket, run_boxed
from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.workload import Workload

ROOT = Path(__file__).resolve().parents[2]


def _tiny_optima(per_family: int = 2) -> list[tuple[str, Path, float]]:
    """(family, file, verified optimum): the first instances of each family's tiny set."""
    rows = list(csv.DictReader(open(ROOT / "instances" / "solu.csv", newline="")))
    out, seen = [], {}
    for r in rows:
        if not r["set"].endswith("tiny") or r["status"] != "optimal" or not r["verified_by"]:
            continue
        if seen.get(r["family"], 0) >= per_family:
            continue
        path = ROOT / "instances" / r["set"] / f"{r['instance']}.json"
        if path.exists():
            seen[r["family"]] = seen.get(r["family"], 0) + 1
            out.append((r["family"], path, float(r["objective"])))
    return out


CASES = _tiny_optima()


def test_every_family_has_tiny_cases():
    assert {c[0] for c in CASES} == {"oasis", "pdors", "hetero", "edgecloud", "harmony"}


@pytest.mark.parametrize("family,path,opt", CASES, ids=[p.stem for _, p, _ in CASES])
def test_interval_contains_the_verified_optimum(family, path, opt):
    w = Workload.load(path)
    res = bracket(w, family=family, time_limit=60)
    tol = 1e-6 * max(1.0, abs(opt))
    assert res.low is not None and res.high is not None
    assert res.low - tol <= opt <= res.high + tol, (res.low, opt, res.high)
    # the primal end is a checked schedule with exactly that objective
    fam = get_family(family)
    check = fam.check(w, res.schedule)
    assert check.feasible
    primal = res.low if fam.sense == "max" else res.high
    assert check.objective == pytest.approx(primal, rel=1e-9, abs=1e-9)
    # tiny instances close, with a proof that is not one solver's word
    assert res.status == "optimal" and res.proof, res.to_dict()


def test_budget_is_wall_clock_even_when_the_model_cannot_be_built(monkeypatch):
    """OASiS paper-default (200 jobs, T = 300, 100 servers): the exact model does not build in
    seconds (it took minutes and GB before); bracket answers within its budget.  The estimate
    gets 3 s of the 8 (its default 5%, 0.4 s, was missed on a loaded machine, and then the
    build is stopped at the limit instead: the budget still holds, the skip is not shown)."""
    import mlopt.bracket as b

    monkeypatch.setattr(b, "ESTIMATE_SHARE", 3 / 8)
    w = get_family("oasis").generate("paper-default", seed=5)
    t0 = time.perf_counter()
    res = bracket(w, time_limit=8)
    elapsed = time.perf_counter() - t0
    assert elapsed < 8 + 3, elapsed
    assert all(s.runtime_s < 8 + 1 for s in res.sources)
    exact = [s for s in res.sources if s.kind == "exact"]
    # its size estimate (mlopt.modelsize) says so before anything is built: skipped, with why
    assert exact and exact[0].status == "skipped" and "not built" in exact[0].note
    assert exact[0].runtime_s < 3


def test_run_boxed_kills_at_the_deadline_and_reports_errors():
    t0 = time.perf_counter()
    kind, _ = run_boxed(0.5, lambda: time.sleep(30))
    assert kind == "stopped" and time.perf_counter() - t0 < 3
    assert run_boxed(5, lambda: 1 + 1) == ("ok", 2)
    kind, msg = run_boxed(5, lambda: 1 / 0)
    assert kind == "error" and "ZeroDivisionError" in msg


def test_cli_bracket_and_bound(tmp_path, capsys):
    path = CASES[0][1]
    out = tmp_path / "best.json"
    assert main(["bracket", str(path), "--time-limit", "30", "--json", "-o", str(out)]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["status"] == "optimal" and d["low"] == pytest.approx(d["high"])
    assert "primal" in {s["kind"] for s in d["sources"]} and d["proof"]
    assert out.exists()
    # --start: continue from the best schedule of the run before (checked, the first source)
    assert main(["bracket", str(path), "--time-limit", "30", "--json", "--start",
                 str(out)]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["sources"][0]["name"] == "start"
    assert again["sources"][0]["value"] == pytest.approx(d["low"])
    assert main(["instances", "bracket", "oasis-tiny", "--start", str(out)]) == 2
    assert "--start" in capsys.readouterr().err
    fam = get_family(CASES[0][0])
    name = sorted(fam.bounds_)[0]
    assert main(["bound", str(path), "--bound", name, "--json"]) == 0
    b = json.loads(capsys.readouterr().out)
    assert b["bound"] == name and b["value"] is not None and math.isfinite(b["value"])


@pytest.mark.parametrize("argv", [
    ["--time-limit", "0"], ["--time-limit", "-1"], ["--time-limit", "nan"],
    ["--threads", "0"],
])
def test_cli_bracket_refuses_bad_budgets(argv, capsys):
    assert main(["bracket", str(CASES[0][1]), *argv]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_cli_bound_unknown_name(capsys):
    assert main(["bound", str(CASES[0][1]), "--bound", "no_such_bound"]) == 2


def test_solve_time_limit_is_wall_clock_build_included():
    """``solve --time-limit`` covers building: OASiS paper-default (200 jobs, T = 300, 100
    servers) cannot be built in 3 s; the solve is refused in one line naming the instance size
    and pointing at bracket and the bounds, within the limit plus a little."""
    from mlopt.errors import InputError
    from mlopt.pipeline import solve_offline

    w = get_family("oasis").generate("paper-default", seed=5)
    t0 = time.perf_counter()
    with pytest.raises(InputError) as err:
        solve_offline(w, time_limit=3)
    assert time.perf_counter() - t0 < 3 + 3
    assert err.value.field == "time_limit" and "mlopt bracket" in err.value.message
    assert "200 jobs" in err.value.message and "dual_certificate" in err.value.message


def test_a_model_that_refuses_the_workload_is_skipped_not_fatal(monkeypatch):
    """hetero's placement_ti refuses 100 paper-default jobs in its estimate (more placements
    than its cap): bracket records the exact model as skipped with that reason and goes on
    (it used to end the whole bracket with the model's InputError)."""
    import mlopt.modelsize
    from mlopt.bracket import _too_large
    from mlopt.errors import InputError
    from mlopt.families import get_family

    def refuses(fam, workload):
        raise InputError("too many placements for the per-placement model", field="jobs",
                         value=100)

    monkeypatch.setattr(mlopt.modelsize, "estimate", refuses)
    fam = get_family("hetero")
    why = _too_large(fam, fam.generate("tiny", seed=0), 10.0)
    assert why == "not built: too many placements for the per-placement model"


@pytest.mark.parametrize("cores", [1, 2])
def test_without_the_exact_model_algorithms_and_bounds_share_the_cores(monkeypatch, cores):
    """No exact model on the second core: with two cores the bounds start beside the
    algorithms (both tracks launch at once); with one they wait for the algorithms, as
    beside a running exact model."""
    import mlopt.bracket as b

    monkeypatch.setattr(b, "_cores", lambda: cores)
    w = get_family("pdors").generate("tiny", seed=0)
    res = bracket(w, time_limit=30, exact=False, verify=False)
    primal = [s for s in res.sources if s.kind == "primal" and s.status == "ok"]
    dual = [s for s in res.sources if s.kind == "dual"]
    assert primal and dual and all(s.started_s is not None for s in res.sources)
    first_dual = min(s.started_s for s in dual)
    last_primal_end = max(s.started_s + s.runtime_s for s in primal)
    if cores == 2:
        assert first_dual < min(s.started_s for s in primal) + 0.5, res.to_dict()
    else:
        assert first_dual >= last_primal_end - 0.05, res.to_dict()
    assert res.low is not None and res.high is not None and res.low <= res.high + 1e-9


def test_a_core_freed_by_the_exact_model_goes_to_the_bounds(monkeypatch):
    """The exact model refuses the workload in its child (as hetero's placement_ti does beyond
    its placement cap when the size estimate was too slow to say so first): once it is out,
    the bounds start beside the algorithms instead of after them."""
    import mlopt.bracket as b

    monkeypatch.setattr(b, "_cores", lambda: 2)
    monkeypatch.setattr(b, "_too_large", lambda fam, w, budget: None)
    fam = get_family("pdors")

    def refuse(workload):
        raise b.InputError("refused for the test", field="jobs", value=len(workload.jobs))
    monkeypatch.setattr(type(fam), "model", lambda self, name: refuse)
    work = b._algorithm_work

    def slow_work(fam, workload, name, options=None, start=None, seed=0):  # a second each:
        inner = work(fam, workload, name, options, start, seed)          # the refusal is first
        return lambda: (time.sleep(1.0), inner())[1]
    monkeypatch.setattr(b, "_algorithm_work", slow_work)
    w = fam.generate("tiny", seed=0)
    res = bracket(w, time_limit=30, verify=False)
    exact = [s for s in res.sources if s.kind == "exact"]
    assert exact and exact[0].status == "skipped" and "refused" in exact[0].note
    primal = [s for s in res.sources if s.kind == "primal" and s.status == "ok"]
    dual = [s for s in res.sources if s.kind == "dual"]
    assert primal and dual
    assert min(s.started_s for s in dual) < max(s.started_s + s.runtime_s for s in primal)


def test_the_size_estimate_runs_outside_the_bracket_process(monkeypatch, tmp_path):
    """The estimate runs in a child process: a module it imports never enters this process
    (stopped by a signal mid-import, such a module once stayed half-initialized here --
    pandas, under load -- and every source forked afterwards failed on it), and its answer
    still decides: a model too large for the budget is skipped before anything is built."""
    import sys

    import mlopt.modelsize as modelsize
    from mlopt.modelsize import ModelSize

    (tmp_path / "mlopt_estimate_probe.py").write_text("LOADED = True\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    def huge(fam, workload, model=None):
        __import__("mlopt_estimate_probe")  # imported in the child only
        return ModelSize("probe", 10**9, 10**9, 10**12)
    monkeypatch.setattr(modelsize, "estimate", huge)
    w = get_family("pdors").generate("tiny", seed=0)
    res = bracket(w, time_limit=20, verify=False)
    exact = [s for s in res.sources if s.kind == "exact"]
    assert exact and exact[0].status == "skipped", res.to_dict()
    assert "1,000,000,000,000 nonzeros" in exact[0].note, exact[0].note
    assert "mlopt_estimate_probe" not in sys.modules
    assert res.high is not None  # the algorithms still ran


def test_an_anytime_algorithm_gets_its_share_as_its_own_cap():
    """Harmony's local search declares ``budget_option="time_limit"`` (default 30 s): in a
    bracket it gets its share, 15% inside the hard limit (at least 1 s), clipped to the
    option's range; an algorithm without a budget option runs with its defaults."""
    from mlopt.bracket import _budget_options

    fam = get_family("harmony")
    assert _budget_options(fam, "local_search", 20.0) == {"time_limit": 17.0}  # 20 - 0.15 * 20
    assert _budget_options(fam, "local_search", 4.0) == {"time_limit": 3.0}    # 4 - 1 s
    assert _budget_options(fam, "local_search", 1e6) == {"time_limit": 86_400.0}  # its high
    assert _budget_options(fam, "harmony", 20.0) == {}
    assert _budget_options(fam, "milp_greedy", 20.0) == {}  # its time_limit is per interval


def test_time_left_goes_to_the_anytime_algorithms_until_they_settle():
    """Every source has run with most of the budget left and the interval open (no bound, no
    exact model): the anytime algorithm runs again after its first run, each rerun with its
    own seed, until it stops on its own without a gain (settled: the bracket then ends early);
    the others run once."""
    w = get_family("harmony").generate("tiny", seed=0)
    res = bracket(w, time_limit=20, exact=False, verify=False, bounds=[],
                  algorithms=["harmony", "local_search"])
    # in order of start: a rerun starts on the free core while the first run goes on on the
    # other, and may end first (sources are listed as they end)
    runs = sorted((s for s in res.sources if s.name == "local_search"),
                  key=lambda s: s.started_s)
    assert len(runs) >= 2 and all(s.status == "ok" for s in runs), res.to_dict()
    assert "seed " not in runs[0].note
    assert all(s.started_s > runs[0].started_s for s in runs[1:])
    seeds = [s.note.rsplit("seed ", 1)[-1] for s in runs[1:]]
    assert all("seed " in s.note for s in runs[1:]) and len(set(seeds)) == len(seeds)
    assert res.elapsed_s < 12, res.elapsed_s  # settled long before the budget
    assert len([s for s in res.sources if s.name == "harmony"]) == 1
    assert res.high == min(s.value for s in res.sources if s.kind == "primal")


@pytest.mark.parametrize("option, field, says", [
    ("max_roundz=1", "max_roundz", "unknown option of bound 'class_relaxation'"),
    ("max_rounds=0", "max_rounds", "integer >= 1"),       # the bound's own check, field kept
    ("time_limit=3", "time_limit", "use --time-limit"),   # a context keyword has its flag
])
def test_cli_bound_bad_option_names_the_option(tmp_path, capsys, option, field, says):
    path = tmp_path / "w.json"
    get_family("oasis").generate("tiny", seed=0).save(path)
    assert main(["bound", str(path), "--bound", "class_relaxation", "--option", option]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"field '{field}'" in err[0] and says in err[0]


def test_bound_options_keep_the_time_limit():
    """A bound run with options still gets the context keywords it takes (before, options
    replaced them: the bound ran without its time limit until the hard deadline killed it)."""
    from types import SimpleNamespace

    from mlopt.bracket import compute_bound

    seen = {}

    def bound(workload, *, time_limit, threads, rounds=1):
        seen.update(time_limit=time_limit, threads=threads, rounds=rounds)
        return 1.0

    fam = SimpleNamespace(bound=lambda name: bound)
    assert compute_bound(fam, None, "b", solver="highs", time_limit=7.0, threads=1,
                         options={"rounds": 3}) == 1.0
    assert seen == {"time_limit": 7.0, "threads": 1, "rounds": 3}


def test_a_boxed_input_error_keeps_its_field_and_value():
    from mlopt.bracket import run_boxed
    from mlopt.errors import InputError

    def refuse():
        raise InputError("must be positive", field="alpha", value=-1)

    kind, out = run_boxed(10, refuse)
    assert kind == "input" and out == "must be positive"
    err = out.error()
    assert (err.field, err.value) == ("alpha", -1)


def test_a_bound_off_brackets_defaults_runs_only_when_named(tmp_path, capsys):
    """Harmony's ``crowd`` (``Bound(bracket=False)``: measured equal to ``share``) is not among
    bracket's default sources; ``--bound crowd`` runs it, and only it; ``--algorithm`` picks
    the algorithms the same way."""
    fam = get_family("harmony")
    assert not fam.bounds_["crowd"].bracket and fam.bounds_["share"].bracket
    path = tmp_path / "h.json"
    fam.generate("tiny", seed=0).save(path)
    assert main(["bracket", str(path), "--time-limit", "20", "--no-exact", "--json"]) == 0
    names = {s["name"] for s in json.loads(capsys.readouterr().out)["sources"]}
    assert "share" in names and "crowd" not in names
    assert main(["bracket", str(path), "--time-limit", "20", "--no-exact", "--json",
                 "--bound", "crowd", "--algorithm", "lb"]) == 0
    sources = json.loads(capsys.readouterr().out)["sources"]
    assert {(s["kind"], s["name"]) for s in sources} == {("dual", "crowd"), ("primal", "lb")}
    # the exact model's LP relaxation runs only when named (or with no --bound at all)
    assert main(["bracket", str(path), "--time-limit", "20", "--no-exact", "--json",
                 "--bound", "crowd", "--bound", "lp_relaxation", "--algorithm", "lb"]) == 0
    sources = json.loads(capsys.readouterr().out)["sources"]
    assert {(s["kind"], s["name"]) for s in sources} <= {
        ("dual", "crowd"), ("primal", "lb"), ("dual", "lp_relaxation")}
    assert ("dual", "crowd") in {(s["kind"], s["name"]) for s in sources}


def test_the_exact_model_starts_from_the_familys_warm_start_algorithms(monkeypatch):
    """``Family.warm_start_algorithms`` names what warm-starts the exact model (default: the
    online algorithms); each runs in its own child, so the start is the best of them."""
    from mlopt.bracket import _warm_start

    fam = get_family("harmony")
    w = fam.generate("tiny", seed=0)
    model = fam.model()(w)
    start, note = _warm_start(fam, w, model, cap=30)
    assert start is not None and note.startswith("warm start from harmony")  # the online one
    monkeypatch.setattr(fam, "warm_start_algorithms", ("lb", "tetris"))
    start, note = _warm_start(fam, w, model, cap=30)
    lb, tetris = (fam.check(w, fam.run(a, w, seed=0)).objective for a in ("lb", "tetris"))
    best = "lb" if lb <= tetris else "tetris"
    assert start is not None and note.startswith(f"warm start from {best}")
    monkeypatch.setattr(fam, "warm_start_algorithms", ("lb",))
    _, note = _warm_start(fam, w, model, cap=0)
    assert note.startswith("cold start (no schedule of lb")


def test_a_start_schedule_is_checked_and_every_improvement_search_starts_from_it():
    """``bracket(start_schedule=...)`` (``--start``): the given schedule, checked, is the
    first primal source; an improvement search (``start_option``) starts from the best
    schedule so far from its first run on, not only when run again."""
    fam = get_family("harmony")
    w = fam.generate("tiny", seed=0)
    given = fam.run("tetris", w, seed=0)
    value = fam.check(w, given).objective
    res = bracket(w, time_limit=20, exact=False, verify=False, bounds=[],
                  algorithms=["local_search"], start_schedule=given)
    assert res.sources[0].name == "start" and res.sources[0].value == pytest.approx(value)
    first = next(s for s in res.sources if s.name == "local_search")
    assert "started from start's schedule" in first.note, res.to_dict()
    assert res.high <= value + 1e-12


def test_a_rejected_start_schedule_is_refused():
    fam = get_family("harmony")
    w = fam.generate("tiny", seed=0)
    bad = fam.run("tetris", w, seed=0)
    bad.allocations = bad.allocations.iloc[1:]  # a task of a job goes missing
    assert not fam.check(w, bad).feasible
    with pytest.raises(InputError) as err:
        bracket(w, time_limit=5, exact=False, bounds=[], algorithms=["lb"], start_schedule=bad)
    assert err.value.field == "start"


def test_the_exact_model_may_start_from_the_given_schedule():
    from mlopt.bracket import _warm_start
    from mlopt.solve import solve

    fam = get_family("harmony")
    w = fam.generate("tiny", seed=0)
    model = fam.model()(w)
    assert solve(model, "highs", time_limit=60).has_solution
    best = fam.extract[fam.default_model](model, w)  # the optimum: no algorithm beats it
    from mlopt.warmstart import Candidate

    given = Candidate("the given start", best, fam.check(w, best).objective)
    start, note = _warm_start(fam, w, fam.model()(w), cap=30, given=given)
    assert start is not None and note.startswith("warm start from the given start"), note


def test_a_bound_with_a_start_option_is_given_the_best_schedule():
    """Harmony's share_ip (``Bound.start_option``) gets the bracket's start schedule: its
    source says so, and its value lies between share's and the start's."""
    from mlopt.bracket import bracket

    fam = get_family("harmony")
    w = fam.generate("tiny", seed=4)
    start = fam.run("local_search", w, seed=0)
    value = fam.check(w, start).objective
    b = bracket(w, family="harmony", time_limit=30, algorithms=[], bounds=["share_ip"],
                exact=False, start_schedule=start)
    src = {s.name: s for s in b.sources}
    assert src["start"].value == pytest.approx(value)
    assert "given start's schedule" in src["share_ip"].note
    assert src["share_ip"].value is not None and src["share_ip"].value <= value + 1e-9


def test_an_exact_model_silent_for_half_the_budget_gives_its_core_away(monkeypatch):
    """A HiGHS solve that has reported no dual bound after EXACT_PATIENCE of the budget is
    stopped (as placement_milp at harmony-open-0, 24M nonzeros: nothing in 600 s): its row
    says why, its LP relaxation (the same model) is not run, and the bracket goes on."""
    import mlopt.bracket as b

    monkeypatch.setattr(b, "_too_large", lambda fam, w, budget: None)

    def silent(fam, workload, solver, threads, share, verify, report=None, given=None):
        return b.Boxed(share, lambda: time.sleep(share))  # never reports, never returns
    monkeypatch.setattr(b, "_start_exact", silent)
    # edgecloud tiny seed 0: its interval closes on a solver's bound alone, with no proof, so
    # the exact model is still wanted (a pdors tiny one closes by a theorem: stopped at once)
    w = get_family("edgecloud").generate("tiny", seed=0)
    res = bracket(w, time_limit=10, verify=False)
    exact = [s for s in res.sources if s.kind == "exact"]
    assert len(exact) == 1 and exact[0].status == "stopped", res.to_dict()
    assert "no bound after 50% of the budget" in exact[0].note
    assert b.EXACT_PATIENCE * 10 - 0.5 <= exact[0].runtime_s <= b.EXACT_PATIENCE * 10 + 1.5
    lp = [s for s in res.sources if s.name == "lp_relaxation"]
    assert not lp or lp[0].status == "skipped"
    assert res.high is not None and res.low is not None


def test_an_exact_model_that_reports_a_bound_keeps_its_core(monkeypatch):
    """The same silence rule does not stop a solve that has reported a bound."""
    import mlopt.bracket as b

    monkeypatch.setattr(b, "_too_large", lambda fam, w, budget: None)

    def talking(fam, workload, solver, threads, share, verify, report=None, given=None):
        def work():
            report(None, 1e9)  # a (loose) bound at once, then silence
            time.sleep(0.7 * share)
            return {"build_s": 0.0, "solved": False}
        return b.Boxed(share, work)
    monkeypatch.setattr(b, "_start_exact", talking)
    w = get_family("pdors").generate("tiny", seed=0)
    res = bracket(w, time_limit=8, verify=False, bounds=[])
    exact = [s for s in res.sources if s.kind == "exact"]
    assert len(exact) == 1 and "no bound after" not in exact[0].note, res.to_dict()
    assert exact[0].runtime_s >= 0.7 * 8 - 1.0


def test_an_exact_model_whose_build_alone_takes_an_eighth_of_the_budget_is_skipped(
        monkeypatch):
    """An estimated build of 5 s (1.25M nonzeros at 4 us) fits a 20 s budget, but not an eighth
    of it (2.5 s): the exact model is not started (its row says why); at 60 s it is."""
    import mlopt.bracket as b
    import mlopt.modelsize as modelsize
    from mlopt.modelsize import ModelSize

    size = ModelSize("probe", 10, 10, 1_250_000)
    assert size.build_s == pytest.approx(5.0)
    monkeypatch.setattr(modelsize, "estimate", lambda fam, workload, model=None: size)
    fam = get_family("pdors")
    w = fam.generate("tiny", seed=0)
    why = b._too_large(fam, w, 20.0)
    assert why is not None and "more than 0.125 of the 20 s left" in why, why
    assert b._too_large(fam, w, 60.0) is None
    res = bracket(w, time_limit=10, verify=False, bounds=[])
    exact = [s for s in res.sources if s.kind == "exact"]
    assert exact and exact[0].status == "skipped" and "0.125" in exact[0].note


def test_an_exact_model_solved_before_patience_keeps_its_result_while_verified(monkeypatch):
    """HiGHS solves pdors tiny at the root and sends only its incumbent (a bound would come at
    a later node): the solve's own last bound is reported when it returns, so a second
    solver's check running past EXACT_PATIENCE of the budget is not read as a silent model
    (it was stopped there: 'no bound after 50%', its optimum lost)."""
    import types

    import mlopt.solve

    def slow_verify(model, first, solver=None, *, time_limit=None, threads=1, **_):
        time.sleep(0.7 * 8)  # past the patience point (4 s) of an 8 s bracket
        return types.SimpleNamespace(verified=False, verified_by=None, reason="slow check")
    monkeypatch.setattr(mlopt.solve, "verify", slow_verify)
    w = get_family("pdors").generate("tiny", seed=0)
    res = bracket(w, time_limit=8, bounds=[], algorithms=["pdors"])
    exact = [s for s in res.sources if s.kind == "exact"]
    assert len(exact) == 1 and exact[0].status == "ok", res.to_dict()
    assert "no bound after" not in exact[0].note and exact[0].bound is not None
    assert "not verified: slow check" in exact[0].note


def test_a_brackets_seed_reaches_every_algorithm_run(monkeypatch):
    """``seed`` s: every run of an algorithm takes run_seed(s, round) -- the first runs round
    0, the reruns 1, 2, ... in turn -- and the result names s; seed 0 is the round itself (the
    seeds of every earlier bracket, so committed runs repeat), another seed draws other seeds."""
    import mlopt.bracket as b
    from mlopt.bracket import run_seed

    assert [run_seed(0, k) for k in range(4)] == [0, 1, 2, 3]
    drawn = [run_seed(7, k) for k in range(50)] + [run_seed(8, k) for k in range(50)]
    assert len(set(drawn)) == 100 and drawn[:3] == [run_seed(7, k) for k in range(3)]
    seen = []
    work = b._algorithm_work

    def recording(fam, workload, name, options=None, start=None, seed=0):
        seen.append((name, seed))
        return work(fam, workload, name, options, start, seed)
    monkeypatch.setattr(b, "_algorithm_work", recording)
    w = get_family("harmony").generate("tiny", seed=0)
    res = bracket(w, time_limit=20, exact=False, verify=False, bounds=[],
                  algorithms=["harmony", "local_search"], seed=7)
    assert res.seed == 7 and res.to_dict()["seed"] == 7
    assert seen[:2] == [("harmony", run_seed(7, 0)), ("local_search", run_seed(7, 0))]
    reruns = seen[2:]
    assert reruns and reruns == [("local_search", run_seed(7, k))
                                 for k in range(1, len(reruns) + 1)]
    noted = [int(s.note.rsplit("seed ", 1)[-1]) for s in res.sources
             if s.name == "local_search"]  # each run's row names its seed
    assert run_seed(7, 0) in noted and set(noted) <= {sd for _, sd in seen}


def test_a_numpy_integer_seed_is_a_seed():
    import numpy as np

    w = get_family("harmony").generate("tiny", seed=0)
    res = bracket(w, time_limit=5, exact=False, verify=False, bounds=[],
                  algorithms=["harmony"], seed=np.int64(3))
    assert res.seed == 3 and type(res.to_dict()["seed"]) is int


@pytest.mark.parametrize("seed", [-1, 1.5, True, "3", np.int64(-2)])
def test_a_bad_bracket_seed_is_refused_before_any_work(seed):
    w = get_family("harmony").generate("tiny", seed=0)
    t0 = time.perf_counter()
    with pytest.raises(InputError) as err:
        bracket(w, time_limit=20, seed=seed)
    assert err.value.field == "seed" and time.perf_counter() - t0 < 2


def test_the_cli_text_names_a_seed_other_than_0(tmp_path, capsys):
    path = tmp_path / "w.json"
    get_family("harmony").generate("tiny", seed=0).save(path)
    for seed, shown in (("3", True), ("0", False)):
        assert main(["bracket", str(path), "--seed", seed, "--time-limit", "5", "--no-exact",
                     "--algorithm", "harmony", "--bound", "share"]) == 0
        first = capsys.readouterr().out.splitlines()[0]
        assert ("s of 5, seed 3)" in first) == shown and first.endswith(")"), first


def test_the_cli_refuses_a_negative_seed_in_one_line(tmp_path, capsys):
    path = tmp_path / "w.json"
    get_family("harmony").generate("tiny", seed=0).save(path)
    assert main(["bracket", str(path), "--seed", "-1", "--time-limit", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "field 'seed'" in err and "-1" in err


def test_instances_bracket_passes_its_seed_and_its_row_names_it(capsys):
    """``instances bracket --seed 5``: every algorithm's first run takes run_seed(5, 0) (each
    source's note names it) and the row's solver -- solu.csv's -- says "seed 5"; seed 0 leaves
    the solver as every earlier row wrote it.  Neither branch was tested."""
    from mlopt.bracket import run_seed

    argv = ["instances", "bracket", "oasis-tiny", "--only", "oasis-tiny-0", "--time-limit", "5",
            "--json"]
    capsys.readouterr()
    assert main([*argv, "--seed", "5"]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["solver"].startswith("mlopt bracket 5s seed 5 (")
    algorithms = get_family("oasis").algorithms_
    notes = [s["note"] for s in row["sources"] if s["name"] in algorithms]
    assert notes and all(f"seed {run_seed(5, 0)}" in n for n in notes), notes
    assert main(argv) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["solver"].startswith("mlopt bracket 5s (") and "seed" not in row["solver"]
