"""Competitive-ratio arithmetic: pure functions, no I/O.

Conventions (DESIGN.md, *Conventions*):

* maximization: ratio = OPT / ALG; minimization: ratio = ALG / OPT.  Both are >= 1 when the
  algorithm is no better than the optimum.
* OPT is known as a closed interval ``[opt_low, opt_high]`` (an :class:`OptBracket`).  When the
  optimum is proven, ``opt_low == opt_high`` and the ratio is a point (``low == high``).
  Otherwise the ratio is the interval obtained by evaluating the (monotone) ratio at both ends:
  for max ``[opt_low/ALG, opt_high/ALG]``, for min ``[ALG/opt_high, ALG/opt_low]``.
* An unknown end of the bracket (no dual bound for max, no lower bound for min) is an unbounded
  ratio: ``+inf``.
* Division by zero: ``x / 0`` with ``x > 0`` is ``+inf`` (e.g. an algorithm that earns no utility
  while OPT > 0); ``0 / 0`` is 1 (both earn nothing: the algorithm is optimal).  ``+inf`` is stored
  as IEEE infinity (SQLite REAL ``Inf``, ``inf`` in CSV/Parquet); NULL/None means *undefined*
  (infeasible algorithm, negative objective).
* Ratios are only defined for non-negative objectives (utilities, completion times); a negative
  value gives ``None``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable

INF = math.inf
#: relative / absolute tolerance used to compare objectives of checked schedules with bounds
REL_TOL = 1e-6
ABS_TOL = 1e-6


def close(a: float, b: float) -> bool:
    """Whether two objectives agree within the harness's tolerances."""
    return abs(a - b) <= max(ABS_TOL, REL_TOL * max(abs(a), abs(b)))


def _check_sense(sense: str) -> None:
    if sense not in ("max", "min"):
        raise ValueError(f"sense must be 'max' or 'min', not {sense!r}")


def _div(num: float, den: float) -> float | None:
    if num is None or den is None or math.isnan(num) or math.isnan(den) or num < 0 or den < 0:
        return None
    if den == 0:
        return 1.0 if num == 0 else INF
    return num / den


def ratio_point(sense: str, opt: float, alg: float) -> float | None:
    """The competitive ratio of one algorithm value against a known OPT."""
    _check_sense(sense)
    return _div(opt, alg) if sense == "max" else _div(alg, opt)


@dataclass(frozen=True)
class OptBracket:
    """What is known about OPT: ``low <= OPT <= high``; ``None`` = that side is unknown."""

    low: float | None
    high: float | None
    proven: bool  # OPT is known exactly (low == high)

    def __post_init__(self):
        if self.proven and (self.low is None or self.low != self.high):
            raise ValueError("a proven bracket needs low == high")


def opt_bracket(sense: str, *, proven_opt: float | None = None,
                primal: Iterable[float] = (), dual: Iterable[float] = ()) -> OptBracket:
    """Combine what is known about OPT into one bracket.

    ``proven_opt``: the checked objective of a schedule the solver proved optimal -> a point.
    ``primal``: checked objectives of feasible schedules (for max each is <= OPT, for min >= OPT).
    ``dual``: certified bounds (for max each is >= OPT, for min <= OPT).
    The best of each side is kept (max of primal / min of dual for maximization).
    """
    _check_sense(sense)
    if proven_opt is not None:
        return OptBracket(float(proven_opt), float(proven_opt), True)
    p = [float(x) for x in primal if x is not None and not math.isnan(x)]
    d = [float(x) for x in dual if x is not None and not math.isnan(x)]
    if sense == "max":
        return OptBracket(max(p) if p else None, min(d) if d else None, False)
    return OptBracket(max(d) if d else None, min(p) if p else None, False)


def ratio_interval(sense: str, bracket: OptBracket, alg: float | None,
                   ) -> tuple[float | None, float | None]:
    """``(low, high)`` competitive ratio of an algorithm value given a bracket on OPT.

    ``alg is None`` (no feasible schedule) gives ``(None, None)``.  An unknown end of the bracket
    gives ``+inf`` at the corresponding end of the ratio (max: unknown upper bound -> high = inf;
    min: unknown lower bound -> high = inf); an unknown *primal* end is filled with ALG itself,
    which is feasible and so is a valid primal value.
    """
    _check_sense(sense)
    if alg is None or math.isnan(alg) or alg < 0:
        return None, None
    if sense == "max":
        lo_opt = alg if bracket.low is None else bracket.low
        low = ratio_point(sense, lo_opt, alg)
        high = INF if bracket.high is None else ratio_point(sense, bracket.high, alg)
    else:
        hi_opt = alg if bracket.high is None else bracket.high
        low = ratio_point(sense, hi_opt, alg)
        high = INF if bracket.low is None else ratio_point(sense, bracket.low, alg)
    if low is None or high is None:
        return None, None
    return low, high


def shifted_geometric_mean(values: Iterable[float], shift: float = 1.0) -> float | None:
    """``exp(mean(log(v + shift))) - shift`` over the values (None if there are none).

    The shift damps the weight of values near zero (for runtimes) and keeps the mean defined
    at 0; any ``+inf`` value makes the mean ``+inf``.  Values must be > -shift.
    """
    vals = [float(v) for v in values if v is not None and not math.isnan(v)]
    if not vals:
        return None
    if any(math.isinf(v) for v in vals):
        return INF
    if any(v + shift <= 0 for v in vals):
        raise ValueError("shifted geometric mean needs values > -shift")
    return math.exp(sum(math.log(v + shift) for v in vals) / len(vals)) - shift
