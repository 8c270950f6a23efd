"""``mlopt quickstart``: the main job on embedded defaults, through the harness.

Runs the packaged quick spec (``mlopt/specs/quick.toml``): eight small OASiS instances (preset
``paper-fig5``: 10 jobs, T=10), each offline optimum with HiGHS, OASiS and the paper's four
baselines, every schedule checked, and prints the performance ratio OPT/ALG per instance and
algorithm (an interval wherever OPT is not proven) and the harness's summary report.
"""
from __future__ import annotations

import math
import shutil
from pathlib import Path

import pandas as pd

from mlopt.cli import command

QUICK_SPEC = Path(__file__).resolve().parents[1] / "specs" / "quick.toml"


@command("quickstart", "the main job: offline optima and performance ratios of OASiS and the "
         "paper's baselines on small generated instances (HiGHS, about a minute)")
def _args(p):
    p.add_argument("--spec", default=str(QUICK_SPEC), help="default: the packaged quick spec")
    p.add_argument("-o", "--out", default="results/quickstart",
                   help="results directory (its earlier results are replaced)")
    p.add_argument("--workers", type=int, default=2)
    p.set_defaults(handler=run)


def format_ratio(lo, hi) -> str:
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return "n/a"
    if math.isinf(lo):
        return "inf"
    if hi is None or math.isnan(hi) or math.isinf(hi):
        return f"[{lo:.3f}, inf)"
    return f"{lo:.3f}" if abs(hi - lo) < 1e-9 else f"[{lo:.3f}, {hi:.3f}]"


def ratio_table(df: pd.DataFrame) -> pd.DataFrame:
    """Instances x algorithms table of checked ratios, with the offline status and OPT."""
    off = df[df.method_kind == "offline"].set_index("instance_id")
    algs = df[df.method_kind == "algorithm"].copy()
    algs["ratio"] = [format_ratio(lo, hi) if ok else "INFEASIBLE"
                     for lo, hi, ok in zip(algs.ratio_low, algs.ratio_high, algs.feasible)]
    table = algs.pivot(index="instance_id", columns="method", values="ratio")
    table.insert(0, "OPT", [f"{off.loc[i, 'objective']:.2f}" for i in table.index])
    table.insert(0, "offline", [off.loc[i, "status"] for i in table.index])
    return table


def run(args) -> int:
    from mlopt.harness import ResultStore, run_spec, write_report

    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)  # the quickstart's own scratch directory
    summary = run_spec(args.spec, out, workers=args.workers, resume=False, progress=True)
    df = ResultStore(out / "results.sqlite").to_frame()
    print("Performance ratio OPT/ALG per instance (checked schedules; an interval where OPT is "
          "not proven):")
    print(ratio_table(df).to_string())
    print()
    report = write_report(out)
    text = report.read_text()
    start = text.find("### Competitive ratios")
    end = text.find("## Figures")
    print(text[start:end].strip())
    print(f"\n{summary}\nfull report: {report}")
    if summary.interrupted:
        return 130
    checked = df[df.method_kind == "algorithm"]
    return 0 if summary.ok and bool(checked.feasible.all()) else 1
