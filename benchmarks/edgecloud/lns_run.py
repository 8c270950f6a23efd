"""``step_lns`` alone on one paper-ratio instance of exact_reach.py's shape (issue 21): its
checked schedule saved (``-o``), its rounds and the load average printed as JSON.

    python benchmarks/edgecloud/lns_run.py --jobs 100 --seed 1 --rng 1 --time-limit 540 \\
        -o benchmarks/edgecloud/data/step_lns_seed1.json
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from mlopt.families import get_family
from mlopt.families.edgecloud.generator import generate
from mlopt.machine import cpu_model


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1, help="the instance's seed")
    ap.add_argument("--rng", type=int, default=0, help="step_lns's seed (its neighbourhoods)")
    ap.add_argument("--time-limit", type=float, default=60.0)
    ap.add_argument("-o", "--output", help="the schedule file")
    a = ap.parse_args()
    fam = get_family("edgecloud")
    w = generate("paper-ratio", a.seed, n_jobs=a.jobs, arrival_window=a.jobs / 2)
    load0 = [round(x, 1) for x in os.getloadavg()]
    t0 = time.perf_counter()
    s = fam.run("step_lns", w, seed=a.rng, options={"time_limit": a.time_limit})
    wall = time.perf_counter() - t0
    chk = fam.check(w, s)
    assert chk.feasible, chk.summary()
    if a.output:
        s.save(a.output)
    print(json.dumps({"machine": cpu_model(), "argv": sys.argv[1:],
                      "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                      "jobs": a.jobs, "seed": a.seed, "rng": a.rng, "checked": chk.objective,
                      "start_objective": s.meta["start_objective"], "wall_s": round(wall, 1),
                      "load_start": load0, "load_end": [round(x, 1) for x in os.getloadavg()],
                      "rounds": s.timing["rounds"]}, indent=1))


if __name__ == "__main__":
    main()
