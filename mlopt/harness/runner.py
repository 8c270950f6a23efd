"""Run a spec: build the tasks, execute them locally or on Dask, store results as they finish.

``run_spec(spec_path, out_dir, workers=1, scheduler=None, resume=False, progress=True)``

* ``workers >= 1``: a local :class:`concurrent.futures.ProcessPoolExecutor` with that many
  processes (``spawn`` start method, SIGINT ignored in workers so Ctrl-C is handled by the
  parent alone).  ``workers = 0`` runs the tasks in the calling process (debugging, profiling).
* ``scheduler="tcp://host:port"``: submit to that Dask distributed scheduler instead.  Workers
  must be able to import :mod:`mlopt` (and the module defining the family, when it is not built
  in).

Only this (parent) process writes ``out_dir/results.sqlite``: each finished task in its own
transaction.  ``resume=True`` skips the tasks already stored -- after checking them
(:func:`stored_tasks`: SQLite's integrity check, every row a task writes present and well
formed; a task with a missing or malformed row runs again, a damaged file is an InputError
saying what to do); the stored method configuration
(family, algorithms, offline method, bounds, solver — see :meth:`Spec.method_config`) must equal
the spec's, while the instance set may grow (more seeds, a wider grid).

A script that calls ``run_spec`` with ``workers >= 1`` needs the usual
``if __name__ == "__main__":`` guard (workers start with ``forkserver``/``spawn``); a family
defined in such a script must be registered at its top level so workers see it too.

Failures: an exception inside a task (generator, solver, algorithm, checker) is a *result* and is
stored with status ``error``.  An infrastructure failure (a worker process killed, a lost Dask
worker) stores nothing for that task; a local pool broken by a dead worker is rebuilt and the
tasks that were in flight are retried once; what still fails is listed in the summary and runs
again on resume.  Ctrl-C stops submitting, cancels what is queued, terminates local workers and
returns a summary with ``interrupted=True`` (the store holds exactly the tasks completed so far).
"""
from __future__ import annotations

import hashlib
import multiprocessing
import os
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from mlopt.errors import InputError
from mlopt.fileio import write_text
from mlopt.harness.spec import InstanceSpec, Spec, canonical_json, load_spec
from mlopt.harness.store import ResultStore
from mlopt.harness.tasks import family_module, resolve_family, run_task

STORE_NAME = "results.sqlite"
#: most local worker processes a run may start (``--workers 100000`` is refused, not forked)
MAX_WORKERS = 1024
SPEC_COPY = "spec.toml"


@dataclass
class RunSummary:
    spec: str
    out_dir: Path
    store: Path
    executor: str  # "inline", "local[N]" or the Dask scheduler address
    total: int  # tasks in the spec
    skipped: int  # already in the store (resume)
    completed: int  # finished and stored in this run
    failed: list[tuple[str, str]] = field(default_factory=list)  # (instance_id, error)
    errors: int = 0  # stored rows with status 'error' written in this run
    repaired: int = 0  # tasks whose stored rows were missing or malformed: run again
    interrupted: bool = False
    elapsed_s: float = 0.0

    @property
    def ok(self) -> bool:
        """True when no task failed and the run was not interrupted."""
        return not self.failed and not self.interrupted

    def __str__(self) -> str:
        state = "interrupted" if self.interrupted else "done"
        text = (f"{self.spec}: {state}: {self.completed} tasks run, {self.skipped} resumed, "
                f"{len(self.failed)} failed, {self.errors} error rows, of {self.total}, "
                + (f"{self.repaired} re-run (missing or malformed rows in the store), "
                   if self.repaired else "") +
                f"in {self.elapsed_s:.1f}s on {self.executor}; results in {self.store}")
        return text


# ---- tasks --------------------------------------------------------------------------------------


def task_key(fingerprint: str, inst: InstanceSpec) -> str:
    """The stable key of one task (configuration, preset, params, seed)."""
    blob = canonical_json({"config": fingerprint, "preset": inst.preset, "params": inst.params,
                           "seed": inst.seed})
    return hashlib.sha256(blob.encode()).hexdigest()[:20]


def build_tasks(spec: Spec) -> list[dict]:
    """Plain-data task descriptions for :func:`mlopt.harness.tasks.run_task`, in spec order."""
    family = resolve_family(spec.family)
    fp = spec.fingerprint()
    common = {
        "spec": spec.name, "family": family.name, "family_module": family_module(family),
        "algorithms": [{"label": a.label, "name": a.name, "options": a.options}
                       for a in spec.algorithms],
        "offline": {"method": spec.offline_method, "model": spec.model,
                    "model_options": spec.model_options, "time_limit": spec.time_limit,
                    "mip_gap": spec.mip_gap, "verify": spec.verify},
        "bounds": [{"name": b.name, "options": b.options} for b in spec.bounds],
        "solver": {"name": spec.solver, "threads": spec.threads,
                   "options": spec.solver_options},
    }
    return [{**common, "task_key": task_key(fp, inst), "instance_id": inst.instance_id,
             "preset": inst.preset, "params": inst.params, "seed": inst.seed}
            for inst in spec.instances()]


# ---- public API ---------------------------------------------------------------------------------


def open_store(out_dir: str | Path, spec: Spec, resume: bool) -> ResultStore:
    """Open ``out_dir``'s store for ``spec``; refuses to mix configurations or overwrite."""
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError("output path exists and is not a directory", file=str(out))
    path = out / STORE_NAME
    existed = path.exists()
    store = ResultStore(path)
    try:
        if existed:  # never write into (or resume from) a damaged file
            store.check_integrity()
        old = store.get_meta("fingerprint")
        if existed and (old is not None or len(store)):
            if not resume:
                raise InputError("already holds results; resume (--resume) or choose another "
                                 "directory", file=str(path))
            if old != spec.fingerprint():
                raise InputError("holds results of a different method configuration (family, "
                                 "algorithms, offline, bounds or solver changed); use another "
                                 "directory", file=str(path))
        store.set_meta("fingerprint", spec.fingerprint())
        store.set_meta("method_config", spec.method_config())
        store.set_meta("spec_name", spec.name)
        store.set_meta("spec_source", spec.source)
    except BaseException:
        store.close()
        raise
    try:
        write_text(out / SPEC_COPY, spec.source)
    except BaseException:
        store.close()
        raise
    return store


def expected_rows(task: dict) -> tuple[set[str], set[str]]:
    """The row keys a finished task has: (all methods, the generator-error row alone)."""
    tk = task["task_key"]
    rows = {f"{tk}/algorithm/{a['label']}" for a in task["algorithms"]}
    rows |= {f"{tk}/bound/{b['name']}" for b in task["bounds"]}
    off = task["offline"]
    if off["method"] == "exact":
        rows.add(f"{tk}/offline/{off['model']}")
    return rows, {f"{tk}/instance/{task['preset']}"}


def stored_tasks(store: ResultStore, tasks: list[dict]) -> tuple[set[str], int]:
    """The tasks ``store`` really holds, checked: (their keys, how many had damaged rows).

    The file must pass SQLite's integrity check (else one InputError saying what to do);
    malformed rows are deleted; a task counts as done only when its stored rows are exactly
    the rows it writes (every method, or the one generator-error row)."""
    store.check_integrity()
    bad = store.malformed()
    damaged = {tk for tk, _ in bad.values() if tk is not None}
    store.delete_rows(bad)
    stored = store.stored_methods()
    done, repaired = set(), 0
    for t in tasks:
        have = stored.get(t["task_key"])
        if not have:
            repaired += t["task_key"] in damaged
            continue
        full, failed = expected_rows(t)
        if have == full or have == failed:
            done.add(t["task_key"])
        else:
            repaired += 1
    return done, repaired


def run_spec(spec_path: str | Path, out_dir: str | Path, workers: int = 1,
             scheduler: str | None = None, resume: bool = False,
             progress: bool = True) -> RunSummary:
    """Run every task of the spec not yet in ``out_dir``'s store; see the module docstring."""
    if isinstance(workers, bool) or not isinstance(workers, int) or not \
            0 <= workers <= MAX_WORKERS:
        raise InputError(f"must be an integer in [0, {MAX_WORKERS}]", field="workers",
                         value=workers)
    if scheduler is not None and (not isinstance(scheduler, str) or not scheduler):
        raise InputError("must be a scheduler address like tcp://host:port", field="scheduler",
                         value=scheduler)
    spec = load_spec(spec_path)
    tasks = build_tasks(spec)
    start = time.perf_counter()
    store = open_store(out_dir, spec, resume)
    try:
        done, repaired = stored_tasks(store, tasks)
        todo = [t for t in tasks if t["task_key"] not in done]
        executor = (scheduler if scheduler else
                    "inline" if workers == 0 else f"local[{min(workers, max(len(todo), 1))}]")
        summary = RunSummary(spec.name, Path(out_dir), store.path, executor, len(tasks),
                             len(tasks) - len(todo), 0, repaired=repaired)
        bar = _progress(progress, len(tasks), summary.skipped, spec.name)

        def on_result(result: dict) -> None:
            store.add_task(result["rows"])
            summary.completed += 1
            summary.errors += sum(r["status"] == "error" for r in result["rows"])
            bar.update(1)

        def on_failure(task: dict, err: BaseException) -> None:
            summary.failed.append((task["instance_id"], f"{type(err).__name__}: {err}"))
            bar.update(1)
            bar.set_postfix(failed=len(summary.failed))

        try:
            if not todo:
                pass
            elif scheduler:
                summary.interrupted = _run_dask(todo, scheduler, on_result, on_failure)
            elif workers == 0:
                summary.interrupted = _run_inline(todo, on_result)
            else:
                summary.interrupted = _run_local(todo, workers, on_result, on_failure)
        finally:
            bar.close()
    finally:
        store.close()
    summary.elapsed_s = time.perf_counter() - start
    return summary


def _progress(enabled: bool, total: int, initial: int, desc: str):
    from tqdm.auto import tqdm

    return tqdm(total=total, initial=initial, desc=desc, unit="task", disable=not enabled,
                file=sys.stderr, dynamic_ncols=True)


# ---- executors ----------------------------------------------------------------------------------

OnResult = Callable[[dict], None]
OnFailure = Callable[[dict, BaseException], None]


def _run_inline(todo: list[dict], on_result: OnResult) -> bool:
    try:
        for t in todo:
            on_result(run_task(t))
    except KeyboardInterrupt:
        return True
    return False


def _worker_init(parent: int | None = None) -> None:
    # Ctrl-C in a terminal reaches the whole process group; let the parent decide.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGKILL of the parent must not leave workers running (and solving) as orphans
    from mlopt.lifeline import watch_parent

    watch_parent(parent)


def _mp_context(preload: list[str]):
    """``forkserver`` where available: one fresh server process imports mlopt (and the family's
    module) once and forks the workers from it, so worker start-up is cheap and no state of
    this (possibly multi-threaded) process leaks into them; ``spawn`` elsewhere."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        # used when the server starts (once per process); modules that fail to import are
        # skipped by multiprocessing, so a broken family cannot break the pool
        ctx.set_forkserver_preload(["mlopt.harness.tasks", "mlopt.solvers",
                                    *preload])
        return ctx
    return multiprocessing.get_context("spawn")


def _new_pool(workers: int, preload: list[str]) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=_mp_context(preload),
                               initializer=_worker_init, initargs=(os.getpid(),))


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop a pool now: cancel queued work and end its worker processes."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:  # the pool's own children only
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=5)


def _run_local(todo: list[dict], workers: int, on_result: OnResult,
               on_failure: OnFailure) -> bool:
    """Bounded in-flight submission (2 per worker) so Ctrl-C and pool breaks lose little."""
    workers = min(workers, len(todo))
    queue = list(reversed(todo))  # pop() from the end keeps spec order
    retried: set[str] = set()
    preload = sorted({t["family_module"] for t in todo
                      if t.get("family_module") and t["family_module"] != "__main__"})
    pool = _new_pool(workers, preload)
    pending: dict = {}
    try:
        while queue or pending:
            while queue and len(pending) < 2 * workers:
                t = queue.pop()
                pending[pool.submit(run_task, t)] = t
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            broken = False
            for fut in finished:
                t = pending.pop(fut)
                try:
                    res = fut.result()
                except BrokenProcessPool as err:
                    broken = True
                    if t["task_key"] in retried:
                        on_failure(t, err)
                    else:
                        retried.add(t["task_key"])
                        queue.append(t)
                except Exception as err:  # infrastructure (pickling, import) problems
                    on_failure(t, err)
                else:
                    on_result(res)
            if broken:
                # every other in-flight future of a broken pool fails too: requeue them once
                for fut, t in list(pending.items()):
                    if fut.done() and not fut.cancelled() and fut.exception() is None:
                        on_result(fut.result())
                    elif t["task_key"] in retried:
                        on_failure(t, BrokenProcessPool("a worker process died"))
                    else:
                        retried.add(t["task_key"])
                        queue.append(t)
                pending.clear()
                _terminate(pool)
                pool = _new_pool(workers, preload)
    except KeyboardInterrupt:
        _terminate(pool)
        return True
    except BaseException:
        _terminate(pool)
        raise
    pool.shutdown(wait=True)
    return False


def _run_dask(todo: list[dict], scheduler: str, on_result: OnResult,
              on_failure: OnFailure) -> bool:
    try:
        from distributed import Client, as_completed
    except ImportError as err:
        raise InputError(f"Dask execution needs dask[distributed] ({err}); "
                         "pip install mlopt[dask]", field="scheduler", value=scheduler) from None
    try:
        client = Client(scheduler, timeout="20s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as err:
        raise InputError(f"cannot connect to the Dask scheduler ({err})", field="scheduler",
                         value=scheduler) from None
    futures = {}
    try:
        for t in todo:
            fut = client.submit(run_task, t, pure=False, key=f"mlopt-task-{t['task_key']}-"
                                f"{time.time_ns()}")
            futures[fut] = t
        for fut in as_completed(list(futures), loop=client.loop):
            t = futures.pop(fut)
            if fut.status == "finished":
                on_result(fut.result())
            else:
                try:
                    err = fut.exception()
                except BaseException as exc:  # cancelled, lost
                    err = exc
                on_failure(t, err if isinstance(err, BaseException) else RuntimeError(err))
            fut.release()
    except KeyboardInterrupt:
        client.cancel(list(futures))
        return True
    finally:
        client.close(timeout=10)
    return False
