"""Backend interface and registry for the solve layer."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.solve import SolveResult


@dataclass(frozen=True)
class Capabilities:
    mip: bool = True
    lp: bool = True
    dual_bound: bool = True
    time_limit: bool = True
    threads: bool = True
    deterministic: bool = True


class SolverBackend:
    """A MILP solver reachable by name. Subclasses set ``name`` and implement ``solve``."""

    name: ClassVar[str] = ""
    capabilities: ClassVar[Capabilities] = Capabilities()

    @classmethod
    def available(cls) -> bool:
        return True

    @classmethod
    def version(cls) -> str:
        return "unknown"

    def solve(self, model: pyo.ConcreteModel, *, time_limit: float | None, mip_gap: float,
              threads: int | None, options: dict) -> SolveResult:  # pragma: no cover
        raise NotImplementedError


BACKENDS: dict[str, type[SolverBackend]] = {}


def register_backend(cls: type[SolverBackend]) -> type[SolverBackend]:
    BACKENDS[cls.name] = cls
    return cls


def get_backend(name: str) -> SolverBackend:
    if name not in BACKENDS:
        raise InputError(f"unknown solver (known: {', '.join(sorted(BACKENDS))})",
                         field="solver", value=name)
    cls = BACKENDS[name]
    if not cls.available():
        raise InputError("solver is not installed or not licensed here", field="solver",
                         value=name)
    return cls()


def available_backends() -> list[str]:
    return sorted(n for n, cls in BACKENDS.items() if cls.available())
