"""``mlopt bracket`` from a start with and without the eighth round's time split (issue 22).

``--split after`` is the bracket as it is (a bound with ``Bound.proves_from_start`` takes the
exact model's core when a start is given); ``--split before`` clears that flag for this run
only, so the exact model starts on its own core and the bounds share the other one with the
algorithms, as before the eighth round.  Prints one JSON line: the interval, its status and
proof, every source (value, status, start, seconds, note), wall seconds and the 1-minute load
at start and end.  Writes nothing to ``solu.csv``.

    python benchmarks/oasis/bracket_split.py --instance oasis-open-1 --budget 1200 \
        --start benchmarks/oasis/data/best_open1_782.93.json --split before
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import os
import time
from datetime import datetime, timezone

from mlopt.bracket import bracket
from mlopt.families import get_family
from mlopt.instances import load_instance
from mlopt.schedule import Schedule


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", default="oasis-open-1")
    ap.add_argument("--budget", type=float, default=1200.0)
    ap.add_argument("--start", required=True, help="a schedule file of the instance")
    ap.add_argument("--split", choices=("before", "after"), default="after")
    args = ap.parse_args(argv)
    fam = get_family("oasis")
    if args.split == "before":  # this process only: the registry as before the eighth round
        fam.bounds_ = {n: dataclasses.replace(b, proves_from_start=False)
                       for n, b in fam.bounds_.items()}
    wl = load_instance(args.instance)
    load = os.getloadavg()[0]
    started = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    t0 = time.perf_counter()
    b = bracket(wl, family="oasis", time_limit=args.budget,
                start_schedule=Schedule.load(args.start))
    out = b.to_dict()
    print(json.dumps({"command": f"python benchmarks/oasis/bracket_split.py --instance "
                                 f"{args.instance} --budget {args.budget:g} --start {args.start} "
                                 f"--split {args.split}",
                      "started_utc": started, "wall_s": round(time.perf_counter() - t0, 1),
                      "load_1min_at_start": round(load, 2), **out,
                      "load_1min_at_end": round(os.getloadavg()[0], 2)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
