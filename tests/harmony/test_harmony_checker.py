"""The independent Harmony checker: a hand-computed JCT, every constraint broken and caught, and
agreement with the placement simulator."""
from __future__ import annotations

import pandas as pd
import pytest

from mlopt.families import get_family
from mlopt.families.harmony.checker import check_harmony
from mlopt.families.harmony.generator import make_workload
from mlopt.families.harmony.state import ClusterState
from mlopt.schedule import Schedule

FAM = get_family("harmony")


def hand_workload(horizon=5):
    # ResNeXt (3 epochs) and CTC (10 epochs), 1 worker + 1 PS each, both arrive in interval 1
    return make_workload([
        {"model": "resnext110", "workers": 1, "ps": 1, "epochs": 3, "arrival": 1},
        {"model": "ctc", "workers": 1, "ps": 1, "epochs": 10, "arrival": 1}],
        n_servers=2, horizon=horizon)


def packed(slot=1):
    return Schedule.from_rows({"j0", "j1"}, [
        ("j0", slot, "s0", "worker", 1), ("j0", slot, "s0", "ps", 1),
        ("j1", slot, "s0", "worker", 1), ("j1", slot, "s0", "ps", 1)])


def test_hand_computed_jct():
    """alpha(resnext <- ctc) = 0.42 * (0.5*1.0 + 0.4*0.2 + 0.3*0.3 + 0.6*0.2) = 0.42*0.79 = 0.3318;
    both packed on s0: D = 0.3318 * (1 worker + 0.5 PS) = 0.4977 < knee 0.5, factor 0.5023,
    speed 3 * 0.5023 = 1.507: 1.507 after interval 1, 3.014 >= 3 after 2 -> JCT 2.
    alpha(ctc <- resnext) = 0.19 * 0.79 = 0.1501, D = 0.2252, speed 6 * 0.7748 = 4.649: 4.649,
    9.298 < 10 after 2; interval 3 alone at 6 epochs -> done, JCT 3. Mean (2 + 3) / 2 = 2.5."""
    res = check_harmony(hand_workload(), packed())
    assert res.feasible, res.summary()
    assert res.per_job["completion"].tolist() == [2, 3]
    assert res.objective == pytest.approx(2.5)
    # spread over both servers: no interference, ResNeXt 1 interval (3 >= 3), CTC 2 -> 1.5
    spread = Schedule.from_rows({"j0", "j1"}, [
        ("j0", 1, "s0", "worker", 1), ("j0", 1, "s0", "ps", 1),
        ("j1", 1, "s1", "worker", 1), ("j1", 1, "s1", "ps", 1)])
    assert check_harmony(hand_workload(), spread).objective == pytest.approx(1.5)


def _rows(sched):
    return [tuple(r) for r in sched.allocations[["job", "slot", "server", "role", "count"]]
            .itertuples(index=False)]


def _broken(rows, admitted=("j0", "j1")):
    return Schedule.from_rows(set(admitted), rows)


@pytest.mark.parametrize("rows,admitted,constraint", [
    ([("j0", 1, "s0", "worker", 1), ("j0", 1, "s0", "ps", 1), ("j1", 1, "s1", "worker", 1),
      ("j1", 1, "s1", "ps", 1), ("jX", 1, "s1", "ps", 1)], None, "known_job"),
    ([("j0", 1, "s9", "worker", 1), ("j0", 1, "s0", "ps", 1), ("j1", 1, "s1", "worker", 1),
      ("j1", 1, "s1", "ps", 1)], None, "known_server"),
    ([("j0", 1, "s0", "chief", 1), ("j0", 1, "s0", "worker", 1), ("j0", 1, "s0", "ps", 1),
      ("j1", 1, "s1", "worker", 1), ("j1", 1, "s1", "ps", 1)], None, "role"),
    ([("j0", 1, "s0", "worker", 0.5), ("j0", 1, "s1", "worker", 0.5), ("j0", 1, "s0", "ps", 1),
      ("j1", 1, "s1", "worker", 1), ("j1", 1, "s1", "ps", 1)], None, "integral_count"),
    ([("j0", 1, "s0", "worker", 1), ("j0", 2, "s1", "ps", 1), ("j1", 1, "s1", "worker", 1),
      ("j1", 1, "s1", "ps", 1)], None, "no_migration"),
    ([("j0", 1, "s0", "worker", 1), ("j1", 1, "s1", "worker", 1), ("j1", 1, "s1", "ps", 1)],
     None, "all_or_nothing"),
    ([("j0", 1, "s0", "worker", 1), ("j0", 1, "s0", "ps", 1)], ("j0", "j1"), "all_or_nothing"),
    ([("j0", 1, "s0", "worker", 1), ("j0", 1, "s0", "ps", 1)], ("j0",), "all_jobs_placed"),
    ([("j0", 1, "s0", "worker", 1), ("j0", 1, "s0", "ps", 1), ("j1", 6, "s1", "worker", 1),
      ("j1", 6, "s1", "ps", 1)], None, "within_horizon"),
    ([("j0", 1, "s0", "worker", 1), ("j0", 1, "s0", "ps", 1), ("j1", 5, "s1", "worker", 1),
      ("j1", 5, "s1", "ps", 1)], None, "complete_by_horizon"),
    ([("j0", 1, "s0", "worker", 2), ("j0", 1, "s0", "ps", 1), ("j1", 1, "s0", "worker", 1),
      ("j1", 1, "s0", "ps", 1)], None, "capacity"),
])
def test_each_constraint_is_caught(rows, admitted, constraint):
    sched = _broken(rows, admitted or {r[0] for r in rows})
    res = check_harmony(hand_workload(), sched)
    assert not res.feasible
    assert constraint in res.constraints_violated(), res.summary()


def test_placement_before_arrival_and_capacity_over_time():
    w = make_workload([
        {"model": "ctc", "workers": 2, "ps": 1, "epochs": 30, "arrival": 1},
        {"model": "wlm", "workers": 1, "ps": 1, "epochs": 2, "arrival": 2}], n_servers=1,
        horizon=20)
    early = Schedule.from_rows({"j0", "j1"}, [
        ("j0", 1, "s0", "worker", 2), ("j0", 1, "s0", "ps", 1),
        ("j1", 1, "s0", "worker", 1), ("j1", 1, "s0", "ps", 1)])
    v = check_harmony(w, early).constraints_violated()
    assert {"after_arrival", "capacity"} <= v  # 3 GPUs on a 2-GPU server while j0 runs
    # j1 placed once j0 has finished (CTC alone: 6 * 2^0.8 = 10.45 epochs/interval, 3 intervals)
    ok = Schedule.from_rows({"j0", "j1"}, [
        ("j0", 1, "s0", "worker", 2), ("j0", 1, "s0", "ps", 1),
        ("j1", 4, "s0", "worker", 1), ("j1", 4, "s0", "ps", 1)])
    res = check_harmony(w, ok)
    assert res.feasible, res.summary()
    assert res.per_job["completion"].tolist() == [3, 4]  # JCTs 3 and 3


@pytest.mark.parametrize("preset,seed", [("small", s) for s in range(4)] + [("mini", 1)])
def test_checker_agrees_with_the_simulator(preset, seed):
    w = FAM.preset(preset)(seed=seed)
    for alg in ("lb", "tetris", "lif_quad"):
        sched = FAM.algorithm(alg)(w)
        res = check_harmony(w, sched)
        assert res.feasible, (alg, res.summary())
        # replay with the vectorized simulator
        st = ClusterState(w)
        table = sched.allocations
        while st.t <= w.horizon and not st.all_done():
            for row in table[table["slot"] == st.t].itertuples(index=False):
                n = w.job_index[row.job]
                for _ in range(int(row.count)):
                    st.place(n, 0 if row.role == "worker" else 1, w.server_index[row.server])
                st.placed_at[n] = st.t
            st.advance()
        jct = pd.Series(st.done_at - st.jobs.arrival + 1)
        assert jct.tolist() == res.per_job["value"].astype(int).tolist()
