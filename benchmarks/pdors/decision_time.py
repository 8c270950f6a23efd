"""Per-job decision time of PD-ORS at the Fig. 9 scale (100 jobs, T = 80, 100 machines), with
the external-case LP kept as one HiGHS model per job (bounds and costs changed) against
rebuilding it for every solve.  Both give the same admissions and utility (tested); the timing is the
wall time of each job's decision (oracle + DP + bookkeeping) on this machine.

    python benchmarks/pdors/decision_time.py [--jobs 100] [--machines 100] [--horizon 80]

Writes ``results/decision_time.json``.
"""
from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from mlopt.families.pdors.checker import check_pdors
from mlopt.families.pdors.generator import generate
from mlopt.families.pdors.online import pdors_online
from mlopt.machine import cpu_model

OUT = Path(__file__).resolve().parent / "results"


def main(argv=None) -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--jobs", type=int, default=100)
    p.add_argument("--machines", type=int, default=100)
    p.add_argument("--horizon", type=int, default=80)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rebuild-jobs", type=int, default=None,
                   help="run the rebuild mode on only the first N jobs (default: all)")
    a = p.parse_args(argv)
    w = generate("paper-fig9", seed=a.seed, n_jobs=a.jobs, n_machines=a.machines,
                 horizon=a.horizon)
    out = {"instance": {"preset": "paper-fig9", "seed": a.seed, "n_jobs": a.jobs,
                        "n_machines": a.machines, "horizon": a.horizon},
           "machine": cpu_model()}
    def measure(wl, lp):
        t0 = time.perf_counter()
        run = pdors_online(wl, lp=lp)
        total = time.perf_counter() - t0
        secs = run.decision_seconds
        res = check_pdors(wl, run.schedule)
        d = {"jobs": len(wl.jobs), "total_s": total, "median_s": float(np.median(secs)),
             "p95_s": float(np.percentile(secs, 95)), "max_s": float(secs.max()),
             "lp_solves": run.stats.lp_solves, "lp_seconds": run.stats.lp_seconds,
             "objective": res.objective, "feasible": res.feasible,
             "admitted": len(run.schedule.admitted)}
        print(lp, len(wl.jobs), json.dumps(d), flush=True)
        return run, d

    full, out["persistent_full"] = measure(w, "persistent")
    sub = w if a.rebuild_jobs is None else w.with_jobs(w.jobs[:a.rebuild_jobs])
    per, out["persistent"] = (full, out["persistent_full"]) if a.rebuild_jobs is None else \
        measure(sub, "persistent")
    reb, out["rebuild"] = measure(sub, "rebuild")
    out["same_schedule"] = bool(per.schedule.allocations.equals(reb.schedule.allocations))
    out["speedup_lp_seconds"] = out["rebuild"]["lp_seconds"] / out["persistent"]["lp_seconds"]
    out["speedup_total"] = out["rebuild"]["total_s"] / out["persistent"]["total_s"]
    OUT.mkdir(exist_ok=True)
    (OUT / "decision_time.json").write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
