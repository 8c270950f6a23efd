"""Committed instance sets: manifests regenerate the files bit for bit, and every proven optimum
recorded in instances/solu.csv for the tiny and small sets is re-proven by the solve layer."""
from __future__ import annotations

import pytest

from conftest import needs_shared

from mlopt.errors import InputError
from mlopt.instances import build_entry, list_sets, load_set, read_solu, solve_set
from mlopt.pipeline import solve_offline
from mlopt.solve import Status

SOLU = read_solu()


def test_sets_present():
    assert {"oasis-tiny", "oasis-small", "oasis-medium"} <= set(list_sets())


@pytest.mark.parametrize("set_name", ["oasis-tiny", "oasis-small", "oasis-medium"])
def test_manifest_regenerates_committed_files(set_name):
    iset = load_set(set_name)
    for entry in iset.entries:
        w = build_entry(iset, entry)
        assert w.content_hash() == entry.hash == iset.load(entry).content_hash()


#: the sets whose files are committed and come from a generator (the -open sets commit only
#: their manifests; the trace sets need the shared traces)
COMMITTED = sorted(s for s in list_sets()
                   if not s.endswith("-open") and "-trace-" not in s)


@pytest.mark.parametrize("set_name", COMMITTED)
def test_build_rewrites_the_committed_files_byte_for_byte(set_name, tmp_path):
    """``mlopt instances build SET`` (a README line) leaves a clean checkout clean: the
    generator's meta (its parameters, in their declared order) is what the files hold."""
    iset = load_set(set_name)
    for entry in iset.entries:
        out = tmp_path / f"{entry.name}.json"
        build_entry(iset, entry).save(out)
        assert out.read_bytes() == iset.file(entry).read_bytes(), entry.name


@pytest.mark.parametrize("name", sorted(n for n, r in SOLU.items()
                                        if r["set"] in ("oasis-tiny", "oasis-small")
                                        and r["status"] == "optimal"))
def test_recorded_optimum_is_reproduced(name):
    rec = SOLU[name]
    iset = load_set(rec["set"])
    entry = next(e for e in iset.entries if e.name == name)
    res = solve_offline(iset.load(entry), family=rec["family"], time_limit=120)
    assert res.solve.status == Status.OPTIMAL
    assert res.check.feasible
    assert res.objective == pytest.approx(rec["objective"], rel=1e-6, abs=1e-6)
    # recorded only after a second solver agreed (mlopt instances verify SET --update-solu)
    by = rec["verified_by"] or ""
    assert by, f"{name}: no verified_by"
    # a different solver, or the same one on another path (HiGHS with presolve off)
    assert by.split()[0] != rec["solver"].split()[0] or "presolve=off" in by


def test_every_recorded_optimum_was_verified_by_a_second_solver():
    unverified = sorted(n for n, r in SOLU.items() if r["status"] == "optimal"
                        and not r["verified_by"])
    assert not unverified, ("optima in instances/solu.csv without verified_by: run `mlopt "
                            f"instances verify SET --update-solu` for {unverified}")
    assert not [n for n, r in SOLU.items() if r["status"] != "optimal" and r["verified_by"]]


def test_every_tiny_and_small_instance_has_a_record():
    for set_name in ("oasis-tiny", "oasis-small"):
        for e in load_set(set_name).entries:
            assert SOLU[e.name]["status"] == "optimal"


def test_solu_update_keeps_proven_optimum(tmp_path, monkeypatch):
    """A weaker (time-limited) record never replaces a proven optimum; a proven one is written."""
    import mlopt.pipeline as pipeline

    path = tmp_path / "solu.csv"
    iset = load_set("oasis-tiny")
    iset.entries = iset.entries[:1]
    name = iset.entries[0].name
    solve_set(iset, update_solu=True, solu_path=path)
    proven = read_solu(path)[name]
    assert proven["status"] == "optimal"

    real = pipeline.solve_offline

    def time_limited(*args, **kwargs):
        res = real(*args, **kwargs)
        res.solve.status = Status.FEASIBLE
        res.solve.bound = res.solve.objective * 2
        return res

    monkeypatch.setattr(pipeline, "solve_offline", time_limited)
    rows = solve_set(iset, update_solu=True, solu_path=path)
    assert rows[0]["status"] == "bound"
    assert read_solu(path)[name] == proven


def test_solu_round_trip_keeps_the_committed_bytes(tmp_path):
    """Rewriting the registry unchanged reproduces the committed file byte for byte (line ends
    included), so an --update-solu diff shows only the rows that changed."""
    from mlopt.instances import INSTANCES_DIR, write_solu

    path = tmp_path / "solu.csv"
    write_solu(read_solu(), path)
    assert path.read_bytes() == (INSTANCES_DIR / "solu.csv").read_bytes()


def test_unknown_set():
    with pytest.raises(InputError, match="unknown instance set"):
        load_set("nope")


@needs_shared
@pytest.mark.parametrize("set_name", ["oasis-trace-philly", "oasis-trace-itp"])
def test_trace_manifest_regenerates_committed_files(set_name):
    iset = load_set(set_name)
    for entry in iset.entries:
        assert build_entry(iset, entry).content_hash() == entry.hash == \
            iset.load(entry).content_hash()


@pytest.mark.parametrize("name", ["trace-philly-0", "trace-itp-1"])
def test_pipeline_end_to_end_on_trace_instances(name):
    """Offline optimum, OASiS and every baseline run on a real-trace window; all checked, and no
    algorithm beats the proven optimum."""
    from mlopt.families import get_family
    from mlopt.pipeline import run_algorithm

    rec = SOLU[name]
    iset = load_set(rec["set"])
    w = iset.load(next(e for e in iset.entries if e.name == name))
    off = solve_offline(w, time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.check.feasible
    assert off.objective == pytest.approx(rec["objective"], rel=1e-6)
    for alg in sorted(get_family("oasis").algorithms):
        res = run_algorithm(w, alg)
        assert res.check.feasible, (alg, res.check.summary())
        assert res.check.objective <= off.objective * (1 + 1e-9) + 1e-9, alg
