"""Certified bounds on the OASiS optimum (seed 000): on small instances,
restricted-master ILP <= OPT <= LP(14) <= dual certificate, and the feasible sides are checked."""
from __future__ import annotations

import pytest

from mlopt.families.oasis.bounds import colgen_bound, dual_certificate
from mlopt.families.oasis.generator import generate
from mlopt.pipeline import solve_offline
from mlopt.solve import Status

TOL = 1e-6


@pytest.mark.parametrize("preset,seed", [("tiny", 0), ("tiny", 3), ("paper-fig5", 0),
                                         ("paper-fig5", 2)])
def test_bound_chain(preset, seed):
    w = generate(preset, seed=seed)
    off = solve_offline(w, time_limit=60)
    assert off.solve.status == Status.OPTIMAL
    opt = off.objective
    cg = colgen_bound(w, time_limit=60)
    cert = dual_certificate(w)
    assert cg.method == "lp_optimal"  # converged: lp_value is LP(14)
    assert cg.feasible_objective <= opt + TOL * max(1, opt)
    assert opt <= cg.lp_value + TOL * max(1, opt)
    assert cg.lp_value <= cg.upper_bound + TOL * max(1, opt)
    assert cg.upper_bound <= cert.upper_bound + TOL * max(1, opt)
    assert cert.feasible_objective <= opt + TOL * max(1, opt)  # OASiS's checked utility


def test_colgen_stops_at_a_limit_with_a_valid_bound():
    w = generate("paper-fig5", seed=1)
    opt = solve_offline(w, time_limit=60).objective
    cg = colgen_bound(w, max_iterations=2, ilp=False)
    assert cg.method in ("lagrangian_at_limit", "lp_optimal")
    assert cg.upper_bound >= opt - TOL * opt
