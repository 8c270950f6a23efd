"""The edge-cloud checker on the hand instance: the optimal schedule passes with objective 5,
and every constraint family broken on purpose is caught (by its label)."""
from __future__ import annotations

import pytest
from edgecloud_tiny import OPT, tiny_workload

from mlopt.families.edgecloud.checker import CONSTRAINTS, check_edgecloud
from mlopt.families.edgecloud.table import make_schedule

# b on e0's worker in slots 2-3 with an edge PS; a entirely in the cloud at slot 4 (zeta = 1).
GOOD = [
    ("b", 2, "e0", "worker", 1, "w0#0", 0), ("b", 3, "e0", "worker", 1, "w0#0", 0),
    ("b", 2, "e1", "ps", 1, "p0#0", -1), ("b", 3, "e1", "ps", 1, "p0#0", -1),
    ("a", 4, "cloud", "worker", 1, "cloud", 0), ("a", 4, "cloud", "worker", 1, "cloud", 1),
    ("a", 4, "cloud", "ps", 1, "cloud", -1),
]


def check(rows, admitted=("a", "b"), meta=None, **options):
    return check_edgecloud(tiny_workload(), make_schedule(admitted, rows, meta), **options)


def test_good_schedule():
    res = check(GOOD)
    assert res.feasible, res.summary()
    assert res.objective == OPT  # a: 4 - 1 = 3, b: 3 - 1 = 2
    assert res.per_job.set_index("job").loc["a", "zeta"] == 1


def replace(i, row):
    rows = list(GOOD)
    rows[i] = row
    return rows


BROKEN = {
    "unknown_job": GOOD + [("zz", 2, "e1", "worker", 1, "w0#0", 0)],
    "unknown_server": replace(0, ("b", 2, "e7", "worker", 1, "w0#0", 0)),
    "unknown_role": GOOD + [("b", 2, "e1", "gpu", 1, "w0#0", 0)],
    "bad_row": replace(0, ("b", 2, "e0", "worker", 2, "w0#0", 0)),
    "bad_chunk": replace(4, ("a", 4, "cloud", "worker", 1, "cloud", 5)),
    "c2a_eligibility": [r if r[0] != "b" or r[3] != "worker" else
                        (*r[:5], "w9#0", 0) for r in GOOD],
    "o_ps_eligibility": replace(2, ("b", 2, "e1", "ps", 1, "p9#0", -1)),
    # b's data reaches e1 only at r + 2 = 3
    "c2i_upload_delay": [r if r[0] != "b" or r[3] != "worker" else (r[0], r[1], "e1", r[3], 1,
                                                                    "w0#0", 0) for r in GOOD],
    # a trained on e0's worker while b uses it (a then mixed, p0 = 2 slots everywhere)
    "c2d_worker_capacity": GOOD + [("a", 2, "e0", "worker", 1, "w0#0", 1)],
    "c4e_one_worker_per_chunk": GOOD + [("b", 2, "e1", "worker", 1, "w0#0", 0)],
    # b's chunk migrates from e0 to e1 (the data would have to move)
    "chunk_pinning": replace(1, ("b", 3, "e1", "worker", 1, "w0#0", 0)),
    "c2b_work_covered": GOOD[1:],
    "cloud_no_preemption": [("b", 2, "e0", "worker", 1, "w0#0", 0),
                            ("b", 3, "e0", "worker", 1, "w0#0", 0),
                            ("b", 2, "cloud", "ps", 1, "cloud", -1),
                            ("b", 3, "cloud", "ps", 1, "cloud", -1),
                            ("a", 4, "cloud", "worker", 1, "cloud", 0),
                            ("a", 6, "cloud", "worker", 1, "cloud", 0),
                            ("a", 4, "cloud", "worker", 1, "cloud", 1),
                            ("a", 5, "cloud", "worker", 1, "cloud", 1),
                            ("a", 4, "cloud", "ps", 1, "cloud", -1),
                            ("a", 5, "cloud", "ps", 1, "cloud", -1),
                            ("a", 6, "cloud", "ps", 1, "cloud", -1)],
    "c2e_one_ps": GOOD[:3] + GOOD[4:],
    "c2f_ps_capacity": GOOD + [("a", 2, "e1", "ps", 1, "p0#0", -1)],
}


# broken through the admitted list instead of the rows
BROKEN_ADMITTED = {"not_admitted": ("b",)}


@pytest.mark.parametrize("label", sorted(BROKEN) + sorted(BROKEN_ADMITTED))
def test_each_constraint_caught(label):
    if label in BROKEN_ADMITTED:
        res = check(GOOD, admitted=BROKEN_ADMITTED[label])
    else:
        res = check(BROKEN[label])
    assert not res.feasible
    assert label in res.constraints_violated(), res.summary()


def test_every_label_has_a_breaking_test():
    assert set(BROKEN) | set(BROKEN_ADMITTED) | {"c7b_storage"} == set(CONSTRAINTS)


def test_ghost_in_admitted_is_a_violation():
    """An unknown id in ``admitted`` (no row) made no difference: the schedule was feasible."""
    res = check(GOOD, admitted=("a", "b", "ghost"))
    assert not res.feasible
    assert [v.job for v in res.violations if v.constraint == "unknown_job"] == ["ghost"]


def _with_column(column, value, i=0):
    sched = make_schedule(["a", "b"], GOOD)
    df = sched.allocations.astype({column: object})
    df.at[df.index[i], column] = value
    return type(sched)(sched.admitted, df, {})


@pytest.mark.parametrize("column,value", [("worker", 7), ("worker", None), ("worker", [1]),
                                          ("chunk", "0"), ("chunk", 0.5), ("chunk", True),
                                          ("chunk", 2 ** 70), ("chunk", None),
                                          ("chunk", {"a": 1})])
def test_wrongly_typed_row_is_a_bad_row_not_a_crash(column, value):
    """``worker`` as an int or ``chunk`` as a str used to raise (exit 3 in ``mlopt check``)."""
    res = check_edgecloud(tiny_workload(), _with_column(column, value))
    assert not res.feasible and "bad_row" in res.constraints_violated(), res.summary()


def test_no_rows_is_infeasible_not_a_crash():
    """A table without rows (so without the worker/chunk columns) trains nothing."""
    from mlopt.schedule import Schedule

    res = check_edgecloud(tiny_workload(), Schedule.from_rows(["a", "b"], []))
    assert not res.feasible
    assert res.constraints_violated() == {"c2b_work_covered"}, res.summary()
    rows = Schedule.from_rows(["a", "b"], [("b", 2, "e0", "worker", 1)])
    res = check_edgecloud(tiny_workload(), rows)
    assert not res.feasible and "bad_row" in res.constraints_violated()


def test_ps_row_names_no_chunk():
    res = check(replace(2, ("b", 2, "e1", "ps", 1, "p0#0", 0)))
    assert "bad_chunk" in res.constraints_violated(), res.summary()


def test_storage_caught():
    """Storage extension, 1 GB per edge server and per chunk: GOOD stores b's chunk on e0 only.
    Both of a's chunks on e1 (slots 2-3 and 4-5) is otherwise feasible but stores 2 GB there."""
    w = tiny_workload(storage=True)
    good = check_edgecloud(w, make_schedule(["a", "b"], GOOD))
    assert good.feasible, good.summary()
    rows = [r for r in GOOD if r[0] == "b"] + [
        ("a", t, "e1", "worker", 1, "w0#0", 0) for t in (2, 3)] + [
        ("a", t, "e1", "worker", 1, "w0#0", 1) for t in (4, 5)] + [
        ("a", t, "cloud", "ps", 1, "cloud", -1) for t in (2, 3, 4, 5)]
    res = check_edgecloud(w, make_schedule(["a", "b"], rows))
    assert res.constraints_violated() == {"c7b_storage"}, res.summary()
    assert check_edgecloud(tiny_workload(), make_schedule(["a", "b"], rows)).feasible


def test_mixed_mode_needs_slow_rate():
    """An edge PS makes zeta = 0 (2h): a's cloud chunks then need p0 = 2 slots each."""
    rows = [r for r in GOOD if r[0] == "b"] + [
        ("a", 4, "cloud", "worker", 1, "cloud", 0), ("a", 4, "cloud", "worker", 1, "cloud", 1),
        ("a", 4, "e0", "ps", 1, "p0#0", -1)]
    res = check(rows)
    assert "c2b_work_covered" in res.constraints_violated()


def test_speed_augmented_schedule_is_checked_at_the_callers_speed():
    """At speed 2, p0 = ceil(2/2) = 1: b needs one slot only, when the caller says speed 2."""
    rows = [r for r in GOOD if not (r[0] == "b" and r[1] == 3)]
    assert not check(rows).feasible
    res = check(rows, speed=2.0)
    assert res.feasible and res.objective == 3 + 1


def test_schedule_meta_speed_does_not_relax_the_check():
    """The forged file: it claims ``meta.speed`` 2 (and a different producer); the check is
    still at speed 1 unless the caller passes ``speed``."""
    rows = [r for r in GOOD if not (r[0] == "b" and r[1] == 3)]
    res = check(rows, meta={"speed": 2.0, "eps": 1.0, "producer": "a_online"})
    assert not res.feasible and "c2b_work_covered" in res.constraints_violated()


@pytest.mark.parametrize("speed", [0.5, float("nan"), float("inf"), 1e308, -1, "2", True])
def test_bad_speed_is_an_input_error(speed):
    from mlopt.errors import InputError

    with pytest.raises(InputError, match="speed"):
        check(GOOD, speed=speed)
