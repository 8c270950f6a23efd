"""Exact reach of ``jct_step`` against ``jct_milp`` (issue 21): paper-ratio shapes with 5 edge
servers (offline_reach.py's shape: n jobs over an arrival window of n / 2 slots), HiGHS (or
``--solver scip``) with one thread, each model warm-started from the better of A_online and
pool_greedy (checked).

    python benchmarks/edgecloud/exact_reach.py --jobs 60 80 100 --seeds 0 1 2 \\
        --models jct_step --time-limit 600 > benchmarks/edgecloud/data/exact_reach.json

Every row: the start's checked objective, the solver's status, incumbent and dual bound, the
extracted schedule's checked objective (the reported upper end), and pool_lb.

    python benchmarks/edgecloud/exact_reach.py --lp --models jct_milp jct_step \
        > benchmarks/edgecloud/data/exact_reach_lp.json

``--lns S``: ``step_lns`` runs first for S seconds of the same ``--time-limit`` and the MILP
starts from its schedule when it beats the others (the MILP gets the rest of the budget).

``--lp``: the LP relaxation of each model instead (where the MILP loses: its root bound against
the best start and pool_lb); jct_step without its pool_lb row, so the LP is the model's own.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time

from mlopt.families import get_family
from mlopt.families.edgecloud.generator import generate
from mlopt.families.edgecloud.pool_bound import pool_lb
from mlopt.machine import cpu_model
from mlopt.warmstart import Candidate, best_start, encode_schedule, solve_warm

START_FROM = ("a_online", "pool_greedy")


def model_spec(spec: str) -> tuple[str, dict]:
    """``name`` or ``name:key=value,key=value`` (the formulation's declared options, checked;
    booleans as 0/1): e.g. ``jct_step:tight=0,pool_cut=1`` is jct_step before the tight rows."""
    from mlopt.params import check_values

    name, _, rest = spec.partition(":")
    raw = dict(kv.split("=", 1) for kv in rest.split(",") if kv)
    declared = get_family("edgecloud").formulation(name).options
    vals = {k: (bool(int(v)) if declared.get(k) is not None and declared[k].kind == "bool"
                else v) for k, v in raw.items()}
    return name, check_values(declared, vals)


def solver_options(pairs: list[str]) -> dict:
    """``key=value`` HiGHS options; numbers parsed as int or float."""
    out = {}
    for kv in pairs:
        k, v = kv.split("=", 1)
        for cast in (int, float):
            try:
                v = cast(v)
                break
            except ValueError:
                continue
        out[k] = v
    return out


def lns_start(w, seconds: float):
    """step_lns's schedule within ``seconds`` (its time limit; checked), and the seconds used."""
    fam = get_family("edgecloud")
    t0 = time.perf_counter()
    s = fam.run("step_lns", w, seed=0, options={"time_limit": seconds})
    chk = fam.check(w, s)
    assert chk.feasible, chk.summary()
    return Candidate("step_lns", s, chk.objective), time.perf_counter() - t0


def one(n: int, seed: int, spec: str, limit: float, solver: str = "highs",
        options: dict | None = None, lns: float = 0.0) -> dict:
    fam = get_family("edgecloud")
    model, kw = model_spec(spec)
    w = generate("paper-ratio", seed, n_jobs=n, arrival_window=n / 2)
    cand = best_start(w, "edgecloud", START_FROM)
    lns_s = 0.0
    if lns > 0:  # the LNS inside the same budget: the MILP gets what it leaves
        found, lns_s = lns_start(w, lns)
        if found.objective < cand.objective:
            cand = found
    t0 = time.perf_counter()
    m = fam.model(model)(w, **kw)
    build = time.perf_counter() - t0
    r = solve_warm(m, encode_schedule("edgecloud", m, w, cand.schedule), solver,
                   time_limit=max(1.0, limit - lns_s), threads=1, options=options or None)
    sched = fam.extract[model](m, w)
    chk = fam.check(w, sched)
    return {"jobs": n, "seed": seed, "edge_servers": 5, "model": spec, "solver": solver,
            "solver_options": options or {}, "lns_s": round(lns_s, 2),
            "start": {"algorithm": cand.algorithm, "objective": cand.objective},
            "build_s": round(build, 2), "solve_s": round(r.runtime_s, 2),
            "status": r.status.value, "objective": r.objective, "bound": r.bound, "gap": r.gap,
            "checked": chk.objective if chk.feasible else None,
            "pool_lb": pool_lb(w)["bound"], "load_1min": round(os.getloadavg()[0], 1)}


def lp_row(n: int, seed: int, spec: str) -> dict:
    import pyomo.environ as pyo

    from mlopt.solve import solve

    fam = get_family("edgecloud")
    model, kw = model_spec(spec)
    if model == "jct_step":
        kw.setdefault("pool_cut", False)
    w = generate("paper-ratio", seed, n_jobs=n, arrival_window=n / 2)
    m = fam.model(model)(w, **kw)
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    r = solve(m, "highs", threads=1)
    best = best_start(w, "edgecloud", START_FROM)
    return {"jobs": n, "seed": seed, "model": spec, "lp_status": r.status.value,
            "lp": r.objective, "lp_s": round(r.runtime_s, 2), "pool_lb": pool_lb(w)["bound"],
            "best_start": best.objective, "start_algorithm": best.algorithm}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, nargs="+", default=[60, 80, 100])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--models", nargs="+", default=["jct_step"])
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--lp", action="store_true", help="LP relaxations only (seconds)")
    ap.add_argument("--solver", default="highs", help="highs or scip (one thread)")
    ap.add_argument("--lns", type=float, default=0.0, metavar="SECONDS",
                    help="run step_lns for SECONDS first (inside --time-limit) and start "
                         "the MILP from its schedule when better")
    ap.add_argument("--option", nargs="*", default=[], metavar="KEY=VALUE",
                    help="solver options, e.g. mip_heuristic_effort=0.3")
    a = ap.parse_args()
    out = {"machine": cpu_model(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "time_limit_s": a.time_limit, "threads": 1, "argv": sys.argv[1:], "runs": []}
    for n in a.jobs:
        for seed in a.seeds:
            for model in a.models:
                row = lp_row(n, seed, model) if a.lp else one(
                    n, seed, model, a.time_limit, a.solver, solver_options(a.option), a.lns)
                out["runs"].append(row)
                print(json.dumps(row), flush=True, file=sys.stderr)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
