"""``placement_milp`` before and after its strengthening rows, in one run (one process, one
after the other): the plain form (``symmetry=False, run_rows=False``: the model before this
round), each row family alone, both, and both with the ``share_row`` cut (the bound runs in
the model's build, outside the solve's CPU), each with or without ``tight_bigm``, on `small`
instances with ``-p n_jobs=N``.

Every solve: HiGHS, one thread, warm-started from ``local_search``'s schedule (its defaults,
``perturb`` as given) through :mod:`mlopt.warmstart`, ``--time-limit`` seconds.  The
incumbent is re-checked by the family's checker.  One JSON line per (instance, variant) with
the status, checked objective, HiGHS's bound, wall and CPU seconds and the load average.

    python benchmarks/harmony/milp_ab.py --jobs 8 --seeds 0 1 --time-limit 120 \\
        --variants plain both -o benchmarks/harmony/data/milp_ab.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

from mlopt.families import get_family
from mlopt.models.harmony.placement import build_placement_milp, extract_schedule
from mlopt.warmstart import encode_schedule, solve_warm

# tight_bigm=False keeps each historic variant the model it named when its rows were measured
VARIANTS = {"plain": dict(symmetry=False, run_rows=False, tight_bigm=False),
            "symmetry": dict(symmetry=True, run_rows=False, tight_bigm=False),
            "run_rows": dict(symmetry=False, run_rows=True, tight_bigm=False),
            "both": dict(symmetry=True, run_rows=True, tight_bigm=False),
            "both+share": dict(symmetry=True, run_rows=True, share_row=True, tight_bigm=False),
            # this round's default: both rows and the big-M's from what one server holds
            "both+tight": dict(symmetry=True, run_rows=True, tight_bigm=True),
            "both+tight+share": dict(symmetry=True, run_rows=True, tight_bigm=True,
                                     share_row=True),
            # and time windows from the start schedule's checked objective (upper)
            "both+tight+share+upper": dict(symmetry=True, run_rows=True, tight_bigm=True,
                                           share_row=True, upper="start")}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, nargs="+", default=[8])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--time-limit", type=float, default=120.0)
    ap.add_argument("--variants", nargs="+", default=["plain", "both"], choices=list(VARIANTS))
    ap.add_argument("--ls-time", type=float, default=30.0, help="local_search's time limit")
    ap.add_argument("--perturb", default="ruin", help="local_search's perturbation")
    ap.add_argument("--upper", type=float, default=None,
                    help="for variants with upper: this checked average JCT instead of the "
                         "start's (a better schedule known from an earlier run)")
    ap.add_argument("--schedules", default=None,
                    help="a folder for the checked incumbents (n<jobs>_s<seed>_<variant>.json)")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    fam = get_family("harmony")
    with open(args.output, "a") as out:
        for n in args.jobs:
            for seed in args.seeds:
                w = fam.generate("small", seed=seed, n_jobs=n)
                ls = fam.run("local_search", w, options={"time_limit": args.ls_time,
                                                         "perturb": args.perturb})
                chk = fam.check(w, ls)
                # only a checked objective is a valid upper (an infeasible one could cut OPT)
                assert chk.feasible, f"local_search's schedule fails the checker: {chk.summary()}"
                ls_obj = chk.objective
                for name in args.variants:
                    opts = dict(VARIANTS[name])
                    if opts.get("upper") == "start":  # the checked local_search objective
                        opts["upper"] = ls_obj if args.upper is None else args.upper
                    model = build_placement_milp(w, **opts)
                    start = encode_schedule("harmony", model, w, ls)
                    c0, t0, load0 = time.process_time(), time.perf_counter(), os.getloadavg()[0]
                    res = solve_warm(model, start, "highs", time_limit=args.time_limit)
                    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
                    sched = extract_schedule(model, w)
                    check = fam.check(w, sched)
                    if args.schedules and check.feasible:
                        Path(args.schedules).mkdir(parents=True, exist_ok=True)
                        sched.save(Path(args.schedules) / f"n{n}_s{seed}_{name}.json")
                    row = {"jobs": n, "seed": seed, "variant": name,
                           "time_limit": args.time_limit, "status": str(res.status.value),
                           "objective": check.objective if check.feasible else None,
                           "bound": res.bound, "start": ls_obj,
                           "upper": opts.get("upper"),
                           "warm": res.options.get("warm_start", {}).get("used"),
                           "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
                           "load_start": load0, "load_end": os.getloadavg()[0]}
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
