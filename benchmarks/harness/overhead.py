"""Harness overhead per task (excluding solve time) and throughput with 1 vs 2 local workers.

    python benchmarks/harness/overhead.py              # toy family, 40 tasks
    python benchmarks/harness/overhead.py --family oasis --tasks 20
    python benchmarks/harness/overhead.py --spec my.toml --repeats 3
    python benchmarks/harness/overhead.py --out benchmarks/harness/overhead.md

Side by side in one run, on the same tasks:

* ``direct``: ``run_task`` called in a plain loop (no store, no executor): the reference;
* ``inline``: ``run_spec(workers=0)``: adds spec parsing, the SQLite store (one transaction per
  task) and progress bookkeeping;
* ``local[1]`` / ``local[2]``: ``run_spec(workers=N)``: adds process dispatch and pickling.

Per run: ``wall / task`` and throughput; ``task wall`` = a task's own wall time (in its
worker); ``in-task bookkeeping`` = task wall minus its measured components (generate, build,
solve, extract, algorithms, checks, bounds): rows, JSON, the harness's share inside a task;
``outside-task overhead`` = (wall x workers - sum of task walls) / tasks: capacity spent on
dispatch, pickling, the store and waiting; ``parent CPU outside tasks`` = the parent's CPU time
minus the CPU of the tasks it ran itself (direct, inline) or all of it (pools: dispatch,
unpickling, SQLite).  CPU numbers are the stable ones on a loaded shared machine; wall numbers
drift with the load.
Medians over ``--repeats`` interleaved repeats; pools are measured warm (forkserver running),
the cold start is reported separately.  The default workload is the toy knapsack family of the
test suite (a ~10-binary MILP per task): solves are tiny, so overhead dominates (worst case).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))  # the toy family lives with the tests

import test_harness_toyfamily  # noqa: E402,F401  (registers harness_toy_max)

from mlopt.harness import ResultStore, build_tasks, load_spec, run_spec, run_task  # noqa: E402
from mlopt.harness.report import stamp  # noqa: E402

TOY_SPEC = """name = "overhead"
family = "harness_toy_max"
[[instances]]
preset = "small"
seeds = {{ start = 0, count = {n} }}
params = {{ n_jobs = 10 }}
[[algorithms]]
name = "greedy"
[[algorithms]]
name = "random"
[offline]
time_limit = 30
"""
OASIS_SPEC = """name = "overhead-oasis"
family = "oasis"
[[instances]]
preset = "tiny"
seeds = {{ start = 0, count = {n} }}
params = {{ n_jobs = 4 }}
[[algorithms]]
name = "oasis"
[[algorithms]]
name = "fifo"
[offline]
time_limit = 30
"""


def components(rows: list[dict]) -> float:
    """Measured work inside a task: solver, algorithms, bounds, build/extract/check, generate."""
    total = 0.0
    for r in rows:
        total += r["runtime_s"] or 0.0
        t = json.loads(r["timing"])
        total += sum(v for k, v in t.items()
                     if k in ("build_s", "extract_s", "check_s"))
        if r["method_kind"] == "offline":  # the solve layer's own wall around the solver
            total += max(t.get("solve_wall_s", 0.0) - (r["runtime_s"] or 0.0), 0.0)
    total += json.loads(rows[0]["timing"]).get("generate_s", 0.0)
    return total


def burn(n: int) -> float:
    """Pure-Python CPU loop: the control for how well 2 processes scale on this machine now."""
    t0 = time.perf_counter()
    acc = 0
    for i in range(n):
        acc += i * i
    return time.perf_counter() - t0


def machine_scaling(repeats: int) -> float:
    """Throughput of 2 processes / 1 process on a pure CPU loop (2.0 = two free cores)."""
    from concurrent.futures import ProcessPoolExecutor

    ratios = []
    for _ in range(repeats):
        walls = {}
        for w in (1, 2):
            with ProcessPoolExecutor(w) as ex:
                list(ex.map(burn, [1000] * w))
                t0 = time.perf_counter()
                list(ex.map(burn, [1_000_000] * 4))
                walls[w] = time.perf_counter() - t0
        ratios.append(walls[1] / walls[2])
    return statistics.median(ratios)


def pool_start(repeats: int) -> float:
    """Warm start of a local pool (forkserver already up): new pool -> first trivial result."""
    from mlopt.harness.runner import _new_pool

    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        pool = _new_pool(1, ["test_harness_toyfamily"])
        pool.submit(os.getpid).result()
        times.append(time.perf_counter() - t0)
        pool.shutdown()
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spec", help="spec to benchmark (default: a built-in one, see --family)")
    ap.add_argument("--family", choices=["toy", "oasis"], default="toy",
                    help="built-in spec: toy knapsack (default) or OASiS 'tiny' instances")
    ap.add_argument("--tasks", type=int, default=40, help="toy tasks (default 40)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--out", help="write the markdown summary here")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="harness-bench-"))
    try:
        spec_path = Path(args.spec) if args.spec else work / "spec.toml"
        if not args.spec:
            spec_path.write_text((TOY_SPEC if args.family == "toy" else OASIS_SPEC)
                                 .format(n=args.tasks))
        spec = load_spec(spec_path)
        tasks = build_tasks(spec)
        n = len(tasks)

        # warm up: imports, first solves, and the forkserver (its cold start reported apart)
        results = [run_task(t) for t in tasks[: min(n, 3)]]
        t0 = time.perf_counter()
        summary = run_spec(spec_path, work / "cold", workers=1, progress=False)
        cold = (time.perf_counter() - t0) / n
        assert summary.ok, summary

        # every repeat runs all executors in turn, so load drift on a shared machine hits all
        # of them alike
        executors = (("direct loop (reference)", None), ("inline", 0), ("local[1]", 1),
                     ("local[2]", 2))
        stats = {label: {"wall": [], "outside": [], "cpu": [], "task_wall": [], "in_task": []}
                 for label, _ in executors}
        load = [os.getloadavg()[0]]
        for rep in range(args.repeats):
            for label, workers in executors:
                out = work / f"run-{rep}-{workers}"
                c0, t0 = time.process_time(), time.perf_counter()
                if workers is None:
                    results = [run_task(t) for t in tasks]
                else:
                    summary = run_spec(spec_path, out, workers=workers, progress=False)
                wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                if workers is None:
                    groups = [res["rows"] for res in results]
                else:
                    assert summary.ok and summary.completed == n, summary
                    with ResultStore(out / "results.sqlite") as st:
                        df = st.to_frame()
                    groups = [g.to_dict("records") for _, g in df.groupby("task_key")]
                    shutil.rmtree(out)
                timing = [json.loads(rows[0]["timing"]) for rows in groups]
                task_wall = sum(t["task_wall_s"] for t in timing)
                task_cpu = sum(t["task_cpu_s"] for t in timing)
                in_task = sum(t["task_wall_s"] - components(rows)
                              for t, rows in zip(timing, groups))
                parent = cpu - task_cpu if workers in (None, 0) else cpu
                st_ = stats[label]
                st_["wall"].append(wall / n)
                st_["outside"].append((wall * max(workers or 0, 1) - task_wall) / n)
                st_["cpu"].append(parent / n)
                st_["task_wall"].append(task_wall / n)
                st_["in_task"].append(in_task / n)
        load.append(os.getloadavg()[0])
        control = machine_scaling(args.repeats)
        start = pool_start(args.repeats)

        # the last direct results: in-task breakdown and the store's commit cost alone
        solve = [sum(r["runtime_s"] or 0.0 for r in res["rows"] if r["method_kind"] == "offline")
                 for res in results]
        with ResultStore(work / "commit.sqlite") as store:
            t0 = time.perf_counter()
            for res in results:
                store.add_task(res["rows"])
            commit = (time.perf_counter() - t0) / n

        def med(label, key):
            return statistics.median(stats[label][key])

        base = med(executors[0][0], "wall")
        lines = [
            "# Harness overhead", "", stamp(), "",
            f"Command: `python benchmarks/harness/overhead.py"
            f"{' --spec ' + args.spec if args.spec else ' --family ' + args.family} "
            f"--tasks {args.tasks} --repeats {args.repeats}`", "",
            f"Spec `{spec.name}` (family `{spec.family}`): {n} tasks, each = generate + offline "
            f"MILP ({spec.solver}) + {len(spec.algorithms)} algorithms + checks. "
            f"Medians of {args.repeats} interleaved repeats. Load average (1 min) before / "
            f"after: {load[0]:.1f} / {load[1]:.1f} on {os.cpu_count()} CPUs.", "",
            "| executor | wall / task (ms) | tasks / s | vs direct | task wall (ms) | "
            "in-task bookkeeping (ms) | outside-task overhead / task (ms) | "
            "parent CPU outside tasks / task (ms) |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for label, _ in executors:
            lines.append(f"| {label} | {1e3 * med(label, 'wall'):.1f} | "
                         f"{1 / med(label, 'wall'):.1f} | {med(label, 'wall') / base:.2f} | "
                         f"{1e3 * med(label, 'task_wall'):.1f} | "
                         f"{1e3 * med(label, 'in_task'):.2f} | "
                         f"{1e3 * med(label, 'outside'):.1f} | {1e3 * med(label, 'cpu'):.2f} |")
        lines += [
            "",
            f"- solver runtime inside a task: median {1e3 * statistics.median(solve):.1f} ms",
            f"- SQLite commit of one task's rows alone (WAL, synchronous=NORMAL): "
            f"{1e3 * commit:.2f} ms",
            f"- cold start of the first local pool (forkserver + imports), per task over {n} "
            f"tasks: {1e3 * cold:.1f} ms wall / task",
            f"- warm start of a local pool (every run_spec call; forkserver already up): "
            f"{1e3 * start:.0f} ms, i.e. {1e3 * start / n:.1f} ms / task of the local runs' "
            f"outside-task overhead at {n} tasks",
            f"- throughput local[2] / local[1]: "
            f"{med('local[1]', 'wall') / med('local[2]', 'wall'):.2f}x; control, a pure-Python "
            f"CPU loop in 1 vs 2 processes on this machine right now: {control:.2f}x",
        ]
        text = "\n".join(lines) + "\n"
        print(text)
        if args.out:
            Path(args.out).write_text(text)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
