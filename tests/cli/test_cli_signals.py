"""Stopping mlopt from outside: one line on stderr, results so far kept, nothing leaked.

The three cases a newcomer met: ``mlopt bench run`` started as a shell's background job
(SIGINT arrives ignored: ``kill -INT`` used to do nothing), SIGTERM (used to kill the run
outright: "leaked semaphore objects" from multiprocessing's resource tracker, no message), and
Ctrl-C while a Pyomo model is being built."""
from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
HARNESS_TESTS = HERE.parent / "harness"  # the toy family the harness tests use

SPEC = """name = "slow"
family = "harness_toy_max"
[[instances]]
preset = "small"
seeds = {{ start = 0, count = 4 }}
params = {{ n_jobs = 5 }}
[[algorithms]]
name = "greedy"
options = {{ gate = "{gate}" }}
[offline]
time_limit = 20
"""
# the CLI with the toy family registered, as ``mlopt bench run`` would run it
BENCH = """
import sys
import test_harness_toyfamily  # registers the toy families
from mlopt.cli import main
sys.exit(main(["bench", "run", sys.argv[1], "-o", sys.argv[2], "--workers", "2",
               "--no-report"]))
"""


def _as_background_job():
    # what a non-interactive shell does for ``cmd &``: SIGINT ignored in the child
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _stored(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return con.execute("SELECT COUNT(DISTINCT task_key) FROM results").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:
        return 0


def _start_bench(tmp_path: Path):
    gate = tmp_path / "gate"
    gate.mkdir()
    (gate / "0").touch()  # only seed 0 can finish: the others wait at their gates
    spec = tmp_path / "slow.toml"
    spec.write_text(SPEC.format(gate=gate))
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(HARNESS_TESTS), str(HERE.parent), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", BENCH, str(spec), str(out)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_as_background_job)
    db = out / "results.sqlite"
    end = time.monotonic() + 120
    while _stored(db) < 1:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "the run stored nothing"
        time.sleep(0.05)
    return proc, db


def _stop(proc, sig) -> tuple[int, str]:
    try:
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, err


@pytest.mark.parametrize("sig, code, word", [(signal.SIGINT, 130, "interrupted"),
                                             (signal.SIGTERM, 143, "terminated")])
def test_a_background_bench_run_stops_on_sigint_and_sigterm(tmp_path, sig, code, word):
    proc, db = _start_bench(tmp_path)
    rc, err = _stop(proc, sig)
    assert rc == code, err
    assert "leaked" not in err and "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines == [f"mlopt: {word} (results written so far are kept)"], err
    assert _stored(db) == 1  # the finished task is kept; a --resume run goes on from it


def test_ctrl_c_during_a_model_build_is_one_line(tmp_path):
    import select

    w = tmp_path / "big.json"
    subprocess.run([sys.executable, "-m", "mlopt", "generate", "oasis", "--preset",
                    "paper-default", "-p", "n_jobs=100", "-p", "horizon=80", "-o", str(w)],
                   check=True, capture_output=True, timeout=120)
    proc = subprocess.Popen([sys.executable, "-m", "mlopt", "-v", "solve", str(w)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_as_background_job)
    # -v logs the model's size estimate (mlopt.modelsize) just before the build starts: the
    # signal lands half a second into a build that takes several seconds on an idle machine
    first = ""
    end = time.monotonic() + 120
    while not first.startswith("mlopt: estimate: "):
        assert proc.poll() is None and time.monotonic() < end, first
        ready, _, _ = select.select([proc.stderr], [], [], 1.0)
        if ready:
            first = proc.stderr.readline()
    time.sleep(0.5)
    rc, err = _stop(proc, signal.SIGINT)
    assert rc == 130, err
    assert "built utility_ilp" not in err  # it was stopped while building
    assert err.splitlines() == ["mlopt: interrupted (results written so far are kept)"], err
