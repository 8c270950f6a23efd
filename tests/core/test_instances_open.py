"""Sets beyond exact reach: ``bracket_set`` records best known bounds in solu.csv (each end
kept where tighter, proven optima never touched), and the paper-scale ``*-open`` sets commit
only manifests: their instances regenerate from the generator, hash-checked."""
from __future__ import annotations

import copy

import pytest

from mlopt.errors import InputError
from mlopt.instances import bracket_set, list_sets, load_set, read_solu, write_solu


def test_open_sets_regenerate_from_their_manifests():
    names = [n for n in list_sets() if n.endswith("-open")]
    assert {n.split("-")[0] for n in names} == {"oasis", "pdors", "hetero", "edgecloud",
                                                "harmony"}
    for name in names:
        iset = load_set(name)
        for entry in iset.entries:
            assert iset.load(entry).content_hash() == entry.hash


def test_a_changed_generator_is_caught_by_the_hash(tmp_path):
    iset = load_set("pdors-open")
    iset.path = tmp_path  # no committed file here
    entry = copy.copy(iset.entries[0])
    entry.params = {**entry.params, "n_jobs": 14}  # not what the hash says
    with pytest.raises(InputError, match="manifest hash"):
        iset.load(entry)


def _tiny(n=2):
    iset = load_set("oasis-tiny")
    iset.entries = iset.entries[:n]
    return iset


def test_bracket_set_records_bounds_and_keeps_the_tighter_ends(tmp_path):
    path = tmp_path / "solu.csv"
    iset = _tiny()
    first, second = (e.name for e in iset.entries)
    rows = bracket_set(iset, time_limit=10, update_solu=True, solu_path=path)
    solu = read_solu(path)
    for r in rows:  # tiny: the exact model closes the interval inside the budget
        assert r["objective"] == pytest.approx(r["bound"]) and r["status"] == "bound"
        assert solu[r["instance"]]["status"] == "bound" and not solu[r["instance"]]["verified_by"]
        assert "primal" in {s["kind"] for s in r["sources"]}  # for --json, with
        assert all(s["runtime_s"] >= 0 for s in r["sources"])  # each one's time
        assert "sources" not in solu[r["instance"]]
    # a looser earlier record of the first: the new run keeps the tighter ends; a tighter
    # (hand-made) recorded upper end is kept over the new one
    opt = solu[first]["objective"]
    solu[first].update(objective=opt - 10, bound=opt + 10)
    solu[second].update(objective=solu[second]["objective"] - 1,
                        bound=solu[second]["objective"] - 0.5)  # bound below best: kept as is
    solu[second]["solver"] = "hand-made high end"
    write_solu(solu, path)
    bracket_set(iset, time_limit=10, update_solu=True, solu_path=path)
    after = read_solu(path)
    assert after[first]["objective"] == pytest.approx(opt)
    assert after[first]["bound"] == pytest.approx(opt)
    # each end says where it came from: the kept high end keeps its recorded source
    primal, dual = after[second]["solver"].split(" | ")
    assert primal.startswith("primal: mlopt bracket 10s ") and dual == "dual: hand-made high end"
    # a run that moves neither end leaves the whole row as it was (sources and time)
    solu = read_solu(path)
    solu[second].update(objective=solu[second]["objective"] + 5)  # hand-made, unbeatable
    write_solu(solu, path)
    bracket_set(iset, time_limit=10, update_solu=True, solu_path=path, only=[second])
    assert read_solu(path)[second] == solu[second]


def test_an_end_equal_to_the_recorded_one_up_to_its_rounding_is_no_move():
    """solu.csv keeps 9 decimals: a rerun from the recorded end's own schedule returns it
    unrounded, a hair better; the row (sources, time) stays as it was."""
    from mlopt.instances import _merged

    old = {"instance": "x", "set": "s", "family": "oasis", "objective": 2937.291401893,
           "status": "bound", "bound": 2967.081298454, "solver": "primal: A | dual: B",
           "time_s": 581.232, "verified_by": None}

    class B:
        low_source, high_source = "start", "utility_ilp (highs)"

    row = {**old, "objective": 2937.2914018930296, "bound": 3065.06,
           "solver": "mlopt bracket 600s (start / utility_ilp (highs))", "time_s": 578.568}
    assert _merged(old, row, B, "mlopt bracket 600s", "max", max, min) == old
    row["objective"] = 2937.3  # a real move
    got = _merged(old, row, B, "mlopt bracket 600s", "max", max, min)
    assert got["objective"] == 2937.3 and got["solver"].startswith(
        "primal: mlopt bracket 600s start | dual: B")


def test_a_confirmed_row_with_the_recorded_ends_names_the_run_that_proved_it():
    """A bracket whose second solver confirmed it (status ``optimal``) at the recorded ends
    (up to the file's 9 decimals) becomes an ``optimal`` row naming this run (its solver
    and time): the proof is this run's.  Before, the recorded row's sources and time stayed,
    beside this run's ``verified_by``.  An end this run did not reach keeps its source."""
    from mlopt.instances import _merged

    old = {"instance": "x", "set": "s", "family": "oasis", "objective": 782.930480219,
           "status": "bound", "bound": 782.930962502, "solver": "primal: A | dual: B",
           "time_s": 1163.926, "verified_by": None}

    class B:
        low_source, high_source = "start s.json", "class_relaxation"

    row = {**old, "objective": 782.9304802190996, "bound": 782.9309625016249,
           "status": "optimal", "verified_by": "scip 10",
           "solver": "mlopt bracket 7200s (start s.json / class_relaxation)", "time_s": 2924.1}
    got = _merged(old, row, B, "mlopt bracket 7200s", "max", max, min)
    assert got["status"] == "optimal" and got["verified_by"] == "scip 10"
    assert (got["objective"], got["bound"]) == (old["objective"], old["bound"])  # no move
    assert (got["solver"], got["time_s"]) == (row["solver"], row["time_s"])
    # the same, unconfirmed: the recorded row as it was (sources and time)
    assert _merged(old, {**row, "status": "bound", "verified_by": None}, B,
                   "mlopt bracket 7200s", "max", max, min) == old
    # a tighter recorded bound than this run's: that end keeps its own source
    row2 = {**row, "bound": 782.931}
    got = _merged(old, row2, B, "mlopt bracket 7200s", "max", max, min)
    assert got["bound"] == old["bound"] and got["solver"].endswith("| dual: B")


def test_bracket_set_never_touches_a_verified_optimum(tmp_path):
    path = tmp_path / "solu.csv"
    iset = _tiny(1)
    name = iset.entries[0].name
    rec = dict(read_solu()[name])
    assert rec["status"] == "optimal" and rec["verified_by"]
    write_solu({name: rec}, path)
    bracket_set(iset, time_limit=10, update_solu=True, solu_path=path)
    assert read_solu(path)[name] == read_solu()[name]


def test_bracket_set_only_brackets_the_named_instances(tmp_path):
    """``--only NAME``: one instance of a set (a 600 s bracket of a whole open set is half an
    hour); an unknown name is one InputError naming the field before anything runs."""
    from mlopt.errors import InputError

    iset = _tiny()
    first, second = (e.name for e in iset.entries)
    rows = bracket_set(iset, time_limit=10, solu_path=tmp_path / "solu.csv", only=[second])
    assert [r["instance"] for r in rows] == [second]
    with pytest.raises(InputError) as err:
        bracket_set(iset, time_limit=10, solu_path=tmp_path / "solu.csv", only=["nope"])
    assert err.value.field == "--only" and first in err.value.message


def test_load_instance_by_name():
    from mlopt.errors import InputError
    from mlopt.instances import load_instance

    iset = load_set("oasis-tiny")
    first = iset.entries[0]
    assert load_instance(first.name).to_dict() == iset.load(first).to_dict()
    with pytest.raises(InputError) as err:
        load_instance("oasis-tiny-99")
    assert err.value.field == "instance" and first.name in err.value.message


def test_bracket_set_start_schedule_is_checked_and_recorded(tmp_path):
    """``--start``: a schedule of the one instance, checked, is the bracket's first primal
    source; it belongs to exactly one instance."""
    from mlopt.families import get_family

    iset = _tiny()
    first, second = iset.entries
    w = iset.load(second)
    start = get_family("oasis").run("fifo", w, seed=0)
    out = tmp_path / "best.json"
    rows = bracket_set(iset, time_limit=10, solu_path=tmp_path / "solu.csv", only=[second.name],
                       start_schedule=start, output=out)
    assert rows[0]["objective"] >= get_family("oasis").check(w, start).objective - 1e-9
    from mlopt.schedule import Schedule
    written = get_family("oasis").check(w, Schedule.load(out))
    assert written.feasible and written.objective == pytest.approx(rows[0]["objective"])
    for kwargs, field in (({"start_schedule": start}, "--start"), ({"output": out}, "--output")):
        with pytest.raises(InputError) as err:
            bracket_set(iset, time_limit=10, solu_path=tmp_path / "solu.csv", **kwargs)
        assert err.value.field == field


def test_solu_rows_are_recorded_per_instance_against_the_file_as_it_is_now(tmp_path):
    """Two runs on different instances of one solu.csv (``--only``): each re-reads the file
    under a lock when its instance finishes, so neither overwrites the other's row."""
    from mlopt.instances import update_solu_row

    path = tmp_path / "solu.csv"
    rec = dict(read_solu()["oasis-tiny-0"])
    write_solu({"oasis-tiny-0": rec}, path)
    stale = read_solu(path)  # what a run that started now would hold
    update_solu_row(path, "oasis-tiny-1", lambda old: {**rec, "instance": "oasis-tiny-1"})
    update_solu_row(path, "oasis-tiny-0", lambda old: {**old, "time_s": 1.0})
    after = read_solu(path)
    assert set(after) == {"oasis-tiny-0", "oasis-tiny-1"} and set(stale) == {"oasis-tiny-0"}
    assert after["oasis-tiny-0"]["time_s"] == 1.0
    update_solu_row(path, "oasis-tiny-1", lambda old: None)  # None: left as it is
    assert read_solu(path) == after


def test_an_end_from_the_start_schedule_names_its_file(tmp_path, monkeypatch):
    import mlopt.bracket
    from mlopt.bracket import Bracket

    iset = _tiny(1)
    name = iset.entries[0].name
    path = tmp_path / "solu.csv"
    write_solu({name: {**read_solu()[name], "status": "bound", "objective": 1.0,
                       "bound": 1e9, "solver": "older run"}}, path)
    monkeypatch.setattr(mlopt.bracket, "bracket", lambda *a, **k: Bracket(
        "oasis", "max", 5.0, 2e9, "interval", "start", "older", [], 10.0, 1.0))
    rows = bracket_set(iset, time_limit=10, update_solu=True, solu_path=path,
                       start_label="start s.json")
    assert rows[0]["solver"] == "mlopt bracket 10s (start s.json / older)"  # its own ends
    assert read_solu(path)[name]["solver"] == ("primal: mlopt bracket 10s start s.json | "
                                               "dual: older run")


def test_bracket_set_passes_the_sources_it_is_given(tmp_path, monkeypatch):
    """``--bound`` / ``--algorithm`` / ``--no-exact`` reach :func:`mlopt.bracket.bracket` as
    given (a bound registered for ``--bound`` only, e.g. Harmony's ``share_ip``, can then write
    a solu row); an unknown name is one InputError naming the flag before anything runs."""
    import mlopt.bracket
    from mlopt.bracket import Bracket

    seen = []

    def fake(*args, **kwargs):
        seen.append({k: kwargs[k] for k in ("bounds", "algorithms", "exact")})
        return Bracket("oasis", "max", 5.0, 6.0, "interval", "fifo", "colgen", [], 10.0, 1.0)

    monkeypatch.setattr(mlopt.bracket, "bracket", fake)
    iset = _tiny(1)
    path = tmp_path / "solu.csv"
    rows = bracket_set(iset, time_limit=10, solu_path=path, bounds=["colgen"],
                       algorithms=["fifo"], exact=False)
    assert seen == [{"bounds": ["colgen"], "algorithms": ["fifo"], "exact": False}]
    assert rows[0]["solver"] == "mlopt bracket 10s (fifo / colgen)"
    for kwargs, flag in (({"bounds": ["no_such_bound"]}, "--bound"),
                         ({"algorithms": ["no_such_algorithm"]}, "--algorithm")):
        with pytest.raises(InputError) as err:
            bracket_set(iset, time_limit=10, solu_path=path, **kwargs)
        assert err.value.field == flag and err.value.value.startswith("no_such")
    assert len(seen) == 1  # the refused calls ran nothing


def test_instances_bracket_cli_bad_bound_exits_2(capsys):
    from mlopt.cli import main

    assert main(["instances", "bracket", "oasis-tiny", "--bound", "no_such_bound"]) == 2
    err = capsys.readouterr().err
    assert "--bound" in err and "no_such_bound" in err and len(err.strip().splitlines()) == 1
