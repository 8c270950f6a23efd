"""``local_search`` before/after its event replay, in one run on ``harmony-open-0``.

The baseline is the module as committed at ``--baseline`` (read with ``git show``, imported
from a temporary file); both run the same search (start ``insertion``, seed 0, rounds
unbounded) until the same time limit, one after the other (old first), in this process.
Reported per version: kicks, passes, moves, replay calls, kicks and replays per second of
the limit, the checker's objective, CPU seconds, and the load average around the run (the
machine is shared: CPU time is what the search got).

    python benchmarks/harmony/ls_speed.py --baseline 2f5d2c4 --time-limit 60 \
        -o benchmarks/harmony/data/ls_speed_60.json
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mlopt.families import get_family
from mlopt.families.harmony import local_search as new_module
from mlopt.instances import load_instance

MODULE = "mlopt/families/harmony/local_search.py"


def baseline_module(commit: str):
    """The local_search module as of ``commit``."""
    root = Path(__file__).resolve().parents[2]
    src = subprocess.run(["git", "-C", str(root), "show", f"{commit}:{MODULE}"], check=True,
                         capture_output=True, text=True).stdout
    path = Path(tempfile.mkdtemp()) / "local_search_baseline.py"
    path.write_text(src)
    spec = importlib.util.spec_from_file_location("local_search_baseline", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def measure(mod, workload, time_limit: float) -> dict:
    """One search with ``mod``'s run_local_search; replay calls counted."""
    calls = {"n": 0}
    for name in ("total", "set_base"):
        fn = getattr(mod.Replay, name, None)
        if fn is not None:
            def counted(self, *a, _fn=fn, **k):
                calls["n"] += 1
                return _fn(self, *a, **k)
            setattr(mod.Replay, name, counted)
    load0 = os.getloadavg()
    c0, w0 = time.process_time(), time.perf_counter()
    out = mod.run_local_search(workload, start="insertion", time_limit=time_limit,
                               rounds=1_000_000, seed=0)
    cpu, wall = time.process_time() - c0, time.perf_counter() - w0
    check = get_family("harmony").check(workload, out)
    assert check.feasible
    meta = out.meta
    return {"objective": check.objective, "kicks": meta.get("kicks"),
            "passes": meta.get("passes"), "moves": meta.get("moves"),
            "replays": calls["n"], "kicks_per_s": meta.get("kicks", 0) / time_limit,
            "replays_per_s": calls["n"] / time_limit, "cpu_s": round(cpu, 1),
            "wall_s": round(wall, 1), "load_before": load0, "load_after": os.getloadavg()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline", required=True, help="commit of the old local_search")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("--instance", default="harmony-open-0")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args(argv)
    w = load_instance(a.instance)
    res = {"instance": a.instance, "time_limit": a.time_limit, "baseline": a.baseline,
           "cores": os.cpu_count()}
    for label, mod in (("before", baseline_module(a.baseline)), ("after", new_module)):
        res[label] = measure(mod, w, a.time_limit)
        print(label, res[label], flush=True)
    Path(a.output).write_text(json.dumps(res, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
