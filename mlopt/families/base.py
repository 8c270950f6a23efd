"""A problem family = one paper's view of the shared workload model.

A family states which workload fields it needs and supplies its formulations (Pyomo builders),
a way to read a schedule back from a solved model, its independent checker, its generators and
its online algorithms / baselines.  Everything is registered by name so the CLI, the harness and
tests find it without if/elif chains.
"""
from __future__ import annotations

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

    def describe(self) -> dict:
        """Every name a user or a script can pass for this family (``mlopt families --json``)."""
        return {
            "name": self.name, "paper": self.paper, "sense": self.sense,
            "models": sorted(self.models), "default_model": self.default_model,
            "algorithms": sorted(self.algorithms), "presets": sorted(self.presets),
            "bounds": sorted(self.bounds), "diagnostics": sorted(self.diagnostics),
        }

    def preset(self, name: str) -> Generator:
        if name not in self.presets:
            raise InputError(f"unknown preset for family {self.name} (known: "
                             f"{', '.join(sorted(self.presets))})", field="preset", value=name)
        return self.presets[name]


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
