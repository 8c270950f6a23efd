"""Issue 19, the core's holes found from outside: each test is named after what it guards.

Never a guessed family; solver flags checked; a failed result exits non-zero; outputs written
atomically; Ctrl-C and numeric warnings are one line; a huge workload is refused before it is
parsed; the solve layer and its backends do not import each other."""
from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time

import pytest

from mlopt.cli import main
from mlopt.errors import InputError


def run_cli(capsys, *argv):
    capsys.readouterr()
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(capsys, *argv, code=2):
    got, out, err = run_cli(capsys, *argv)
    assert got == code, (got, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mlopt: "), err
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def tiny_file(tmp_path):
    path = tmp_path / "w.json"
    assert main(["generate", "oasis", "--preset", "tiny", "--seed", "2", "-o", str(path)]) == 0
    return path


@pytest.fixture
def anonymous_file(tiny_file):
    """The tiny workload without meta.family."""
    data = json.loads(tiny_file.read_text())
    data["meta"].pop("family", None)
    path = tiny_file.with_name("anon.json")
    path.write_text(json.dumps(data))
    return path


# ---- 1. the family is never guessed ----------------------------------------------------------
def test_pipeline_never_guesses_the_family(anonymous_file, tiny_file):
    from mlopt import pipeline
    from mlopt.workload import Workload

    anon = Workload.load(anonymous_file)
    with pytest.raises(InputError, match="does not name its family"):
        pipeline.run_algorithm(anon, "fifo")
    with pytest.raises(InputError, match="does not name its family"):
        pipeline.solve_offline(anon)
    assert pipeline.run_algorithm(anon, "fifo", family="oasis").check.feasible
    own = Workload.load(tiny_file)
    with pytest.raises(InputError, match="of family 'oasis', not 'hetero'"):
        pipeline.run_algorithm(own, "fifo", family="hetero")
    with pytest.raises(InputError, match="of family 'oasis', not 'hetero'"):
        pipeline.solve_offline(own, family="hetero")


def test_cli_never_guesses_the_family(capsys, anonymous_file, tmp_path):
    for argv in (["run", "fifo", anonymous_file], ["solve", anonymous_file],
                 ["export", anonymous_file, "-o", tmp_path / "m.lp"]):
        assert "meta.family" in one_line_error(capsys, *argv)
    assert run_cli(capsys, "run", "fifo", anonymous_file, "--family", "oasis")[0] == 0
    assert "not 'pdors'" in one_line_error(capsys, "solve", anonymous_file.with_name("w.json"),
                                           "--family", "pdors")


def test_run_algorithm_checks_options_and_seed_through_family_run(tiny_file, monkeypatch):
    from mlopt import pipeline
    from mlopt.families import get_family
    from mlopt.workload import Workload

    calls = []
    fam = get_family("oasis")
    real = type(fam).run
    monkeypatch.setattr(type(fam), "run", lambda self, *a, **k: calls.append(a) or
                        real(self, *a, **k))
    w = Workload.load(tiny_file)
    pipeline.run_algorithm(w, "fifo", seed=3)
    assert calls and calls[0][0] == "fifo"
    with pytest.raises(InputError, match="seed"):
        pipeline.run_algorithm(w, "fifo", seed=-1)
    with pytest.raises(InputError, match="seed"):
        pipeline.run_algorithm(w, "fifo", **{"seed_": 1, "seed": 1.5})


@pytest.mark.parametrize("option", ["seed=1", "family=\"hetero\"", "bogus=1"])
def test_cli_option_never_sets_the_seed_or_the_family(capsys, tiny_file, option):
    line = one_line_error(capsys, "run", "fifo", tiny_file, "--option", option)
    assert option.split("=")[0] in line


def test_solver_bench_spec_must_name_its_family():
    from mlopt.harness import solver_bench

    with pytest.raises(InputError) as err:
        solver_bench.parse_spec({"name": "x", "solvers": ["highs"], "time_limits": [5],
                                 "instances": [{"preset": "tiny", "seeds": [0]}]}, file="s.toml")
    assert err.value.field == "family"


# ---- 2. solver flags ---------------------------------------------------------------------------
BAD_FLAGS = [["--time-limit", "-1"], ["--time-limit", "0"], ["--time-limit", "NaN"],
             ["--time-limit", "inf"], ["--mip-gap", "-0.1"], ["--mip-gap", "1.5"],
             ["--mip-gap", "NaN"], ["--threads", "0"], ["--threads", "-4"],
             ["--threads", "100000"], ["--solver-option", "presolve=\"bogus\""],
             ["--solver-option", "no_such_option=1"], ["--solver-option", "time_limit=NaN"]]


@pytest.mark.parametrize("flag", BAD_FLAGS, ids=lambda f: " ".join(f))
def test_bad_solver_flags_are_one_line_exit_2(capsys, tiny_file, flag):
    line = one_line_error(capsys, "solve", tiny_file, *flag)
    assert flag[0] in line


def test_bad_solver_settings_refused_by_the_api():
    import pyomo.environ as pyo

    from mlopt.solve import solve

    m = pyo.ConcreteModel()
    m.x = pyo.Var(bounds=(0, 1))
    m.o = pyo.Objective(expr=m.x, sense=pyo.maximize)
    for kw in ({"time_limit": -1}, {"time_limit": float("nan")}, {"mip_gap": 1.5},
               {"threads": 0}, {"threads": 10 ** 6}, {"options": {"presolve": "bogus"}}):
        with pytest.raises(InputError):
            solve(m, **kw)
    assert solve(m, options={"presolve": "off"}).objective == pytest.approx(1.0)


def test_spec_refuses_bad_solver_settings_and_unknown_model_options():
    from mlopt.harness.spec import parse_spec

    base = ('name = "s"\nfamily = "oasis"\n[[instances]]\npreset = "tiny"\nseeds = [0]\n'
            '[[algorithms]]\nname = "fifo"\n')
    for extra, field in (('[offline]\ntime_limit = 1e30\n', "offline.time_limit"),
                         ('[offline]\nmodel_options = { bogus = 1 }\n',
                          "offline.model_options"),
                         ('[solver]\nthreads = 100000\n', "solver.threads"),
                         ('[solver]\noptions = { presolve = "bogus" }\n',
                          "solver.options.presolve"),
                         ('[offline]\nmethod = "none"\n[solver]\noptions = { bogus = 1 }\n',
                          "solver.options.bogus")):
        with pytest.raises(InputError) as err:
            parse_spec(base + extra)
        assert err.value.field == field, (extra, err.value)
    # a model option the builder does take still passes
    parse_spec(base + '[offline]\nmodel_options = { completion_window = false }\n')


def test_instances_solve_time_limit_and_bench_workers_checked(capsys, tmp_path):
    line = one_line_error(capsys, "instances", "solve", "tiny", "--time-limit", "-5")
    assert "--time-limit" in line
    line = one_line_error(capsys, "instances", "verify", "tiny", "--time-limit", "nan")
    assert "--time-limit" in line
    spec = tmp_path / "s.toml"
    spec.write_text('name = "s"\nfamily = "oasis"\n[[instances]]\npreset = "tiny"\n'
                    'seeds = [0]\n[[algorithms]]\nname = "fifo"\n[offline]\nmethod = "none"\n')
    assert "workers" in one_line_error(capsys, "bench", "run", spec, "-o", tmp_path / "o",
                                       "--workers", "100000")


# ---- 3. a failed result exits non-zero -----------------------------------------------------------
@pytest.mark.parametrize("status", ["error", "infeasible", "unbounded"])
def test_solve_with_a_failed_status_exits_1(capsys, tiny_file, monkeypatch, status):
    import mlopt.pipeline
    from mlopt.solve import SolveResult, Status

    monkeypatch.setattr(mlopt.pipeline, "solve", lambda *a, **k: SolveResult(
        Status(status), None, None, None, 0.0, "highs", "x", "max", "forced", {}, "forced"))
    code, out, _ = run_cli(capsys, "solve", tiny_file, "--json")
    assert code == 1 and json.loads(out)["status"] == status
    assert json.loads(out)["message"] == "forced"
    code, out, _ = run_cli(capsys, "solve", tiny_file)
    assert code == 1 and f"status {status}" in out and "forced" in out


def test_bench_run_with_error_rows_exits_1(capsys, tmp_path, monkeypatch):
    from mlopt.families import get_family

    spec = tmp_path / "s.toml"
    spec.write_text('name = "s"\nfamily = "oasis"\n[[instances]]\npreset = "tiny"\n'
                    'seeds = [0]\n[[algorithms]]\nname = "fifo"\n[offline]\nmethod = "none"\n')
    fam = get_family("oasis")

    def broken(self, *a, **k):
        raise RuntimeError("algorithm crashed")

    monkeypatch.setattr(type(fam), "run", broken)
    code, out, _ = run_cli(capsys, "bench", "run", spec, "-o", tmp_path / "o", "--workers",
                           "0", "--no-report")
    assert code == 1 and "1 error rows" in out


# ---- 4. files ------------------------------------------------------------------------------------
def test_output_into_a_missing_folder_or_onto_a_folder_is_one_line(capsys, tiny_file, tmp_path):
    for cmd in (["run", "fifo", tiny_file], ["solve", tiny_file],
                ["generate", "oasis", "--preset", "tiny"]):
        assert "does not exist" in one_line_error(capsys, *cmd, "-o", tmp_path / "no" / "x.json")
        assert "is a folder" in one_line_error(capsys, *cmd, "-o", tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.json"]


def test_output_on_a_full_device_leaves_no_partial_file(capsys, tiny_file, monkeypatch):
    from mlopt.schedule import Schedule

    def save(self, path):
        with open(path, "w") as fh:
            fh.write('{"partial": ')
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Schedule, "save", save)
    out = tiny_file.with_name("s.json")
    line = one_line_error(capsys, "run", "fifo", tiny_file, "-o", out)
    assert "No space left" in line and str(out) in line
    assert sorted(p.name for p in tiny_file.parent.iterdir()) == ["w.json"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_output_onto_dev_full_is_one_line_and_keeps_the_device(capsys, tiny_file):
    import stat

    line = one_line_error(capsys, "run", "fifo", tiny_file, "-o", "/dev/full")
    assert "No space left" in line
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)  # written into, never renamed over


def test_output_through_a_symlink_replaces_its_target(tmp_path):
    from mlopt.fileio import write_text

    target = write_text(tmp_path / "real.txt", "old")
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    write_text(link, "new")
    assert link.is_symlink() and target.read_text() == "new"


def test_atomic_output_keeps_the_old_file_on_failure(tmp_path):
    from mlopt.fileio import atomic_output, write_text

    target = write_text(tmp_path / "a.txt", "old")
    with pytest.raises(RuntimeError):
        with atomic_output(target) as tmp:
            tmp.write_text("new, half")
            raise RuntimeError("crash")
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["a.txt"]
    assert oct(target.stat().st_mode & 0o777) == oct(0o666 & ~_umask())


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_read_only_results_folder_is_one_line(capsys, tmp_path, monkeypatch):
    import sqlite3

    spec = tmp_path / "s.toml"
    spec.write_text('name = "s"\nfamily = "oasis"\n[[instances]]\npreset = "tiny"\n'
                    'seeds = [0]\n[[algorithms]]\nname = "fifo"\n[offline]\nmethod = "none"\n')

    def connect(*a, **k):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(sqlite3, "connect", connect)
    line = one_line_error(capsys, "bench", "run", spec, "-o", tmp_path / "o", "--workers", "0")
    assert "permissions" in line


def test_unwritable_output_folder_is_one_line(capsys, tiny_file, monkeypatch):
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if str(p) == str(
        tiny_file.parent) else real(p, mode))
    assert "not writable" in one_line_error(capsys, "run", "fifo", tiny_file, "-o",
                                            tiny_file.with_name("s.json"))


def test_from_trace_and_from_csv_name_their_family(capsys, tmp_path):
    src = tmp_path / "c.csv"
    src.write_text("a,g,d\n1,1,10\n2,2,20\n")
    line = one_line_error(capsys, "instances", "from-csv", src, "--map",
                          "arrival=a,gpus=g,duration=d", "-o", tmp_path / "o.json")
    assert "--family" in line
    line = one_line_error(capsys, "instances", "from-trace", "philly", src, "-o",
                          tmp_path / "o.json")
    assert "--family" in line


def test_from_csv_bad_timestamp_format_is_exit_2(capsys, tmp_path):
    src = tmp_path / "c.csv"
    src.write_text("a,g,d\n2020-01-01 00:00:00,1,10\n2020-01-01 00:10:00,2,20\n")
    for fmt in ("%Q", "%", "no-directive"):
        line = one_line_error(capsys, "instances", "from-csv", src, "--family", "oasis", "--map",
                              "arrival=a,gpus=g,duration=d", "--arrival-unit", "datetime",
                              "--timestamp-format", fmt, "-o", tmp_path / "o.json")
        assert "timestamp_format" in line


# ---- 5. Ctrl-C from the very start ----------------------------------------------------------------
def test_ctrl_c_while_importing_the_commands_is_one_line_130(capsys, monkeypatch):
    import mlopt.cli

    def interrupted():
        raise KeyboardInterrupt

    monkeypatch.setattr(mlopt.cli, "build_parser", interrupted)
    assert "interrupted" in one_line_error(capsys, "solve", "w.json", code=130)


def test_the_entry_point_imports_nothing_heavy():
    code = ("import sys, mlopt.cli; heavy = [m for m in ('numpy', 'pandas', 'pydantic', "
            "'pyomo', 'mlopt.workload', 'mlopt.families') if m in sys.modules]; print(heavy)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


def test_ctrl_c_during_startup_of_the_real_command_is_one_line():
    """SIGINT while the command modules import (numpy, pydantic, pyomo): one line, 130."""
    code = ("import os, signal, threading, sys\n"
            "import mlopt.cli\n"
            "real = mlopt.cli.build_parser\n"
            "def slow():\n"
            "    os.kill(os.getpid(), signal.SIGINT)\n"
            "    return real()\n"
            "mlopt.cli.build_parser = slow\n"
            "sys.exit(mlopt.cli.main(['families']))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 130
    assert out.stderr.strip().splitlines() == [
        "mlopt: interrupted (results written so far are kept)"]


# ---- 6. numeric warnings ----------------------------------------------------------------------------
def test_runtime_warning_from_bad_input_is_one_line_exit_2(capsys, tiny_file, monkeypatch):
    import numpy as np

    import mlopt.pipeline

    def run_algorithm(*a, **k):
        return np.float64(1.0) / np.float64(0.0)  # RuntimeWarning: divide by zero

    monkeypatch.setattr(mlopt.pipeline, "run_algorithm", run_algorithm)
    line = one_line_error(capsys, "run", "fifo", tiny_file)
    assert "RuntimeWarning" in line and "divide by zero" in line


def test_a_warning_inside_an_inline_task_is_no_error_row(tmp_path, monkeypatch, capsys):
    """The CLI's RuntimeWarning-as-error applies to the command, not to tasks run inline:
    ``--workers 0`` gives the same rows as worker processes."""
    import numpy as np

    from mlopt.families import get_family
    from mlopt.harness import ResultStore

    fam = get_family("oasis")
    real = type(fam).run

    def noisy(self, *a, **k):
        np.float64(1.0) / np.float64(0.0)  # a harmless RuntimeWarning inside the algorithm
        return real(self, *a, **k)

    monkeypatch.setattr(type(fam), "run", noisy)
    spec = tmp_path / "s.toml"
    spec.write_text('name = "s"\nfamily = "oasis"\n[[instances]]\npreset = "tiny"\n'
                    'seeds = [0]\n[[algorithms]]\nname = "fifo"\n[offline]\nmethod = "none"\n')
    with pytest.warns(RuntimeWarning, match="divide by zero"):  # raised, and not an error
        code, _, _ = run_cli(capsys, "bench", "run", spec, "-o", tmp_path / "o", "--workers",
                             "0", "--no-report")
    assert code == 0
    with ResultStore(tmp_path / "o" / "results.sqlite") as store:
        assert [r["status"] for r in store.rows()] == ["feasible"]


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_endless_input_file_is_refused_at_the_size_cap(monkeypatch):
    from mlopt import fileio

    t0 = time.perf_counter()
    with pytest.raises(InputError, match="too large"):
        fileio.read_bytes("/dev/zero", 1 << 20)
    assert time.perf_counter() - t0 < 10


# ---- 8. no import cycle ---------------------------------------------------------------------------
def test_solvers_do_not_import_the_solve_module():
    code = ("import sys, mlopt.solvers, mlopt.solvers.highs, mlopt.solvers.scip; "
            "print('mlopt.solve' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "False", out.stderr
    import mlopt
    from mlopt.solve import SolveResult, Status, Verification, classify, relative_gap
    from mlopt.solvers import result

    assert (SolveResult, Status, Verification, classify, relative_gap) == (
        result.SolveResult, result.Status, result.Verification, result.classify,
        result.relative_gap)
    assert callable(mlopt.solve) and mlopt.solve.verify.__module__ == "mlopt.solve"


# ---- 9. huge workloads refused before they are parsed ----------------------------------------------
def test_too_many_servers_refused_before_pydantic(monkeypatch):
    from mlopt import formats, limits

    def boom(*a, **k):
        raise AssertionError("validated item by item")

    monkeypatch.setattr(formats.WorkloadFile, "model_validate", boom)
    data = {"schema_version": 1, "horizon": 1, "slot_seconds": 1.0, "resources": ["gpu"],
            "servers": [{}] * (limits.MAX_SERVERS + 1), "jobs": []}
    with pytest.raises(InputError) as err:
        formats.validate(formats.WorkloadFile, data)
    assert err.value.field == "servers"


def test_too_many_records_refused_before_json_parsing(tmp_path, monkeypatch, capsys):
    from mlopt import fileio

    def boom(*a, **k):
        raise AssertionError("parsed")

    path = tmp_path / "big.json"
    path.write_text(json.dumps({"servers": [{"id": f"s{i}"} for i in range(50)]}))
    monkeypatch.setattr(fileio, "MAX_ID_KEYS", 20)
    monkeypatch.setattr(fileio, "parse_json", boom)
    t0 = time.perf_counter()
    line = one_line_error(capsys, "solve", path)
    assert "50 records with an id" in line and time.perf_counter() - t0 < 10
