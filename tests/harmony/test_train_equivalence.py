"""Retraining equivalence (issue 23): what holds when the committed recipe is retrained on
another CPU. Not the bits: BLAS kernels differ by instruction set in the last bits of matrix
products and training amplifies them (`mlopt/families/harmony/agent.py`, "Reproducibility").

The committed small-scale reference (`benchmarks/harmony/data/retrain_small.csv`, written by
`benchmarks/harmony/retrain_small.py`: 150 episodes of the recipe at seed 0, held-out JCT on 10
`mini` instances) has the unnudged run and runs whose initial weights were multiplied by
(1 + k scale), a low-bits difference reproducible on any machine. What it shows, and what is
asserted here:

* differences up to 1e-9 relative leave the small-scale policy's held-out JCT exactly where it
  was (every such committed run equals the reference; and here, on whatever kernel runs the
  test, a 1e-9 nudge gives the unnudged run's JCT to the last digit);
* a difference large enough to change one sampled action (1e-6 did, in every committed run)
  sends training to another of the recipe's outcomes, here LB's level: so across kernels the
  retrained policy's held-out JCT is asserted only to lie in the envelope of the committed
  runs, widened by TOL = 2% of the reference on either side (on the reference's kernel it
  equals the reference; the other CPU's 600-episode retrain, `results/retrain_other_cpu.csv`,
  landed 2.7% from the checkpoint).
"""
from __future__ import annotations

import csv
import importlib.util
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "benchmarks" / "harmony" / "data" / "retrain_small.csv"
TOL = 0.02


@cache
def _script():
    spec = importlib.util.spec_from_file_location(
        "retrain_small", ROOT / "benchmarks" / "harmony" / "retrain_small.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _runs() -> list[dict]:
    with DATA.open() as f:
        return [r for r in csv.DictReader(f) if r["kind"] == "retrain"]


def _reference() -> dict:
    return next(r for r in _runs() if int(r["perturb"]) == 0)


@cache
def _retrained(k: int, scale: float) -> float:
    mod = _script()
    ref = _reference()
    return mod.retrained_jct(int(ref["episodes"]), k, scale, mod.held_out(10))[0]


def test_committed_runs_show_what_the_tests_assert():
    ref = float(_reference()["avg_jct"])
    tiny = [float(r["avg_jct"]) for r in _runs() if 0 < float(r["scale"] or 0) <= 1e-9]
    large = [float(r["avg_jct"]) for r in _runs() if float(r["scale"] or 0) >= 1e-6]
    assert len(tiny) >= 6 and all(j == ref for j in tiny)
    assert large and all(j != ref for j in large)


def test_low_bit_differences_do_not_change_the_small_scale_policy():
    """Machine-independent: the nudge is compared with this machine's own unnudged run."""
    assert _retrained(1, 1e-9) == _retrained(0, 0.0)


def test_retraining_lands_within_the_recipes_committed_outcomes():
    ref = float(_reference()["avg_jct"])
    jcts = [float(r["avg_jct"]) for r in _runs()]
    lo, hi = min(jcts) - TOL * ref, max(jcts) + TOL * ref
    got = _retrained(0, 0.0)
    assert lo <= got <= hi, (got, lo, hi)

