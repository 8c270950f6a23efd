"""Harmony's ``volume`` bound (mlopt/families/harmony/volume_bound.py): a hand-computed value
where capacity forces waiting, never below ``standalone`` (the laws shared by every Harmony bound,
below OPT and every checked schedule, are in test_harmony_bound_chain.py)."""
from __future__ import annotations

import pytest

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.bounds import standalone_bound
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.volume_bound import volume_bound
from mlopt.solve import Status

FAM = get_family("harmony")


def two_on_one_server():
    # one server (2 GPUs); two jobs of 2 workers (1 GPU each) + 1 PS, both arriving at 1.
    # ResNeXt: 3.0 * 2 ** 0.8 = 5.22 >= 5 epochs, CTC: 6.0 * 2 ** 0.8 = 10.4 >= 5: k = 1 each
    return make_workload([
        {"model": "resnext110", "workers": 2, "ps": 1, "epochs": 5, "arrival": 1},
        {"model": "ctc", "workers": 2, "ps": 1, "epochs": 5, "arrival": 1}],
        n_servers=1, horizon=4)


def test_hand_value_capacity_forces_waiting():
    # standalone: JCT >= 1 each, average 1.  GPUs: each job needs 2 of the server's 2, so in
    # interval 1 x_1 + x_2 <= 1 (+1e-6 tolerance); the LP pays 1 * 1 + 1 * 2 = 3 (minus the
    # tolerance's 5e-7), rounded up to 3: average 3 / 2 = 1.5 = OPT (one waits an interval)
    w = two_on_one_server()
    out = volume_bound(w)
    assert standalone_bound(w)["bound"] == 1.0
    assert out["bound"] == 1.5 and out["source"] == "volume"
    assert out["dual_value"] == pytest.approx(1.5, abs=1e-5) and out["dual_value"] <= 1.5
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.objective == pytest.approx(1.5)


def test_cannot_finish_returns_standalone():
    # 100 epochs at <= 10.4 per interval need 10 intervals > T = 4: nothing is feasible
    w = make_workload([{"model": "ctc", "workers": 2, "ps": 1, "epochs": 100, "arrival": 1}],
                      n_servers=1, horizon=4)
    out = volume_bound(w)
    assert out["source"] == "standalone" and out["bound"] == standalone_bound(w)["bound"]








def test_registered_as_a_theorem_bound():
    assert FAM.bounds_["volume"].solver is False
    assert FAM.bound("volume")(two_on_one_server())["bound"] == 1.5


def test_validates_the_workload():
    w = two_on_one_server()
    w.jobs[0].extra["workers"] = 2.5
    with pytest.raises(InputError) as err:
        volume_bound(w)
    assert "workers" in str(err.value.field)


def test_lp_runs_after_highs_started_its_thread_pool_with_another_count():
    # HiGHS keeps one thread pool per process: a run asking for 1 thread after one that used
    # the default count is refused (kError) unless the pool is reset; the bound must not
    # silently fall back to standalone then (it did before the reset was added)
    import highspy
    import numpy as np

    from mlopt.solvers.quiet_highs import quiet_highs

    highspy.Highs.resetGlobalScheduler(True)  # whatever earlier tests left: a pool of 2
    h = quiet_highs()
    h.setOptionValue("threads", 2)
    h.addVar(0.0, 1.0)
    h.addRow(0.0, 1.0, 1, np.array([0], dtype=np.int32), np.array([1.0]))
    h.run()
    assert h.getModelStatus() == highspy.HighsModelStatus.kOptimal
    out = volume_bound(two_on_one_server(), threads=1)
    assert out["source"] == "volume" and out["bound"] == 1.5
