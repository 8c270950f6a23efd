"""A_online / A_dual / A_maxweight / A_mincost of seed 003."""
from __future__ import annotations

import pytest

from mlopt import pipeline
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.online import a_online, theorem5_alpha
from tests.hetero_fixtures import hand


@pytest.mark.parametrize("preset, seed", [("tiny", 0), ("tiny-ra", 1), ("small", 2),
                                          ("small-ra", 3)])
def test_a_online_schedules_are_feasible(preset, seed):
    w = generate(preset, seed=seed)
    res = pipeline.run_algorithm(w, "a_online", family="hetero")
    assert res.check.feasible, res.check.summary()
    assert len(res.schedule.admitted) == len(w.jobs)


def test_a_online_on_hand_instance_rounds():
    # A needs d = 1 <= tau - 1: round 2 (tau = 2), base alpha tau = 8: A runs in slot 8, c_A = 9.
    # B (d = 3) fits from tau = 4 (round 3, base 16): c_B = 16 + 3 = 19.  WCT = 2*9 + 19 = 37.
    run = a_online(hand())
    starts = {run_pl.job: start for run_pl, start in run.placements.values()}
    assert starts == {0: 8, 1: 16}
    res = pipeline.run_algorithm(hand(), "a_online", family="hetero")
    assert res.check.feasible and res.check.objective == pytest.approx(37.0)
    # compact rounds start at max(tau_i, last end): A at 2 (c 3), B at max(4, 3) = 4 (c 7)
    res = pipeline.run_algorithm(hand(), "a_online", family="hetero", compact=True)
    assert res.check.feasible and res.check.objective == pytest.approx(2 * 3 + 7)


def test_theorem5_alpha_formula():
    import numpy as np
    lam = 2 ** 20  # log lambda = 20, gamma = 40: denominator 1 + log2 20 - log2 39
    w = np.array([1.0, 1.0, 2.0])  # log2 w(J) - log2 w_min = 2
    den = 1 + np.log2(20) - np.log2(39)
    assert theorem5_alpha(w, lam) == int(np.floor(2 / den)) + 1


def test_a_online_ra_refuses_ps_workload():
    from mlopt.errors import InputError
    from mlopt.families.hetero.online import run_a_online_ra
    with pytest.raises(InputError):
        run_a_online_ra(hand())
    assert run_a_online_ra(hand("ra")).admitted == {"A", "B"}


def test_theory_diagnostics_on_hand_instance():
    from mlopt.families.hetero.theory import diagnostics
    res = pipeline.run_algorithm(hand(), "a_online", family="hetero")
    t = diagnostics(hand(), res.schedule, options={}, opt_upper=8.0)
    # WCT 37 against OPT 8: ratio 4.625 <= 4 alpha = 16
    assert t["alpha"] == 4 and t["competitive_bound"] == 16
    assert t["ratio_upper"] == pytest.approx(37 / 8) and t["within_bound"]
    assert t["alpha_theorem5"] >= 1 and t["placements"] == 2
