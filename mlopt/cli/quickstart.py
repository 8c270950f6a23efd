"""``mlopt quickstart``: the main job on embedded defaults, through the harness.

Runs every packaged quick spec (``mlopt/specs/quick_<family>.toml``, one per family, in name
order; ``quick_oasis.toml``: eight small instances, preset ``paper-fig5``), each offline optimum with HiGHS, each
family's online algorithm and the paper's baselines, every schedule checked, and prints the
performance ratio per instance and algorithm (OPT/ALG for maximization, ALG/OPT for
minimization; an interval wherever OPT is not proven) and the harness's summary report.
"""
from __future__ import annotations

import math
import shutil
from pathlib import Path

from typing import TYPE_CHECKING

from mlopt.cli import command, say_stopped
from mlopt.cli.progress import progress_wanted

if TYPE_CHECKING:  # pragma: no cover  (pandas loads with the harness, not with mlopt --help)
    import pandas as pd

SPECS_DIR = Path(__file__).resolve().parents[1] / "specs"


def quick_specs() -> list[Path]:
    """The packaged quick specs, one per family (``quick_<family>.toml``), by name."""
    return sorted(SPECS_DIR.glob("quick*.toml"), key=lambda p: p.stem)


@command("quickstart", "the main job: offline optima and performance ratios of every family's "
         "online algorithm and baselines on small generated instances (HiGHS, each optimum "
         "verified by a second solver; results in results/quickstart/)")
def _args(p):
    p.add_argument("--spec", action="append", default=None,
                   help="a spec to run instead of the packaged quick specs; repeatable")
    p.add_argument("-o", "--out", default="results/quickstart",
                   help="results directory (its earlier results are replaced)")
    p.add_argument("--workers", type=int, default=2,
                   help="local worker processes (default 2; 0: in this process)")
    p.set_defaults(handler=run)


def format_ratio(lo, hi) -> str:
    """A ratio for the quickstart table: a point, ``[low, high]`` or ``inf``."""
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return "n/a"
    if math.isinf(lo):
        return "inf"
    if hi is None or math.isnan(hi) or math.isinf(hi):
        return f"[{lo:.3f}, inf)"
    return f"{lo:.3f}" if abs(hi - lo) < 1e-9 else f"[{lo:.3f}, {hi:.3f}]"


def ratio_table(df: pd.DataFrame) -> pd.DataFrame:
    """Instances x algorithms table of checked ratios, with the offline status and OPT."""
    import pandas as pd

    off = df[df.method_kind == "offline"].set_index("instance_id")
    algs = df[df.method_kind == "algorithm"].copy()
    algs["ratio"] = [format_ratio(lo, hi) if ok else "INFEASIBLE"
                     for lo, hi, ok in zip(algs.ratio_low, algs.ratio_high, algs.feasible)]
    table = algs.pivot(index="instance_id", columns="method", values="ratio")

    def opt(i):
        v = off.loc[i, "objective"] if i in off.index else None
        return "n/a" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.2f}"

    table.insert(0, "OPT", [opt(i) for i in table.index])
    def status(i):
        if i not in off.index:
            return "none"
        st, v = off.loc[i, "status"], off.loc[i, "verified"] if "verified" in off else None
        if v is None or pd.isna(v):  # verification not requested
            return st
        return f"{st} (verified)" if bool(v) else f"{st} (unverified)" if st == "optimal" else st

    table.insert(0, "offline", [status(i) for i in table.index])
    return table


def run(args) -> int:
    """``mlopt quickstart``: run the quick specs, print ratios and a summary."""
    from mlopt.harness import load_spec

    specs = [Path(s) for s in args.spec] if args.spec else quick_specs()
    loaded = [load_spec(s) for s in specs]  # every spec is validated before anything runs
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)  # the quickstart's own scratch directory
    codes = []
    for spec_path, spec in zip(specs, loaded):
        target = out if len(specs) == 1 else out / spec.name
        codes.append(_run_one(spec_path, spec.family, target, args.workers))
        if codes[-1] == 130:
            return 130
    return max(codes)


def _run_one(spec_path: Path, family: str, out: Path, workers: int) -> int:
    from mlopt.families import get_family
    from mlopt.harness import ResultStore, run_spec, write_report

    sense = get_family(family).sense
    print(f"=== {family}: {spec_path.name} ===")
    summary = run_spec(spec_path, out, workers=workers, resume=False, progress=progress_wanted())
    df = ResultStore(out / "results.sqlite").to_frame()
    what = "OPT/ALG" if sense == "max" else "ALG/OPT"
    print(f"Performance ratio {what} per instance (checked schedules; an interval where OPT is "
          "not proven):")
    print(ratio_table(df).to_string())
    print()
    report = write_report(out)
    text = report.read_text()
    start = text.find("### Competitive ratios")
    end = text.find("## Figures")
    print(text[start:end].strip())
    print(f"\n{summary}\nfull report: {report}\n")
    if summary.interrupted:
        say_stopped()
        return 130
    checked = df[df.method_kind == "algorithm"]
    return 0 if summary.ok and not summary.errors and bool(checked.feasible.all()) else 1
