"""Claims of `benchmarks/bracket/README.md`: the ladder table, recomputed from the committed
ladder CSV by the ladder's own summary (`benchmarks/bracket/ladder.py --summary`)."""
from __future__ import annotations

from functools import cache

from claims.core import ROOT, Table, load_script

README = "benchmarks/bracket/README.md"
LADDER_60 = ROOT / "benchmarks" / "bracket" / "data" / "ladder-60s-2026-11-28.csv"


@cache
def _ladder():
    return load_script("benchmarks/bracket/ladder.py", "bracket_ladder")


def ladder_rows(path=LADDER_60):
    return _ladder().summary_rows(path)[1]


CLAIMS = [
    Table(README, "| family | rung | jobs | bracket 60.0 s | solve 60.0 s | bracket ends "
          "(largest budget) |", ladder_rows, key=2, what="ladder at 60 s"),
]
