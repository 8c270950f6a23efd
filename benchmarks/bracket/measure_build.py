"""Measure what mlopt.modelsize's rates stand for: seconds and resident bytes per nonzero of a
built exact model, per family, on instances from small to a few million nonzeros.

    python benchmarks/bracket/measure_build.py [-o build_rates.json]

Each instance is generated, estimated and built in its own forked child (so resident memory
is measured from a clean start and a slow build is stopped at LIMIT_S); the row shows the
estimate next to the built model's counts (mlopt.modelsize.measure) for the smaller ones.
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time

from mlopt.bracket import run_boxed
from mlopt.families import get_family
from mlopt.modelsize import estimate, measure

LIMIT_S = 120.0
#: (family, preset, params): built in this order
INSTANCES = [
    ("oasis", "paper-fig5", {"n_jobs": 30, "horizon": 60}),
    ("oasis", "paper-default", {"n_jobs": 50, "horizon": 50}),
    ("pdors", "paper-fig6", {"n_jobs": 20}),
    ("pdors", "paper-fig6", {}),
    ("edgecloud", "paper-sim", {"n_jobs": 20}),
    ("edgecloud", "paper-sim", {"n_jobs": 60}),
    ("harmony", "mini", {}),
    ("harmony", "mini", {"window": 20}),
    ("harmony", "mini", {"window": 40}),
    ("hetero", "small", {"n_jobs": 12}),
    ("hetero", "small", {"n_jobs": 20}),
]


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def one(family: str, preset: str, params: dict, seed: int = 1) -> dict:
    fam = get_family(family)
    w = fam.generate(preset, seed=seed, **params)
    t0 = time.perf_counter()
    est = estimate(fam, w)
    est_s = time.perf_counter() - t0
    gc.collect()
    rss0 = _rss()
    t0 = time.perf_counter()
    model = fam.model()(w)
    build_s = time.perf_counter() - t0
    rss = _rss() - rss0
    row = {"family": family, "preset": preset, "params": params, "seed": seed,
           "jobs": len(w.jobs), "servers": len(w.servers), "horizon": w.horizon,
           "estimate": est.to_dict(), "estimate_s": round(est_s, 4),
           "build_s": round(build_s, 3), "rss_bytes": rss,
           "us_per_nonzero": round(1e6 * build_s / max(1, est.nonzeros), 3),
           "bytes_per_nonzero": round(rss / max(1, est.nonzeros), 1)}
    if est.nonzeros <= 3_000_000:
        got = measure(model)
        row["built"] = {"variables": got.variables, "rows": got.rows,
                        "nonzeros": got.nonzeros}
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", default=None)
    args = ap.parse_args()
    rows = []
    for family, preset, params in INSTANCES:
        kind, out = run_boxed(LIMIT_S, lambda: one(family, preset, params))
        row = out if kind == "ok" else {"family": family, "preset": preset, "params": params,
                                        "error": f"{kind}: {out}"}
        rows.append(row)
        print(json.dumps(row), flush=True)
    load = os.getloadavg()
    summary = {"load_average": load, "rows": rows}
    if args.output:
        with open(args.output, "w") as f:
            json.dump(summary, f, indent=1)
    print(f"load average {load}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
