"""``mlopt instances list|show|build|solve|from-trace|from-csv``."""
from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from mlopt.cli import SOLVE_EXIT, actions, command, listing, parse_kv, verify_solver
from mlopt.cli.bracket import SEED_HELP, load_start, start_named
from mlopt.cli.progress import progress_wanted
from mlopt.errors import InputError

SET_HELP = "an instance set, e.g. oasis-tiny (mlopt instances list names them)"


@command("instances", "committed instance sets, the registry of proven optima, trace imports")
def _args(p):
    sub = actions(p)
    sub.add_parser("list", help="list instance sets").set_defaults(handler=_list)
    s = sub.add_parser("show", help="show a set's instances and recorded optima")
    s.add_argument("set", help=SET_HELP)
    s.set_defaults(handler=_show)
    b = sub.add_parser("build", help="regenerate a set's files from its manifest (hash-checked)")
    b.add_argument("set", help=SET_HELP)
    b.set_defaults(handler=_build)
    v = sub.add_parser("solve", help="solve every instance of a set")
    v.add_argument("set", help=SET_HELP)
    v.add_argument("--solver", default="highs", help="solver backend (default: highs)")
    v.add_argument("--time-limit", type=float, default=60.0,
                   help="seconds per instance (default 60)")
    v.add_argument("--update-solu", action="store_true",
                   help="record results in solu.csv (optima only when a second solver agrees; "
                   "implies --verify)")
    v.add_argument("--verify", nargs="?", const="auto", default=None, metavar="SOLVER",
                   type=verify_solver,
                   help="verify optima with a second solver (default: scip if installed, else "
                   "highs with presolve off)")
    v.add_argument("--json", action="store_true")
    v.set_defaults(handler=_solve)
    k = sub.add_parser("bracket", help="best known bounds for a set beyond exact reach: mlopt "
                       "bracket on each instance (--update-solu keeps the tighter end of each "
                       "recorded interval in solu.csv)")
    k.add_argument("set", help=SET_HELP)
    k.add_argument("--time-limit", type=float, default=60.0,
                   help="seconds per instance (default 60)")
    k.add_argument("--solver", default="highs",
                   help="solver backend (default: highs)")
    k.add_argument("--update-solu", action="store_true",
                   help="record the interval in instances/solu.csv (a rerun keeps the tighter "
                        "end of each; a verified optimum is never touched)")
    k.add_argument("--only", action="append", metavar="NAME",
                   help="only this instance of the set (repeatable)")
    k.add_argument("--start", metavar="SCHEDULE",
                   help="continue from this schedule of the one --only instance (mlopt "
                        "bracket --start): a better recorded primal end needs a checked "
                        "schedule behind it")
    k.add_argument("-o", "--output", metavar="SCHEDULE",
                   help="write the best checked schedule of the one --only instance here (the "
                        "next run's --start)")
    k.add_argument("--bound", action="append", metavar="NAME",
                   help="run only these bounds (repeatable; default: the family's bracket "
                        "bounds, as mlopt bracket --bound; e.g. one registered with --bound "
                        "only, which a bracket hands its best schedule)")
    k.add_argument("--algorithm", action="append", metavar="NAME",
                   help="run only these algorithms (repeatable; default: all of them)")
    k.add_argument("--no-exact", action="store_true", help="skip the exact model")
    k.add_argument("--seed", type=int, default=0, help=SEED_HELP)
    k.add_argument("--json", action="store_true")
    k.set_defaults(handler=_bracket)
    f = sub.add_parser("verify", help="re-check the optima recorded in solu.csv for a set with "
                       "a second solver (fills verified_by with --update-solu)")
    f.add_argument("set", help=SET_HELP)
    f.add_argument("--solver", default="auto",
                   help="second solver (default: scip if installed, else highs, presolve off)")
    f.add_argument("--time-limit", type=float, default=600.0,
                   help="seconds per instance (default 600)")
    f.add_argument("--update-solu", action="store_true", help="write verified_by to solu.csv")
    f.add_argument("--json", action="store_true")
    f.set_defaults(handler=_verify)
    t = sub.add_parser("from-trace", help="build a workload from a real trace window",
                       description="build a workload from a real trace window",
                       epilog_fn=listing.from_trace)
    t.add_argument("trace", help="philly | pollux-workload | itp | itp-annotated")
    t.add_argument("path", nargs="?", default=None,
                   help="trace CSV file (default: the shared copy, where there is one)")
    t.add_argument("--seed", type=int, default=0)
    t.add_argument("--strict", action="store_true", help="reject bad rows instead of skipping")
    t.add_argument("--family", required=True,
                   help="the family to convert for (oasis: OASiS-style jobs; harmony, hetero, "
                        "...: the families with a trace conversion); never guessed")
    t.add_argument("-p", "--param", action="append", metavar="KEY=VALUE",
                   help="conversion convention override (JSON value); repeatable")
    t.add_argument("-o", "--output", required=True)
    t.set_defaults(handler=_from_trace)
    c = sub.add_parser("from-csv", help="build a workload from any CSV with a column mapping",
                       description="build a workload from any CSV with a column mapping",
                       epilog_fn=listing.from_trace)
    c.add_argument("path")
    c.add_argument("--map", required=True,
                   help="arrival=COL,gpus=COL,duration=COL[,model=COL,tenant=COL,...]")
    c.add_argument("--arrival-unit", default="s",
                   help="s, min, h, d, ms, or datetime (parsed timestamps; time 0 = the earliest)")
    c.add_argument("--duration-unit", default="s", help="s, min, h, d or ms")
    c.add_argument("--timestamp-format", default=None,
                   help="strftime format of a date-time arrival column (default: inferred)")
    c.add_argument("--seed", type=int, default=0)
    c.add_argument("--strict", action="store_true")
    c.add_argument("--family", required=True, help="as for from-trace")
    c.add_argument("-p", "--param", action="append", metavar="KEY=VALUE")
    c.add_argument("-o", "--output", required=True)
    c.set_defaults(handler=_from_csv)


def _list(args) -> int:
    from mlopt.instances import list_sets, load_set

    for name in list_sets():
        s = load_set(name)
        n = len(s.entries)
        print(f"{name:24s} {n:4d} instance{'s' if n != 1 else ' '}  {s.family:8s} {s.description}")
    return 0


def _show(args) -> int:
    from mlopt.instances import load_set, show

    print(show(load_set(args.set)))
    return 0


def _build(args) -> int:
    from mlopt.instances import build_set, load_set

    for name, h in build_set(load_set(args.set)):
        print(f"{name} {h}")
    return 0


def _solve(args) -> int:
    from mlopt.instances import load_set, solve_set

    from mlopt.pipeline import verifier_name

    verifier_name(args.verify)  # an unknown name is an input error before anything runs
    _check_time_limit(args.time_limit, args.solver)
    rows = solve_set(load_set(args.set), solver=args.solver, time_limit=args.time_limit,
                     update_solu=args.update_solu, progress=progress_wanted(),
                     verify=args.verify)
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            obj = "-" if r["objective"] is None else f"{r['objective']:.6g}"
            bnd = "-" if r["bound"] is None else f"{r['bound']:.6g}"
            line = (f"{r['instance']:28s} {r['status']:8s} objective {obj:>10s} bound "
                    f"{bnd:>10s} {r['time_s']:8.2f}s  checked-feasible {r['feasible']}")
            if r.get("verified_by"):
                line += f"  verified by {r['verified_by']}"
            elif r.get("reason"):
                line += f"  {r['verification']}: {r['reason']}"
            print(line)
    disputed = [r["instance"] for r in rows if r["status"] == "disputed"]
    if disputed:
        print(f"disputed optima{' (not recorded)' if args.update_solu else ''}: "
              f"{', '.join(disputed)}", file=sys.stderr)
    failed = [r["instance"] for r in rows if r["status"] in SOLVE_EXIT]
    return 1 if disputed or failed else 0


def _bracket(args) -> int:
    from mlopt.instances import bracket_set, load_set

    _check_time_limit(args.time_limit, args.solver)
    start = None
    for flag, given in (("--start", args.start), ("--output", args.output)):
        if given and (not args.only or len(args.only) != 1):
            raise InputError("belongs to one instance: name it with one --only", field=flag,
                             value=given)
    if args.output:  # a missing folder is an error now, not after the whole budget
        from mlopt.fileio import check_output

        check_output(args.output)
    iset = load_set(args.set)
    if args.start:
        from mlopt.families import get_family

        start = load_start(args.start, get_family(iset.family))
    try:
        rows = bracket_set(iset, time_limit=args.time_limit, solver=args.solver,
                           update_solu=args.update_solu, progress=progress_wanted(),
                           only=args.only, start_schedule=start,
                           output=args.output, bounds=args.bound, algorithms=args.algorithm,
                           exact=not args.no_exact, seed=args.seed,
                           start_label=f"start {Path(args.start).name}" if args.start else "start")
    except InputError as err:
        raise start_named(err, args.start) from None
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            gap = "-" if r["gap"] is None else f"{100 * r['gap']:.2f}%"
            obj = "-" if r["objective"] is None else f"{r['objective']:.6g}"
            bnd = "-" if r["bound"] is None else f"{r['bound']:.6g}"
            print(f"{r['instance']:28s} best {obj:>10s} bound {bnd:>10s} gap {gap:>8s} "
                  f"{r['time_s']:8.2f}s  {r['solver']}")
    disputed = [r["instance"] for r in rows if r["bracket_status"] == "disputed"]
    if disputed:  # a bound beyond a checked schedule: someone must look
        kept = "; not recorded" if args.update_solu else ""
        print(f"disputed (a bound beyond a checked schedule{kept}): {', '.join(disputed)}",
              file=sys.stderr)
    return 1 if disputed else 0


def _check_time_limit(time_limit, solver: str | None) -> None:
    """``--time-limit`` (and ``--solver``) with the solve layer's own ranges, before any work."""
    from mlopt.solve import check_settings

    try:
        check_settings(time_limit=time_limit, solver=None if solver in (None, "auto")
                       else solver)
    except InputError as err:
        field = "--time-limit" if err.field == "time_limit" else err.field
        raise InputError(err.message, field=field, value=err.value) from None


def _verify(args) -> int:
    from mlopt.instances import load_set, verify_set
    from mlopt.pipeline import verifier_name

    verifier_name(args.solver)
    _check_time_limit(args.time_limit, args.solver)
    rows = verify_set(load_set(args.set), solver=args.solver, time_limit=args.time_limit,
                      update_solu=args.update_solu, progress=progress_wanted())
    if args.json:
        print(json.dumps(rows))
    else:
        for r in rows:
            how = f"by {r['verified_by']}" if r["verified_by"] else r["reason"]
            print(f"{r['instance']:28s} {r['outcome']:12s} {how}  ({r['time_s']:.2f}s)")
    return 0 if all(r["outcome"] in ("verified", "bracket-proof") for r in rows) else 1


def _require_rows(table, report) -> None:
    from mlopt.errors import InputError

    if len(table) == 0:
        reasons = ", ".join(f"{k} {v}" for k, v in sorted(report.skipped.items()))
        raise InputError(f"no usable rows ({report.rows_read} read; skipped: {reasons or '-'})",
                         file=str(report.file))


def _write(workload, report, output) -> int:
    from mlopt.fileio import atomic_output

    with atomic_output(output) as tmp:
        workload.save(tmp)
    print(f"wrote {output}: {len(workload.jobs)} jobs, T={workload.horizon}; {report.summary()}",
          file=sys.stderr)
    return 0


def _from_trace(args) -> int:
    from mlopt.fileio import check_output
    from mlopt.traces import load_trace

    check_output(args.output)
    table, report = load_trace(args.trace, args.path, strict=args.strict)
    _require_rows(table, report)
    w = _convert(table, report, args, args.path)
    return _write(w, report, args.output)


def _convert(table, report, args, source):
    """trace table -> workload; a problem of the converted instance (e.g. a horizon beyond the
    limits) names the source file."""
    from mlopt.families import get_family

    fam = get_family(args.family)  # its own conversion (Family.from_trace)
    if fam.from_trace is None:
        raise InputError("this family has no trace conversion", field="family",
                         value=args.family)
    from mlopt.traces.fidelity import conversion_warnings

    params = parse_kv(args.param)
    try:
        workload = fam.from_trace(table, seed=args.seed, report=report, **params)
    except InputError as err:
        raise err.with_file(str(source or report.file)) from None
    workload.meta.setdefault("family", fam.name)  # the file says which family it is for
    changed = conversion_warnings(table, workload, params)
    if changed:
        logging.getLogger("mlopt.traces").warning(
            "%s: the conversion changed what the trace says: %s", source or report.file,
            "; ".join(changed))
    return workload


def _from_csv(args) -> int:
    from mlopt.fileio import check_output
    from mlopt.traces.csv_generic import load_csv

    check_output(args.output)
    table, report = load_csv(args.path, args.map, arrival_unit=args.arrival_unit,
                             duration_unit=args.duration_unit,
                             timestamp_format=args.timestamp_format, strict=args.strict)
    _require_rows(table, report)
    w = _convert(table, report, args, args.path)
    return _write(w, report, args.output)
