"""benchmarks/solvers/summarize.py: medians, per-instance ratios and agreement of a results table."""
import importlib.util
from pathlib import Path

import pandas as pd

PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "solvers" / "summarize.py"


def _module():
    spec = importlib.util.spec_from_file_location("solver_summarize", PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _row(inst, solver, status, obj, t):
    return {"instance": inst, "solver": solver, "status": status, "objective": obj,
            "bound": obj, "gap": 0.0, "runtime_s": t, "check_feasible": True}


def test_ratios_medians_agreement_and_unproven_runs():
    df = pd.DataFrame([
        _row("a", "highs", "optimal", 10.0, 1.0), _row("a", "scip", "optimal", 10.0, 4.0),
        _row("b", "highs", "optimal", 20.0, 3.0), _row("b", "scip", "optimal", 21.0, 3.0),
        _row("c", "highs", "feasible", 5.0, 30.0), _row("c", "scip", "optimal", 5.0, 2.0),
        _row("d", "highs", "error", None, 0.0),
    ])
    out = _module().summarize(df)
    # highs runs a, b, c (the error row is dropped): median of 1, 3, 30 = 3
    assert "| highs | 3 | 2 | 3/3 | 3.00 | 30.00 |" in out
    # ratios over instances both proved: a 1/4 = 0.25, b 3/3 = 1 -> median 0.625
    assert "| highs / scip | 2 | 0.62 | 0.25 | 1.00 |" in out or \
        "| highs / scip | 2 | 0.63 | 0.25 | 1.00 |" in out
    # b disagrees (20 vs 21: spread 1/21); c is proven by one solver only and not counted
    assert "agree on 1/2 instances" in out
    assert "- c highs: feasible, incumbent 5.0" in out
