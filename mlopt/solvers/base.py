"""Backend interface and registry for the solve layer."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import ClassVar

import pyomo.environ as pyo

from mlopt.errors import InputError
from mlopt.solvers.result import SolveResult


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

    @classmethod
    def check_options(cls, options: dict) -> None:
        """Reject an option the solver does not know, by name (InputError, field = the name),
        and a value of the wrong type where the solver's API can tell; never silently ignore
        one.  The default (a backend that cannot list its options) accepts them."""

    def solve(self, model: pyo.ConcreteModel, *, time_limit: float | None, mip_gap: float,
              threads: int | None, options: dict) -> SolveResult:  # pragma: no cover
        raise NotImplementedError


BACKENDS: dict[str, type[SolverBackend]] = {}


def register_backend(cls: type[SolverBackend]) -> type[SolverBackend]:
    BACKENDS[cls.name] = cls
    return cls


def get_backend(name: str) -> SolverBackend:
    if not isinstance(name, str) or name not in BACKENDS:
        raise InputError(f"unknown solver (known: {', '.join(sorted(BACKENDS))})",
                         field="solver", value=name)
    cls = BACKENDS[name]
    if not cls.available():
        raise InputError("solver is not installed or not licensed here", field="solver",
                         value=name)
    return cls()


def unknown_option(solver: str, key, value, known: list[str] | None = None) -> InputError:
    """An option the solver does not have, with the closest names it does have."""
    close = difflib.get_close_matches(str(key), known or [], n=3, cutoff=0.6)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    return InputError(f"not a {solver} option{hint}", field=str(key), value=value)


def available_backends() -> list[str]:
    return sorted(n for n, cls in BACKENDS.items() if cls.available())
