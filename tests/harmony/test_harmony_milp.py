"""Harmony placement MILP (models/harmony/placement.py): golden LP file, a hand-solved optimum, agreement
with the checker, and no algorithm beating it.

Refresh the golden file after an intended model change with
    MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/harmony/test_harmony_milp.py -k golden
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt import pipeline
from mlopt.testing import assert_golden_lp
from mlopt.families import get_family
from mlopt.families.harmony.generator import make_workload
from mlopt.models.harmony import build_placement_milp, extract_schedule
from mlopt.solve import Status

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "harmony_placement_milp_tiny.lp"
FAM = get_family("harmony")
ALGS = ("lb", "tetris", "lif_line", "lif_quad")


def one_server(horizon=5):
    # ResNeXt (3 epochs, 3/interval alone) and CTC (10 epochs, 6/interval alone), 1 worker + 1 PS
    return make_workload([
        {"model": "resnext110", "workers": 1, "ps": 1, "epochs": 3, "arrival": 1},
        {"model": "ctc", "workers": 1, "ps": 1, "epochs": 10, "arrival": 1}],
        n_servers=1, horizon=horizon)


def test_golden_lp_file():
    assert_golden_lp(build_placement_milp(one_server(horizon=3)), GOLDEN.name)
    text = GOLDEN.read_text()
    for name in ("obj_avg_jct", "c_start_once(j0)", "c_capacity(s0_2_cpu)",
                 "c_slowdown(j0_s0_1)", "c_speed_factor(j1_3_tail)", "c_epochs(j1)",
                 "c_run_contiguous(j0_2)", "c_running_ps(j1_s0_3)", "c_run_total(j1)",
                 "c_run_length(j1_2)"):
        assert name in text, name


def test_hand_computed_optimum_delays_a_job():
    """One server (2 GPUs, 8 cores: both jobs fit together). Options:
    * both in interval 1 (packed): ResNeXt 1.507/interval -> done in 2; CTC 4.649, 9.298 after 2,
      alone in 3 -> done in 3: JCTs 2 + 3 -> average 2.5 (what every online baseline does);
    * ResNeXt alone in 1 (3 >= 3 epochs: done), CTC placed in 2, alone 6 + 6 = 12 >= 10: done in
      3: JCTs 1 + 3 -> average 2.0;
    * CTC first (done in 2), ResNeXt from 3 (done in 3, JCT 3): 2.5; ResNeXt joining CTC in 2:
      CTC 6 + 4.649 done in 2, ResNeXt 1.507 + 3 done in 3: 2.5.
    JCT >= 1 for ResNeXt and >= ceil(10/6) = 2 for CTC, and 1 + 2 would need both alone from
    interval 1 on one server: impossible without interference, so OPT = 2.0 (delay the CTC)."""
    w = one_server()
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    assert off.solve.status == Status.OPTIMAL
    assert off.check.feasible
    assert off.objective == pytest.approx(2.0)
    assert off.solve.objective == pytest.approx(2.0)
    assert dict(zip(off.check.per_job["job"], off.check.per_job["placed"])) == {"j0": 1, "j1": 2}
    for alg in ALGS:
        r = pipeline.run_algorithm(w, alg, family="harmony")
        assert r.check.objective == pytest.approx(2.5)


def test_two_servers_spread_is_optimal():
    """Two servers: each job alone on its own server: JCT 1 + 2 = lower bounds -> 1.5."""
    w = make_workload([
        {"model": "resnext110", "workers": 1, "ps": 1, "epochs": 3, "arrival": 1},
        {"model": "ctc", "workers": 1, "ps": 1, "epochs": 10, "arrival": 1}],
        n_servers=2, horizon=4)
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    assert off.solve.status == Status.OPTIMAL and off.objective == pytest.approx(1.5)


@settings(max_examples=6, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000))
def test_milp_is_checked_and_no_algorithm_beats_it(seed):
    w = FAM.preset("tiny")(seed=seed)
    off = pipeline.solve_offline(w, family="harmony", time_limit=60)
    assert off.solve.status == Status.OPTIMAL
    assert off.check.feasible, off.check.summary()
    assert off.objective == pytest.approx(off.solve.objective, abs=1e-6)
    for alg in ALGS:
        r = pipeline.run_algorithm(w, alg, family="harmony")
        assert r.check.feasible
        assert r.check.objective >= off.objective - 1e-9, alg


def test_extract_rejects_foreign_models():
    with pytest.raises(ValueError):
        extract_schedule(build_placement_milp(one_server()), FAM.preset("tiny")(seed=0))


@pytest.mark.parametrize("set_name", ["harmony-tiny", "harmony-small"])
def test_instance_sets_regenerate_and_tiny_optima_reproduce(set_name):
    from mlopt.instances import build_entry, load_set, read_solu

    iset = load_set(set_name)
    solu = read_solu()
    for entry in iset.entries:
        w = build_entry(iset, entry)
        assert w.content_hash() == entry.hash == iset.load(entry).content_hash()
        rec = solu[entry.name]
        assert rec["status"] == "optimal" and rec["verified_by"]
    if set_name == "harmony-tiny":
        entry = iset.entries[0]
        off = pipeline.solve_offline(iset.load(entry), family="harmony", time_limit=60)
        assert off.solve.status == Status.OPTIMAL
        assert off.objective == pytest.approx(solu[entry.name]["objective"], abs=1e-6)


def test_interval_milp_hand_case_and_greedy_reference():
    """Per-interval MILP on the one-server case, interval 1, both jobs queued. Eq. (1) reward:
    both packed 1.507/3 + 4.649/10 = 0.967; ResNeXt alone min(3, 3 left)/3 = 1.0; CTC alone
    6/10 = 0.6 -> place ResNeXt only; CTC follows in interval 2: average JCT 2.0 = OPT."""
    from mlopt.families.harmony.state import ClusterState
    from mlopt.models.harmony.interval import build_interval_milp
    from mlopt.solve import solve

    w = one_server()
    st = ClusterState(w)
    m = build_interval_milp(st, [0, 1])
    res = solve(m, "highs", time_limit=60)
    assert res.status == Status.OPTIMAL
    assert res.objective == pytest.approx(1.0)
    assert [round(m.a[n].value) for n in (0, 1)] == [1, 0]
    r = pipeline.run_algorithm(w, "milp_greedy", family="harmony")
    assert r.check.feasible and r.check.objective == pytest.approx(2.0)
    for seed in range(3):
        wt = FAM.preset("tiny")(seed=seed)
        off = pipeline.solve_offline(wt, family="harmony", time_limit=60)
        g = pipeline.run_algorithm(wt, "milp_greedy", family="harmony")
        assert g.check.feasible and g.check.objective >= off.objective - 1e-9


def test_min_run_hand_values():
    # ResNeXt: 3 epochs at 3 per interval alone -> 1 interval (3/3 - 1e-6 rounds up to 1);
    # CTC: 10 epochs at 6 per interval -> 10/6 = 1.67 -> 2 intervals
    from mlopt.models.harmony.placement import min_run
    assert min_run(3.0, 3.0) == 1 and min_run(10.0, 6.0) == 2
    assert min_run(6.0 + 1e-12, 3.0) == 2  # a hair above an integer costs no interval


def test_strengthened_rows_in_the_model():
    # two identical servers: the second may host job n only if the first hosts some job <= n;
    # the CTC (k = 2) runs in its start interval and the next
    w = make_workload([
        {"model": "resnext110", "workers": 1, "ps": 1, "epochs": 3, "arrival": 1},
        {"model": "ctc", "workers": 1, "ps": 1, "epochs": 10, "arrival": 1}],
        n_servers=2, horizon=4)
    m = build_placement_milp(w)
    assert set(m.SYM) == {("j0", "s1"), ("j1", "s1")}
    assert len(list(m.c_sym_servers["j1", "s1"].body.args)) >= 2
    assert set(m.RUNK) == {("j1", t) for t in range(1, 5)}
    plain = build_placement_milp(w, symmetry=False, run_rows=False)
    assert not hasattr(plain, "c_sym_servers") and not hasattr(plain, "c_run_length")
    # share on this case: both fit alone from interval 1 on their own servers (JCTs 1 + 2):
    # the cut asks for a sum of at least 3
    assert build_placement_milp(w, share_row=True).c_share_cut.lower == 3


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), preset=st.sampled_from(["tiny", "small"]))
def test_strengthened_equals_plain_formulation(seed, preset):
    # the symmetry, run and share rows cut off no optimum: every form proves the same value
    from mlopt.solve import solve
    w = FAM.preset(preset)(seed=seed)
    if preset == "small":  # 5 jobs take up to a minute plain; 3 of them keep the test fast
        w = dataclasses.replace(w, jobs=w.jobs[:3])
    vals = []
    for opts in ({}, {"symmetry": False, "run_rows": False, "tight_bigm": False},
                 {"share_row": True}):
        res = solve(build_placement_milp(w, **opts), "highs", time_limit=60)
        assert res.status == Status.OPTIMAL
        vals.append(res.objective)
    assert vals[0] == pytest.approx(vals[1], abs=1e-6) and vals[2] == pytest.approx(vals[1],
                                                                                    abs=1e-6)


def test_warm_start_relabels_identical_servers():
    # a schedule that uses s1 before s0 violates the symmetry rows as is; encoded, the servers
    # are swapped and the start is full, feasible and of the checked objective
    from mlopt.schedule import Schedule
    from mlopt.solvers._matrix import compile_linear
    from mlopt.warmstart import check_start, encode_schedule
    w = make_workload([
        {"model": "resnext110", "workers": 1, "ps": 1, "epochs": 3, "arrival": 1},
        {"model": "ctc", "workers": 1, "ps": 1, "epochs": 10, "arrival": 1}],
        n_servers=2, horizon=4)
    sched = Schedule.from_rows(["j0", "j1"], [
        ("j0", 1, "s1", "worker", 1), ("j0", 1, "s1", "ps", 1),
        ("j1", 1, "s0", "worker", 1), ("j1", 1, "s0", "ps", 1)], {})
    check = FAM.check(w, sched)
    assert check.feasible and check.objective == pytest.approx(1.5)
    model = build_placement_milp(w)
    start = encode_schedule("harmony", model, w, sched)
    got, _, _ = check_start(compile_linear(model), start)
    assert got.full and got.feasible and got.objective == pytest.approx(1.5)
    assert start[model.X["j0", "s0"]] == 1 and start[model.X["j1", "s1"]] == 1


@pytest.mark.parametrize("opts", [{"share_row": True}, {"symmetry": False, "run_rows": False}])
def test_estimate_follows_the_options(opts):
    # the size estimate is exact for every option set, not only the defaults
    from mlopt.modelsize import measure
    from mlopt.models.harmony.estimate import estimate_placement_milp
    w = FAM.preset("small")(seed=3)
    assert estimate_placement_milp(w, **opts) == measure(build_placement_milp(w, **opts))


@pytest.mark.parametrize("options", [{"symmetry": False, "run_rows": False}, {},
                                     {"share_row": True}])
def test_tasks_only_on_servers_that_host_them(options):
    """An independent review: with one role-"any" server and one role-"worker" server the
    model put tasks on the second, which the checker rejects (role rule), and claimed optimal
    1.5.  Both jobs (1 worker + 1 PS each) must share s0: resnext110 (3 epochs) and ctc (10)
    together take 2 intervals on average, as `share` also says (2.0)."""
    from mlopt.solve import solve
    from mlopt.workload import Server

    w = make_workload([
        {"model": "resnext110", "workers": 1, "ps": 1, "epochs": 3, "arrival": 1},
        {"model": "ctc", "workers": 1, "ps": 1, "epochs": 10, "arrival": 1}],
        n_servers=2, horizon=5)
    s0, s1 = w.servers
    w = dataclasses.replace(w, servers=[s0, Server(id=s1.id, role="worker",
                                                   capacity=dict(s1.capacity))])
    m = build_placement_milp(w, **options)
    res = solve(m, "highs", time_limit=30)
    chk = get_family("harmony").check(w, extract_schedule(m, w))
    assert res.status == Status.OPTIMAL and chk.feasible, chk.summary()
    assert res.objective == pytest.approx(2.0) and chk.objective == pytest.approx(2.0)


def test_server_load_cap_by_hand():
    # one_server(): a ResNeXt-110 (1 worker + 1 PS) and a CTC job (1 + 1).  What job 0 can feel
    # on the server: CTC's worker (alpha[resnext110, ctc] = 0.332 per task) and PS (x 0.5):
    # both fit (3 + 1 cores, 6 + 2 GB, 2 + 2 Gbps, 1 GPU), so 0.332 + 0.166: the old big-M,
    # kept (the knapsack with its float margin is not below it; the golden LP is unchanged)
    from mlopt.families.harmony.speed import model_of
    from mlopt.models.harmony.placement import server_load_cap
    w = one_server()
    sm = model_of(w)
    a = float(sm.alpha[sm.index("resnext110"), sm.index("ctc")])
    assert server_load_cap(w, 0, w.servers[0]) == pytest.approx(a * 1.5, rel=1e-12)
    # four CTC jobs of 3 workers + 3 PSs around a 1-worker job: the old big-M counts all 24
    # tasks, 4 x (3 + 3 x 0.5) = 18 alpha.  Per resource (CTC worker: 3 cores, 6 GB, 2 Gbps;
    # PS: 1 core, 2 GB, 2 Gbps; server: 8 cores, 48 GB, 50 Gbps; GPUs skipped, PSs use none):
    # cores: PSs first (0.5 alpha a core against 1/3), 8 of the 12 fill them: 4 alpha;
    # memory: 12 PSs (24 GB, 6 alpha) + 4 workers (24 GB, 4 alpha) = 10 alpha; bandwidth: all
    # 24 tasks fit (48 Gbps): 18 alpha.  The least: 4 alpha (eight CTC PSs on one server)
    jobs = [{"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}] + \
        [{"model": "ctc", "workers": 3, "ps": 3, "epochs": 4, "arrival": 1}] * 4
    w = make_workload(jobs, n_servers=2, horizon=6)
    a = float(sm.alpha[sm.index("resnet"), sm.index("ctc")])
    assert server_load_cap(w, 0, w.servers[0]) == pytest.approx(4 * a, rel=1e-6)


WIDE = st.fixed_dictionaries({
    "n_jobs": st.integers(2, 4), "n_servers": st.integers(1, 2), "window": st.integers(1, 3),
    "workers": st.sampled_from([(1, 1), (1, 3), (3, 3)]),
    "ps": st.sampled_from([(1, 1), (1, 3), (3, 3)]),
    "duration": st.sampled_from([(1.0, 1.0), (1.0, 2.5)])})


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), params=WIDE)
def test_tight_bigm_keeps_the_optimum_on_widened_instances(seed, params):
    # dense servers (3 workers + 3 PSs per job, one server), spreads, late arrivals: the
    # capped big-M's prove what every other task's big-M proves
    from mlopt.solve import solve
    w = FAM.generate("tiny", seed=seed, **params)
    res = [solve(build_placement_milp(w, tight_bigm=t), "highs", time_limit=30)
           for t in (True, False)]
    if all(r.status == Status.OPTIMAL for r in res):
        assert res[0].objective == pytest.approx(res[1].objective, abs=1e-6)
    else:  # an infeasible instance is infeasible for both
        assert (res[0].status == Status.INFEASIBLE) == (res[1].status == Status.INFEASIBLE)


def test_upper_windows_by_hand():
    # one_server(horizon=5): resnext110 (3 epochs, 3/interval alone) and ctc (10 epochs,
    # 6/interval alone): standalone JCTs lb = 1 and 2; OPT 2.0 (ctc delayed to interval 2,
    # test_hand_computed_optimum_delays_a_job).  upper = 2.0: U = 4; j0's JCT <= 4 - 2 = 2:
    # latest start 1 + 2 - 1 = 2, latest run 1 + 2 - 1 = 2; j1's <= 4 - 1 = 3: latest start
    # 1 + 3 - 2 = 2, latest run 1 + 3 - 1 = 3.  The optimum (j0 in 1, j1 in 2-3) fits.
    from mlopt.models.harmony.placement import _windows
    from mlopt.solve import solve
    w = one_server(horizon=5)
    assert _windows(w, 2.0) == {"j0": (2, 2), "j1": (2, 3)}
    assert solve(build_placement_milp(w, upper=2.0), "highs").objective == pytest.approx(2.0)
    # an upper below OPT (1.9: U = floor(3.8) = 3 < 4) leaves no schedule: why only a checked
    # schedule's objective is a valid upper
    assert solve(build_placement_milp(w, upper=1.9), "highs").status == Status.INFEASIBLE


def test_an_upper_below_opt_is_infeasible_never_a_wrong_optimum():
    """The review's instance (4 jobs on 3 unequal servers, OPT 3.5, proven by both big-M
    forms): with upper = 3.25 < OPT the windows alone left a model whose "optimum" was 3.75,
    above upper itself; the objective row sum JCT <= U makes it infeasible, and at upper = OPT
    the optimum stays 3.5."""
    from pathlib import Path

    from mlopt.solve import solve
    from mlopt.workload import Workload
    w = Workload.load(Path(__file__).parents[1] / "data" / "harmony_upper_below_opt.json")
    assert solve(build_placement_milp(w, upper=3.25), "highs",
                 time_limit=60).status == Status.INFEASIBLE
    res = solve(build_placement_milp(w, upper=3.5), "highs", time_limit=60)
    assert res.status == Status.OPTIMAL and res.objective == pytest.approx(3.5, abs=1e-6)


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), params=WIDE)
def test_upper_keeps_the_optimum_on_widened_instances(seed, params):
    # windows from OPT itself (the tightest valid upper) and from a baseline's checked
    # schedule: the same optimum as without windows
    from mlopt.solve import solve
    w = FAM.generate("tiny", seed=seed, **params)
    ref = solve(build_placement_milp(w), "highs", time_limit=30)
    if ref.status != Status.OPTIMAL:
        return
    uppers = [ref.objective]
    r = pipeline.run_algorithm(w, "lb", family="harmony")
    if r.check.feasible:
        uppers.append(r.check.objective)
    for upper in uppers:
        res = solve(build_placement_milp(w, upper=upper), "highs", time_limit=30)
        assert res.status == Status.OPTIMAL
        assert res.objective == pytest.approx(ref.objective, abs=1e-6)
