"""``mlopt bench run SPEC`` and ``mlopt bench report DIR``: the experiment harness."""
from __future__ import annotations

import sys

from mlopt.cli import actions, command, listing, say_stopped
from mlopt.cli.progress import progress_wanted


@command("bench", "run an experiment spec (TOML) through the harness, or report on its results",
         epilog=listing.bench)
def _args(p):
    sub = actions(p)
    r = sub.add_parser("run", help="run a spec; results go to DIR/results.sqlite as they finish",
                       description="run a spec; results go to DIR/results.sqlite as they finish",
                       epilog_fn=listing.bench)
    r.add_argument("spec", help="a spec file (TOML; the packaged ones are listed below)")
    r.add_argument("-o", "--out", default=None, help="results directory (default: results/NAME)")
    r.add_argument("--workers", type=int, default=1,
                   help="local worker processes (0: in this process)")
    r.add_argument("--scheduler", default=None, metavar="tcp://HOST:PORT",
                   help="run on a Dask distributed cluster instead of local processes")
    r.add_argument("--resume", action="store_true", help="skip tasks already in the store")
    r.add_argument("--no-report", action="store_true", help="do not write report.md at the end")
    r.set_defaults(handler=_run)
    rep = sub.add_parser("report", help="write DIR/report.md (+ figures) and print it")
    rep.add_argument("dir")
    rep.add_argument("--csv", default=None, help="also export the results table as CSV")
    rep.add_argument("--parquet", default=None, help="also export the results as Parquet")
    rep.set_defaults(handler=_report)


def _run(args) -> int:
    from mlopt.harness import load_spec, run_spec, write_report

    out = args.out or f"results/{load_spec(args.spec).name}"
    summary = run_spec(args.spec, out, workers=args.workers, scheduler=args.scheduler,
                       resume=args.resume, progress=progress_wanted())
    print(summary)
    if not args.no_report:
        print(f"report: {write_report(out)}")
    if summary.interrupted:
        say_stopped()
        return 130  # 143 when it was SIGTERM (main)
    return 0 if summary.ok and not summary.errors else 1  # error rows: a failed run


def _report(args) -> int:
    from pathlib import Path

    from mlopt.errors import InputError
    from mlopt.harness import ResultStore, write_report

    from mlopt.fileio import check_output

    store_path = Path(args.dir) / "results.sqlite"
    if not store_path.is_file():
        raise InputError("no results store here", file=str(store_path))
    for out in (args.csv, args.parquet):  # before any work
        if out:
            check_output(out)
    path = write_report(args.dir)
    with ResultStore(store_path) as store:
        if args.csv:
            store.export_csv(args.csv)
        if args.parquet:
            store.export_parquet(args.parquet)
    sys.stdout.write(path.read_text())
    return 0
