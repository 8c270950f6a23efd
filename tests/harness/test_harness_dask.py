"""Dask execution against a real scheduler and worker processes on loopback.

The test starts ``dask scheduler`` and ``dask worker`` (2 worker processes, 1 thread each) as
subprocesses bound to 127.0.0.1, each in its own session, and tears them down at the end.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from test_harness_toyfamily import toys  # noqa: F401  (autouse: registers the toys)
from test_harness import run, spec_text, stable

from mlopt.errors import InputError
from mlopt.harness import run_spec

distributed = pytest.importorskip("distributed")
HERE = Path(__file__).resolve().parent
TIMEOUT = 90.0


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)  # the process and its nanny children, nothing else
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=15)


@pytest.fixture(scope="module")
def scheduler(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dask")
    sched_file = tmp / "scheduler.json"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(HERE), os.environ.get(
        "PYTHONPATH", "")]), DASK_DISTRIBUTED__WORKER__DAEMON="False")
    common = dict(env=env, cwd=tmp, start_new_session=True, stdin=subprocess.DEVNULL)
    procs = []
    try:
        with open(tmp / "scheduler.log", "w") as log:
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "dask", "scheduler", "--host", "127.0.0.1", "--port",
                 "0", "--no-dashboard", "--scheduler-file", str(sched_file)],
                stdout=log, stderr=subprocess.STDOUT, **common))
        with open(tmp / "worker.log", "w") as log:  # starts while the scheduler boots
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "dask", "worker", "--scheduler-file", str(sched_file),
                 "--nworkers", "2", "--nthreads", "1", "--no-dashboard", "--host",
                 "127.0.0.1", "--memory-limit", "0", "--death-timeout", "60",
                 "--preload", "test_harness_toyfamily"],
                stdout=log, stderr=subprocess.STDOUT, **common))
        end, address = time.monotonic() + TIMEOUT, None
        while address is None:
            assert procs[0].poll() is None, (tmp / "scheduler.log").read_text()
            assert time.monotonic() < end, "scheduler did not start"
            try:
                address = json.loads(sched_file.read_text())["address"]
            except (OSError, ValueError, KeyError):  # not written (completely) yet
                time.sleep(0.1)
        assert address.startswith("tcp://127.0.0.1:")
        yield address
    finally:
        for p in reversed(procs):
            _stop(p)


def test_dask_gives_the_inline_table(scheduler, tmp_path):
    text = spec_text(seeds="[0, 1]", grid="n_jobs = [5, 7]")
    _, inline_df = run(tmp_path, "inline", text, workers=0)  # while the workers boot
    with distributed.Client(scheduler, timeout="30s", set_as_default=False) as client:
        client.wait_for_workers(2, timeout=TIMEOUT)
    summary, dask_df = run(tmp_path, "dask", text, scheduler=scheduler)
    assert summary.ok and summary.executor == scheduler and summary.completed == 4
    pd.testing.assert_frame_equal(stable(dask_df), stable(inline_df))
    # the tasks really ran in the worker processes, not here
    pids = {json.loads(t)["pid"] for t in dask_df.timing}
    assert os.getpid() not in pids
    # resume over Dask: nothing left to do
    again = run_spec(tmp_path / "dask.toml", tmp_path / "dask", scheduler=scheduler,
                     resume=True, progress=False)
    assert (again.completed, again.skipped) == (0, 4)


def test_bad_scheduler_address(tmp_path):
    (tmp_path / "s.toml").write_text(spec_text(seeds="[0]", grid="n_jobs = [5]"))
    with pytest.raises(InputError) as info:
        run_spec(tmp_path / "s.toml", tmp_path / "o", scheduler="nonsense://x:1",
                 progress=False)
    assert info.value.field == "scheduler"
