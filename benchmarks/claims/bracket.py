"""Claims of `benchmarks/bracket/README.md`: the ladder table, recomputed from the committed
ladder CSV by the ladder's own summary (`benchmarks/bracket/ladder.py --summary`)."""
from __future__ import annotations

import importlib.util

from claims.core import ROOT, Table

README = "benchmarks/bracket/README.md"
LADDER_60 = ROOT / "benchmarks" / "bracket" / "data" / "ladder-60s-2026-11-28.csv"


def _ladder():
    spec = importlib.util.spec_from_file_location(
        "bracket_ladder", ROOT / "benchmarks" / "bracket" / "ladder.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ladder_rows(path=LADDER_60):
    return _ladder().summary_rows(path)[1]


CLAIMS = [
    Table(README, "| family | rung | jobs | bracket 60.0 s | solve 60.0 s | bracket ends "
          "(largest budget) |", ladder_rows, key=2, what="ladder at 60 s"),
]
