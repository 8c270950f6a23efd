"""``placement_ti`` against ``placement_clique`` (its clique rows), in one run, on the issue's
shapes of `small`'s cluster (15 PS jobs; 20 RA jobs with ``--preset small-ra --jobs 20``).

    python benchmarks/hetero/clique_frontier.py --seeds 0 1 --time-limit 600 \
        -o benchmarks/hetero/data/clique_small15.json

Per seed: the instance (``mlopt generate hetero --preset P --seed S -p n_jobs=N``), one
``pnb`` schedule (``mlopt run pnb``, its defaults) written to a file and given to both models as
the same warm start, each model's LP relaxation (integrality dropped, HiGHS, one thread), then
``mlopt solve W --model M --warm-start SCHEDULE --time-limit S --threads 1 --json`` for both
models (the CLI's output is stored as it is: status, the checker's objective, bound, times).
``uptime``'s load average is recorded before and after every step.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MODELS = ("placement_ti", "placement_clique")


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def mlopt(*args: str) -> str:
    out = subprocess.run([sys.executable, "-m", "mlopt", *args], check=True,
                         capture_output=True, text=True)
    return out.stdout


def lp_relaxation(path: str, model: str) -> dict:
    import pyomo.environ as pyo

    from mlopt.families import get_family
    from mlopt.solve import solve
    from mlopt.workload import Workload

    w = Workload.load(path)
    t0 = time.perf_counter()
    m = get_family("hetero").model(model)(w)
    build = time.perf_counter() - t0
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(m)
    r = solve(m, time_limit=600)
    return {"status": str(r.status.value), "objective": r.objective, "build_s": round(build, 2),
            "solve_s": round(time.perf_counter() - t0 - build, 2),
            "rows": sum(1 for _ in m.component_data_objects(pyo.Constraint))}


def one(preset: str, jobs: int, seed: int, limit: float, tmp: Path) -> dict:
    w = str(tmp / f"{preset}-{jobs}-s{seed}.json")
    mlopt("generate", "hetero", "--preset", preset, "--seed", str(seed), "-p", f"n_jobs={jobs}",
          "-o", w)
    warm = str(tmp / f"pnb-{preset}-{jobs}-s{seed}.json")
    rec: dict = {"preset": preset, "n_jobs": jobs, "seed": seed, "load_before": load()}
    rec["pnb"] = json.loads(mlopt("run", "pnb", w, "--json", "-o", warm))
    for model in MODELS:
        rec[f"lp_{model}"] = {**lp_relaxation(w, model), "load_after": load()}
    for model in MODELS:
        rec[model] = {**json.loads(mlopt("solve", w, "--model", model, "--warm-start", warm,
                                         "--time-limit", str(limit), "--threads", "1",
                                         "--json")), "load_after": load()}
        rec[model].pop("estimate", None)
        print(seed, model, rec[model]["status"], rec[model]["objective"], rec[model]["bound"],
              round(rec[model]["runtime_s"], 1), rec[model]["load_after"], flush=True)
    return rec


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="small")
    ap.add_argument("--jobs", type=int, default=15)
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args(argv)
    out = {"command": "python benchmarks/hetero/clique_frontier.py " + " ".join(
        sys.argv[1:] if argv is None else argv), "started_utc": time.strftime(
        "%Y-%m-%d %H:%M:%S", time.gmtime()), "runs": []}
    with tempfile.TemporaryDirectory() as tmp:
        for seed in a.seeds:
            out["runs"].append(one(a.preset, a.jobs, seed, a.time_limit, Path(tmp)))
            Path(a.output).write_text(json.dumps(out, indent=1) + "\n")
    out["finished_utc"] = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
    Path(a.output).write_text(json.dumps(out, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
