"""Certified upper bounds on the OASiS offline optimum.

A bound is ``fn(workload, **options) -> BoundResult`` (:mod:`.result`), registered by name in
the family's ``bounds`` (:mod:`mlopt.families.oasis`): a certified upper bound
on OPT, how it was obtained, and the best checked feasible objective found on the way.

* ``dual_certificate``: final OASiS prices + recomputed mu_i, a feasible point of the dual
  (19)-(20) of seed 000 (:mod:`.dual_certificate`);
* ``colgen``: column generation on the LP relaxation of (14), the same DP as pricing oracle,
  plus the restricted master solved as an ILP (:mod:`.colgen`).

Per-run theory checks (Theorem 4's alpha, Lemma 2 along the run) live in :mod:`.theory`.
"""
from __future__ import annotations

from mlopt.families.oasis.bounds.colgen import colgen_bound
from mlopt.families.oasis.bounds.dual_certificate import dual_certificate, price_certificate
from mlopt.families.oasis.bounds.result import METHODS, BoundResult

__all__ = ["METHODS", "BoundResult", "colgen_bound", "dual_certificate", "price_certificate"]
