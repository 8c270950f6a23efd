"""``mlopt check W S`` with a schedule made for another family is bad input (exit 2, one line
naming both families), not an "infeasible" verdict listing every row as an unknown job."""
from __future__ import annotations

import json

from mlopt.cli import main
from mlopt.workload import Workload


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _files(capsys, tmp_path):
    o, e, s = (str(tmp_path / n) for n in ("o.json", "e.json", "os.json"))
    assert run_cli(capsys, "generate", "oasis", "-o", o)[0] == 0
    assert run_cli(capsys, "generate", "edgecloud", "-o", e)[0] == 0
    assert run_cli(capsys, "run", "oasis", o, "-o", s)[0] == 0
    return o, e, s


def test_a_schedule_of_another_family_is_refused_naming_both(capsys, tmp_path):
    o, e, s = _files(capsys, tmp_path)
    assert json.load(open(s))["meta"]["family"] == "oasis"  # run writes the family
    code, out, err = run_cli(capsys, "check", e, s)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "family oasis" in err and "edgecloud" in err and "os.json" in err
    # its own workload still checks feasible
    code, out, _ = run_cli(capsys, "check", o, s)
    assert code == 0 and out.startswith("feasible")


def test_older_schedule_files_are_placed_by_their_producer(capsys, tmp_path):
    """A file written before ``meta.family`` existed: its producer ``oasis`` is an algorithm of
    oasis (and of pdors, which adapts it), not of edgecloud."""
    o, e, s = _files(capsys, tmp_path)
    d = json.load(open(s))
    del d["meta"]["family"]
    json.dump(d, open(s, "w"))
    code, _, err = run_cli(capsys, "check", e, s)
    assert code == 2 and "oasis or pdors" in err and "edgecloud" in err
    assert run_cli(capsys, "check", o, s)[0] == 0


def test_a_hand_made_schedule_without_meta_is_checked_as_before(capsys, tmp_path):
    """No family and no producer: nothing to refuse; the checker's verdict stands (exit 1 for
    rows of unknown jobs)."""
    o, e, s = _files(capsys, tmp_path)
    d = json.load(open(s))
    d["meta"] = {}
    json.dump(d, open(s, "w"))
    code, out, _ = run_cli(capsys, "check", e, s)
    assert code == 1 and out.startswith("infeasible")


def test_bracket_start_and_solve_warm_start_refuse_another_familys_schedule(capsys, tmp_path):
    """``--start`` / ``--warm-start FILE`` with an edgecloud schedule on an oasis workload said
    "the start schedule fails the checker" (value 'given schedule', no file): the same one line
    as ``check`` now, naming the file and both families."""
    o, e, _ = _files(capsys, tmp_path)
    es = str(tmp_path / "es.json")
    assert run_cli(capsys, "run", "srtf", e, "-o", es)[0] == 0
    for argv in (["bracket", o, "--start", es, "--time-limit", "5"],
                 ["solve", o, "--warm-start", es, "--time-limit", "5"]):
        code, out, err = run_cli(capsys, *argv)
        assert code == 2 and out == "" and err.count("\n") == 1, argv
        assert "es.json" in err and "family edgecloud" in err and "oasis" in err


def test_an_infeasible_start_names_its_file(capsys, tmp_path):
    o, _, s = _files(capsys, tmp_path)
    d = json.load(open(s))
    d["rows"] = d["rows"][1:]  # one worker-slot fewer: the first admitted job is unfinished
    json.dump(d, open(s, "w"))
    code, out, err = run_cli(capsys, "bracket", o, "--start", s, "--time-limit", "5")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"mlopt: error: {s}, field 'start'") and "given schedule" not in err


def test_a_file_of_the_other_format_is_named_as_such(capsys, tmp_path):
    """``mlopt check SCHEDULE WORKLOAD`` said "field 'horizon': missing" (and ``check W W``
    "field 'admitted': missing"): the line says which format the file is."""
    o, _, s = _files(capsys, tmp_path)
    for argv, file, what in [(["check", s, o], s, "a schedule file where a workload"),
                             (["check", o, o], o, "a workload file where a schedule"),
                             (["solve", s], s, "a schedule file where a workload")]:
        code, out, err = run_cli(capsys, *argv)
        assert (code, out) == (2, "") and err.count("\n") == 1
        assert err.startswith(f"mlopt: error: {file}: this is {what} is expected"), err
    # a workload missing a field is still named by that field
    d = json.load(open(o))
    del d["horizon"]
    json.dump(d, open(o, "w"))
    code, _, err = run_cli(capsys, "solve", o)
    assert code == 2 and "field 'horizon': missing" in err


def test_a_schedule_of_another_workload_of_the_family_is_a_mix_up(capsys, tmp_path):
    """run / solve / bracket -o write the workload's content hash (meta.workload): checking the
    schedule against another workload of the same family, where it is infeasible, is one line
    naming both hashes (exit 2), not 29 violations (exit 1); --start and --warm-start say it
    too.  Where it is still feasible (an edit of a free-form extra changes the hash), it is
    checked as usual."""
    w1, w2, s = (str(tmp_path / n) for n in ("w1.json", "w2.json", "s.json"))
    assert run_cli(capsys, "generate", "oasis", "--preset", "paper-fig5", "--seed", "1",
                   "-o", w1)[0] == 0
    assert run_cli(capsys, "generate", "oasis", "--preset", "paper-fig5", "--seed", "2",
                   "-o", w2)[0] == 0
    assert run_cli(capsys, "run", "oasis", w1, "-o", s)[0] == 0
    made_for = json.load(open(s))["meta"]["workload"]
    assert made_for == Workload.load(w1).content_hash() != Workload.load(w2).content_hash()
    for argv in (["check", w2, s], ["bracket", w2, "--start", s, "--time-limit", "5"],
                 ["solve", w2, "--warm-start", s]):
        code, out, err = run_cli(capsys, *argv)
        assert (code, out) == (2, "") and err.count("\n") == 1, argv
        assert "made for another workload" in err and made_for in err and "s.json" in err
    # the schedule's own workload, and one whose free-form extra was edited: checked as usual
    assert run_cli(capsys, "check", w1, s)[0] == 0
    d = json.load(open(w1))
    d["extra"] = {"note": "edited"}
    json.dump(d, open(w1, "w"))
    code, out, _ = run_cli(capsys, "check", w1, s)
    assert code == 0 and out.startswith("feasible")
    # a file without meta.workload (older, hand-made): the checker's verdict, exit 1
    d = json.load(open(s))
    del d["meta"]["workload"]
    json.dump(d, open(s, "w"))
    code, out, _ = run_cli(capsys, "check", w2, s)
    assert code == 1 and out.startswith("infeasible")


def test_solve_bracket_and_instances_bracket_stamp_what_they_write(capsys, tmp_path):
    """``meta.workload`` is what check and --start compare: every command that writes a
    schedule (solve -o, bracket -o, instances bracket -o; run's is above) stamps it; only
    run's was tested.  The committed oasis-tiny-0 is the one instance bracket's workload."""
    from mlopt.instances import load_set

    w = str(tmp_path / "w.json")
    assert run_cli(capsys, "generate", "oasis", "-o", w)[0] == 0
    here = Workload.load(w).content_hash()
    iset = load_set("oasis-tiny")
    entry = next(e for e in iset.entries if e.name == "oasis-tiny-0")
    for argv, made_for in [(["solve", w], here), (["bracket", w, "--time-limit", "5"], here),
                           (["instances", "bracket", "oasis-tiny", "--only", "oasis-tiny-0",
                             "--time-limit", "5"], iset.load(entry).content_hash())]:
        out = str(tmp_path / "out.json")
        assert run_cli(capsys, *argv, "-o", out)[0] == 0, argv
        meta = json.load(open(out))["meta"]
        assert (meta["family"], meta["workload"]) == ("oasis", made_for), argv


def test_an_empty_or_non_string_workload_field_is_no_hash(capsys, tmp_path):
    """meta.workload "" (or a number, a list, null) names no workload: the checker's verdict
    stands (exit 1), not "made for another workload: content hash , ..."; a hash that is not
    this workload's keeps the first violation in its one line (an edited workload is checked
    on purpose too)."""
    w1, w2, s = (str(tmp_path / n) for n in ("w1.json", "w2.json", "s.json"))
    for seed, path in (("1", w1), ("2", w2)):
        assert run_cli(capsys, "generate", "oasis", "--preset", "paper-fig5", "--seed", seed,
                       "-o", path)[0] == 0
    assert run_cli(capsys, "run", "oasis", w1, "-o", s)[0] == 0
    code, _, err = run_cli(capsys, "check", w2, s)
    assert code == 2 and "made for another workload" in err and ", first: " in err
    d = json.load(open(s))
    for value in ("", 5, [1], None):
        d["meta"]["workload"] = value
        json.dump(d, open(s, "w"))
        code, out, err = run_cli(capsys, "check", w2, s)
        assert (code, err) == (1, "") and out.startswith("infeasible"), value


def test_only_check_adds_its_file_order_to_the_other_format_line(capsys, tmp_path):
    """"(mlopt check takes the workload first)" closed the line for every command, also for
    solve SCHEDULE, bracket --start WORKLOAD and solve --warm-start WORKLOAD, where check's
    order has nothing to do with the mix-up: only check says it."""
    o, _, s = _files(capsys, tmp_path)
    for argv, hint in [(["check", s, o], True), (["check", o, o], True), (["solve", s], False),
                       (["bracket", o, "--start", o, "--time-limit", "5"], False),
                       (["solve", o, "--warm-start", o], False)]:
        code, out, err = run_cli(capsys, *argv)
        assert (code, out) == (2, "") and err.count("\n") == 1 and "this is a " in err, argv
        assert ("mlopt check" in err) == hint, (argv, err)
        assert ("mlopt check WORKLOAD SCHEDULE" in err) == hint, (argv, err)


def test_instances_bracket_start_says_what_bracket_start_says(capsys, tmp_path):
    """``mlopt instances bracket SET --only I --start S`` listed an edgecloud schedule's 26
    unknown jobs on an oasis instance with no file named, and a schedule of another oasis
    workload without its file: the same lines as ``mlopt bracket --start`` now."""
    o, e, s = _files(capsys, tmp_path)
    es = str(tmp_path / "es.json")
    assert run_cli(capsys, "run", "srtf", e, "-o", es)[0] == 0
    d = json.load(open(s))
    d["meta"]["workload"] = "0" * 16  # made for another oasis workload ...
    d["rows"] = d["rows"][1:]  # ... and infeasible on oasis-tiny-0 (one worker-slot fewer)
    json.dump(d, open(s, "w"))
    for start, needles in [(es, ["field 'meta.family'", "family edgecloud", "oasis"]),
                           (s, ["field 'start'", "made for another workload", "0" * 16])]:
        code, out, err = run_cli(capsys, "instances", "bracket", "oasis-tiny", "--only",
                                 "oasis-tiny-0", "--start", start, "--time-limit", "5")
        assert (code, out) == (2, "") and err.count("\n") == 1, err
        assert err.startswith(f"mlopt: error: {start}, ") and all(n in err for n in needles), err
