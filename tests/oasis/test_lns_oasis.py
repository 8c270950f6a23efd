"""Fix-and-resolve on the utility ILP (mlopt/families/oasis/primal/lns.py).

Every schedule it returns passes the checker, is never worse than its start and never above
the exact optimum; a window holding every job solves the whole ILP, so it reaches OPT.
Hand instance as test_primal_oasis.py: one chunk = 1 worker-slot.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mlopt
from mlopt.errors import InputError
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import generate
from mlopt.families.oasis.online import run_oasis
from mlopt.families.oasis.primal.lns import UtilityLNS, lns, run_lns
from mlopt.models.oasis import build_utility_ilp
from mlopt.schedule import Schedule
from mlopt.solve import Status
from tests.oasis.test_primal_oasis import three_jobs


def _opt(wl) -> float:
    res = mlopt.solve(build_utility_ilp(wl), "highs", time_limit=60)
    assert res.status is Status.OPTIMAL
    return float(res.objective)


def test_window_by_hand():
    """three_jobs: slot 1 holds two of the three alike jobs (cpu 2 = 1 + 1), so OPT =
    10 + 10 + 7 = 27.  From the empty schedule (0), a window of one job can only admit that
    job in slot 1 (10); a window of all three reaches 27."""
    wl = three_jobs()
    empty = Schedule.empty()
    eng = UtilityLNS(wl)
    x = eng.encode(empty)
    assert eng.form.objective(x) == 0.0
    y, info = eng.resolve(x, [0], 10.0)
    assert info["optimal"] and eng.form.objective(y) == pytest.approx(10.0)
    assert check_oasis(wl, eng.decode(y)).objective == pytest.approx(10.0)
    z, _ = eng.resolve(y, [0, 1, 2], 10.0)
    assert eng.form.objective(z) == pytest.approx(27.0)
    # nothing better exists: the re-solve of every job from the optimum returns no candidate
    again, info = eng.resolve(z, [0, 1, 2], 10.0)
    assert again is None and info["optimal"]
    best, log = lns(wl, empty, 10.0, window=3)
    assert check_oasis(wl, best).objective == pytest.approx(27.0)
    assert log["all_free_optimal"] and log["start"] == 0.0


def test_encode_decode_round_trip():
    wl = generate("paper-fig5", seed=2)
    s = run_oasis(wl)
    v = check_oasis(wl, s).objective
    eng = UtilityLNS(wl)
    x = eng.encode(s)
    assert eng.form.objective(x) == pytest.approx(v)
    assert check_oasis(wl, eng.decode(x)).objective == pytest.approx(v)


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_servers=st.integers(2, 4),
       arrival_window=st.sampled_from([1.0, 5.0, 10.0]), window=st.integers(1, 3))
def test_lns_checked_never_below_start_never_above_opt(seed, n_servers, arrival_window,
                                                        window):
    # widened past the preset: two servers (one of each role, heavy contention), every job
    # at slot 0 or arrivals up to the last slot (late jobs with little or no room)
    wl = generate("paper-fig5", seed=seed, n_jobs=6, n_servers=n_servers,
                  arrival_window=arrival_window)
    start = run_oasis(wl)
    v0 = check_oasis(wl, start).objective
    best, log = lns(wl, start, 3.0, window=window, window_time=1.0, seed=seed)
    res = check_oasis(wl, best)
    assert res.feasible
    assert res.objective >= v0 - 1e-9
    assert res.objective <= _opt(wl) + 1e-6
    assert log["end"] == pytest.approx(res.objective)


def test_algorithm_reaches_opt_on_tiny():
    # a window of every job: the whole ILP, solved once (oasis-tiny's optimum)
    wl = generate("tiny", seed=1)
    s = run_lns(wl, time_limit=10.0)
    res = check_oasis(wl, s)
    assert res.feasible and res.objective == pytest.approx(_opt(wl))
    assert s.meta["lns"]["end"] == pytest.approx(res.objective)


def test_bad_inputs():
    wl = three_jobs()
    empty = Schedule.empty()
    with pytest.raises(InputError) as e:
        lns(wl, empty, 5.0, window=0)
    assert e.value.field == "window" and e.value.value == 0
    with pytest.raises(InputError) as e:
        lns(wl, empty, -1.0)
    assert e.value.field == "time_limit" and e.value.value == -1.0
    with pytest.raises(InputError) as e:
        run_lns(wl, start="nope", time_limit=1.0)
    assert e.value.field == "start" and e.value.value == "nope"
    # four jobs' worth on slot 1: a and b and c all finishing in slot 1 exceeds cpu 2
    bad = Schedule.from_rows(["a", "b", "c"], [
        (j, 1, s, role, 1) for j in "abc" for s, role in (("w1", "worker"), ("p1", "ps"))],
        {"producer": "hand"})
    with pytest.raises(InputError) as e:
        lns(wl, bad, 5.0)
    assert e.value.field == "schedule"


def test_start_file_is_never_lost(tmp_path):
    # OASiS's schedule as the start file: the result is checked and at least its value
    wl = generate("paper-fig5", seed=4)
    s = run_oasis(wl)
    path = tmp_path / "start.json"
    s.save(path)
    out = run_lns(wl, start_file=str(path), time_limit=3.0, window=2, window_time=1.0)
    res = check_oasis(wl, out)
    assert res.feasible and res.objective >= check_oasis(wl, s).objective - 1e-9
    assert out.meta["start"] == "file"


def test_no_time_for_the_build_returns_the_start(monkeypatch):
    # an estimate of an hour's build: the start comes back, checked, not a killed run
    import mlopt.families.oasis.primal.lns as mod

    monkeypatch.setattr(mod, "_build_estimate", lambda wl: 3600.0)
    wl = generate("paper-fig5", seed=3)
    out = run_lns(wl, start="oasis", time_limit=5.0)
    assert check_oasis(wl, out).objective == pytest.approx(check_oasis(wl, run_oasis(wl)).objective)
    assert "lns" not in out.meta


# --- sixth round: neighbourhoods (span, span_servers, rejected) and growth -----------------

def test_server_restricted_window_by_hand():
    """three_jobs from the empty schedule: a window of job a free on no server beyond the ones
    it uses (none) has only x and u, so it admits nothing (a needs one worker-slot on w1 and a
    PS on p1); free on p1 only it still cannot run (no worker server); on both it reaches 10.
    From the optimum (27), restricting to the used servers keeps every used column free."""
    wl = three_jobs()
    eng = UtilityLNS(wl)
    x = eng.encode(Schedule.empty())
    none = np.zeros(len(eng.server_ids), dtype=bool)
    cols = eng.free_columns(x, [0], none)
    assert set(eng.cols.kind[cols]) <= {0, 3}  # x and u only
    y, info = eng.resolve(x, [0], 10.0, none)
    assert y is None and info["optimal"]
    p1_only = np.array([sid == "p1" for sid in eng.server_ids])
    y, _ = eng.resolve(x, [0], 10.0, p1_only)
    assert y is None
    y, _ = eng.resolve(x, [0], 10.0, ~none)
    assert eng.form.objective(y) == pytest.approx(10.0)
    z, _ = eng.resolve(y, [0, 1, 2], 10.0)
    assert eng.form.objective(z) == pytest.approx(27.0)
    used = eng.free_columns(z, [0, 1, 2], none)
    full = eng.free_columns(z, [0, 1, 2])
    # every column positive in the optimum is in the restricted set
    assert set(np.flatnonzero(z > 0.5)) <= set(used) and set(used) <= set(full)


def test_rejected_window_holds_the_rejected_job():
    # OASiS on a crowded instance rejects jobs; the repair window always holds one of them
    wl = generate("paper-fig5", seed=5, n_jobs=8, n_servers=2, arrival_window=1.0)
    eng = UtilityLNS(wl)
    x = eng.encode(run_oasis(wl))
    out = set(eng.rejected(x).tolist())
    assert out, "the instance should leave a job out"
    from mlopt.families.oasis.primal.lns import NEIGHBOURHOODS

    rng = np.random.default_rng(0)
    for _ in range(10):
        jobs, servers = NEIGHBOURHOODS["rejected"](eng, x, 2, rng)
        assert servers is None and out & set(jobs.tolist())


@pytest.mark.parametrize("name", ["span", "span_servers", "rejected", "slab"])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_servers=st.integers(2, 4),
       arrival_window=st.sampled_from([1.0, 10.0]))
def test_each_neighbourhood_checked_never_below_start_never_above_opt(name, seed, n_servers,
                                                                      arrival_window):
    # widened as above: two servers to four, all jobs at once or arrivals to the last slot
    wl = generate("paper-fig5", seed=seed, n_jobs=6, n_servers=n_servers,
                  arrival_window=arrival_window)
    start = run_oasis(wl)
    v0 = check_oasis(wl, start).objective
    best, log = lns(wl, start, 2.0, window=2, window_time=0.5, seed=seed,
                    neighbourhoods=[name], grow=1.0)
    res = check_oasis(wl, best)
    assert res.feasible
    assert v0 - 1e-9 <= res.objective <= _opt(wl) + 1e-6
    assert log["end"] == pytest.approx(res.objective)
    assert set(log["by_neighbourhood"]) == {name}


def test_neighbourhood_bad_inputs():
    wl = three_jobs()
    empty = Schedule.empty()
    for bad in (["nope"], [], "span"):
        with pytest.raises(InputError) as e:
            lns(wl, empty, 5.0, neighbourhoods=bad)
        assert e.value.field == "neighbourhoods" and e.value.value == bad
    for bad in (-0.5, 5.0, True):
        with pytest.raises(InputError) as e:
            lns(wl, empty, 5.0, grow=bad)
        assert e.value.field == "grow" and e.value.value == bad
    # the registered options refuse them too, naming the option
    from mlopt.families.oasis.family import LNS_OPTIONS

    with pytest.raises(InputError) as e:
        LNS_OPTIONS["neighbourhoods"].check(["span", "nope"], "neighbourhoods")
    assert "neighbourhoods" in e.value.field
