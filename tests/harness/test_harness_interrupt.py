"""Interrupted runs leave a consistent store: Ctrl-C (SIGINT) and a hard kill of the run.

One subprocess (its own session/process group, so the test can kill exactly it and its
children) first runs the spec on a local pool and gets a SIGINT; then, on the test's signal, it
resumes inline and is SIGKILLed mid-run.  The test inspects the SQLite file after each step and
finally resumes to completion.
"""
from __future__ import annotations

import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
import test_harness_toyfamily as toy
from test_harness_toyfamily import toys  # noqa: F401  (autouse: registers the toys)

from mlopt.harness import ResultStore, run_spec

HERE = Path(__file__).resolve().parent
N_TASKS = 6
# Each task waits for its gate file <gate>/<seed> (the toy greedy's ``gate`` option): the test
# opens the gates itself, so the SIGINT and the SIGKILL land while tasks are still running
# however loaded the machine is (fixed sleeps of 0.25 s and then 1 s were both outrun).
SPEC = """name = "slow"
family = "harness_toy_max"
[[instances]]
preset = "small"
seeds = {{ start = 0, count = {n} }}
params = {{ n_jobs = 5 }}
[[algorithms]]
name = "greedy"
options = {{ gate = "{gate}" }}
[offline]
time_limit = 20
"""
RUNNER = """
import signal
import sys
import test_harness_toyfamily
from mlopt.harness import run_spec
if __name__ == "__main__":
    # Ctrl-C as in a terminal even when started from a shell's background job, which would
    # hand down SIGINT ignored (Python then never raises KeyboardInterrupt)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    s = run_spec(sys.argv[1], sys.argv[2], workers=2, progress=False)
    print("SUMMARY", s.interrupted, s.completed, flush=True)
    sys.stdin.readline()  # the test inspects the process tree and the store, then says go
    run_spec(sys.argv[1], sys.argv[2], workers=0, resume=True, progress=False)
    print("NOT KILLED", flush=True)
"""


def _stored_tasks(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
        try:
            return con.execute("SELECT COUNT(DISTINCT task_key) FROM results").fetchone()[0]
        finally:
            con.close()
    except sqlite3.OperationalError:  # table not created yet
        return 0


def _wait_for(db: Path, n: int, proc: subprocess.Popen, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while _stored_tasks(db) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < end, "the run made no progress"
        time.sleep(0.02)


def _consistent(db: Path) -> int:
    """Integrity OK and every stored task complete (offline + greedy rows); returns #tasks."""
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        counts = con.execute("SELECT task_key, COUNT(*) FROM results GROUP BY task_key"
                             ).fetchall()
    finally:
        con.close()
    assert all(c == 2 for _, c in counts), counts
    return len(counts)


def _read_line(proc: subprocess.Popen, timeout: float = 60.0) -> str:
    """The runner's next output line, or a failure (not a hang) if none comes in time."""
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, f"no output from the run within {timeout} s"
    return proc.stdout.readline()


def _group(pgid: int) -> dict[int, int]:
    """pid -> parent pid of the live (non-zombie) processes in a process group (Linux /proc)."""
    out = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "
        state, ppid, pgrp = fields[0], int(fields[1]), int(fields[2])
        if pgrp == pgid and state != "Z":
            out[int(d.name)] = ppid
    return out


def _settles(pgid: int, ok, timeout: float = 15.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if ok(_group(pgid)):
            return True
        time.sleep(0.1)
    return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
def test_ctrl_c_and_hard_kill_leave_a_resumable_store(tmp_path):
    gate = tmp_path / "gate"
    gate.mkdir()

    def open_gate(*seeds: int) -> None:
        for seed in seeds:
            (gate / str(seed)).touch()

    spec = tmp_path / "slow.toml"
    spec.write_text(SPEC.format(n=N_TASKS, gate=gate))
    open_gate(0)  # phase 1: only seed 0 can finish before the SIGINT
    out = tmp_path / "out"
    db = out / "results.sqlite"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get(
        "PYTHONPATH", "")]))
    proc = subprocess.Popen([sys.executable, "-c", RUNNER, str(spec), str(out)], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        # 1. Ctrl-C on a local pool: the run stops cleanly, ends its workers, keeps the
        #    finished tasks.  Left in the group: the runner and its helper processes (idle
        #    forkserver, resource tracker); the workers were the forkserver's children.
        def no_workers(group: dict[int, int]) -> bool:
            helpers = {pid for pid, ppid in group.items() if ppid == proc.pid}
            return not any(ppid in helpers for ppid in group.values())

        _wait_for(db, 1, proc)
        assert not no_workers(_group(proc.pid))  # the check below can see workers
        os.kill(proc.pid, signal.SIGINT)
        assert _read_line(proc).startswith("SUMMARY True")
        after_int = _consistent(db)
        assert after_int == 1
        assert _settles(proc.pid, no_workers), f"workers outlived the run: {_group(proc.pid)}"

        # 2. SIGKILL mid-run of the resumed (inline) run: the writer dies mid-task (seed 1
        #    finishes, seed 2 waits at its gate)
        open_gate(1)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        _wait_for(db, after_int + 1, proc)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        after_kill = _consistent(db)
        assert after_kill == 2, "the kill was not mid-run"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        assert _settles(proc.pid, lambda g: not g), "processes of the run outlived it"

    # 3. resume finishes exactly the missing tasks, and every stored number is right
    open_gate(*range(N_TASKS))
    summary = run_spec(spec, out, workers=0, resume=True, progress=False)
    assert summary.ok and summary.skipped == after_kill
    assert summary.completed == N_TASKS - after_kill
    assert _consistent(db) == N_TASKS
    with ResultStore(db) as store:
        df = store.to_frame()
    for seed in range(N_TASKS):
        w = toy.toy_generator(seed=seed, n_jobs=5)
        off = df[(df.seed == seed) & (df.method_kind == "offline")].iloc[0]
        alg = df[(df.seed == seed) & (df.method == "greedy")].iloc[0]
        opt = toy._brute_force(w, "max")
        greedy = toy.check_max(w, toy.alg_greedy(w)).objective
        assert off.proven and off.objective == opt and alg.objective == greedy
        assert alg.ratio_low == alg.ratio_high == opt / greedy
