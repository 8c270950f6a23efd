"""Rule out every schedule of JCT sum <= U by cases: the start vectors ``share``'s reduced costs
and the pooled capacity leave (rc_combos.py's first two stages), grouped by the starts of the
first P jobs; per group, ``placement_milp`` with ``upper`` = U / J and every other start fixed at
0 (each job keeps the starts seen in the group).  Every schedule of sum <= U has its start
vector among them (share_fixing's ARGUMENT, pooled capacity per interval), so if HiGHS proves
every group infeasible, OPT > U / J (``--solver scip``: a second solver's word on each group).
One JSON line per group, with the load average.  ``--rc-runs``: each group's model also
has ``placement_milp``'s ``rc_runs`` rows (one run per job within the slack, the reduced costs'
knapsack), which keep every schedule of sum <= U (models/harmony/placement.py).  Resumable: a
group already in the output file for the same seed, sum, solver and rows is skipped (and
counted from its line).

    python benchmarks/harmony/rc_prove.py --seed 0 --sum 36 -p n_jobs=10 --prefix 2 --rc-runs \\
        -o benchmarks/harmony/data/small10/rc_prove_seed0.jsonl

    python benchmarks/harmony/rc_prove.py --seed 2 --sum 34 -p n_jobs=10 --prefix 4 \\
        -o benchmarks/harmony/data/small10/rc_prove_seed2.jsonl
    python benchmarks/harmony/rc_prove.py --seed 2 --sum 34 -p n_jobs=10 --prefix 4 \\
        --solver scip -o benchmarks/harmony/data/small10/rc_prove_seed2_scip.jsonl
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from mlopt.families import get_family
from mlopt.families.harmony.share_fixing import pooled_combinations
from mlopt.models.harmony import build_placement_milp, extract_schedule
from mlopt.solve import solve


def start_vectors(w, U):
    """Every start vector of a combination within the slack that fits the pooled capacity;
    None when `share` has nothing to say (no prices: nothing can be ruled out)."""
    got = pooled_combinations(w, U)
    return None if got is None else {tuple(s for s, _ in runs) for runs in got[2]}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="small")
    ap.add_argument("-p", "--param", action="append", default=[])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--sum", type=int, required=True, help="U: the sum of JCTs to rule out")
    ap.add_argument("--prefix", type=int, default=4, help="group by the first P jobs' starts")
    ap.add_argument("--time-limit", type=float, default=300.0, help="solver seconds per group")
    ap.add_argument("--solver", default="highs", help="highs, or scip for a second word")
    ap.add_argument("--rc-runs", action="store_true",
                    help="add placement_milp's rc_runs rows to every group's model")
    ap.add_argument("--no-presolve", action="store_true",
                    help="HiGHS without presolve (part of mlopt.solve.VERIFY_SETTINGS)")
    ap.add_argument("--only", type=int, nargs="*", default=None,
                    help="run only these group indices (0-based, sorted order)")
    ap.add_argument("-o", "--output", required=True)
    args = ap.parse_args(argv)
    params = {k: int(v) for k, v in (p.split("=", 1) for p in args.param)}
    w = get_family("harmony").generate(args.preset, seed=args.seed, **params)
    vectors = start_vectors(w, args.sum)
    if vectors is None:
        sys.exit("share has no prices for this workload: nothing is ruled out, no proof")
    if not vectors:  # no combination of runs fits the slack and the pooled capacity
        print(json.dumps({"seed": args.seed, "sum": args.sum, "vectors": 0, "groups": 0,
                          "status": "proven: no start vector survives, so no schedule has "
                                    f"a JCT sum <= {args.sum}"}), flush=True)
        return
    ids = [j.id for j in w.jobs]
    groups: dict = {}
    for S in vectors:
        groups.setdefault(S[:args.prefix], []).append(S)
    upper = args.sum / len(ids)
    opts = {"presolve": "off"} if args.no_presolve else None
    # the workload's hash is part of the key: two instances written to one file (another
    # preset or -p) must not share "infeasible" lines (found by review); a line without it
    # (written before) is solved again
    workload = w.content_hash()
    key = (workload, args.seed, args.sum, args.solver, args.rc_runs, args.prefix, bool(opts))
    done = {}  # prefix -> status of a group already solved (resume)
    if os.path.exists(args.output):
        with open(args.output) as f:
            for line in f:
                r = json.loads(line)
                if "prefix" in r and (r.get("workload"), r["seed"], r["sum"], r["solver"],
                                      r.get("rc_runs", False),
                                      len(r["prefix"]), bool(r.get("options"))) == key:
                    done[tuple(r["prefix"])] = r["status"]
    statuses: list = []
    with open(args.output, "a") as out:
        for gi, pre in enumerate(sorted(groups)):
            if pre in done:
                statuses.append(done[pre])
                continue
            if args.only is not None and gi not in args.only:
                statuses.append("not run")
                continue
            keep = [{S[i] for S in groups[pre]} for i in range(len(ids))]
            m = build_placement_milp(w, upper=upper, rc_runs=args.rc_runs)
            for (n, t) in m.JT:
                if t not in keep[ids.index(n)]:
                    m.st[n, t].fix(0)
            t0, c0, load0 = time.perf_counter(), time.process_time(), os.getloadavg()[0]
            res = solve(m, args.solver, time_limit=args.time_limit, options=opts)
            row = {"workload": workload, "seed": args.seed, "sum": args.sum,
                   "solver": args.solver,
                   "rc_runs": args.rc_runs, **({"options": opts} if opts else {}),
                   "group": gi, "vectors": len(vectors),
                   "groups": len(groups), "prefix": list(pre), "in_group": len(groups[pre]),
                   "status": str(res.status.value if hasattr(res.status, "value") else
                                 res.status),
                   "wall_s": round(time.perf_counter() - t0, 2),
                   "cpu_s": round(time.process_time() - c0, 2),
                   "load_start": load0, "load_end": os.getloadavg()[0]}
            if res.has_solution:  # a schedule of sum <= U: the checker, not the MILP, says
                sched = extract_schedule(m, w)
                chk = get_family("harmony").check(w, sched)
                path = f"{os.path.splitext(args.output)[0]}_group{gi}.json"
                sched.save(path)
                row.update(schedule=path, checked_feasible=bool(chk.feasible),
                           checked_objective=float(chk.objective))
            out.write(json.dumps(row) + "\n")
            out.flush()
            print(json.dumps(row), flush=True)
            statuses.append(row["status"])
    ruled_out = len(statuses) == len(groups) and all(st == "infeasible" for st in statuses)
    print(f"{len(groups)} groups: " + (f"every one infeasible ({args.solver}'s word), so no "
          f"schedule has a JCT sum <= {args.sum}" if ruled_out else
          "not every group is infeasible: nothing proven"), flush=True)


if __name__ == "__main__":
    main()
