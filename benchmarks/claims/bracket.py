"""Claims of `benchmarks/bracket/README.md`: the ladder table, recomputed from the committed
ladder CSV by the ladder's own summary (`benchmarks/bracket/ladder.py --summary`)."""
from __future__ import annotations

from functools import cache

from claims.core import ROOT, Sentence, Table, load_script, solu

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


def build_rows():
    """The build-estimate table from `build_rates.json` (`measure_build.py`)."""
    import json

    d = json.loads((ROOT / "benchmarks" / "bracket" / "build_rates.json").read_text())
    rows = []
    for r in d["rows"]:
        if "error" in r:  # a refused build: the sentence below the table
            continue
        e, b = r["estimate"], r["built"]
        inst = " ".join([r["preset"]] + [f"{k}={v}" for k, v in r["params"].items()])
        same = all(e[k] == b[k] for k in ("variables", "rows", "nonzeros"))
        rows.append([r["family"], inst,
                     f"{e['variables']:,} / {e['rows']:,} / {e['nonzeros']:,}",
                     "exact" if same else "differs", r["build_s"], r["us_per_nonzero"],
                     r["rss_bytes"] / 1e6, r["bytes_per_nonzero"]])
    return rows


def refused():
    import json

    d = json.loads((ROOT / "benchmarks" / "bracket" / "build_rates.json").read_text())
    [r] = [r for r in d["rows"] if "error" in r]
    assert r["family"] == "edgecloud" and r["preset"] == "paper-sim"
    return [str(r["params"]["n_jobs"])]


def pdors_open1():
    """pdors-open-1's interval in `instances/solu.csv` and its gap relative to the bound."""
    obj, _, bound = solu("pdors")["pdors-open-1"]
    return [f"{obj:.2f}", f"{bound:.2f}", f"{100 * (bound - obj) / bound:.2f}%"]


CLAIMS += [
    Table(README, "| family | instance | variables / rows / nonzeros (estimate) | vs built | "
          "build s | us / nonzero | RSS MB | bytes / nonzero |", build_rows, key=2,
          what="build estimates"),
    Sentence(README, "(edgecloud paper-sim with {} jobs is refused by the builder's own cell cap.)",
             refused, what="refused build"),
    Sentence(README, "pdors-open-1 (paper-fig9) [{} colgen schedule, {} colgen] =\n**{}**, "
             "inside issue 22's 2% target; `solu.csv` holds these ends", pdors_open1,
             what="pdors-open-1 at 600 s"),
]
