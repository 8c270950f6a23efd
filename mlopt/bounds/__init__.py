"""Certified upper bounds on the offline optimum, registered by name.

A bound is ``fn(workload, **options) -> BoundResult`` (:mod:`.result`): a certified upper bound
on OPT, how it was obtained, and the best checked feasible objective found on the way.

* ``dual_certificate``: final OASiS prices + recomputed mu_i, a feasible point of the dual
  (19)-(20) of seed 000 (:mod:`.dual_certificate`);
* ``colgen``: column generation on the LP relaxation of (14), the same DP as pricing oracle,
  plus the restricted master solved as an ILP (:mod:`.colgen`).

Per-run theory checks (Theorem 4's alpha, Lemma 2 along the run) live in :mod:`.theory`.
"""
from __future__ import annotations

from collections.abc import Callable

from ..errors import InputError
from .colgen import colgen_bound
from .dual_certificate import dual_certificate, price_certificate
from .result import METHODS, BoundResult

BoundFn = Callable[..., BoundResult]

BOUNDS: dict[str, BoundFn] = {
    "dual_certificate": dual_certificate,
    "colgen": colgen_bound,
}


def get_bound(name: str) -> BoundFn:
    if name not in BOUNDS:
        raise InputError(f"unknown bound (known: {', '.join(sorted(BOUNDS))})", field="bound",
                         value=name)
    return BOUNDS[name]


__all__ = ["BOUNDS", "METHODS", "BoundFn", "BoundResult", "colgen_bound", "dual_certificate",
           "get_bound", "price_certificate"]
