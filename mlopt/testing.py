"""The conformance suite every registered family passes: ``check_family(name)``.

Like scikit-learn's ``parametrize_with_checks``: one list of checks, the same for every family,
so a new family gets every guarantee by registering::

    import pytest
    from mlopt.testing import check_family

    @pytest.mark.parametrize("check", check_family("myfamily"), ids=lambda c: c.name)
    def test_conformance(check):
        check()

Each check is a :class:`Check` (a name and a zero-argument callable raising AssertionError
with what failed).  What they hold a family to:

* **generator**: the probe preset generates and validates, names its family, and gives the same
  bytes for the same seed; every preset declares its parameters (:mod:`mlopt.params`); every
  declared parameter refuses wrong types, NaN, negative, huge and unknown values with one
  :class:`~mlopt.errors.InputError`, at once;
* **algorithms**: each declares its options; gives a schedule the checker accepts, the same
  bytes twice, never better than the proven optimum of the family's exact model; refuses every
  bad option value (and ``seed`` as an option) before it runs;
* **checker**: catches generic broken versions of a feasible schedule (a job's rows dropped, a
  row duplicated, a slot out of range, an unknown job, a count far over capacity) and returns
  a verdict, never an exception;
* **fuzz**: seeded mutations of the family's own workload fields (NaN, negative, zero, huge,
  wrong type, missing) give InputError or a checked result from loading, validation, every
  algorithm and the default model's build, never another exception;
* **artifacts** (packaged families): a golden LP per formulation, a quick spec, instance sets
  with verified optima, a README row and a benchmarks folder.
"""
from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, ContextManager

from mlopt.alarm import alarm
from mlopt.errors import InputError
from mlopt.families.base import Family, get_family
from mlopt.params import bad_values

#: the repository root (artifact checks read README.md, instances/, benchmarks/, tests/data/)
ROOT = Path(__file__).resolve().parents[1]
#: seconds any single refusal may take before it counts as grinding
REFUSE_SECONDS = 10
#: examples of the seeded field fuzz per family
FUZZ_EXAMPLES = int(os.environ.get("MLOPT_FUZZ_EXAMPLES", "100"))


@dataclass(frozen=True)
class Check:
    name: str
    run: Callable[[], None]

    def __call__(self) -> None:
        self.run()

    def __repr__(self) -> str:  # pytest ids
        return self.name


def deadline(seconds: float, what: str) -> ContextManager[None]:
    """Fail (AssertionError) if the block runs longer than ``seconds`` (:func:`mlopt.alarm.alarm`:
    the limited code cannot swallow it with ``except Exception``)."""
    return alarm(seconds, lambda: AssertionError(
        f"{what}: still running after {seconds} s (grinding or hanging)"))


def expect_input_error(call: Callable[[], Any], what: str) -> None:
    """``call`` must raise InputError, quickly; anything else is reported with ``what``."""
    with deadline(REFUSE_SECONDS, what):
        try:
            call()
        except InputError:
            return
        except AssertionError:
            raise
        except Exception as err:  # noqa: BLE001
            raise AssertionError(f"{what}: {type(err).__name__} instead of InputError: "
                                 f"{err}") from err
    raise AssertionError(f"{what}: accepted (expected InputError)")


def _bytes(schedule) -> str:
    return json.dumps(schedule.to_dict(), sort_keys=True, default=str)


# ---- shared, cached state per family --------------------------------------------------------

@lru_cache(maxsize=None)
def _workload(family: str, preset: str, seed: int = 0):
    return get_family(family).generate(preset, seed=seed)


@lru_cache(maxsize=None)
def _schedule(family: str, algorithm: str):
    fam = get_family(family)
    w = _workload(family, fam.probe_preset_of(algorithm))
    return fam.run(algorithm, w, seed=0)


@lru_cache(maxsize=None)
def _optimum(family: str, preset: str) -> float | None:
    """The proven optimum of the family's default exact model on ``preset`` seed 0 (HiGHS,
    60 s), or None when it is not proven."""
    from mlopt.pipeline import solve_offline

    fam = get_family(family)
    if not fam.formulations:
        return None
    res = solve_offline(_workload(family, preset), family=family, time_limit=60)
    if res.solve.status.value != "optimal" or res.objective is None:
        return None
    return res.objective


# ---- generator --------------------------------------------------------------------------------

def check_generator_is_deterministic(fam: Family) -> None:
    """Same preset and seed give the same, valid workload."""
    a = fam.generate(fam.probe_preset, seed=3)
    b = fam.generate(fam.probe_preset, seed=3)
    assert a.meta.get("family") == fam.name, f"meta.family is {a.meta.get('family')!r}"
    assert json.dumps(a.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True), \
        "same preset and seed gave different workloads"
    fam.validate(a)
    from mlopt.workload import Workload
    again = Workload.from_dict(json.loads(json.dumps(a.to_dict())))
    assert again.content_hash() == a.content_hash(), "the workload does not round-trip JSON"


def check_presets_declare_parameters(fam: Family) -> None:
    """Every preset declares parameters with valid defaults."""
    missing = [p for p in fam.preset_names if fam.param_schema(p) is None]
    assert not missing, f"presets without declared parameters (generator params()): {missing}"
    for preset in fam.preset_names:
        for name, param in fam.param_schema(preset).items():
            try:
                param.check(param.default, name)
            except InputError as err:
                raise AssertionError(f"preset {preset!r}: the default of {name!r} fails its own "
                                     f"declaration: {err}") from None


def check_bad_parameters_refused(fam: Family) -> None:
    """Unknown parameters and bad seeds are InputErrors."""
    preset = fam.probe_preset
    schema = fam.param_schema(preset)
    assert schema is not None, f"preset {preset!r} declares no parameters"
    expect_input_error(lambda: fam.generate(preset, seed=0, no_such_parameter=1),
                       "an unknown parameter")
    for bad_seed in (-1, 1.5, "x", True, 2 ** 64):
        expect_input_error(lambda: fam.generate(preset, seed=bad_seed), f"seed={bad_seed!r}")
    for name, param in sorted(schema.items()):
        for bad in bad_values(param):
            expect_input_error(lambda: fam.generate(preset, seed=0, **{name: bad.value}),
                               f"parameter {name}={bad.value!r} ({bad.why})")


# ---- algorithms -------------------------------------------------------------------------------

def check_algorithms_declare_options(fam: Family) -> None:
    """Every algorithm declares its options; a ``budget_option`` (the seconds cap
    :func:`mlopt.bracket.bracket` sets) is one of them, a number of seconds."""
    missing = [a for a in sorted(fam.algorithms_) if fam.option_schema(a) is None]
    assert not missing, f"algorithms without declared options: {missing}"
    unknown = [a for a in (fam.warm_start_algorithms or ()) if a not in fam.algorithms_]
    assert not unknown, f"warm_start_algorithms names no algorithm of the family: {unknown}"
    for a in sorted(fam.algorithms_):
        option = fam.algorithm_record(a).budget_option
        if option is not None:
            param = fam.option_schema(a).get(option)
            assert param is not None and param.kind in ("float", "int"), (
                f"algorithm {a}: budget_option {option!r} is not a declared number option")


def _takes_keyword(fn, keyword: str) -> bool:
    """``fn`` accepts ``keyword`` (by name or through ``**kwargs``)."""
    import inspect

    params = inspect.signature(fn).parameters
    return keyword in params or any(p.kind is inspect.Parameter.VAR_KEYWORD
                                    for p in params.values())


def check_improvement_never_worse_than_its_start(fam: Family, algorithm: str) -> None:
    """An algorithm with a ``start_option`` (:func:`mlopt.bracket.bracket` hands it the best
    schedule so far) takes that keyword, not as a user option, and returns a checked schedule
    no worse than the start it was given: here the best schedule of the family's other
    algorithms on the probe preset, run for at most two seconds."""
    record = fam.algorithm_record(algorithm)
    keyword = record.start_option
    assert keyword not in (fam.option_schema(algorithm) or {}), (
        f"{algorithm}: start_option {keyword!r} must not be a user option")
    assert _takes_keyword(fam.algorithm(algorithm), keyword), (
        f"{algorithm}: run() takes no keyword {keyword!r}")
    preset = fam.probe_preset_of(algorithm)
    w = _workload(fam.name, preset)
    starts = []
    for other in sorted(fam.algorithms_):
        if other == algorithm or fam.probe_preset_of(other) != preset:
            continue
        s = _schedule(fam.name, other)
        res = fam.check(w, s)
        if res.feasible:
            starts.append((res.objective, other, s))
    assert starts, f"{algorithm}: no other algorithm gives a start on preset {preset!r}"
    # the best start: a search that ignored its start would return its own, weaker schedule
    start = min(starts, key=lambda t: t[0] if fam.sense == "min" else -t[0])
    options = {} if record.budget_option is None else {record.budget_option: 2.0}
    res = fam.check(w, fam.run(algorithm, w, seed=0, options=options, start=start[2]))
    assert res.feasible, f"{algorithm} from {start[1]}: rejected: {res.summary()}"
    tol = 1e-9 * max(1.0, abs(start[0]))
    worse = res.objective < start[0] - tol if fam.sense == "max" else \
        res.objective > start[0] + tol
    assert not worse, (f"{algorithm} from {start[1]}'s schedule ({start[0]}): "
                       f"{res.objective}, worse than its start")


def check_bound_below_its_start(fam: Family, bound: str) -> None:
    """A bound with a ``start_option`` (:func:`mlopt.bracket.bracket` hands it the best schedule
    so far) takes that keyword and, given the best checked schedule of the family's algorithms
    on its probe preset, returns a value on the right side of that schedule's objective and of
    OPT (when proven)."""
    from mlopt.bracket import compute_bound
    from mlopt.harness.tasks import _bound_value

    keyword = fam.bounds_[bound].start_option
    assert _takes_keyword(fam.bound(bound), keyword), (
        f"bound {bound}: takes no keyword {keyword!r}")
    preset = fam.probe_preset
    w = _workload(fam.name, preset)
    starts = [(res.objective, s) for s in (_schedule(fam.name, a) for a in sorted(fam.algorithms_)
                                           if fam.probe_preset_of(a) == preset)
              if (res := fam.check(w, s)).feasible]
    assert starts, f"bound {bound}: no algorithm gives a start on preset {preset!r}"
    value, start = min(starts, key=lambda t: t[0] if fam.sense == "min" else -t[0])
    got, _, _ = _bound_value(compute_bound(fam, w, bound, solver="highs", time_limit=10.0,
                                           threads=1, options={keyword: start}))
    assert got is not None, f"bound {bound}: nothing from a start of {value}"
    for ref, what in ((value, "its start"), (_optimum(fam.name, preset), "OPT")):
        if ref is None:
            continue
        tol = 1e-6 * max(1.0, abs(ref))
        wrong = got > ref + tol if fam.sense == "min" else got < ref - tol
        assert not wrong, f"bound {bound}: {got} on the wrong side of {what} ({ref})"


def check_algorithm_feasible_and_deterministic(fam: Family, algorithm: str) -> None:
    """Its schedule is feasible, the same twice, never better than OPT."""
    s1 = _schedule(fam.name, algorithm)
    w = _workload(fam.name, fam.probe_preset_of(algorithm))
    res = fam.check(w, s1)
    assert res.feasible, f"{algorithm}: the checker rejects its schedule: {res.summary()}"
    s2 = fam.run(algorithm, w, seed=0)
    assert _bytes(s1) == _bytes(s2), f"{algorithm}: two runs with seed 0 differ"
    opt = _optimum(fam.name, fam.probe_preset_of(algorithm))
    if opt is not None:
        tol = 1e-6 * max(1.0, abs(opt))
        better = res.objective > opt + tol if fam.sense == "max" else res.objective < opt - tol
        assert not better, (f"{algorithm}: objective {res.objective} beats the proven optimum "
                            f"{opt} ({fam.sense})")


def check_bad_options_refused(fam: Family, algorithm: str) -> None:
    """Unknown options, a seed option and bad values are InputErrors."""
    schema = fam.option_schema(algorithm)
    assert schema is not None, f"{algorithm}: no declared options"
    w = _workload(fam.name, fam.probe_preset_of(algorithm))
    expect_input_error(lambda: fam.run(algorithm, w, seed=0, options={"no_such_option": 1}),
                       f"{algorithm}: an unknown option")
    expect_input_error(lambda: fam.run(algorithm, w, seed=0, options={"seed": 0}),
                       f"{algorithm}: seed as an option")
    for name, param in sorted(schema.items()):
        for bad in bad_values(param):
            expect_input_error(lambda: fam.run(algorithm, w, seed=0, options={name: bad.value}),
                               f"{algorithm}: option {name}={bad.value!r} ({bad.why})")


# ---- checker ----------------------------------------------------------------------------------

def _broken_versions(fam: Family, w, s):
    """(what, broken schedule) pairs derived from a feasible schedule with rows."""
    from mlopt.schedule import Schedule
    import pandas as pd

    a = s.allocations.reset_index(drop=True)
    job = str(a["job"].iat[0])
    yield "all rows of one admitted job dropped", Schedule(
        s.admitted | {job}, a[a["job"] != job].reset_index(drop=True), dict(s.meta))
    yield "one row duplicated", Schedule(
        s.admitted, pd.concat([a, a.iloc[[0]]], ignore_index=True), dict(s.meta))
    moved = a.copy()
    moved.loc[0, "slot"] = fam.max_slot(w) + 1
    yield "a row moved past the last slot", Schedule(s.admitted, moved, dict(s.meta))
    ghost_row = a.iloc[[0]].copy()
    ghost_row["job"] = "ghost"
    yield "an unknown job admitted and scheduled", Schedule(
        s.admitted | {"ghost"}, pd.concat([a, ghost_row], ignore_index=True), dict(s.meta))
    yield "an unknown job admitted", Schedule(s.admitted | {"ghost"}, a, dict(s.meta))
    big = a.copy()
    big["count"] = big["count"].astype(float)
    big.loc[0, "count"] = float(big.loc[0, "count"]) * 1000
    yield "one row's count x1000 (capacity)", Schedule(s.admitted, big, dict(s.meta))


def check_checker_catches_broken_schedules(fam: Family) -> None:
    """The checker refuses broken copies of a feasible schedule."""
    for algorithm in sorted(fam.algorithms_):
        s = _schedule(fam.name, algorithm)
        if s.allocations.empty:
            continue
        w = _workload(fam.name, fam.probe_preset_of(algorithm))
        assert fam.check(w, s).feasible, f"{algorithm}'s schedule is not feasible"
        for what, broken in _broken_versions(fam, w, s):
            try:
                res = fam.check(w, broken)
            except Exception as err:  # noqa: BLE001
                raise AssertionError(f"{what}: the checker raised {type(err).__name__}: "
                                     f"{err}") from err
            assert not res.feasible, f"{what} ({algorithm}'s schedule): the checker accepts it"
        return
    raise AssertionError("no algorithm gave a schedule with rows to break")


# ---- fuzz -------------------------------------------------------------------------------------

_REPLACEMENTS = (float("nan"), float("inf"), -1, 0, -0.5, 1e308, 2 ** 62, "x", None, [], {},
                 True)
_DELETE = object()


def _leaves(obj, path=()):
    """Paths of every scalar and list in a JSON-like tree (lists of scalars count as leaves)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path + (k,)
            yield from _leaves(v, path + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            if isinstance(v, (dict, list)):
                yield from _leaves(v, path + (i,))
            else:
                yield path + (i,)


def _mutate(tree, path, value):
    node = tree
    for p in path[:-1]:
        node = node[p]
    if value is _DELETE:
        if isinstance(node, dict):
            del node[path[-1]]
        else:
            node.pop(path[-1])
    else:
        node[path[-1]] = value


def fuzz_one(fam: Family, base: dict, path: tuple, value) -> None:
    """Load, validate, run every algorithm, check, build: only InputError may come out."""
    from mlopt.workload import Workload

    data = copy.deepcopy(base)
    _mutate(data, path, value)
    what = f"{'.'.join(map(str, path))} = {'<deleted>' if value is _DELETE else repr(value)}"
    with deadline(60, f"fuzz {what}"):
        try:
            w = Workload.from_dict(data)
            fam.validate(w)
        except InputError:
            return
        except Exception as err:  # noqa: BLE001
            raise AssertionError(f"fuzz {what}: loading/validation raised "
                                 f"{type(err).__name__}: {err}") from err
        for algorithm in sorted(fam.algorithms_):
            if fam.probe_preset_of(algorithm) != fam.probe_preset:
                continue
            try:
                s = fam.run(algorithm, w, seed=0)
                fam.check(w, s)
            except InputError:
                pass
            except Exception as err:  # noqa: BLE001
                raise AssertionError(f"fuzz {what}: {algorithm} raised "
                                     f"{type(err).__name__}: {err}") from err
        if fam.formulations:
            from mlopt.modelsize import estimate

            for step, call in (("building", lambda: fam.model()(w)),
                               ("estimating the size of", lambda: estimate(fam, w))):
                try:
                    call()
                except InputError:
                    pass
                except Exception as err:  # noqa: BLE001
                    raise AssertionError(f"fuzz {what}: {step} {fam.default_model} raised "
                                         f"{type(err).__name__}: {err}") from err


def check_size_estimates(fam: Family) -> None:
    """Every formulation that registers a size estimate (``Formulation.estimate``) counts the
    variables, rows and nonzeros of its built model on the probe preset within
    :data:`mlopt.modelsize.COUNT_TOL` (``mlopt solve`` refuses models by it)."""
    from mlopt.modelsize import COUNT_TOL, estimate, measure

    w = _workload(fam.name, fam.probe_preset)
    for name, form in sorted(fam.formulations.items()):
        if form.estimate is None:
            continue
        est, got = estimate(fam, w, name), measure(fam.model(name)(w))
        for what in ("variables", "rows", "nonzeros"):
            e, g = getattr(est, what), getattr(got, what)
            assert abs(e - g) <= COUNT_TOL * max(1, g), (
                f"{name}: estimated {what} {e} vs {g} in the built model")


def check_field_fuzz(fam: Family) -> None:
    """Hypothesis fuzz of the probe preset's workload, seeded and derandomized (the same
    ``MLOPT_FUZZ_EXAMPLES`` mutations every run; a failure shrinks to one field and value)."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    base = _workload(fam.name, fam.probe_preset).to_dict()
    paths = [p for p in _leaves(base) if p and p[0] not in ("meta", "schema_version", "name")]
    values = list(_REPLACEMENTS) + [_DELETE]

    @settings(max_examples=FUZZ_EXAMPLES, derandomize=True, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.integers(0, len(paths) - 1), st.sampled_from(values))
    def fuzz(k, value):
        fuzz_one(fam, base, paths[k], value)

    fuzz()


# ---- artifacts of a packaged family ------------------------------------------------------------

def check_report_notes(fam: Family) -> None:
    """The report explains the family's own diagnostics: its notes are a ReportNotes, name
    only its algorithms, and say something when any algorithm has diagnostics."""
    from mlopt.families.base import ReportNotes

    notes = fam.report_notes
    assert isinstance(notes, ReportNotes), \
        f"report_notes is a {type(notes).__name__}, not a ReportNotes"
    unknown = sorted(set(notes.algorithms) - set(fam.algorithms_))
    assert not unknown, f"report notes name algorithms the family does not have: {unknown}"
    assert notes.theory or not fam.diagnostics, (
        f"algorithms with diagnostics ({', '.join(sorted(fam.diagnostics))}) but no report "
        "notes explaining them (report_notes.py: NOTES = ReportNotes(theory=...))")


def check_artifacts(fam: Family) -> None:
    """The family ships its golden LPs and its quick spec."""
    missing = []
    golden = ROOT / "tests" / "data" / "golden"
    for name in fam.formulations:
        if not list(golden.glob(f"{fam.name}_{name}*.lp")):
            missing.append(f"golden LP tests/data/golden/{fam.name}_{name}_tiny.lp")
    if not (ROOT / "mlopt" / "specs" / f"quick_{fam.name}.toml").exists():
        missing.append(f"quick spec mlopt/specs/quick_{fam.name}.toml")
    sets = sorted(p.name for p in (ROOT / "instances").glob(f"{fam.name}-*") if p.is_dir())
    if not sets:
        missing.append(f"instance sets instances/{fam.name}-*")
    else:
        import csv

        with open(ROOT / "instances" / "solu.csv", newline="") as fh:
            rows = list(csv.DictReader(fh))
        have = {r.get("set") or r.get("instance_set") for r in rows}
        proven = [r for r in rows if (r.get("set") or r.get("instance_set")) in sets
                  and r.get("verified_by")]
        if not proven:
            missing.append(f"verified optima in instances/solu.csv for {sets} (sets with "
                           f"rows: {sorted(s for s in have if s)[:10]})")
    readme = (ROOT / "README.md").read_text()
    if f"| `{fam.name}` |" not in readme:
        missing.append(f"a row | `{fam.name}` | in README.md's family table")
    if not (ROOT / "benchmarks" / fam.name).is_dir():
        missing.append(f"benchmarks/{fam.name}/")
    assert not missing, "missing: " + "; ".join(missing)


# ---- golden LP files ---------------------------------------------------------------------------

GOLDEN = ROOT / "tests" / "data" / "golden"


def assert_golden_lp(model, name: str) -> None:
    """``model`` written as an LP file (symbolic labels) equals ``tests/data/golden/<name>``;
    ``MLOPT_UPDATE_GOLDEN=1`` rewrites the file instead (review the diff, then commit it)."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / name
        model.write(str(out), io_options={"symbolic_solver_labels": True})
        text = out.read_text()
    golden = GOLDEN / name
    if os.environ.get("MLOPT_UPDATE_GOLDEN") == "1":
        golden.write_text(text)
    assert golden.exists(), f"golden file {golden} missing: run with MLOPT_UPDATE_GOLDEN=1"
    assert text == golden.read_text(), (f"model {name} changed: review the difference, then "
                                        "rerun with MLOPT_UPDATE_GOLDEN=1")


# ---- the suite ----------------------------------------------------------------------------------

def check_family(name: str, *, artifacts: bool | None = None) -> list[Check]:
    """Every conformance check of family ``name``.  ``artifacts``: also require the repository
    artifacts (default: for families packaged in ``mlopt/families/``)."""
    fam = get_family(name)
    if artifacts is None:
        artifacts = (fam.module or "").startswith("mlopt.families.")

    def bind(fn, *args, label=None):
        return Check(f"{name}:{label or fn.__name__.removeprefix('check_')}",
                     lambda: fn(fam, *args))

    checks = [
        bind(check_generator_is_deterministic),
        bind(check_presets_declare_parameters),
        bind(check_bad_parameters_refused),
        bind(check_algorithms_declare_options),
    ]
    for algorithm in sorted(fam.algorithms_):
        checks.append(bind(check_algorithm_feasible_and_deterministic, algorithm,
                           label=f"feasible_and_deterministic[{algorithm}]"))
        checks.append(bind(check_bad_options_refused, algorithm,
                           label=f"bad_options_refused[{algorithm}]"))
        if fam.algorithm_record(algorithm).start_option is not None:
            checks.append(bind(check_improvement_never_worse_than_its_start, algorithm,
                               label=f"improvement_never_worse[{algorithm}]"))
    for bound in sorted(fam.bounds_):
        if fam.bounds_[bound].start_option is not None:
            checks.append(bind(check_bound_below_its_start, bound,
                               label=f"bound_below_its_start[{bound}]"))
    checks += [bind(check_checker_catches_broken_schedules), bind(check_field_fuzz),
               bind(check_report_notes)]
    if any(f.estimate is not None for f in fam.formulations.values()):
        checks.append(bind(check_size_estimates))
    if artifacts:
        checks.append(bind(check_artifacts))
    return checks


def failures(name: str, **kwargs) -> dict[str, str]:
    """Run every check of ``name``; the failing ones by name, with their message."""
    out = {}
    for check in check_family(name, **kwargs):
        try:
            check()
        except AssertionError as err:
            out[check.name] = str(err)
    return out


__all__ = ["Check", "assert_golden_lp", "check_family", "expect_input_error", "failures",
           "fuzz_one"]
