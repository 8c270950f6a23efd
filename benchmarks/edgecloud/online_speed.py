"""A_online decision time on paper-sim (300 jobs, 100 edge servers), and the fast A_greedy vs the
plain transliteration (mlopt.families.edgecloud.reference) side by side on the same instances.

    python benchmarks/edgecloud/online_speed.py > benchmarks/edgecloud/data/online_speed.json

``whole_run_s`` is A_online end to end (A_greedy, A_ps and the schedule table of ~10^6 rows);
``decision_*`` is A_greedy's time per arriving job.  Side by side: A_greedy alone, fast vs the
transliteration (which rescans every planned slot of a worker per Q and shifts slot by slot),
on paper-sim with 50, 100 and 300 jobs.
"""
from __future__ import annotations

import json
import time

import numpy as np

from mlopt.families.edgecloud.generator import generate
from mlopt.families.edgecloud.online import a_online
from mlopt.families.edgecloud.reference import a_greedy_reference
from mlopt.machine import cpu_model


def main() -> None:
    out = {"machine": cpu_model(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "full": [], "side_by_side": []}
    for seed in (0, 1, 2):
        w = generate("paper-sim", seed)
        t0 = time.perf_counter()
        run = a_online(w)
        total = time.perf_counter() - t0
        d = np.array(run.decision_s)
        out["full"].append({"seed": seed, "jobs": len(w.jobs), "whole_run_s": round(total, 3),
                            "decision_median_ms": round(1e3 * float(np.median(d)), 3),
                            "decision_p95_ms": round(1e3 * float(np.percentile(d, 95)), 3),
                            "greedy_total_s": round(float(d.sum()), 3)})
    for n in (50, 100, 300):
        w = generate("paper-sim", 0, n_jobs=n)
        run = a_online(w)
        fast = float(sum(run.decision_s))  # A_greedy only: what the reference implements
        t0 = time.perf_counter()
        a_greedy_reference(w)
        ref = time.perf_counter() - t0
        out["side_by_side"].append({"jobs": n, "fast_greedy_s": round(fast, 3),
                                    "reference_greedy_s": round(ref, 3),
                                    "speedup": round(ref / fast, 1)})
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
