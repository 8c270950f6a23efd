"""``pnb`` before and after its priced list schedules, in one run, on one instance.

    python benchmarks/hetero/priced_frontier.py --instance hetero-open-1 --colgen 180 \
        --budget 420 -o benchmarks/hetero/data/priced_open1.json

One column generation (``--colgen`` seconds, :func:`run_colgen`), then from the same warm
start (Tiresias's schedule) and the same columns, :func:`.price_and_branch.improve` twice with
the same budget (``--budget`` seconds each) and the default ``master_share``:
``insertion_price=0`` (before: earliest-completion list schedules, as ``pnb`` was) and the
option's default (after: priced list schedules and random alpha-point orders first).
180 + 420 s is what ``pnb --option time_limit=600`` gives each step (``colgen_share`` 0.3).
Both schedules are checked by the family's checker; the objectives reported are the checker's.
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from master_frontier import before_after  # noqa: E402


def main(argv=None) -> int:
    return before_after(argv, option="insertion_price", doc=__doc__, colgen_s=180.0,
                        budget_s=420.0, per_variant=("load_after",))


if __name__ == "__main__":
    sys.exit(main())
