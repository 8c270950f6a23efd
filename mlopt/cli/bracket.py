"""``mlopt bracket`` (the best certified interval on OPT within a wall-clock budget) and
``mlopt bound`` (one certified bound, with its method and time)."""
from __future__ import annotations

import time

from mlopt.cli import command, emit, listing, parse_kv
from mlopt.cli.core import check_solver_args
from mlopt.cli.progress import add_solver_log_flag, streaming_solver_log
from mlopt.errors import InputError


#: ``--seed`` of ``mlopt bracket`` and ``mlopt instances bracket``
SEED_HELP = ("the algorithms' runs take their seeds from it (default 0, the seeds of every "
             "earlier run): on a quiet machine two runs of one seed tend to repeat each other, "
             "another seed samples another path")


def _fmt(x) -> str:
    return "-" if x is None else f"{x:.6g}"


def load_start(path: str, fam):
    """``--start FILE``'s schedule; another family's is refused in check's one line."""
    from mlopt.pipeline import check_schedule_family
    from mlopt.schedule import Schedule

    start = Schedule.load(path)
    check_schedule_family(fam, start, path)
    return start


def start_named(err: InputError, path: str | None) -> InputError:
    """A bracket's refusal of its start (field ``start``: it knows the start only as a
    Schedule) with the file it came from."""
    return err.with_file(path) if path and err.field == "start" else err


@command("bracket", "the best certified interval [low, high] on OPT within a wall-clock "
         "budget: every algorithm (checked), the exact model, every bound",
         epilog=listing.bracket)
def _bracket_args(p):
    p.add_argument("file")
    p.add_argument("--family", default=None, help="only for workloads without meta.family")
    p.add_argument("--time-limit", type=float, default=60.0,
                   help="wall-clock seconds for everything, model builds included (default 60)")
    p.add_argument("--solver", default="highs",
                   help="solver backend (listed below; default: highs)")
    p.add_argument("--threads", type=int, default=1, help="solver threads (default 1)")
    p.add_argument("--no-exact", action="store_true", help="skip the exact model")
    p.add_argument("--seed", type=int, default=0, help=SEED_HELP)
    p.add_argument("--bound", action="append", metavar="NAME", dest="bounds",
                   help="run only these bounds (repeatable; default: the family's bracket "
                        "bounds, listed below; lp_relaxation, the exact model's, runs at the "
                        "end only when named here or with no --bound)")
    p.add_argument("--algorithm", action="append", metavar="NAME", dest="algorithms",
                   help="run only these algorithms (repeatable; default: all of them)")
    p.add_argument("--no-verify", action="store_true",
                   help="do not confirm a solver's optimum with a second solver")
    p.add_argument("--json", action="store_true",
                   help="one JSON object on stdout (no progress display)")
    p.add_argument("--progress", action="store_true",
                   help="show the interval and the exact model's incumbent and bound while it "
                        "runs even when stderr is not a terminal (never with --json)")
    p.add_argument("-o", "--output", help="write the best checked schedule here")
    p.add_argument("--start", metavar="SCHEDULE",
                   help="continue from this schedule (e.g. an earlier run's -o): checked, then "
                        "the improvement searches and the exact model start from the best "
                        "schedule so far")
    add_solver_log_flag(p)
    p.set_defaults(handler=streaming_solver_log(_bracket))


def _bracket(args) -> int:
    from mlopt.bracket import bracket
    from mlopt.cli.live import Display, wanted
    from mlopt.families.base import family_of
    from mlopt.workload import Workload

    check_solver_args(args)
    if args.output:  # a missing folder is an error now, not after the whole budget
        from mlopt.fileio import check_output

        check_output(args.output)
    workload = Workload.load(args.file)
    fam = family_of(workload, args.family)
    start = load_start(args.start, fam) if args.start else None
    display = Display(wanted(args), fam.sense)
    try:
        res = bracket(workload, family=args.family, time_limit=args.time_limit,
                      solver=args.solver, threads=args.threads, verify=not args.no_verify,
                      exact=not args.no_exact, bounds=args.bounds,
                      algorithms=args.algorithms, start_schedule=start, seed=args.seed,
                      on_update=display.interval if display.enabled else None,
                      on_progress=display.progress if display.enabled else None)
    except InputError as err:
        raise start_named(err, args.start) from None
    finally:
        display.close()
    if args.output:
        if res.schedule is None:
            raise InputError("no checked schedule was found within the budget: nothing to "
                             "write", field="--output", value=args.output)
        from mlopt.fileio import atomic_output
        from mlopt.pipeline import stamp

        stamp(res.schedule, fam, workload)  # what check and --start compare
        with atomic_output(args.output) as tmp:
            res.schedule.save(tmp)
    d = res.to_dict()
    lines = [f"{res.family} ({'max' if res.sense == 'max' else 'min'}): OPT in "
             f"[{_fmt(res.low)}, {_fmt(res.high)}]  gap {_fmt(res.gap)}  status {res.status}"
             f"  ({res.elapsed_s:.1f} s of {res.time_limit:g}"
             f"{f', seed {res.seed}' if res.seed else ''})",
             f"  low from {res.low_source or '-'}, high from {res.high_source or '-'}"]
    if res.proof:
        lines.append(f"  {'disputed' if res.status == 'disputed' else 'proof'}: {res.proof}")
    lines.append(f"  {'source':<28} {'kind':<7} {'value':>12} {'bound':>12} {'status':<10} "
                 f"{'time s':>7}  note")
    for s in res.sources:
        lines.append(f"  {s.name:<28} {s.kind:<7} {_fmt(s.value):>12} {_fmt(s.bound):>12} "
                     f"{s.status:<10} {s.runtime_s:7.2f}  {s.note[:80]}")
    emit(d, args.json, "\n".join(lines))
    if res.status == "disputed":  # a bound beyond a checked schedule: exit 1, as solve does
        return 1
    return 0 if res.low is not None or res.high is not None else 1


CONTEXT_FLAGS = {"time_limit": "--time-limit", "threads": "--threads", "solver": "--solver"}


@command("bound", "one certified bound on OPT: mlopt bound W --bound NAME (mlopt families "
         "lists the names)", epilog=listing.bound)
def _bound_args(p):
    p.add_argument("file")
    p.add_argument("--bound", required=True,
                   help="a bound of the family, or lp_relaxation (listed below)")
    p.add_argument("--family", default=None, help="only for workloads without meta.family")
    p.add_argument("--time-limit", type=float, default=60.0,
                   help="wall-clock seconds (default 60)")
    p.add_argument("--solver", default="highs",
                   help="solver backend (listed below; default: highs)")
    p.add_argument("--threads", type=int, default=1, help="solver threads (default 1)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="a bound option (value parsed as JSON); repeatable")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_bound)


def _plain(v) -> bool:
    """A detail ``--json`` keeps: a number, a string, None, or a flat dict of those (a second
    solver's answer, ``confirm``); models, tables and schedules are left out."""
    scalar = (int, float, str, type(None))
    return isinstance(v, scalar) or (isinstance(v, dict) and all(
        isinstance(k, str) and isinstance(x, scalar) for k, x in v.items()))


def _bound(args) -> int:
    from mlopt.bracket import compute_bound, run_boxed
    from mlopt.families.base import family_of, known_names
    from mlopt.harness.tasks import _bound_value
    from mlopt.workload import Workload

    check_solver_args(args)
    workload = Workload.load(args.file)
    fam = family_of(workload, args.family)
    fam.validate(workload)
    options = parse_kv(args.option, "--option")
    if args.bound != "lp_relaxation":
        # an unknown bound or option name: one line before anything runs
        known_names(fam.bound(args.bound), options, f"bound {args.bound!r}", "option")
    for name, flag in CONTEXT_FLAGS.items():  # set by their flags, passed to every bound
        if name in options:
            raise InputError(f"is not an option here (use {flag})", field=name,
                             value=options[name])

    def work():
        return compute_bound(fam, workload, args.bound, solver=args.solver,
                             time_limit=args.time_limit, threads=args.threads,
                             options=options)

    t0 = time.perf_counter()
    kind, ret = run_boxed(args.time_limit + 5.0, work)
    if kind == "input":  # the bound's own error (a bad option value names the option)
        raise ret.error() if getattr(ret, "field", None) else InputError(
            ret, field="--bound", value=args.bound)
    if kind != "ok":
        raise InputError(f"the bound did not finish ({kind}: {ret})", field="--time-limit",
                         value=args.time_limit)
    if isinstance(ret, dict):
        ret.pop("schedule", None)
    value, status, details = _bound_value(ret)
    runtime = time.perf_counter() - t0
    side = "upper" if fam.sense == "max" else "lower"
    d = {"family": fam.name, "bound": args.bound, "side": side, "value": value,
         "method_status": status, "runtime_s": runtime,
         "details": {k: v for k, v in details.items() if _plain(v)}}
    how = f"; method status {status}" if status else ""  # most methods report none
    emit(d, args.json, f"{fam.name} {args.bound}: OPT {'<=' if side == 'upper' else '>='} "
         f"{_fmt(value)}  ({side} bound{how}; {runtime:.2f} s)")
    return 0 if value is not None else 1
