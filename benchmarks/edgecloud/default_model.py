"""Which exact formulation should be edgecloud's default (issue 21): ``jct_milp`` against
``jct_step`` on every committed instance with a proven optimum (``instances/solu.csv``:
edgecloud-tiny and edgecloud-small), solved the way ``mlopt solve`` solves them
(:func:`mlopt.pipeline.solve_offline`: build, HiGHS with one thread, extract, check), each
``--repeat`` times; per model the median wall time (build + solve) and whether the checked
objective equals the committed optimum.

    python benchmarks/edgecloud/default_model.py --repeat 5 \\
        > benchmarks/edgecloud/data/default_model.json

The runs of one instance alternate between the models (A B A B ...), so a change in the
machine's load hits both alike; the load average (1 min) is recorded beside every run.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from default_model import compare  # noqa: E402  (benchmarks/default_model.py)

MODELS = ("jct_milp", "jct_step")
SETS = ("edgecloud-tiny", "edgecloud-small")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--time-limit", type=float, default=60.0)
    a = ap.parse_args()
    print(json.dumps(compare("edgecloud", MODELS, list(SETS), repeat=a.repeat,
                             time_limit=a.time_limit, not_slower="step_not_slower"), indent=1))


if __name__ == "__main__":
    main()
