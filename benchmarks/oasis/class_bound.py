"""OASiS class relaxation's bound from a start schedule (issue 22, seventh round, bounds).

One committed instance, one budget, one solver, optional start schedule and options of
:func:`mlopt.families.oasis.bounds.class_relaxation.class_relaxation`; prints one JSON line:
the certified upper bound (the MILP solver's dual bound), the best checked schedule, the
per-round log, wall seconds and the 1-minute load at start and end.

    python benchmarks/oasis/class_bound.py --instance oasis-open-2 --budget 600 \
        --start benchmarks/oasis/data/start_open2_2870.json --solver highs

``--option confirm=SOLVER`` (class_relaxation's own second-solver question, eighth round;
``confirm=null`` turns it off) is reported as ``verified_by`` and ``confirm_answer``; the
older ``--confirm SOLVER`` re-solves the last round's model as it stands.
"""
from __future__ import annotations

import argparse
import json
import os
import time
from datetime import datetime, timezone

from mlopt.families.oasis.bounds.class_relaxation import class_relaxation
from mlopt.instances import load_instance
from mlopt.schedule import Schedule


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", default="oasis-open-2")
    ap.add_argument("--budget", type=float, default=600.0)
    ap.add_argument("--solver", default="highs")
    ap.add_argument("--start", default=None, help="a schedule file of the instance")
    ap.add_argument("--option", action="append", default=[],
                    help="key=value (value read as JSON) passed to class_relaxation")
    ap.add_argument("--save", default=None, help="write the best schedule here")
    ap.add_argument("--confirm", default=None, metavar="SOLVER",
                    help="re-solve the last round's model (every row added) with this second "
                         "solver, within --confirm-limit seconds, and report its answer")
    ap.add_argument("--confirm-limit", type=float, default=600.0)
    ap.add_argument("--lp", action="store_true",
                    help="only the LP relaxation of the merged model (options packing_cuts, "
                         "packing_k), solved by --solver")
    args = ap.parse_args(argv)
    wl = load_instance(args.instance)
    if args.lp:
        return _lp(args, wl)
    opts = {}
    for kv in args.option:
        k, _, v = kv.partition("=")
        try:
            opts[k] = json.loads(v)
        except json.JSONDecodeError:
            opts[k] = v
    start = Schedule.load(args.start) if args.start else None
    load = os.getloadavg()[0]
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t0 = time.perf_counter()
    res = class_relaxation(wl, time_limit=args.budget, solver=args.solver, warm_start=start,
                           keep_model=bool(args.confirm), **opts)
    sched = res.pop("schedule")
    model = res.pop("model", None)
    confirm = None
    if model is not None:
        from mlopt.solve import solve

        second = solve(model, args.confirm, time_limit=args.confirm_limit)
        # infeasible (cutoff mode) or an optimum / bound: the second solver's own word
        confirm = {"solver": f"{second.solver} {second.solver_version}",
                   "status": second.status.value, "objective": second.objective,
                   "bound": second.bound, "runtime_s": round(second.runtime_s, 1),
                   "cutoff_value": res.get("cutoff_value")}
    if args.save and sched is not None:
        sched.save(args.save)
    hi, lo = res["bound"], res["feasible_objective"]
    cmd = "python benchmarks/oasis/class_bound.py " + " ".join(
        [f"--instance {args.instance}", f"--budget {args.budget:g}", f"--solver {args.solver}"]
        + ([f"--start {args.start}"] if args.start else [])
        + [f"--option {kv}" for kv in args.option]
        + ([f"--confirm {args.confirm} --confirm-limit {args.confirm_limit:g}"]
           if args.confirm else []))
    print(json.dumps({"command": cmd, "started_utc": started, "instance": args.instance,
                      "budget_s": args.budget, "solver": args.solver, "options": opts,
                      "start": args.start, "wall_s": round(time.perf_counter() - t0, 1),
                      "load_1min_at_start": round(load, 2), "high": hi, "low": lo,
                      "width": None if hi is None or lo is None else (hi - lo) / hi,
                      "proven": res["proven"], "status": res["status"],
                      "relaxation_objective": res["relaxation_objective"],
                      "dropped": len(res["dropped"] or []), "rounds": res["rounds"],
                      "build_s": round(res["build_s"], 1), "cutoff_value": res["cutoff_value"],
                      "confirm": confirm, "verified_by": res.get("verified_by"),
                      "confirm_answer": res.get("confirm"),
                      "load_1min_at_end": round(os.getloadavg()[0], 2)}), flush=True)
    return 0


def _lp(args, wl) -> int:
    """The merged model's LP relaxation: its value says how much of the bound's gap is the
    compact model's (the rows' and branching's job) rather than the solver's time."""
    import pyomo.environ as pyo

    from mlopt.families.oasis.bounds.class_relaxation import build_class_relaxation
    from mlopt.solve import solve

    opts = dict(kv.partition("=")[::2] for kv in args.option)
    cuts = json.loads(opts.get("packing_cuts", "true"))
    k = int(opts.get("packing_k", 3))
    work = json.loads(opts.get("work_rows", "false"))
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    m, _merged, _members = build_class_relaxation(wl, cuts, k, work)
    rows = len(getattr(m, "packing_cuts", []))
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    built = time.perf_counter() - t0
    sol = solve(m, args.solver, time_limit=args.budget)
    print(json.dumps({"command": f"python benchmarks/oasis/class_bound.py --lp --instance "
                                 f"{args.instance} --budget {args.budget:g} --solver "
                                 f"{args.solver} " + " ".join(f"--option {kv}"
                                                              for kv in args.option),
                      "instance": args.instance, "packing_cuts": cuts, "packing_k": k,
                      "work_rows": work, "packing_rows": rows, "lp": sol.objective,
                      "status": sol.status.value,
                      "lp_s": round(sol.runtime_s, 1), "build_s": round(built, 1),
                      "load_1min_at_start": round(load, 2),
                      "load_1min_at_end": round(os.getloadavg()[0], 2)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
