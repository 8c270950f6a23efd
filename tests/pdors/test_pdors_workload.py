"""PD-ORS (seed 004): job fields, generator presets, the OASiS-adapted view and the checker.

The checker is tested on the hand-worked instance of :mod:`mlopt.families.pdors.examples`
(arithmetic in its docstring) and by breaking each constraint of DMLRS (3)-(7) once.
"""
from __future__ import annotations

import json

import pytest

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.pdors.checker import check_pdors
from mlopt.families.pdors.examples import HAND_OPTIMUM, hand_tiny
from mlopt.families.pdors.fields import pdors_arrays, validate_pdors
from mlopt.families.pdors.generator import PRESETS, generate
from mlopt.families.pdors.oasis_adapted import to_oasis
from mlopt import pipeline
from mlopt.pipeline import run_algorithm
from mlopt.schedule import Schedule
from mlopt.workload import Workload


def internal_rows(job="j1", server="m1", slot=1, workers=2, ps=2):
    return [(job, slot, server, "worker", workers), (job, slot, server, "ps", ps)]


def test_hand_instance_arithmetic():
    a = pdors_arrays(hand_tiny())
    assert list(a.n_int) == [2.0, 2.0] and list(a.n_ext) == [9.0, 9.0]
    # the OASiS-adapted view has the same work at external speed
    wo = to_oasis(hand_tiny())
    assert [wo.work(j) for j in wo.jobs] == pytest.approx([9.0, 9.0])
    assert [s.role for s in wo.servers] == ["worker", "ps"]


def test_checker_hand_optimum_by_colocation():
    w = hand_tiny()
    s = Schedule.from_rows(["j1", "j2"], internal_rows("j1", "m1") + internal_rows("j2", "m2"))
    res = check_pdors(w, s)
    assert res.feasible, res.summary()
    assert res.objective == pytest.approx(HAND_OPTIMUM)  # 10 + 10, both finish in slot 1


def test_checker_fact1_external_when_split():
    """Same counts, PSs on the other machine: external speed, 2/9 of the job only (c3)."""
    w = hand_tiny(1)
    s = Schedule.from_rows(["j1"], [("j1", 1, "m1", "worker", 2), ("j1", 1, "m2", "ps", 2)])
    res = check_pdors(w, s)
    assert not res.feasible and res.constraints_violated() == {"c3_work"}


def test_checker_external_three_slots():
    """4 + 4 + 1 workers across both machines at external speed (9 worker-slots): u(2) = 4."""
    w = hand_tiny(1)
    rows = []
    for t, per in ((1, 2), (2, 2), (3, 0)):
        for m in ("m1", "m2"):
            if per:
                rows += [("j1", t, m, "worker", per), ("j1", t, m, "ps", per)]
    rows += [("j1", 3, "m1", "worker", 1), ("j1", 3, "m2", "ps", 1)]
    res = check_pdors(w, Schedule.from_rows(["j1"], rows))
    assert res.feasible, res.summary()
    assert res.objective == pytest.approx(4.0)


@pytest.mark.parametrize("rows, admitted, expected", [
    # shared-machine capacity: both jobs' workers and PSs on m1 (4 GPUs > 2)
    (internal_rows("j1", "m1") + internal_rows("j2", "m1"), ["j1", "j2"], "c5_capacity"),
    # (4): 5 workers > F = 4
    ([("j1", 1, "m1", "worker", 5), ("j1", 1, "m2", "ps", 5)], ["j1"], "c4_batch_cap"),
    # gamma sum s >= sum w
    ([("j1", 1, "m1", "worker", 2), ("j1", 1, "m1", "ps", 1)], ["j1"], "ratio_ps_cover"),
    # sum s <= sum w
    ([("j1", 1, "m1", "worker", 1), ("j1", 1, "m1", "ps", 2)], ["j1"], "ratio_ps_le_workers"),
    # not admitted but allocated
    (internal_rows("j1"), [], "x_not_admitted"),
    # admitted but never trained
    ([], ["j1"], "c3_work"),
    (internal_rows("j1", slot=4), ["j1"], "horizon"),
    ([("j1", 1, "m1", "worker", 1.5), ("j1", 1, "m1", "ps", 1)], ["j1"], "integrality"),
    (internal_rows("j1", server="m9"), ["j1"], "unknown_server"),
    ([("j1", 1, "m1", "boss", 1)] + internal_rows("j1"), ["j1"], "role"),
])
def test_checker_catches(rows, admitted, expected):
    res = check_pdors(hand_tiny(), Schedule.from_rows(admitted, rows))
    assert not res.feasible
    assert expected in res.constraints_violated(), res.summary()


def test_checker_before_arrival():
    w = hand_tiny(1)
    job = w.jobs[0]
    late = Workload.from_dict({**w.to_dict(), "jobs": [{**job.to_dict(), "arrival": 2}]})
    res = check_pdors(late, Schedule.from_rows(["j1"], internal_rows("j1", slot=1)
                                               + internal_rows("j1", slot=2)))
    assert "c7_before_arrival" in res.constraints_violated()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_presets_valid_and_deterministic(preset):
    a, b = generate(preset, seed=3), generate(preset, seed=3)
    assert a.to_dict() == b.to_dict()
    validate_pdors(a)
    assert a.meta["family"] == "pdors"
    assert generate(preset, seed=4).content_hash() != a.content_hash()


def test_generator_bad_params():
    with pytest.raises(InputError, match="batch"):
        generate("tiny", batch=(0, 3))
    with pytest.raises(InputError, match="nope"):
        generate("tiny", nope=1)
    with pytest.raises(InputError, match="preset"):
        generate("fig99")
    with pytest.raises(InputError, match="bw_internal_gbps"):
        generate("tiny", bw_internal_gbps=1.0)


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d["jobs"][0]["extra"].pop("batch"), "jobs[0].extra.batch"),
    (lambda d: d["jobs"][0]["extra"].update(ps_ratio=0), "jobs[0].extra.ps_ratio"),
    (lambda d: d["jobs"][0]["extra"].update(bw_external_gbps=float("nan")),
     "jobs[0].extra.bw_external_gbps"),
    (lambda d: d["jobs"][0]["extra"].update(samples=2.5), "jobs[0].extra.samples"),
    (lambda d: d["servers"][0].update(role="worker"), "servers[0].role"),
])
def test_validate_bad_fields(mutate, field):
    d = json.loads(json.dumps(hand_tiny().to_dict()))
    mutate(d)
    w = Workload.from_dict(d)
    with pytest.raises(InputError) as err:
        get_family("pdors").validate(w)
    assert field in str(err.value)


def test_oasis_adapted_schedules_pass_the_pdors_checker():
    """OASiS and its baselines on the adapted view give schedules of the PD-ORS workload."""
    w = generate("paper-fig6", seed=2, n_jobs=12, n_machines=8)
    wo = to_oasis(w)
    for alg in ("oasis", "fifo", "drf"):
        r = run_algorithm(wo, alg)
        res = check_pdors(w, r.schedule)
        assert res.feasible, (alg, res.summary())
        assert res.objective == pytest.approx(r.check.objective, rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("set_name", ["pdors-tiny", "pdors-small"])
def test_pdors_sets_regenerate_and_optima_reproduce(set_name):
    from mlopt.instances import build_entry, load_set, read_solu

    iset = load_set(set_name)
    solu = read_solu()
    for entry in iset.entries:
        w = build_entry(iset, entry)
        assert w.content_hash() == entry.hash
        rec = solu[entry.name]
        assert rec["status"] == "optimal" and rec["verified_by"]
        off = pipeline.solve_offline(w, family="pdors", time_limit=60)
        assert off.objective == pytest.approx(rec["objective"], rel=1e-7, abs=1e-7)


def test_cli_bad_pdors_input_is_one_line(tmp_path, capsys):
    from mlopt.cli import main

    d = json.loads(json.dumps(hand_tiny().to_dict()))
    d["jobs"][1]["extra"]["ps_ratio"] = -2
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(d))
    assert main(["run", "pdors", str(path)]) == 2
    out = capsys.readouterr().err.strip().splitlines()
    assert len(out) == 1 and "jobs[1].extra.ps_ratio" in out[0] and str(path) in out[0]
