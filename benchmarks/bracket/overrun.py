"""How far ``bracket`` overruns its ``time_limit``: every family's instance of a preset (seed 0),
budgets 5/10/20 s, with and without the exact model, on one and on two cores
(``mlopt.bracket._cores`` replaced).  One bracket at a time; each row records ``uptime``'s load
before and after (a row run at a load above 2 is a lower limit on the overrun's cause).

    python benchmarks/bracket/overrun.py --preset tiny > benchmarks/bracket/data/overrun-tiny-<date>.csv
    python benchmarks/bracket/overrun.py --preset small > benchmarks/bracket/data/overrun-small-<date>.csv

(edgecloud has no ``small`` preset: the 2026-11-29 small file stops after hetero.)  Larger
instances, one family each (the rows of overrun-larger-<date>.csv, in this order):

    python benchmarks/bracket/overrun.py --families harmony --preset uniform --budgets 5 10 20
    python benchmarks/bracket/overrun.py --families hetero --preset bench --budgets 10 20
    python benchmarks/bracket/overrun.py --families pdors --preset paper-fig6 --budgets 10 20
    python benchmarks/bracket/overrun.py --families oasis --preset paper-fig5 --budgets 10 20
    python benchmarks/bracket/overrun.py --families edgecloud --preset paper-sim --budgets 10 20
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import mlopt.bracket as b
from mlopt.families import get_family

FAMILIES = ("pdors", "harmony", "hetero", "edgecloud", "oasis")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--families", nargs="*", default=list(FAMILIES))
    ap.add_argument("--budgets", nargs="*", type=float, default=[5.0, 10.0, 20.0])
    ap.add_argument("--cores", nargs="*", type=int, default=[1, 2])
    ap.add_argument("--solver", default="highs")
    ap.add_argument("--preset", default="tiny")
    args = ap.parse_args()
    print("family,preset,budget,exact,cores,solver,elapsed_s,over_s,status,low,high,sources,"
          "load_before,load_after", flush=True)
    for name in args.families:
        w = get_family(name).generate(args.preset, seed=0)
        for budget in args.budgets:
            for exact in (True, False):
                for cores in args.cores:
                    b._cores = lambda cores=cores: cores
                    load0 = os.getloadavg()[0]
                    t0 = time.perf_counter()
                    res = b.bracket(w, time_limit=budget, exact=exact, solver=args.solver)
                    wall = time.perf_counter() - t0
                    load1 = os.getloadavg()[0]
                    print(f"{name},{args.preset},{budget:g},{exact},{cores},{args.solver},"
                          f"{wall:.3f},"
                          f"{wall - budget:.3f},{res.status},{res.low},{res.high},"
                          f"{len(res.sources)},{load0:.2f},{load1:.2f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
