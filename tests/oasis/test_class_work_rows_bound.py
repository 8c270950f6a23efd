"""Cumulative-work rows (bounds/work_rows.py): every integer solution of the utility ILP keeps
them (same optimum with and without, on random widened instances), they only tighten the LP,
and the class relaxation with them stays >= the exact optimum."""
from __future__ import annotations

import pyomo.environ as pyo
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlopt
from mlopt.errors import InputError
from mlopt.families.oasis.bounds.class_relaxation import class_relaxation
from mlopt.families.oasis.bounds.work_rows import add_work_rows
from mlopt.families.oasis.generator import generate
from mlopt.models.oasis import build_utility_ilp, index_data
from mlopt.solve import Status
from tests.oasis.test_class_relaxation_oasis import split_bins


def _with_rows(wl):
    m = build_utility_ilp(wl)
    n = add_work_rows(m, index_data(wl)["work"])
    return m, n


def _lp(m) -> float:
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    res = mlopt.solve(m, "highs", time_limit=60)
    assert res.status is Status.OPTIMAL
    return float(res.objective)


def test_work_rows_by_hand():
    # split_bins: T = 2, jobs a, b, c arrive in slot 1 with W = 1 worker-slot, so each may
    # complete in slot 1 or 2: one row per (job, slot) = 3 x 2 = 6 rows; the optimum stays 27
    # (10 + 10 + 7: two jobs done in slot 1, the third in slot 2)
    wl = split_bins()
    m, n = _with_rows(wl)
    assert n == 6
    res = mlopt.solve(m, "highs", time_limit=30)
    assert res.status is Status.OPTIMAL and res.objective == pytest.approx(27.0)
    # at the optimum the running work of a job completed in slot 1 is 1 from slot 1 on
    done = [i for i in "abc" if pyo.value(m.u[i, 1]) > 0.5]
    assert len(done) == 2
    for i in done:
        assert pyo.value(m.work_done[i, 1]) >= 1 - 1e-6
        assert pyo.value(m.work_completed[i, 1]) == pytest.approx(1.0)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_servers=st.integers(2, 4),
       arrival_window=st.sampled_from([1.0, 5.0, 10.0]))
def test_work_rows_keep_the_optimum_and_tighten_the_lp(seed, n_servers, arrival_window):
    # widened past the preset: two servers (heavy contention, rejected jobs and zero
    # allocations), every job at slot 0 or arrivals up to the last slot (late jobs whose
    # completion window may be empty)
    wl = generate("paper-fig5", seed=seed, n_jobs=6, n_servers=n_servers,
                  arrival_window=arrival_window)
    plain = mlopt.solve(build_utility_ilp(wl), "highs", time_limit=60)
    m, _ = _with_rows(wl)
    rows = mlopt.solve(m, "highs", time_limit=60)
    assert plain.status is Status.OPTIMAL and rows.status is Status.OPTIMAL
    assert rows.objective == pytest.approx(plain.objective, rel=1e-6, abs=1e-6)
    m2, _ = _with_rows(wl)
    assert _lp(m2) <= _lp(build_utility_ilp(wl)) + 1e-6
    rel = class_relaxation(wl, time_limit=30, work_rows=True)
    assert rel["bound"] >= plain.objective - 1e-6 * max(1.0, plain.objective)
    if rel["proven"]:
        assert rel["feasible_objective"] == pytest.approx(plain.objective, rel=1e-6)


def test_work_rows_flag_must_be_a_bool():
    with pytest.raises(InputError) as err:
        class_relaxation(split_bins(), work_rows="yes")
    assert err.value.field == "work_rows" and err.value.value == "yes"


def test_a_warm_start_stays_full_and_feasible_with_the_rows():
    # the work rows' auxiliaries are set from the start's y and u (complete_start): without
    # them the encoded start violates the running sums and a solver may drop it (SCIP did at
    # oasis-open-2, 600 s: its incumbent was 0 instead of the 2870.15 start)
    from mlopt.families.oasis.bounds.class_relaxation import (build_class_relaxation,
                                                              merged_schedule)
    from mlopt.families.oasis.bounds.work_rows import complete_start
    from mlopt.models.oasis.warmstart import encode
    from mlopt.warmstart import check_start, compile_linear

    wl = generate("paper-fig5", seed=6)
    rel = class_relaxation(wl, time_limit=60)
    m, merged, members = build_class_relaxation(wl, work_rows=True)
    start = encode(m, merged, merged_schedule(wl, members, rel["schedule"]))
    assert not check_start(compile_linear(m), start)[0].feasible
    complete_start(m, start)
    chk = check_start(compile_linear(m), start)[0]
    assert chk.full and chk.feasible
    assert chk.objective == pytest.approx(rel["feasible_objective"])
