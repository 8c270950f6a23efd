"""The restricted-master MIP's objective is its own solution's value (issue 22, item 2).

HiGHS 1.16 with presolve on and a start from ``setSolution`` once reported an "optimal"
objective far from the value of the solution it returned.  :func:`run_mip_consistent`
re-solves once with presolve off when the two disagree, and ``MasterLP.solve_ilp`` reports
the solution's own value and no HiGHS bound for a run whose report disagreed."""
from __future__ import annotations

import highspy
import numpy as np
import pytest

from mlopt.families.oasis.bounds import colgen
from mlopt.families.oasis.bounds.colgen import MasterLP, initial_columns
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import generate
from mlopt.families.oasis.online import oasis_online
from mlopt.models.oasis.master import schedule_from_columns
from mlopt.solvers.quiet_highs import binary_program, quiet_highs, run_mip_consistent


def _knapsack():
    """max 3a + 2b + 2c s.t. a + b + c <= 2 (one row), binaries: optimum 5 (a and b, or a and c)."""
    lp = binary_program([3.0, 2.0, 2.0], [0, 0, 0], [0, 1, 2], [1.0, 1.0, 1.0],
                        [-highspy.kHighsInf], [2.0], maximize=True)
    h = quiet_highs()
    h.passModel(lp)
    return h


def test_consistent_run_is_not_repeated():
    h = _knapsack()
    start = highspy.HighsSolution()
    start.col_value = [0.0, 1.0, 1.0]  # value 4, feasible
    out = run_mip_consistent(h, start)
    assert out == {"retried": False, "consistent": True, "reported": pytest.approx(5.0),
                   "own": pytest.approx(5.0)}


class _LyingHighs:
    """Stands in for a HiGHS object whose first run reports 9 for a solution worth 5 (the
    1.16 symptom); with presolve off it tells the truth."""

    def __init__(self):
        self.real = _knapsack()
        self.options: dict = {}
        self.starts = 0

    def __getattr__(self, name):
        return getattr(self.real, name)

    def setOptionValue(self, key, value):
        self.options[key] = value
        return self.real.setOptionValue(key, value)

    def setSolution(self, sol):
        self.starts += 1
        return self.real.setSolution(sol)

    def getInfo(self):
        info = self.real.getInfo()
        if self.options.get("presolve") != "off":
            info.objective_function_value = 9.0
        return info


def test_disagreeing_report_is_resolved_without_presolve():
    h = _LyingHighs()
    start = highspy.HighsSolution()
    start.col_value = [1.0, 0.0, 0.0]
    out = run_mip_consistent(h, start)
    assert out["retried"] and out["consistent"]
    assert h.options["presolve"] == "off"
    assert h.starts == 2  # the start is handed over again for the second run
    assert out["own"] == pytest.approx(5.0) and out["reported"] == pytest.approx(5.0)


def test_solve_ilp_never_reports_a_disagreeing_objective(monkeypatch):
    """If HiGHS's report stays wrong after the retry, solve_ilp gives the solution's own value
    (checked below), no bound, and never "optimal"."""
    wl = generate("tiny", seed=0)
    run = oasis_online(wl)
    m = MasterLP(wl)
    for c in initial_columns(wl, run, ("oasis", "greedy")):
        m.add(c)
    real = colgen.run_mip_consistent

    def lying(highs, start=None):
        out = real(highs, start)
        return {**out, "retried": True, "consistent": False, "reported": out["own"] + 100.0}

    monkeypatch.setattr(colgen, "run_mip_consistent", lying)
    res = m.solve_ilp(warm_start=np.array([c.source == "oasis" for c in m.columns], float))
    assert res["status"] == "feasible" and res["bound"] is None
    assert res["presolve_retry"] and not res["consistent"]
    sched = schedule_from_columns(wl, m.columns, res["x"] > 0.5)
    chk = check_oasis(wl, sched)
    assert chk.feasible and chk.objective == pytest.approx(res["objective"], rel=1e-9)
