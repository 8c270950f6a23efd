"""A problem family = one paper's view of the shared workload model.

A family states which workload fields it needs and supplies its formulations (Pyomo builders),
a way to read a schedule back from a solved model, its independent checker, its generators and
its online algorithms / baselines.  Everything is registered by name so the CLI, the harness and
tests find it without if/elif chains.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Callable

import pyomo.environ as pyo

from mlopt.check import CheckResult
from mlopt.errors import InputError
from mlopt.schedule import Schedule
from mlopt.workload import Workload

Builder = Callable[..., pyo.ConcreteModel]
Extractor = Callable[[pyo.ConcreteModel, Workload], Schedule]
Checker = Callable[[Workload, Schedule], CheckResult]
Algorithm = Callable[..., Schedule]  # algorithm(workload, seed=..., **options) -> Schedule
Generator = Callable[..., Workload]  # generator(seed=..., **params) -> Workload


@dataclass
class Family:
    name: str
    paper: str  # seed file and system name
    sense: str  # "max" (utility) or "min" (completion time)
    check: Checker
    models: dict[str, Builder] = field(default_factory=dict)  # formulation name -> builder
    default_model: str = ""
    extract: dict[str, Extractor] = field(default_factory=dict)  # formulation -> extractor
    algorithms: dict[str, Algorithm] = field(default_factory=dict)  # online algs + baselines
    presets: dict[str, Generator] = field(default_factory=dict)  # generator presets
    validate: Callable[[Workload], None] = lambda w: None  # family-specific field checks
    # certified bounds beyond exact reach: name -> fn(workload, **options) -> float | dict | None
    bounds: dict[str, Callable[..., object]] = field(default_factory=dict)
    # per-algorithm checks of a paper's theory on every run: algorithm name ->
    # fn(workload, schedule, *, options, opt_upper) -> JSON-able dict (kept in results' extra)
    diagnostics: dict[str, Callable[..., dict]] = field(default_factory=dict)
    # Spec-time validation (mlopt.harness.spec), so a bad value fails when a spec is loaded
    # (exit 2) rather than as error rows after the run.  check_params(preset, params) and
    # check_options(algorithm, options) raise InputError whose field is the parameter / option.
    # Without check_params, each parameter set is tried by generating it once (seed 0); without
    # check_options, options are tried by running the algorithm on ``probe_preset`` (seed 0).
    check_params: Callable[[str, dict], None] | None = None
    check_options: Callable[[str, dict], None] | None = None
    probe_preset: str | None = "tiny"
    # algorithms that only apply to another kind of workload (e.g. hetero's ``a_online_ra``
    # needs a Ring-AllReduce one): algorithm name -> the preset its options are probed on and
    # cross-family tests run it on, instead of ``probe_preset``
    algorithm_presets: dict[str, str] = field(default_factory=dict)
    # learned components (``mlopt train FAMILY --target NAME``): name ->
    # fn(out_path, params: dict, *, progress: bool) -> JSON-able summary
    trainers: dict[str, Callable[..., dict]] = field(default_factory=dict)
    # ``mlopt instances from-trace/from-csv --family NAME``: fn(trace table, *, seed, report,
    # **params) -> Workload of this family (None: only the default OASiS-style conversion)
    from_trace: Callable[..., Workload] | None = None

    def model(self, name: str | None = None) -> Builder:
        name = name or self.default_model
        if name not in self.models:
            raise InputError(f"unknown model for family {self.name} (known: "
                             f"{', '.join(sorted(self.models))})", field="model", value=name)
        return self.models[name]

    def algorithm(self, name: str) -> Algorithm:
        if name not in self.algorithms:
            raise InputError(f"unknown algorithm for family {self.name} (known: "
                             f"{', '.join(sorted(self.algorithms))})", field="algorithm",
                             value=name)
        return self.algorithms[name]

    def bound(self, name: str) -> Callable[..., object]:
        if name not in self.bounds:
            raise InputError(f"unknown bound for family {self.name} (known: "
                             f"{', '.join(sorted(self.bounds))})", field="bound", value=name)
        return self.bounds[name]

    def validate_params(self, preset: str, params: dict) -> None:
        """Every generator parameter of ``preset``: known by name, valid in value."""
        gen = self.preset(preset)
        _known_names(gen, params, f"preset {preset!r} of family {self.name}", "parameter")
        if self.check_params is not None:
            self.check_params(preset, dict(params))
        else:
            _probe(lambda: gen(seed=0, **params), f"generating preset {preset!r}")

    def validate_options(self, algorithm: str, options: dict) -> None:
        """Every option of ``algorithm``: known by name, valid in value."""
        fn = self.algorithm(algorithm)
        _known_names(fn, options, f"algorithm {algorithm!r}", "option")
        if self.check_options is not None:
            self.check_options(algorithm, dict(options))
        elif options and self.probe_preset_of(algorithm) in self.presets:
            preset = self.probe_preset_of(algorithm)
            workload = self.preset(preset)(seed=0)
            _probe(lambda: fn(workload, seed=0, **options),
                   f"running {algorithm!r} on preset {preset!r}")

    def probe_preset_of(self, algorithm: str) -> str | None:
        """The small preset ``algorithm`` runs on (``algorithm_presets``, else ``probe_preset``)."""
        return self.algorithm_presets.get(algorithm, self.probe_preset)

    def describe(self) -> dict:
        """Every name a user or a script can pass for this family (``mlopt families --json``)."""
        return {
            "name": self.name, "paper": self.paper, "sense": self.sense,
            "models": sorted(self.models), "default_model": self.default_model,
            "algorithms": sorted(self.algorithms), "presets": sorted(self.presets),
            "bounds": sorted(self.bounds), "diagnostics": sorted(self.diagnostics),
            **({"algorithm_presets": dict(sorted(self.algorithm_presets.items()))}
               if self.algorithm_presets else {}),
            **({"trainers": sorted(self.trainers)} if self.trainers else {}),
        }

    def preset(self, name: str) -> Generator:
        if name not in self.presets:
            raise InputError(f"unknown preset for family {self.name} (known: "
                             f"{', '.join(sorted(self.presets))})", field="preset", value=name)
        return self.presets[name]


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


FAMILIES: dict[str, Family] = {}


def register_family(family: Family) -> Family:
    FAMILIES[family.name] = family
    return family


def all_families() -> dict[str, Family]:
    """Every registered family, by name (imports them all first)."""
    from mlopt.families import _load_all  # noqa: F401  (import side effect: registers every family)

    return dict(sorted(FAMILIES.items()))


def get_family(name: str) -> Family:
    from mlopt.families import _load_all  # noqa: F401  (import side effect: registers every family)

    if name not in FAMILIES:
        raise InputError(f"unknown family (known: {', '.join(sorted(FAMILIES))})",
                         field="family", value=name)
    return FAMILIES[name]
