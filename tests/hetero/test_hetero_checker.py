"""The hetero checker (seed 003): the hand instance worked out, and every constraint family
broken on purpose."""
from __future__ import annotations

import pytest

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.hetero.checker import check_hetero
from tests.hetero_fixtures import OPT, OPT_RA, OPT_RA_ROWS, OPT_ROWS, hand, sched


def test_hand_optimum_is_feasible_with_objective_8():
    res = check_hetero(hand(), sched(OPT_ROWS))
    assert res.feasible, res.summary()
    assert res.objective == pytest.approx(OPT)  # 2 * 2 + 1 * 4
    res = check_hetero(hand("ra"), sched(OPT_RA_ROWS))
    assert res.feasible, res.summary()
    assert res.objective == pytest.approx(OPT_RA)


def _replace(rows, job, new):
    return [r for r in rows if r[0] != job] + new


B_ROWS = [r for r in OPT_ROWS if r[0] == "B"]
CASES = {
    "c2a_scheduled_once": [r for r in OPT_ROWS if r[0] != "B"],
    # B alongside A on s1 in slot 1: 2 + 1 GPUs > 2
    "c2h_capacity": _replace(OPT_ROWS, "B", [(r[0], r[1], "s1", *r[3:]) for r in B_ROWS]),
    # A with one worker for one slot: 1 x 1 x 2 = 2 < 4 mini-batches
    "c2f_work_done": _replace(OPT_ROWS, "A", [("A", 1, "s1", "worker", 1, "w1"),
                                              ("A", 1, "s1", "ps", 1, "p1")]),
    # B, D = 1, with 2 workers
    "c2g_max_workers": _replace(OPT_ROWS, "B", [("B", t, "s2", role, 2 if role == "worker" else 1,
                                                  typ) for (_, t, _, role, _, typ) in B_ROWS]),
    # A's two workers on s2, its p1 PS (1.5 Gbps) on s1: remote 2 x 1 Gbps > 1.5
    "c2i_ps_bandwidth": _replace(OPT_ROWS, "A", [("A", t, "s2", "worker", 2, "w1") for t in (1, 2)]
                                 + [("A", t, "s1", "ps", 1, "p1") for t in (1, 2)]),
    "c2b_one_worker_type": _replace(OPT_ROWS, "A", [("A", 1, "s1", "worker", 1, "w1"),
                                                    ("A", 1, "s2", "worker", 1, "w2"),
                                                    ("A", 1, "s1", "ps", 2, "p1")]),
    "c2c_one_ps_type": _replace(OPT_ROWS, "A", [("A", 1, "s1", "worker", 2, "w1"),
                                                ("A", 1, "s1", "ps", 1, "p1"),
                                                ("A", 1, "s1", "ps", 1, "p2")]),
    "c2e_at_least_one_ps": _replace(OPT_ROWS, "A", [("A", 1, "s1", "worker", 2, "w1")]),
    "no_preemption": _replace(OPT_ROWS, "B", [r for r in B_ROWS if r[1] != 2]
                              + [("B", 4, "s2", "worker", 1, "w1"), ("B", 4, "s2", "ps", 1, "p1")]),
    "unknown_type": _replace(OPT_ROWS, "A", [("A", 1, "s1", "worker", 2, "w9"),
                                             ("A", 1, "s1", "ps", 1, "p1")]),
    "unknown_server": OPT_ROWS + [("A", 1, "s9", "ps", 1, "p1")],
    "integer_counts": OPT_ROWS + [("A", 1, "s1", "ps", 0.5, "p1")],
}


@pytest.mark.parametrize("label", sorted(CASES))
def test_each_constraint_broken_is_caught(label):
    res = check_hetero(hand(), sched(CASES[label]))
    assert not res.feasible
    assert label in res.constraints_violated(), res.summary()


def test_slot_zero_is_rejected_by_the_schedule_format_or_the_checker():
    try:
        s = sched(OPT_ROWS + [("A", 0, "s1", "ps", 1, "p1")])
    except InputError as err:  # the shared schedule format refuses slots < 1 already
        assert "slot" in str(err.field)
        return
    assert "slot_out_of_range" in check_hetero(hand(), s).constraints_violated()


def test_allocation_change_between_slots_is_preemption():
    rows = _replace(OPT_ROWS, "B", [r if r[1] != 2 else ("B", 2, "s1", *r[3:]) for r in B_ROWS])
    assert "no_preemption" in check_hetero(hand(), sched(rows)).constraints_violated()


def test_start_before_arrival():
    def late_b(d):
        d["jobs"][1]["arrival"] = 2
    res = check_hetero(hand(mutate=late_b), sched(OPT_ROWS))
    assert "c2j_before_arrival" in res.constraints_violated()


def test_ra_rejects_ps_and_checks_ring_rate():
    res = check_hetero(hand("ra"), sched(OPT_ROWS))
    assert "c15_no_ps" in res.constraints_violated()
    # A's ring split over two servers: q = 0, rho = 1 / (0.5 + 0.001 * 1/2) < 2 -> needs 2 slots
    rows = _replace(OPT_RA_ROWS, "A", [("A", 1, "s1", "worker", 1, "w1"),
                                       ("A", 1, "s2", "worker", 1, "w1")])
    assert "c2f_work_done" in check_hetero(hand("ra"), sched(rows)).constraints_violated()
    # and B next to A on s1 in slot 1 overloads GPUs under (15b)
    rows = _replace(OPT_RA_ROWS, "B", [("B", t, "s1", "worker", 1, "w1") for t in (1, 2, 3)])
    assert "c15b_capacity" in check_hetero(hand("ra"), sched(rows)).constraints_violated()


@pytest.mark.parametrize("mutate, field", [
    (lambda d: d["extra"].pop("hetero"), "extra.hetero"),
    (lambda d: d["extra"]["hetero"].update(architecture="mpi"), "extra.hetero.architecture"),
    (lambda d: d["jobs"][0]["extra"].update(weight=-1), "jobs[0].extra.weight"),
    (lambda d: d["jobs"][0]["extra"].update(weight=float("nan")), "jobs[0].extra.weight"),
    (lambda d: d["jobs"][0]["extra"].update(minibatch_slots=[0.5]),
     "jobs[0].extra.minibatch_slots"),
    (lambda d: d["jobs"][1]["extra"].update(ps_update_ms=[1.0, -2.0]),
     "jobs[1].extra.ps_update_ms[1]"),
    (lambda d: d["extra"]["hetero"]["worker_types"][0]["demand"].pop("gpu"),
     "extra.hetero.worker_types[0].demand.gpu"),
    (lambda d: d["extra"]["hetero"].update(ps_types=[]), "extra.hetero.ps_types"),
])
def test_bad_family_fields_name_field_and_value(mutate, field):
    w = hand(mutate=mutate)
    with pytest.raises(InputError) as err:
        get_family("hetero").validate(w)
    assert err.value.field == field


def _with_admitted(rows, admitted):
    s = sched(rows)
    return type(s)(frozenset(admitted), s.allocations, dict(s.meta))


def test_checker_refuses_an_admitted_ghost_job():
    res = check_hetero(hand(), _with_admitted(OPT_ROWS, {"A", "B", "ghost"}))
    assert not res.feasible
    assert [v.job for v in res.violations if v.constraint == "unknown_job"] == ["ghost"]


def test_checker_requires_every_job_admitted():
    """DECISION (min-sum family, (2a)): a scheduled job missing from ``admitted`` is a
    violation."""
    res = check_hetero(hand(), _with_admitted(OPT_ROWS, {"A"}))
    assert not res.feasible
    assert [v.job for v in res.violations if v.constraint == "c2a_admitted"] == ["B"]


def test_checker_catches_a_duplicated_row():
    res = check_hetero(hand(), sched(OPT_ROWS + [OPT_ROWS[-1]]))
    assert not res.feasible
    assert "duplicate_row" in res.constraints_violated(), res.summary()


def test_worker_row_moved_away_from_its_ps_is_a_violation_not_a_crash():
    """A's worker row moved to slot 5, where A has no PS: the first slot holds only a PS (this
    raised "min() arg is an empty sequence")."""
    moved = [("A", 5, *r[2:]) if r[0] == "A" and r[3] == "worker" else r for r in OPT_ROWS]
    res = check_hetero(hand(), sched(moved))
    assert not res.feasible
    assert {"no_preemption", "c2b_one_worker_type"} <= set(res.constraints_violated())


def test_broken_rows_are_violations_never_exceptions():
    """Every row of the optimum, each field swapped for another row's value (roles, slots,
    servers, types, counts mismatched): the checker answers, it never raises."""
    import itertools

    for arch, rows in (("ps", OPT_ROWS), ("ra", OPT_RA_ROWS)):
        w = hand(arch)
        values = [sorted({r[k] for r in rows} | extra, key=str) for k, extra in
                  enumerate([{"ghost"}, {7}, {"s9"}, {"ps", "worker"}, {1000}, {"w9", "p1", ""}])]
        for i, k in itertools.product(range(len(rows)), range(6)):
            for v in values[k]:
                new = list(rows)
                new[i] = tuple(v if n == k else x for n, x in enumerate(rows[i]))
                res = check_hetero(w, sched(new))
                assert isinstance(res.feasible, bool)
