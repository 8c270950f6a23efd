"""A_online speed (seed 003, issue 10): the fast A_mincost search (mlopt.families.hetero.mincost)
vs the plain transliteration of the printed loops (mlopt.families.hetero.reference), side by
side on the same inputs, and A_online end to end at paper-default scale (T = 150, H = 150).

    python benchmarks/hetero/online_speed.py --parts paper-default reference \
        --jobs 100 200 300 --seeds 0 1 2 -o benchmarks/hetero/data/online_speed.json

Three parts, each row with wall seconds (perf_counter) and CPU seconds of this process
(process_time; the machine is shared, so wall time includes waiting for a core):

* ``per_call``: one A_mincost query (Searcher.best vs ReferenceSearcher.best: A_mincost1 + 2, or
  the RA pair, over every configuration and start) on the same busy window -- the window
  is filled the way A_maxweight fills it (jobs in arrival order, the fast search's placement
  committed when its utility is positive); both answers must agree in cost and completion.
* ``fixed_calls``: Theorem 1's subproblem alone (one configuration, one start: cost_fixed) for
  A_mincost1 (PS, q = 0) and A^RA_mincost2 (q = 0), sampled on a busy window;
* ``online_small``: A_online end to end with either search where the reference is tractable
  (presets small / small-ra); ``identical`` = same placements and starts.
* ``paper_default``: A_online with the fast search on preset paper-default(-ra) (T = 150,
  H = 150) for several job counts and seeds; every schedule passes the checker.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

import numpy as np

from mlopt.families.hetero.checker import check_hetero
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.maxweight import default_F, lam_of
from mlopt.families.hetero.mincost import Searcher, Window
from mlopt.families.hetero.online import a_online, placements_to_schedule
from mlopt.families.hetero.reference import ReferenceSearcher
from mlopt.machine import cpu_model


def _timed(fn, *args, **kw):
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn(*args, **kw)
    return out, time.perf_counter() - w0, time.process_time() - c0


def per_call(preset: str, seed: int, n_jobs: int, n_servers: int, tau: int) -> list[dict]:
    w = generate(preset, seed=seed, n_jobs=n_jobs, n_servers=n_servers)
    data = hetero_data(w)
    lam = lam_of(data, default_F(data))
    win = Window(data, tau, lam)
    fast, ref = Searcher(data), ReferenceSearcher(data)
    for j in range(len(data.job_ids)):  # configurations and static checks outside the timing
        fast.groups(j)
        ref.configs(j)
    rows = []
    for j in map(int, np.argsort(data.arrival, kind="stable")):
        a, fw, fc = _timed(fast.best, j, win)
        b, rw, rc = _timed(ref.best, j, win)
        agree = (a is None) == (b is None) and (a is None or (
            abs(a.cost - b.cost) <= 1e-9 * max(1.0, abs(a.cost)) and a.completion == b.completion))
        rows.append({"preset": preset, "seed": seed, "jobs": n_jobs, "servers": n_servers,
                     "tau": tau, "job": j, "fast_wall_s": fw, "fast_cpu_s": fc,
                     "ref_wall_s": rw, "ref_cpu_s": rc, "same_placement":
                     (a is None and b is None) or (a is not None and b is not None
                                                   and vars(a) == vars(b)),
                     "agree": agree})
        if not agree:
            raise SystemExit(f"fast and reference disagree: {rows[-1]} {a} {b}")
        if a is not None and data.weight[j] > a.cost:
            win.commit(a)
    return rows


def fixed_calls(preset: str, seed: int, n_jobs: int, n_servers: int, tau: int,
                samples: int = 30) -> list[dict]:
    """Theorem 1's subproblem (13) / (21) alone: one configuration, one start (cost_fixed), on
    a window holding one job's placement; A_mincost1 (PS, q = 0) or A^RA_mincost2."""
    w = generate(preset, seed=seed, n_jobs=n_jobs, n_servers=n_servers)
    data = hetero_data(w)
    win = Window(data, tau, lam_of(data, default_F(data)))
    fast, ref = Searcher(data), ReferenceSearcher(data)
    for j in map(int, np.argsort(data.arrival, kind="stable")[:1]):  # one job: prices > 0
        pl = fast.best(j, win)
        if pl is not None and data.weight[j] > pl.cost:
            win.commit(pl)
    rng = np.random.default_rng(seed)
    pool = [(j, c, t) for j in range(len(data.job_ids)) for c in fast.configs(j)
            if c.q == 0 and c.d <= tau - 1 and fast.fits_empty(c)
            for t in [int(rng.integers(1, tau - c.d + 1))]
            if fast.cost_fixed(j, win, c, t) is not None]  # feasible ones: the full loops run
    rows = []
    for k in rng.choice(len(pool), size=min(samples, len(pool)), replace=False):
        j, c, start = pool[int(k)]
        a, fw, fc = _timed(fast.cost_fixed, j, win, c, start)
        b, rw, rc = _timed(ref.cost_fixed, j, win, c, start)
        if (a is None) != (b is None) or (a is not None and abs(a - b) > 1e-9 * max(1.0, abs(a))):
            raise SystemExit(f"cost_fixed disagrees: {c} {start} {a} {b}")
        rows.append({"preset": preset, "seed": seed, "servers": n_servers, "tau": tau,
                     "n": c.n, "d": c.d, "feasible": a is not None, "fast_cpu_s": fc,
                     "ref_cpu_s": rc, "fast_wall_s": fw, "ref_wall_s": rw})
    return rows


def online_small(preset: str, seed: int) -> dict:
    w = generate(preset, seed=seed)
    f, fw, fc = _timed(a_online, w)
    r, rw, rc = _timed(a_online, w, search=ReferenceSearcher)
    same = {j: (vars(p), s) for j, (p, s) in f.placements.items()} == \
        {j: (vars(p), s) for j, (p, s) in r.placements.items()}
    return {"preset": preset, "seed": seed, "jobs": len(w.jobs), "servers": len(w.servers),
            "fast_wall_s": fw, "fast_cpu_s": fc, "ref_wall_s": rw, "ref_cpu_s": rc,
            "identical": same}


def paper_default(arch: str, n_jobs: int, seed: int) -> dict:
    w = generate("paper-default" + ("-ra" if arch == "ra" else ""), seed=seed, n_jobs=n_jobs)
    load0 = os.getloadavg()[0]
    run, wall, cpu = _timed(a_online, w)
    s = placements_to_schedule(w, run.placements.values())
    chk = check_hetero(w, s)
    return {"arch": arch, "jobs": n_jobs, "servers": len(w.servers), "horizon": w.horizon,
            "seed": seed, "wall_s": round(wall, 3), "cpu_s": round(cpu, 3),
            "load_1min": [round(load0, 2), round(os.getloadavg()[0], 2)],
            "rounds": len(run.rounds), "feasible": chk.feasible, "wct": round(chk.objective, 3)}


def _med(rows, key):
    return statistics.median(r[key] for r in rows)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--jobs", type=int, nargs="+", default=[100, 200, 300])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2])
    ap.add_argument("--parts", nargs="+", default=["reference", "paper-default"],
                    choices=["reference", "paper-default"])
    ap.add_argument("-o", "--out", default="benchmarks/hetero/results/online_speed.json")
    a = ap.parse_args(argv)
    out = {"machine": cpu_model(), "cores": os.cpu_count(),
           "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
           "load_1min_start": round(os.getloadavg()[0], 2)}
    if "reference" in a.parts:
        calls = []
        for preset, jobs, servers in (("bench", 6, 4), ("bench-ra", 8, 6)):
            for seed in (0, 1):
                calls += per_call(preset, seed, n_jobs=jobs, n_servers=servers, tau=64)
        out["per_call"] = calls
        summ = []
        for preset in ("bench", "bench-ra"):
            for tau in (64,):
                rs = [r for r in calls if r["preset"] == preset and r["tau"] == tau]
                summ.append({"preset": preset, "tau": tau, "servers": rs[0]["servers"],
                             "calls": len(rs),
                             "fast_cpu_ms_median": round(1e3 * _med(rs, "fast_cpu_s"), 2),
                             "ref_cpu_ms_median": round(1e3 * _med(rs, "ref_cpu_s"), 1),
                             "speedup_median": round(statistics.median(
                                 r["ref_cpu_s"] / max(r["fast_cpu_s"], 1e-6) for r in rs), 1),
                             "speedup_total": round(sum(r["ref_cpu_s"] for r in rs)
                                                    / sum(r["fast_cpu_s"] for r in rs), 1),
                             "same_placement": sum(r["same_placement"] for r in rs)})
                print(summ[-1], flush=True)
        out["per_call_summary"] = summ
        fixed = fixed_calls("bench", 0, 4, 12, 64) + fixed_calls("bench-ra", 0, 4, 12, 64)
        out["fixed_calls"] = fixed
        out["fixed_summary"] = [
            {"preset": p, "samples": len(rs), "feasible": sum(r["feasible"] for r in rs),
             "fast_cpu_ms_median": round(1e3 * _med(rs, "fast_cpu_s"), 3),
             "ref_cpu_ms_median": round(1e3 * _med(rs, "ref_cpu_s"), 2),
             "speedup_median": round(statistics.median(
                 r["ref_cpu_s"] / max(r["fast_cpu_s"], 1e-6) for r in rs), 1)}
            for p in ("bench", "bench-ra") for rs in [[r for r in fixed if r["preset"] == p]]]
        for r in out["fixed_summary"]:
            print(r, flush=True)
        small = [online_small(p, s) for p in ("small", "small-ra") for s in (0, 1, 2)]
        for r in small:
            r["speedup_cpu"] = round(r["ref_cpu_s"] / max(r["fast_cpu_s"], 1e-6), 1)
            print(r, flush=True)
        out["online_small"] = small
    full = []
    for arch in (("ps", "ra") if "paper-default" in a.parts else ()):
        for n in a.jobs:
            for seed in a.seeds:
                full.append(paper_default(arch, n, seed))
                print(full[-1], flush=True)
    if full:
        out["paper_default"] = full
        out["paper_default_summary"] = [
            {"arch": arch, "jobs": n, "runs": len(rs),
             "cpu_s_median": _med(rs, "cpu_s"), "cpu_s_max": max(r["cpu_s"] for r in rs),
             "wall_s_median": _med(rs, "wall_s"),
             "all_feasible": all(r["feasible"] for r in rs)}
            for arch in ("ps", "ra") for n in a.jobs
            for rs in [[r for r in full if r["arch"] == arch and r["jobs"] == n]]]
    out["load_1min_end"] = round(os.getloadavg()[0], 2)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text(json.dumps(out, indent=1) + "\n")
    for r in out.get("paper_default_summary", []):
        print(r)


if __name__ == "__main__":
    main()
