"""Measure ``lns`` (mlopt.families.harmony.lns) from a start schedule and save every improvement.

    python benchmarks/harmony/lns_run.py --preset uniform --seed 0 \
        --start benchmarks/harmony/data/open0_best.json --time-limit 600 \
        --out benchmarks/harmony/data/lns/open0_lns_600.json

``--start local_search:S`` runs local_search for S seconds first instead of reading a file.
Every improving schedule is written to ``<out stem>_best.json`` as soon as it is found (and
checked); the JSON log (start, end, windows, trace, load average before and after) to --out.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path


def main(argv=None) -> int:
    from mlopt.families import get_family
    from mlopt.families.harmony.lns import lns_search
    from mlopt.schedule import Schedule

    ap = argparse.ArgumentParser()
    ap.add_argument("--preset", default="uniform")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-p", "--param", action="append", default=[], help="KEY=VALUE (JSON)")
    ap.add_argument("--start", required=True)
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--window", type=int, default=4)
    ap.add_argument("--window-time", type=float, default=10.0)
    ap.add_argument("--lns-seed", type=int, default=0)
    ap.add_argument("--neighbourhoods", nargs="+", default=None,
                    help="names from lns.NEIGHBOURHOODS (default: all)")
    ap.add_argument("--out", required=True)
    a = ap.parse_args(argv)
    fam = get_family("harmony")
    params = {k: json.loads(v) for k, v in (p.split("=", 1) for p in a.param)}
    w = fam.generate(a.preset, seed=a.seed, **params)
    if a.start.startswith("local_search:"):
        start = fam.run("local_search", w, seed=0,
                        options={"time_limit": float(a.start.split(":", 1)[1])})
    else:
        start = Schedule.load(a.start)
    out = Path(a.out)
    best_path = out.with_name(out.stem + "_best.json")

    def save(schedule, value):
        schedule.save(best_path)
        print(f"{time.strftime('%H:%M:%S')} {value:.6f} -> {best_path}", flush=True)

    load0, cpu0 = os.getloadavg(), time.process_time()
    best, log = lns_search(w, start, a.time_limit, seed=a.lns_seed, window=a.window,
                           window_time=a.window_time, on_improve=save,
                           neighbourhoods=a.neighbourhoods)
    cpu = time.process_time() - cpu0  # HiGHS runs in this process: its time is counted
    log.update(preset=a.preset, seed=a.seed, params=params, start_source=a.start,
               time_limit=a.time_limit, window=a.window, window_time=a.window_time,
               lns_seed=a.lns_seed, neighbourhoods=a.neighbourhoods, cpu_s=round(cpu, 1),
               checked=fam.check(w, best).objective,
               load_before=[round(v, 2) for v in load0],
               load_after=[round(v, 2) for v in os.getloadavg()],
               best_file=str(best_path) if log["improved"] else None)
    out.write_text(json.dumps(log, indent=1) + "\n")
    print(json.dumps({k: log[k] for k in ("start", "end", "windows", "improved")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
