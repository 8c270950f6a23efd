"""Benchmark: load the full Philly trace (82,247 rows) and build a 1,000-job Workload.

Targets on the development machine: < 5 s and < 500 MB for load + convert.  Measured side by
side in one run (absolute times on shared machines drift):

* ``load``: ``mlopt.traces.load_trace("philly")`` (per-row validation and accounting);
* ``reference``: a straightforward ``pandas.read_csv`` + ``to_datetime`` + sort of the same
  file with no checks, the floor a loader can hope for;
* ``convert``: ``trace_to_workload(table, n_jobs=1000, seed=0)`` on the default cluster
  (``ec2-paper``, 100 servers) with the default demand source (Alibaba pods when available),
  including the final ``validate`` round trip.

Times are medians over ``--repeats`` runs (wall clock, ``time.perf_counter``).  Memory: the
tracemalloc peak of one load + convert (Python allocations, incl. numpy/pandas buffers), and the
process's peak resident set size (``resource.getrusage(...).ru_maxrss``) after imports and after
all runs.  ``--write PATH`` writes a markdown summary stamped with machine, date and versions.

Run from the project root:
    python benchmarks/traces/load.py --write benchmarks/traces/load.md
"""
from __future__ import annotations

import argparse
import datetime as dt
import os
import platform
import resource
import statistics
import sys
import time
import tracemalloc

import numpy as np
import pandas as pd

import mlopt
from mlopt.machine import cpu_model
from mlopt.traces import load_trace, trace_to_workload
from mlopt.traces.paths import shared_traces_dir

TARGET_SECONDS = 5.0
TARGET_MB = 500.0


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # KiB on Linux


def _reference(path) -> pd.DataFrame:
    df = pd.read_csv(path)
    df["timestamp"] = pd.to_datetime(df["timestamp"], format="%Y-%m-%d %H:%M:%S")
    return df.sort_values("timestamp", kind="stable")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--jobs", type=int, default=1000)
    ap.add_argument("--write", metavar="PATH", help="write a markdown summary here")
    args = ap.parse_args(argv)
    root = shared_traces_dir()
    if root is None:
        print("../shared/traces is not available: nothing to benchmark", file=sys.stderr)
        return 1
    path = root / "philly-pollux" / "philly.csv"
    rss_imports = _rss_mb()
    load0 = os.getloadavg()

    t_load, t_ref, t_conv, t_total = [], [], [], []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        table, report = load_trace("philly")
        t1 = time.perf_counter()
        w = trace_to_workload(table, n_jobs=args.jobs, seed=0, report=report)
        t2 = time.perf_counter()
        _reference(path)
        t3 = time.perf_counter()
        t_load.append(t1 - t0)
        t_conv.append(t2 - t1)
        t_total.append(t2 - t0)
        t_ref.append(t3 - t2)

    tracemalloc.start()
    table, report = load_trace("philly")
    _, peak_load = tracemalloc.get_traced_memory()
    w = trace_to_workload(table, n_jobs=args.jobs, seed=0, report=report)
    _, peak_all = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_end = _rss_mb()

    med = statistics.median
    rows = {
        "load (load_trace philly)": med(t_load),
        "reference (read_csv + to_datetime + sort)": med(t_ref),
        f"convert (trace_to_workload, {args.jobs} jobs)": med(t_conv),
        "load + convert": med(t_total),
    }
    mem = {
        "tracemalloc peak, load": peak_load / 2**20,
        "tracemalloc peak over load + convert": peak_all / 2**20,
        "ru_maxrss after imports": rss_imports,
        "ru_maxrss after all runs": rss_end,
    }
    ok_time = med(t_total) < TARGET_SECONDS
    ok_mem = rss_end < TARGET_MB
    stamp = {
        "date": dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "machine": f"{platform.node()} | {cpu_model()} | "
                   f"{len(os.sched_getaffinity(0))} cores"
                   f" | {platform.platform()}",
        "load": "load average (1/5/15 min) at start {:.2f} / {:.2f} / {:.2f}".format(*load0),
        "versions": f"python {platform.python_version()}, numpy {np.__version__}, pandas "
                    f"{pd.__version__}, mlopt {mlopt.__version__}",
    }
    lines = [
        "# Trace loading benchmark (`benchmarks/traces/load.py`)", "",
        f"- date: {stamp['date']}", f"- machine: {stamp['machine']}; {stamp['load']} "
        "(shared machine: compare rows of one run, not runs)",
        f"- versions: {stamp['versions']}",
        f"- command: `python benchmarks/traces/load.py --repeats {args.repeats} "
        f"--jobs {args.jobs}`",
        f"- input: `{path.name}`, {report.rows_read} rows read, {report.kept} kept, "
        f"{report.n_skipped} skipped, {report.reordered} re-sorted; workload: "
        f"{len(w.jobs)} jobs, {len(w.servers)} servers, T = {w.horizon} slots of "
        f"{w.slot_seconds:g} s, demand {w.meta['demand']['kind']}", "",
        f"| stage | median of {args.repeats} (s) | min (s) |", "|---|---:|---:|",
    ]
    mins = [min(t_load), min(t_ref), min(t_conv), min(t_total)]
    for (name, value), lo in zip(rows.items(), mins):
        lines.append(f"| {name} | {value:.3f} | {lo:.3f} |")
    lines += ["", f"load / reference = {med(t_load) / med(t_ref):.2f}x", "",
              "| memory | MB |", "|---|---:|"]
    lines += [f"| {k} | {v:.1f} |" for k, v in mem.items()]
    lines += ["", f"Targets: load + convert < {TARGET_SECONDS:g} s: "
              f"{'met' if ok_time else 'MISSED'} ({med(t_total):.2f} s); peak RSS < "
              f"{TARGET_MB:g} MB: {'met' if ok_mem else 'MISSED'} ({rss_end:.0f} MB).",
              "", "duration fit of the built workload (model run time at the trace's GPU count "
              f"/ trace duration): {w.meta['duration_fit']}"]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write:
        with open(args.write, "w") as f:
            f.write(text)
    return 0 if ok_time and ok_mem else 2


if __name__ == "__main__":
    sys.exit(main())
