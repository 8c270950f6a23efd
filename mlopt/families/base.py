"""The family contract: one paper's view of the shared workload model, and the one registry.

A family is one record (:class:`Family`) that names everything of one paper by *reference*
(``"module:attribute"`` strings, resolved on first use, as Gymnasium's registry does): its
workload fields and their validation, its generator, its checker, its formulations
(:class:`Formulation`), its algorithms with their declared options (:class:`Algorithm`), its
certified bounds (:class:`Bound`), trainers and trace conversion.  Registering a family imports
nothing of it, so no family's modules load another's, and ``mlopt --help`` loads no family.

The built-in families are listed in :data:`BUILTIN` (one line each: ``name ->
"mlopt.families.<name>.family:FAMILY"``); other packages register with
:func:`register_family` or an ``mlopt.families`` entry point.  :mod:`mlopt.testing` holds every
registered family to the same guarantees (``check_family``).

Generators follow one style: the module named by ``Family.generator`` defines ``PRESETS``
(preset name -> parameter overrides), ``params(preset) -> {name: Param}`` (the parameters that
preset takes, declared with :class:`mlopt.params.Param`) and ``generate(preset, seed=0,
**params) -> Workload``.  :meth:`Family.generate` checks the seed and every parameter with the
shared checker (:func:`mlopt.params.check_values`) before the generator draws anything.
"""
from __future__ import annotations

import importlib
import inspect
import sys
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import TYPE_CHECKING, Any, Callable, Mapping

from mlopt import limits
from mlopt.errors import InputError
from mlopt.params import Param, Schema, check_values

if TYPE_CHECKING:  # pragma: no cover
    from mlopt.check import CheckResult
    from mlopt.schedule import Schedule
    from mlopt.workload import Workload

Ref = Any  # "package.module:attribute" (resolved on first use) or the object itself

#: names set by mlopt itself, never by ``--option`` / ``-p`` (with the hint the error gives)
RESERVED_OPTIONS = {"seed": "the seed is --seed / the spec's seeds, not an option"}
MAX_SEED = 2 ** 63 - 1


def resolve(ref: Ref) -> Any:
    """The object a reference names (``"pkg.mod:attr.sub"``); non-strings are returned as is."""
    if not isinstance(ref, str):
        return ref
    module, _, attr = ref.partition(":")
    obj = importlib.import_module(module)
    for part in filter(None, attr.split(".")):
        obj = obj[part] if isinstance(obj, dict) else getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Formulation:
    """One Pyomo formulation of a family.

    ``role``: ``exact`` (its optimum is OPT; ``extract`` reads the schedule back), ``bound`` (a
    relaxation or bound model: exportable, solving it is not OPT) or ``export`` (a model for
    export only, e.g. one interval of a rolling horizon).  ``options``: the builder's keyword
    options, declared (``mlopt export --option``).  ``estimate``: ``fn(workload) ->
    mlopt.modelsize.ModelSize``, the model's variables, rows and nonzeros counted without
    building it (``mlopt solve`` refuses a model that cannot be built in time or memory)."""
    name: str
    build: Ref
    extract: Ref | None = None
    role: str = "exact"
    options: Mapping[str, Param] = field(default_factory=dict)
    doc: str = ""
    estimate: Ref | None = None

    @classmethod
    def exact(cls, name: str, module: str, **kwargs) -> "Formulation":
        """An exact model by the conventions: ``<module>:build_<name>`` builds it,
        ``<module>:extract_schedule`` reads the schedule back."""
        return cls(name, f"{module}:build_{name}", f"{module}:extract_schedule", **kwargs)

    def __post_init__(self):
        if self.role not in ("exact", "bound", "export"):
            raise ValueError(f"formulation {self.name}: unknown role {self.role!r}")
        if self.role == "exact" and self.extract is None:
            raise ValueError(f"formulation {self.name}: an exact model needs an extractor")


@dataclass(frozen=True)
class Algorithm:
    """One online algorithm, baseline or reference heuristic of a family.

    ``run(workload, *, seed, **options) -> Schedule``.  ``options`` declares every option the
    algorithm takes (a :class:`Param` each, or a reference to such a dict); nothing else is
    accepted.  ``diagnostics(workload, schedule, *, options, opt_upper) -> dict``: the paper's
    theory checks on every run.  ``preset``: the small preset the algorithm runs on when its
    options are probed and in the conformance suite (default: the family's ``probe_preset``),
    for algorithms that only apply to one kind of workload.  ``check_options(options) -> dict``:
    the keyword arguments of the family's checker for a run with these options, when the
    algorithm solves a relaxed problem (edgecloud's A_online at ``eps`` is checked at speed
    1 + eps); the harness and the pipeline pass them, a schedule file never sets them.
    ``budget_option``: the declared option that caps the algorithm's whole run in seconds (an
    anytime search: local search, price-and-branch); :func:`mlopt.bracket.bracket` sets it to
    the algorithm's share of the budget.  Left None where a ``time_limit`` option means
    something else (seconds per re-solve of an online MILP).  ``start_option``: the keyword of
    ``run`` that takes a checked :class:`Schedule` of the same workload to improve (an
    improvement search: local search, LNS), never a user option; its schedule is never worse
    than that start.  :func:`mlopt.bracket.bracket` hands it the best schedule found so far
    when it runs the anytime algorithms again."""
    name: str
    run: Ref
    options: Mapping[str, Param] | Ref | None = None  # None: not declared (legacy)
    role: str = "online"
    diagnostics: Ref | None = None
    preset: str | None = None
    doc: str = ""
    check_options: Ref | None = None
    budget_option: str | None = None
    start_option: str | None = None

    def __post_init__(self):
        if self.role not in ("online", "baseline", "reference"):
            raise ValueError(f"algorithm {self.name}: unknown role {self.role!r}")


@dataclass(frozen=True)
class Bound:
    """A certified bound on OPT beyond exact reach: ``fn(workload, *, time_limit, threads,
    **options) -> float | {"bound": float, ...}`` (an upper bound for max families, a lower
    bound for min families)."""
    name: str
    fn: Ref
    doc: str = ""
    # True when the value is a MILP/LP solver's proven bound (one solver's word, like an
    # optimum); False for a bound computed from a theorem (a dual certificate, a combinatorial
    # bound).  mlopt.bracket calls an interval closed by a solver's bound optimal only once a
    # second solver has confirmed the exact optimum.
    solver: bool = False
    # False: not among bracket's default sources (``mlopt bound`` and ``bracket --bound NAME``
    # still run it), for a bound measured never tighter than one it dominates, whose share of
    # bracket's budget would only be taken from the others
    bracket: bool = True
    # the keyword of ``fn`` that takes a checked Schedule of the same workload, for a bound
    # that uses a schedule's value (e.g. reduced-cost fixing below it; a bad or missing one
    # only weakens the bound); mlopt.bracket hands it the best schedule found before the
    # bound starts
    start_option: str | None = None
    # True for a bound whose method can prove OPT from a start schedule (a check-and-cut loop
    # above it, confirmed by a second solver: OASiS's class_relaxation).  A bracket given a
    # start runs such a bound first, on its own core, with all the time left, instead of the
    # exact model (mlopt.bracket, DECISION on the time split)
    proves_from_start: bool = False


@dataclass(frozen=True)
class ReportNotes:
    """What a family's report says about its own diagnostics (``mlopt bench report``).

    ``theory``: the paragraph above the theory-check table (which theorem ``bound`` is, what
    ``within`` compares, what the per-step ``checks`` count and what a violation means for
    this paper); ``bound`` and ``checks``: that table's column headers for this family;
    ``algorithms``: a note per algorithm name (e.g. what an ablation or a reference is)."""
    theory: str = ""
    bound: str = "competitive bound"
    checks: str = "per-step inequalities violated / checked"
    algorithms: Mapping[str, str] = field(default_factory=dict)


def _by_name(items) -> dict:
    if isinstance(items, Mapping):
        return dict(items)
    out = {}
    for item in items:
        if item.name in out:
            raise ValueError(f"duplicate name {item.name!r}")
        out[item.name] = item
    return out


@dataclass
class Family:
    """One paper: see the module docstring.  Every ``Ref`` is resolved on first use."""
    name: str
    paper: str  # seed file and system name
    sense: str  # "max" (utility) or "min" (completion time)
    # the package whose conventional modules fill in what is not given: checker
    # ``<package>.checker:check_<name>``, fields ``<package>.fields:validate_<name>``, generator
    # ``<package>.generator`` (the same file names in every family)
    package: str | None = None
    checker: Ref = None  # fn(workload, schedule) -> CheckResult
    fields: Ref = None  # fn(workload) -> None, raising InputError: the family's own fields
    generator: Ref = None  # module with PRESETS, params(preset), generate(preset, seed, **params)
    formulations: Any = ()  # Formulation records (or a dict of them)
    default_model: str = ""
    algorithms_: Any = ()  # Algorithm records (or a dict of them)
    bounds_: Any = ()  # Bound records (or a dict of them)
    probe_preset: str = "tiny"
    # the family's quick good schedules: their best warm-starts the exact model in
    # :func:`mlopt.bracket.bracket` (within a fifth of its time), and they run first among
    # bracket's algorithms, in this order; None: the online ones.  A cheap offline reference
    # belongs here when it is far better than the online algorithms
    warm_start_algorithms: tuple[str, ...] | None = None
    # True where T bounds arrivals, not completions (schedules may use slots after T)
    slots_past_horizon: bool = False
    # learned components (``mlopt train FAMILY --target NAME``): name ->
    # fn(out_path, params: dict, *, progress: bool) -> JSON-able summary; the function's
    # ``params`` attribute ({name: Param}, optional) is what ``mlopt train --help`` lists
    trainers_: Mapping[str, Ref] = field(default_factory=dict)
    # ``mlopt instances from-trace/from-csv --family NAME``: fn(trace table, *, seed, report,
    # **params) -> Workload of this family
    from_trace_: Ref | None = None
    doc: str = ""
    # what the family's report says about its diagnostics (a :class:`ReportNotes`); default:
    # ``<package>.report_notes:NOTES`` when that module exists, else generic notes
    report_notes_: Ref | None = None
    # the module that defines this record (worker processes import it to find a family that
    # is not built in); default: the module that constructed it
    module: str | None = None

    def __post_init__(self):
        if self.module is None:
            self.module = sys._getframe(2).f_globals.get("__name__")
        if self.sense not in ("max", "min"):
            raise ValueError(f"family {self.name}: sense must be 'max' or 'min'")
        if self.package is not None:
            self.checker = self.checker or f"{self.package}.checker:check_{self.name}"
            self.fields = self.fields or f"{self.package}.fields:validate_{self.name}"
            self.generator = self.generator or f"{self.package}.generator"
        missing = [k for k in ("checker", "fields", "generator") if getattr(self, k) is None]
        if missing:
            raise ValueError(f"family {self.name}: no {', '.join(missing)} (give them, or the "
                             "package they follow the conventions of)")
        self.formulations = _by_name(self.formulations)
        self.algorithms_ = _by_name(self.algorithms_)
        self.bounds_ = _by_name(self.bounds_)
        if self.formulations and self.default_model not in self.formulations:
            raise ValueError(f"family {self.name}: default model {self.default_model!r} is not "
                             "one of its formulations")

    # ---- the workload and its checker ------------------------------------------------------
    def validate(self, workload: "Workload") -> None:
        """The family's own fields and every assumption its models and bounds rely on."""
        resolve(self.fields)(workload)

    def max_slot(self, workload: "Workload") -> int:
        """The last slot a schedule may use: the horizon, unless the family lets jobs run past
        it (``slots_past_horizon``: T bounds arrivals, not completions)."""
        return limits.MAX_HORIZON if self.slots_past_horizon else workload.horizon

    def check(self, workload: "Workload", schedule: "Schedule", **options) -> "CheckResult":
        """The family's independent checker, after the checks no schedule of any family may
        fail (:func:`mlopt.check.structural_violations`); a schedule failing those is
        infeasible without reaching the family's checker."""
        from mlopt.check import CheckResult, structural_violations

        broken = structural_violations(workload, schedule, max_slot=self.max_slot(workload))
        if not broken:
            return resolve(self.checker)(workload, schedule, **options)
        try:  # the family's checker on what is left, for its partial objective and findings
            ids = {j.id for j in workload.jobs}
            rows = schedule.allocations
            rest = type(schedule)(schedule.admitted & ids, rows[rows["job"].isin(ids)],
                                  dict(schedule.meta))
            own = resolve(self.checker)(workload, rest, **options)
            return CheckResult(False, own.objective, self.sense, broken + own.violations,
                               own.per_job)
        except Exception:  # noqa: BLE001  (the schedule is infeasible either way)
            return CheckResult(False, float("nan"), self.sense, broken)

    # ---- generator ---------------------------------------------------------------------------
    @cached_property
    def _generator(self):
        return resolve(self.generator)

    @property
    def preset_names(self) -> list[str]:
        """Sorted names of the family's workload presets."""
        return sorted(self._generator.PRESETS)

    def param_schema(self, preset: str) -> Schema | None:
        """The parameters ``preset`` takes (None: the generator declares none yet)."""
        self._check_preset(preset)
        params = getattr(self._generator, "params", None)
        return None if params is None else params(preset)

    def _check_preset(self, preset: str) -> None:
        if not isinstance(preset, str) or preset not in self._generator.PRESETS:
            raise InputError(f"unknown preset for family {self.name} (known: "
                             f"{', '.join(self.preset_names)})", field="preset", value=preset)

    def generate(self, preset: str, seed: int = 0, **params) -> "Workload":
        """A workload of ``preset``: the seed and every parameter checked first."""
        check_seed(seed)
        self.validate_params(preset, params)
        workload = self._generator.generate(preset, seed=seed, **params)
        if workload.meta.get("family") != self.name:
            workload.meta["family"] = self.name
        return workload

    def validate_params(self, preset: str, params: Mapping[str, Any]) -> None:
        """Every generator parameter of ``preset``: known by name, valid in value."""
        schema = self.param_schema(preset)
        if schema is not None:
            check_values(schema, params, where=f"preset {preset!r} of family {self.name}",
                         reserved={"seed": "the seed is --seed, not a parameter"})
            check = getattr(self._generator, "check_params", None)
            if check is not None:  # relations between parameters (low end of one < another)
                check(preset, dict(params))
            return
        # legacy: a generator without declared parameters
        gen = self._generator.generate
        _known_names(partial(gen, preset), params, f"preset {preset!r} of family {self.name}",
                     "parameter")
        check = getattr(self._generator, "check_params", None)
        if check is not None:
            check(preset, dict(params))
        else:
            _probe(lambda: gen(preset, seed=0, **params), f"generating preset {preset!r}")

    @property
    def presets(self) -> dict[str, Callable[..., "Workload"]]:
        """preset name -> ``fn(seed=0, **params)`` (checked, see :meth:`generate`)."""
        return {name: partial(self.generate, name) for name in self.preset_names}

    def preset(self, name: str) -> Callable[..., "Workload"]:
        """Return a generator for the named preset (raise InputError if unknown)."""
        self._check_preset(name)
        return partial(self.generate, name)

    # ---- formulations ------------------------------------------------------------------------
    def formulation(self, name: str | None = None) -> Formulation:
        """Return the named formulation (default model when None); InputError if unknown."""
        name = name or self.default_model
        if name not in self.formulations:
            raise InputError(f"unknown model for family {self.name} (known: "
                             f"{', '.join(sorted(self.formulations))})", field="model",
                             value=name)
        return self.formulations[name]

    def exact_formulation(self, name: str | None = None) -> Formulation:
        """A formulation whose optimum is OPT (a bound or export-only model is an error)."""
        f = self.formulation(name)
        if f.role == "bound":
            raise InputError(f"{f.name} is a lower-bound model: it has no schedule; use it as "
                             f"a bound ([offline] bounds = [\"{f.name}\"] in a spec, or mlopt "
                             "export)", field="model", value=f.name)
        if f.extract is None:
            raise InputError(f"family {self.name} has no schedule extractor for this model "
                             f"(a {f.role} model: export it with mlopt export)", field="model",
                             value=f.name)
        return f

    def model(self, name: str | None = None) -> Callable:
        """Return the build function of the named (or default) formulation."""
        return resolve(self.formulation(name).build)

    def check_model_options(self, name: str | None, options: Mapping[str, Any]) -> dict:
        """``options`` for the builder of formulation ``name``, checked before anything is
        built: against its declared options (kind and range) when it declares them, else
        against the builder's keyword names.  One InputError naming the option otherwise."""
        form = self.formulation(name)
        if form.options:
            return check_values(form.options, options, where=f"model {form.name!r}")
        _known_names(resolve(form.build), options, f"model {form.name!r}", "option")
        return dict(options)

    @property
    def models(self) -> dict[str, Callable]:
        """Build functions of all formulations, by name."""
        return {n: resolve(f.build) for n, f in self.formulations.items()}

    @property
    def extract(self) -> dict[str, Callable]:
        """Formulations whose solution is a schedule (the exact ones): name -> extractor."""
        return {n: resolve(f.extract) for n, f in self.formulations.items()
                if f.extract is not None}

    # ---- algorithms --------------------------------------------------------------------------
    def algorithm_record(self, name: str) -> Algorithm:
        """Return the named Algorithm record; raise InputError if unknown."""
        if name not in self.algorithms_:
            raise InputError(f"unknown algorithm for family {self.name} (known: "
                             f"{', '.join(sorted(self.algorithms_))}){_elsewhere(name, self)}",
                             field="algorithm", value=name)
        return self.algorithms_[name]

    def algorithm(self, name: str) -> Callable:
        """Return the run function of the named algorithm."""
        return resolve(self.algorithm_record(name).run)

    @property
    def algorithms(self) -> dict[str, Callable]:
        """Run functions of all algorithms, by name."""
        return {n: resolve(a.run) for n, a in self.algorithms_.items()}

    def option_schema(self, algorithm: str) -> Schema | None:
        """The options ``algorithm`` declares (None: it declares none yet)."""
        options = self.algorithm_record(algorithm).options
        return None if options is None else dict(resolve(options))

    def validate_options(self, algorithm: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """Every option of ``algorithm``: declared, of the declared kind and range."""
        schema = self.option_schema(algorithm)
        if schema is not None:
            return check_values(schema, options, where=f"algorithm {algorithm!r}",
                                reserved=RESERVED_OPTIONS)
        # legacy: an algorithm without declared options (names from its signature, values by
        # running it once on its probe preset)
        fn = self.algorithm(algorithm)
        check_values({}, {k: v for k, v in options.items() if k in RESERVED_OPTIONS},
                     reserved=RESERVED_OPTIONS)
        _known_names(fn, options, f"algorithm {algorithm!r}", "option")
        preset = self.probe_preset_of(algorithm)
        if options and preset in self._generator.PRESETS:
            workload = self.generate(preset, seed=0)
            _probe(lambda: fn(workload, seed=0, **options),
                   f"running {algorithm!r} on preset {preset!r}")
        return dict(options)

    def run(self, algorithm: str, workload: "Workload", *, seed: int = 0,
            options: Mapping[str, Any] | None = None, start: "Schedule | None" = None,
            **more_options) -> "Schedule":
        """Run ``algorithm`` on ``workload`` with ``options`` (a dict, as a user gave them, and/or
        keyword options): the seed and every option are checked first, so ``options={"seed":
        0}`` or an unknown name is an InputError before the algorithm starts.  ``start``: a
        checked schedule for an improvement algorithm (``Algorithm.start_option``) to start
        from; an InputError for an algorithm that takes none."""
        check_seed(seed)
        opts = self.validate_options(algorithm, {**dict(options or {}), **more_options})
        if start is not None:
            keyword = self.algorithm_record(algorithm).start_option
            if keyword is None:
                raise InputError("takes no start schedule", field="algorithm", value=algorithm)
            opts[keyword] = start
        return self.algorithm(algorithm)(workload, seed=seed, **opts)

    def run_check_options(self, algorithm: str, options: Mapping[str, Any]) -> dict[str, Any]:
        """The checker's keyword arguments for a run of ``algorithm`` with ``options`` (the
        problem it solves, e.g. ``{"speed": 1.5}``; ``{}`` for the problem itself)."""
        fn = self.algorithm_record(algorithm).check_options
        return {} if fn is None else dict(resolve(fn)(dict(options)))

    @property
    def diagnostics(self) -> dict[str, Callable]:
        """Diagnostics functions of the algorithms that have one, by name."""
        return {n: resolve(a.diagnostics) for n, a in self.algorithms_.items()
                if a.diagnostics is not None}

    def probe_preset_of(self, algorithm: str) -> str | None:
        """The small preset ``algorithm`` runs on (its own ``preset``, else ``probe_preset``)."""
        return self.algorithm_record(algorithm).preset or self.probe_preset

    @property
    def algorithm_presets(self) -> dict[str, str]:
        """Preset of each algorithm that names one, by algorithm name."""
        return {n: a.preset for n, a in self.algorithms_.items() if a.preset}

    # ---- bounds, trainers, traces ------------------------------------------------------------
    @property
    def bounds(self) -> dict[str, Callable]:
        """Bound functions, by name."""
        return {n: resolve(b.fn) for n, b in self.bounds_.items()}

    def bound(self, name: str) -> Callable:
        """Return the named bound function; raise InputError if unknown."""
        if name not in self.bounds_:
            # every place that names a bound (mlopt bound, bracket --bound, a spec) also takes
            # the default model's lp_relaxation, so the list a user reads names it too
            raise InputError(f"unknown bound for family {self.name} (known: "
                             f"{', '.join(sorted(self.bounds_) + ['lp_relaxation'])})",
                             field="bound", value=name)
        return resolve(self.bounds_[name].fn)

    @property
    def trainers(self) -> dict[str, Callable]:
        """Trainer functions, by name."""
        return {n: resolve(t) for n, t in self.trainers_.items()}

    @property
    def from_trace(self) -> Callable | None:
        """The trace-import function, or None when the family has none."""
        return None if self.from_trace_ is None else resolve(self.from_trace_)

    @cached_property
    def report_notes(self) -> ReportNotes:
        """The family's :class:`ReportNotes` (its own ``report_notes_``, else the package's
        ``report_notes`` module by convention, else generic notes that claim nothing)."""
        ref = self.report_notes_
        if ref is None and self.package is not None:
            from importlib.util import find_spec

            if find_spec(f"{self.package}.report_notes") is not None:
                ref = f"{self.package}.report_notes:NOTES"
        return ReportNotes() if ref is None else resolve(ref)

    def describe(self) -> dict:
        """Every name a user or a script can pass for this family (``mlopt families --json``)."""
        return {
            "name": self.name, "paper": self.paper, "sense": self.sense,
            "models": sorted(self.formulations), "default_model": self.default_model,
            "model_roles": {n: f.role for n, f in sorted(self.formulations.items())},
            "algorithms": sorted(self.algorithms_), "presets": self.preset_names,
            "bounds": sorted(self.bounds_),
            "diagnostics": sorted(n for n, a in self.algorithms_.items() if a.diagnostics),
            **({"algorithm_presets": dict(sorted(self.algorithm_presets.items()))}
               if self.algorithm_presets else {}),
            **({"trainers": sorted(self.trainers_)} if self.trainers_ else {}),
        }


def check_seed(seed: Any) -> int:
    """Return the seed if it is an int in 0..MAX_SEED, else raise InputError."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InputError(f"must be an integer in [0, {MAX_SEED}]", field="seed", value=seed)
    return seed


def _known_names(fn: Callable, names, what: str, kind: str) -> None:
    """Reject keyword names ``fn`` does not take (unless it takes ``**kwargs``), listing the
    ones it does."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return
    named = [p for p in params.values() if p.kind in (
        inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    if kind == "option":
        named = named[1:]  # the workload
    known = [p.name for p in named if p.name != "seed"]
    for name in names:
        if name not in known:
            raise InputError(f"unknown {kind} of {what} (known: {', '.join(known) or 'none'})",
                             field=name)


known_names = _known_names  # public: mlopt.export checks a model builder's options with it


def _probe(call: Callable[[], object], what: str) -> None:
    """Run ``call`` to validate values; any failure becomes one InputError."""
    try:
        call()
    except InputError as err:
        raise InputError(err.message, field=err.field, value=err.value) from None
    except Exception as err:  # the producer's own checks: a bad value, however it surfaces
        raise InputError(f"rejected while {what}: {type(err).__name__}: {err}") from None


# ---- the registry ------------------------------------------------------------------------------

#: the built-in families: one line each (adding a family = one folder and one line here)
BUILTIN: dict[str, str] = {
    "oasis": "mlopt.families.oasis.family:FAMILY",
    "edgecloud": "mlopt.families.edgecloud.family:FAMILY",
    "harmony": "mlopt.families.harmony.family:FAMILY",
    "hetero": "mlopt.families.hetero.family:FAMILY",
    "pdors": "mlopt.families.pdors.family:FAMILY",
}

FAMILIES: dict[str, Family] = {}  # loaded families
_ENTRIES: dict[str, str] = dict(BUILTIN)  # registered, not yet loaded: name -> reference
_entry_points_read = False


def register_family(family: Family | str, ref: str | None = None) -> Family | None:
    """Register a :class:`Family` (returned), or a name and a ``"module:attr"`` reference to
    one (loaded on first use).  A name registered again replaces the earlier entry."""
    if isinstance(family, Family):
        FAMILIES[family.name] = family
        _ENTRIES.pop(family.name, None)
        return family
    if not isinstance(ref, str) or ":" not in ref:
        raise ValueError("register_family(name, 'package.module:ATTRIBUTE')")
    FAMILIES.pop(family, None)
    _ENTRIES[family] = ref
    return None


def unregister_family(name: str) -> None:
    """Forget ``name`` (tests that register toy families clean up with it)."""
    FAMILIES.pop(name, None)
    _ENTRIES.pop(name, None)
    if name in BUILTIN:  # a built-in one comes back on next use
        _ENTRIES[name] = BUILTIN[name]


def _read_entry_points() -> None:
    global _entry_points_read
    if _entry_points_read:
        return
    _entry_points_read = True
    from importlib.metadata import entry_points

    for ep in entry_points(group="mlopt.families"):
        if ep.name not in FAMILIES and ep.name not in _ENTRIES:
            _ENTRIES[ep.name] = ep.value


def _elsewhere(algorithm: str, fam: Family) -> str:
    """The hint for an algorithm name another family has (``mlopt run harmony w.json`` on an
    OASiS workload): which families have it."""
    owners = []
    for name in family_names():
        if name == fam.name:
            continue
        try:
            if isinstance(algorithm, str) and algorithm in get_family(name).algorithms_:
                owners.append(name)
        except Exception:  # noqa: BLE001  (a broken outside family must not hide this error)
            continue
    return (f"; {algorithm} is an algorithm of famil{'ies' if len(owners) > 1 else 'y'} "
            f"{' and '.join(owners)}, not {fam.name}" if owners else "")


def family_names() -> list[str]:
    """Every registered family's name, loading none of them."""
    _read_entry_points()
    return sorted(set(FAMILIES) | set(_ENTRIES))


def get_family(name: str) -> Family:
    """Return the registered Family by name, loading entry points; InputError if unknown."""
    if name in FAMILIES:
        return FAMILIES[name]
    _read_entry_points()
    if not isinstance(name, str) or name not in _ENTRIES:
        raise InputError(f"unknown family (known: {', '.join(family_names())})",
                         field="family", value=name)
    family = resolve(_ENTRIES[name])
    if not isinstance(family, Family) or family.name != name:
        raise TypeError(f"{_ENTRIES[name]} is not the Family {name!r}")
    FAMILIES[name] = family
    del _ENTRIES[name]
    return family


def all_families() -> dict[str, Family]:
    """Every registered family, by name (loads them all)."""
    return {name: get_family(name) for name in family_names()}


def family_of(workload: "Workload", family: str | None = None) -> Family:
    """The family a workload belongs to: its ``meta.family``, or ``family`` when the workload
    does not say; both given and different is an error (never a guess)."""
    own = workload.meta.get("family")
    if family is not None and own is not None and family != own:
        raise InputError(f"the workload is of family {own!r}, not {family!r}", field="family",
                         value=family)
    name = family or own
    if name is None:
        raise InputError("the workload does not name its family (meta.family): pass the "
                         f"family (one of {', '.join(family_names())})", field="meta.family")
    return get_family(name)
