"""The second solver on oasis-open-1's last round through SCIP's objective limit instead of the
cutoff row (benchmarks/oasis/frontier.md, tenth round): the check-and-cut loop of
``class_relaxation`` from the 782.93 schedule (HiGHS), then SCIP on its last round's model with
the cutoff row switched off and ``objlimit`` at c = v (1 + CONFIRM_STEP), CONFIRM_SETTINGS
(heuristics off, feastol 1e-9), one thread.  Prints the loop's result and SCIP's answer as
JSON lines; ``uptime`` before and after by the caller.

    python benchmarks/oasis/confirm_objlimit.py 1500 2400 > benchmarks/oasis/data/confirm_open1_scip_objlimit.jsonl

(``class_relaxation(confirm="scip")`` now asks the same question with the limit 1e-7 relative
below c: ``OBJLIMIT_MARGIN``.)
"""
from __future__ import annotations

import json
import sys
import time


def main(argv=None) -> int:
    from mlopt.families.oasis.bounds.class_relaxation import (CONFIRM_SETTINGS,
                                                              class_relaxation, confirm_level)
    from mlopt.instances import load_instance
    from mlopt.schedule import Schedule
    from mlopt.solve import solve

    args = sys.argv[1:] if argv is None else argv
    loop_s, scip_s = float(args[0]), float(args[1])
    w = load_instance("oasis-open-1")
    s = Schedule.load("benchmarks/oasis/data/best_open1_782.93.json")
    t0 = time.time()
    out = class_relaxation(w, time_limit=loop_s, warm_start=s, keep_model=True, confirm=None)
    print(json.dumps({**{k: out[k] for k in ("bound", "status", "cutoff_value",
                                              "feasible_objective", "proven")},
                      "loop_s": round(time.time() - t0, 1)}), flush=True)
    if not out["proven"]:
        return 0
    m, v = out["model"], out["feasible_objective"]
    c = confirm_level(v)
    m.cutoff_row.deactivate()
    t1 = time.time()
    res = solve(m, "scip", time_limit=scip_s, mip_gap=0.0, threads=1,
                options={**CONFIRM_SETTINGS["scip"](), "objlimit": c})
    print(json.dumps({"v": v, "c": c, "status": res.status.value, "objective": res.objective,
                      "bound": res.bound, "scip_s": round(time.time() - t1, 1),
                      "termination": res.termination}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
