"""Harmony's per-interval placement MILP as a registered family model (``interval_milp``,
models/harmony/interval.py): golden LP file, export through the CLI, the state made by replaying
an algorithm, a hand-computed optimum with a running job, and bad options.

Refresh the golden file after an intended model change with
    MLOPT_UPDATE_GOLDEN=1 python -m pytest tests/harmony/test_harmony_interval.py -k golden
"""
from __future__ import annotations

from pathlib import Path

import pytest

from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.testing import assert_golden_lp
from mlopt.families import get_family
from mlopt.families.harmony import milp_greedy
from mlopt.families.harmony.generator import make_workload
from mlopt.models.harmony import build_interval_milp_at
from mlopt.solve import Status, solve

GOLDEN = Path(__file__).resolve().parents[1] / "data" / "golden" / "harmony_interval_milp_tiny.lp"
FAM = get_family("harmony")


def running_and_queued():
    """One server (2 GPUs, 8 cores). ResNeXt (6 epochs, 3/interval alone) arrives in 1 and is
    placed alone; CTC (10 epochs, 6/interval alone) arrives in 2: at interval 2 ResNeXt runs
    (3 epochs done) and CTC waits. Every algorithm places ResNeXt alone in interval 1."""
    return make_workload([
        {"model": "resnext110", "workers": 1, "ps": 1, "epochs": 6, "arrival": 1},
        {"model": "ctc", "workers": 1, "ps": 1, "epochs": 10, "arrival": 2}],
        n_servers=1, horizon=5)


def lp_text(model, path: Path) -> str:
    model.write(str(path), io_options={"symbolic_solver_labels": True})
    return path.read_text()


def test_golden_lp_file():
    assert_golden_lp(build_interval_milp_at(running_and_queued(), interval=2, replay="lb"),
                     GOLDEN.name)
    text = GOLDEN.read_text()
    # job 1 (CTC) is the new one, job 0 (ResNeXt) runs: its slowdown row reads X, Y of job 1
    for name in ("obj_reward", "c_all_workers(1)", "c_capacity(0_0)", "c_slowdown(0_0)",
                 "c_slowdown(1_0)", "c_left(0)", "c_speed_factor(0_tail)"):
        assert name in text, name
    assert "a(0)" not in text  # the running job is no decision


def test_hand_computed_interval_optimum_with_a_running_job():
    """Interval 2, Eq. (1) reward sum c_n / e_n over the jobs running in it:
    * CTC waits: ResNeXt alone trains min(3, 6 - 3 left) = 3 -> 3/6 = 0.5;
    * CTC placed (packed with ResNeXt, the speeds of the one-server case in
      test_harmony_milp): 1.507/6 + 4.649/10 = 0.2512 + 0.4649 = 0.716 > 0.5 -> place it."""
    m = build_interval_milp_at(running_and_queued(), interval=2)
    res = solve(m, "highs", time_limit=60)
    assert res.status == Status.OPTIMAL
    assert res.objective == pytest.approx(1.507 / 6 + 4.649 / 10, abs=2e-3)
    assert round(m.a[1].value) == 1


def test_default_is_the_first_arrival_on_an_empty_cluster(tmp_path):
    w = running_and_queued()
    default = lp_text(build_interval_milp_at(w), tmp_path / "a.lp")
    assert default == lp_text(build_interval_milp_at(w, interval=1), tmp_path / "b.lp")
    assert "a(0)" in default and "a(1)" not in default  # CTC has not arrived


def test_export_is_the_model_milp_greedy_solves(tmp_path, monkeypatch):
    """With replay = milp_greedy (the default) the model of interval k is the one milp_greedy
    builds at k: capture what it builds and compare the LP texts."""
    built = {}
    real = milp_greedy.build_interval_milp

    def spy(state, queue):
        m = real(state, queue)
        built[state.t] = lp_text(m, tmp_path / f"greedy{state.t}.lp")
        return m
    monkeypatch.setattr(milp_greedy, "build_interval_milp", spy)
    w = running_and_queued()
    milp_greedy.run_milp_greedy(w)
    monkeypatch.undo()
    assert set(built) == {1, 2}
    for k in (1, 2):
        assert lp_text(build_interval_milp_at(w, interval=k), tmp_path / f"x{k}.lp") == built[k]


def test_cli_export_and_families(tmp_path, capsys):
    wf = tmp_path / "w.json"
    running_and_queued().save(wf)
    out = tmp_path / "x.lp"
    assert main(["export", str(wf), "--model", "interval_milp", "--option", "interval=2",
                 "-o", str(out)]) == 0
    assert out.read_text() == GOLDEN.read_text()
    assert main(["families"]) == 0
    assert "interval_milp" in capsys.readouterr().out


@pytest.mark.parametrize("options, field", [
    ({"interval": 3}, "interval"),  # both jobs placed by then: nobody waits
    ({"interval": 0}, "interval"), ({"interval": 6}, "interval"), ({"interval": "2"}, "interval"),
    ({"interval": 2, "replay": "nope"}, "replay"), ({"max_new": 0}, "max_new"),
])
def test_bad_options_name_the_field(options, field):
    with pytest.raises(InputError) as err:
        build_interval_milp_at(running_and_queued(), **options)
    assert err.value.field == field


def test_cli_rejects_unknown_option_and_solve_of_interval_model(tmp_path, capsys):
    wf = tmp_path / "w.json"
    running_and_queued().save(wf)
    assert main(["export", str(wf), "--model", "interval_milp", "--option", "k=2",
                 "-o", str(tmp_path / "x.lp")]) == 2
    assert "'k'" in capsys.readouterr().err
    # no full schedule comes out of a per-interval model: not an offline method
    assert main(["solve", str(wf), "--model", "interval_milp"]) == 2
    assert "no schedule extractor" in capsys.readouterr().err
