"""Run the solver benchmarks of this folder and write their reports.

    python benchmarks/solvers/run.py              # every *.toml here
    python benchmarks/solvers/run.py oasis_fig5.toml --fresh

Each spec writes results/<name>/{results.csv, results.sqlite, report.md, profile_*.png,
run_meta.json}.  Runs resume: a spec whose rows are all in results.csv only rewrites its report.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from mlopt.harness.solver_bench import load_spec, run_bench, write_report

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("specs", nargs="*", help="spec files (default: every *.toml here)")
    p.add_argument("--fresh", action="store_true", help="discard earlier results")
    args = p.parse_args(argv)
    specs = [Path(s) if Path(s).exists() else HERE / s for s in args.specs] or sorted(
        HERE.glob("*.toml"))
    for path in specs:
        spec = load_spec(path)
        print(f"== {spec.name} ({len(spec.instances)} instances, solvers {spec.solvers})")
        df = run_bench(spec, resume=not args.fresh)
        report = write_report(df, spec.output, title=f"Solver benchmark: {spec.name}")
        print(f"wrote {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
