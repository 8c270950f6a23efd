"""Ratio arithmetic of the harness: points, intervals, infinities, shifted geometric mean."""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mlopt.harness.ratios import (OptBracket, opt_bracket, ratio_interval, ratio_point,
                                  shifted_geometric_mean)

INF = math.inf


def test_point_ratios_by_sense():
    assert ratio_point("max", 10.0, 8.0) == pytest.approx(1.25)  # OPT / ALG
    assert ratio_point("min", 8.0, 10.0) == pytest.approx(1.25)  # ALG / OPT
    assert ratio_point("max", 5.0, 5.0) == 1.0


def test_division_by_zero_conventions():
    assert ratio_point("max", 3.0, 0.0) == INF  # ALG earned nothing
    assert ratio_point("max", 0.0, 0.0) == 1.0  # nobody earned anything
    assert ratio_point("min", 0.0, 2.0) == INF  # OPT = 0 < ALG
    assert ratio_point("min", 0.0, 0.0) == 1.0
    assert ratio_point("max", -1.0, 2.0) is None  # undefined for negative objectives
    with pytest.raises(ValueError):
        ratio_point("maximize", 1.0, 1.0)


def test_bracket_proven_is_a_point_and_intervals_combine_best_sides():
    b = opt_bracket("max", proven_opt=7.0, primal=[1.0], dual=[100.0])
    assert (b.low, b.high, b.proven) == (7.0, 7.0, True)
    b = opt_bracket("max", primal=[4.0, 6.0, None], dual=[9.0, 8.0])
    assert (b.low, b.high, b.proven) == (6.0, 8.0, False)
    b = opt_bracket("min", primal=[12.0, 10.0], dual=[3.0, 5.0, float("nan")])
    assert (b.low, b.high) == (5.0, 10.0)
    assert opt_bracket("max") == OptBracket(None, None, False)
    with pytest.raises(ValueError):
        OptBracket(1.0, 2.0, True)


def test_interval_max_and_min():
    # max: [incumbent / ALG, bound / ALG]
    assert ratio_interval("max", OptBracket(6.0, 8.0, False), 4.0) == (1.5, 2.0)
    # min: [ALG / incumbent, ALG / bound]
    assert ratio_interval("min", OptBracket(5.0, 10.0, False), 20.0) == (2.0, 4.0)
    # proven -> low == high
    lo, hi = ratio_interval("max", OptBracket(6.0, 6.0, True), 4.0)
    assert lo == hi == 1.5


def test_interval_unknown_sides_and_zero_alg():
    # no bound on OPT: the upper end is unbounded; no primal: ALG itself is the primal value
    assert ratio_interval("max", OptBracket(None, None, False), 4.0) == (1.0, INF)
    assert ratio_interval("min", OptBracket(None, None, False), 4.0) == (1.0, INF)
    assert ratio_interval("min", OptBracket(0.0, 5.0, False), 5.0) == (1.0, INF)
    # ALG = 0 for max: infinite unless OPT is 0 too
    assert ratio_interval("max", OptBracket(0.0, 3.0, False), 0.0) == (1.0, INF)
    assert ratio_interval("max", OptBracket(2.0, 3.0, False), 0.0) == (INF, INF)
    assert ratio_interval("max", OptBracket(0.0, 0.0, True), 0.0) == (1.0, 1.0)
    # no feasible schedule: undefined
    assert ratio_interval("max", OptBracket(2.0, 3.0, False), None) == (None, None)


@settings(max_examples=200, deadline=None)
@given(st.floats(0.01, 1e6), st.floats(0.0, 1e6), st.floats(0.0, 1e6),
       st.sampled_from(["max", "min"]))
def test_interval_contains_every_consistent_point_ratio(alg, a, b, sense):
    """For any OPT inside the bracket, the point ratio lies inside the interval."""
    lo_opt, hi_opt = sorted((a, b))
    if sense == "min":
        lo_opt = max(lo_opt, 1e-9)
        hi_opt = max(hi_opt, lo_opt)
    low, high = ratio_interval(sense, OptBracket(lo_opt, hi_opt, False), alg)
    assert low <= high
    for opt in (lo_opt, (lo_opt + hi_opt) / 2, hi_opt):
        r = ratio_point(sense, opt, alg)
        assert low * (1 - 1e-12) <= r <= high * (1 + 1e-12)


def test_shifted_geometric_mean():
    assert shifted_geometric_mean([]) is None
    assert shifted_geometric_mean([3.0, 3.0, 3.0]) == pytest.approx(3.0)
    # shift 1: exp(mean(log(v + 1))) - 1
    assert shifted_geometric_mean([1.0, 3.0], shift=1.0) == pytest.approx(math.sqrt(8) - 1)
    assert shifted_geometric_mean([2.0, 8.0], shift=0.0) == pytest.approx(4.0)
    assert shifted_geometric_mean([1.0, INF]) == INF
    assert shifted_geometric_mean([1.0, None, float("nan")]) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        shifted_geometric_mean([-2.0], shift=1.0)
