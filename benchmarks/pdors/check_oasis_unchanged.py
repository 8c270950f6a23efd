"""The price-scale option changes nothing when unset: literal OASiS (and RRH) in the sweep
(results/price_scale_oasis.csv, seeds 0-3) against the committed Fig. 3 results of
benchmarks/oasis/results/fig3/results.sqlite at 60 and 80 jobs.

    python benchmarks/pdors/check_oasis_unchanged.py
"""
import json
import sqlite3
from pathlib import Path

import pandas as pd

HERE = Path(__file__).resolve().parent
con = sqlite3.connect(HERE.parent / "oasis" / "results" / "fig3" / "results.sqlite")
old = pd.read_sql("select params, seed, method, objective from results", con)
new = pd.read_csv(HERE / "results" / "price_scale_oasis.csv")
for df in (old, new):
    df["n_jobs"] = df["params"].map(lambda p: json.loads(p)["n_jobs"])
keys = ["n_jobs", "seed", "method"]
old = old[old["method"].isin(["oasis", "rrh"]) & old["n_jobs"].isin([60, 80])]
m = old[keys + ["objective"]].merge(new[keys + ["objective"]], on=keys,
                                    suffixes=("_committed", "_now"))
m["abs_diff"] = (m["objective_committed"] - m["objective_now"]).abs()
print(m.to_string(index=False))
print(f"{len(m)} runs compared, max abs difference {m['abs_diff'].max():g}")
assert len(m) == 16 and m["abs_diff"].max() == 0.0
