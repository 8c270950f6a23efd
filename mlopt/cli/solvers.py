"""``mlopt solvers list|bench`` and ``mlopt export``."""
from __future__ import annotations

import sys

from pathlib import Path

from mlopt.cli import actions, command, listing
from mlopt.errors import InputError


@command("solvers", "solver backends: list them, or benchmark them on a spec (TOML)")
def _args(p):
    sub = actions(p)
    sub.add_parser("list", help="backends and whether they are available here").set_defaults(
        handler=_list)
    b = sub.add_parser("bench", help="instances x solvers x time limits x threads -> report")
    b.add_argument("spec")
    b.add_argument("--out", help="output directory (default: the spec's 'output')")
    b.add_argument("--fresh", action="store_true", help="discard earlier results")
    b.add_argument("--report-only", action="store_true", help="only rewrite the report")
    b.set_defaults(handler=_bench)


def _list(args) -> int:
    from mlopt.solvers import BACKENDS

    rows = [("SOLVER", "STATUS", "VERSION", "CAPABILITIES")]
    for name, cls in sorted(BACKENDS.items()):
        ok = cls.available()
        rows.append((name, "available" if ok else "missing", cls.version() if ok else "-",
                     ", ".join(k for k, v in vars(cls.capabilities).items() if v)))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[3])
    return 0


def _bench(args) -> int:
    from mlopt.harness.solver_bench import load_spec, read_results, run_bench, write_report

    spec = load_spec(args.spec)
    out = Path(args.out) if args.out else spec.output
    if args.report_only:
        df = read_results(out / "results.csv")
        if df.attrs.get("malformed"):
            raise InputError(f"{df.attrs['malformed']} malformed result lines: run the "
                             "benchmark again without --report-only (it resumes and re-runs "
                             "them)", file=str(out / "results.csv"))
    else:
        df = run_bench(spec, out, resume=not args.fresh)
    print(f"wrote {write_report(df, out, title=f'Solver benchmark: {spec.name}')}")
    failed = int((df["status"] == "error").sum()) if "status" in df else 0
    if failed:
        print(f"{failed} runs ended with status error", file=sys.stderr)
    return 1 if failed else 0


@command("export", "write a formulation of a workload as MPS or LP: mlopt export w.json "
         "--model utility_ilp -o w.mps", epilog=listing.export)
def _export_args(p):
    p.add_argument("file")
    p.add_argument("--model", default=None, help="formulation (default: the family's)")
    p.add_argument("--family", default=None, help="the workload's family, for a workload without "
                   "meta.family")
    p.add_argument("-o", "--output", required=True, help="OUT.mps or OUT.lp")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="model builder option (value parsed as JSON), e.g. harmony's "
                        "interval_milp: interval=3; repeatable")
    p.set_defaults(handler=_export)


def _export(args) -> int:
    from mlopt.cli import parse_kv
    from mlopt.export import export_workload
    from mlopt.cli.progress import spinner
    from mlopt.fileio import check_output

    check_output(args.output)
    try:
        with spinner(f"building and writing {args.output}"):
            path = export_workload(args.file, args.model, args.output, family=args.family,
                                   **parse_kv(args.option, "--option"))
    except InputError as err:  # the Python argument's name is not what the user typed
        if err.field != "out_path":
            raise
        raise InputError(err.message, field="--output", value=err.value) from None
    print(path)
    return 0
