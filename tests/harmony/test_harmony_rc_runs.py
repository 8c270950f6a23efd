"""``placement_milp``'s ``rc_runs`` (one run per job within share's reduced-cost slack, and the
knapsack row over the chosen runs) and the proof by cases built on it
(benchmarks/harmony/rc_prove.py): refused without ``upper``; keeps the optimum at ``upper`` =
OPT, infeasible one JCT below (hand case and random widened instances); the case split keeps a
checked schedule's start vector whenever U >= its sum; and the cases rule out everything below
a recorded optimum while one case finds a schedule at it."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_harmony_crowd_bound import WIDE

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.harmony.generator import make_workload
from mlopt.models.harmony import build_placement_milp, extract_schedule
from mlopt.solve import Status, solve

FAM = get_family("harmony")
RESNET = {"model": "resnet", "workers": 1, "ps": 1, "epochs": 4, "arrival": 1}
ROOT = Path(__file__).resolve().parents[2]


def _rc_prove():
    spec = importlib.util.spec_from_file_location(
        "rc_prove", ROOT / "benchmarks" / "harmony" / "rc_prove.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_refuses_without_upper():
    w = make_workload([RESNET] * 2, n_servers=1, horizon=4)
    with pytest.raises(InputError) as err:
        build_placement_milp(w, rc_runs=True)
    assert err.value.field == "rc_runs"


def test_by_hand():
    # two 4-epoch ResNets on one server: each needs one interval alone, the server holds one
    # at a time, so OPT = (1 + 2) / 2 = 1.5 (sum 3); share's LP is 3 too, slack 0 at U = 3:
    # every run kept ends by interval 2 (test_harmony_share_fixing's windows; (1, 2), two
    # intervals at half speed beside the other, costs nothing at share's prices either), and
    # the model finds 1.5.  U = 2 < OPT: slack < 0, no run, infeasible
    w = make_workload([RESNET] * 2, n_servers=1, horizon=4)
    m = build_placement_milp(w, upper=1.5, rc_runs=True)
    assert {(1, 1), (2, 1)} <= {(s, k) for (_, s, k) in m.RUNS}
    assert all(s + k - 1 <= 2 for (_, s, k) in m.RUNS)
    assert solve(m, "highs").objective == pytest.approx(1.5)
    assert solve(build_placement_milp(w, upper=1.0, rc_runs=True),
                 "highs").status == Status.INFEASIBLE


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), params=WIDE)
def test_keeps_the_optimum_on_widened_instances(seed, params):
    from test_harmony_share_fixing import keeps_the_optimum

    keeps_the_optimum(FAM.generate("tiny", seed=seed, **params), rc_runs=True)


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000))
def test_the_case_split_keeps_a_checked_schedules_start_vector(seed):
    # a checked schedule of sum U has its start vector among the cases for every U' >= U
    # (the optimum's, from the exact model, and lb's)
    w = FAM.generate("tiny", seed=seed)
    m = build_placement_milp(w)
    assert solve(m, "highs", time_limit=30).status == Status.OPTIMAL
    lb = pipeline.run_algorithm(w, "lb", family="harmony").schedule
    rc_prove = _rc_prove()
    for sched in (extract_schedule(m, w), lb):
        chk = FAM.check(w, sched)
        assert chk.feasible
        U = round(chk.objective * len(w.jobs))
        start = {j: int(sched.rows_for(j)["slot"].min()) for j in sched.admitted}
        vec = tuple(start[j.id] for j in w.jobs)
        for extra in (0, 1):
            assert vec in rc_prove.start_vectors(w, U + extra)


@pytest.mark.parametrize("seed,opt_sum", [(3, 12)])  # harmony-small-3: OPT 2.4, 5 jobs
def test_the_cases_rule_out_below_a_recorded_optimum(tmp_path, capsys, seed, opt_sum):
    # instances/solu.csv: harmony-small-3 = 2.4 (HiGHS and SCIP), i.e. a JCT sum of 12 over 5
    # jobs; the instance is the small preset's seed 3 (instances/harmony-small/manifest.toml)
    w = FAM.generate("small", seed=seed)
    assert w.content_hash() == type(w).load(
        ROOT / "instances" / "harmony-small" / f"harmony-small-{seed}.json").content_hash()
    rc_prove = _rc_prove()
    below = tmp_path / "below.jsonl"
    rc_prove.main(["--seed", str(seed), "--sum", str(opt_sum - 1), "--prefix", "1",
                   "--rc-runs", "-o", str(below)])
    assert "every one infeasible" in capsys.readouterr().out
    at = tmp_path / "at.jsonl"
    rc_prove.main(["--seed", str(seed), "--sum", str(opt_sum), "--prefix", "1", "--rc-runs",
                   "-o", str(at)])
    assert "nothing proven" in capsys.readouterr().out
    rows = [json.loads(line) for line in at.read_text().splitlines()]
    found = [r for r in rows if r.get("checked_feasible")]
    assert found and min(r["checked_objective"] for r in found) == pytest.approx(opt_sum / 5)
    # resumable: a second run over the same file solves nothing again
    rc_prove.main(["--seed", str(seed), "--sum", str(opt_sum), "--prefix", "1", "--rc-runs",
                   "-o", str(at)])
    assert len(at.read_text().splitlines()) == len(rows)


def test_resume_does_not_take_another_instances_lines(tmp_path, capsys):
    """A resumed run reuses only lines of its own workload (its content hash is in the key):
    "infeasible" lines of another instance in the same file (another -p) are not its cases
    (from the review: a 5-job file resumed by a 4-job run counted 3 of 4 groups as ruled out)."""
    rc_prove = _rc_prove()
    out = tmp_path / "shared.jsonl"
    # harmony-small-3 (5 jobs): every case at sum 11 infeasible (OPT is 12, the test above)
    rc_prove.main(["--seed", "3", "--sum", "11", "--prefix", "1", "--rc-runs", "-o", str(out)])
    first = [json.loads(line) for line in out.read_text().splitlines()]
    assert "every one infeasible" in capsys.readouterr().out
    # the same seed with 4 jobs is another workload: its groups are solved, not resumed
    rc_prove.main(["--seed", "3", "--sum", "11", "--prefix", "1", "--rc-runs",
                   "-p", "n_jobs=4", "-o", str(out)])
    capsys.readouterr()
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    mine = rows[len(first):]
    assert mine and {r["workload"] for r in mine}.isdisjoint({r["workload"] for r in first})
