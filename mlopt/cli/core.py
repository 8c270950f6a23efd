"""Core commands: generate, solve, run, check.

Imports only what is light at load time (``mlopt --help`` builds every command's parser); the
workload, schedule and family modules load inside the handlers."""
from __future__ import annotations

import argparse
import sys

from mlopt.cli.progress import add_solver_log_flag, streaming_solver_log
from mlopt.errors import InputError
from mlopt.cli import SOLVE_EXIT, command, emit, listing, parse_kv, verify_solver

#: ``mlopt generate FAMILY`` without ``--preset``: the small instance every family has
DEFAULT_PRESET = "tiny"

FAMILY_HELP = ("the workload's family, for a workload without meta.family (a different one "
               "from the workload's own is an error)")


def _solver_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--solver", default="highs",
                   help="solver backend (listed below; default: highs)")
    p.add_argument("--time-limit", type=float, default=None,
                   help="seconds of wall clock, > 0, for building the model and solving it (a "
                        "build that overruns it is stopped with a one-line error; build time is "
                        "reported separately; default: no limit)")
    p.add_argument("--mip-gap", type=float, default=0.0,
                   help="relative gap in [0, 1] at which to stop (status stays 'feasible' "
                        "unless proven)")
    p.add_argument("--threads", type=int, default=1, help="solver threads, 1 to 1024")
    p.add_argument("--solver-option", action="append", metavar="KEY=VALUE",
                   help="a solver option (the backend's own name; value parsed as JSON); "
                        "unknown names and values the solver refuses are errors; repeatable")


def check_solver_args(args) -> dict:
    """The solver flags, checked before any file is read (one line, exit 2 for a bad one)."""
    from mlopt.solve import check_settings

    options = parse_kv(getattr(args, "solver_option", None), "--solver-option")
    try:
        check_settings(time_limit=args.time_limit, mip_gap=getattr(args, "mip_gap", 0.0),
                       threads=args.threads, options=options, solver=args.solver)
    except InputError as err:
        flag = {"time_limit": "--time-limit", "mip_gap": "--mip-gap",
                "threads": "--threads"}.get(err.field or "")
        if flag is None and (err.field or "").startswith("options."):
            flag = f"--solver-option {err.field[len('options.'):]}"
        raise InputError(err.message, field=flag or err.field, value=err.value) from None
    return options


# ---- generate ---------------------------------------------------------------------------------
@command("generate", "generate a workload from a family's preset: mlopt generate oasis "
         "--preset paper-fig5 --seed 1 -o w.json", epilog=listing.generate)
def _generate_args(p):
    p.add_argument("family", help="a family (listed below)")
    p.add_argument("--preset", default=None,
                   help=f"a preset of the family (listed below; default: {DEFAULT_PRESET}, a "
                        "small instance)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("-p", "--param", action="append", metavar="KEY=VALUE",
                   help="override a generator parameter (value parsed as JSON); repeatable")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(handler=_generate)


def _generate(args) -> int:
    from mlopt.families import get_family
    from mlopt.fileio import atomic_output, check_output

    fam = get_family(args.family)
    check_output(args.output)
    preset = DEFAULT_PRESET if args.preset is None else args.preset
    workload = fam.generate(preset, seed=args.seed, **parse_kv(args.param))
    with atomic_output(args.output) as tmp:
        workload.save(tmp)
    print(f"wrote {args.output}: preset {preset}{' (default)' if args.preset is None else ''}, "
          f"seed {args.seed}, {len(workload.jobs)} jobs, {len(workload.servers)} servers, "
          f"T={workload.horizon}, hash {workload.content_hash()}", file=sys.stderr)
    return 0


# ---- solve ------------------------------------------------------------------------------------
@command("solve", "offline optimum (or incumbent + bound) of a workload, checked",
         epilog=listing.solve)
def _solve_args(p):
    p.add_argument("file")
    p.add_argument("--family", default=None, help=FAMILY_HELP)
    p.add_argument("--model", default=None,
                   help="formulation name (listed below; default: the family's)")
    p.add_argument("--model-option", action="append", metavar="KEY=VALUE",
                   help="an option of the formulation (value parsed as JSON; listed below "
                        "with the models); repeatable")
    _solver_args(p)
    p.add_argument("--verify", nargs="?", const="auto", default=None, metavar="SOLVER",
                   type=verify_solver,
                   help="after an optimal solve, re-solve with a second solver (default: scip "
                   "if installed, else highs with presolve off) and report verified / disputed")
    p.add_argument("--warm-start", default=None, metavar="ALG|best|SCHEDULE",
                   help="start the solver from a checked schedule: an algorithm of the family, "
                        "'best' (the best of all of them) or a schedule file; the incumbent is "
                        "never worse than it")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout (the "
                   "model's size estimate in it as 'estimate'; no progress display)")
    p.add_argument("--progress", action="store_true",
                   help="show the solver's incumbent and bound while it runs even when stderr "
                        "is not a terminal (never with --json)")
    p.add_argument("-o", "--output", help="write the solver's schedule here")
    add_solver_log_flag(p)
    p.set_defaults(handler=streaming_solver_log(_solve))


def _solve(args) -> int:
    import logging

    from mlopt.cli.live import Display, wanted
    from mlopt.families.base import family_of
    from mlopt.fileio import atomic_output, check_output
    from mlopt.pipeline import solve_offline
    from mlopt.workload import Workload

    options = check_solver_args(args)
    model_options = parse_kv(args.model_option, "--model-option")
    if args.output:
        check_output(args.output)
    workload = Workload.load(args.file)
    display = Display(wanted(args), family_of(workload, args.family).sense)

    def on_estimate(size):  # before the build: the JSON's "estimate"; logged (-v) and shown
        # above the live display; default stderr stays silent (the CLI's logging convention)
        logging.getLogger("mlopt.cli").info("estimate: %s", size.summary())
        display.line(f"estimate: {size.summary()}")
        display.note(f"building {size.model}")

    try:
        res = solve_offline(workload, family=args.family, model=args.model,
                            solver=args.solver, time_limit=args.time_limit,
                            mip_gap=args.mip_gap, threads=args.threads, verify=args.verify,
                            options=options, warm_start=args.warm_start,
                            model_options=model_options, on_estimate=on_estimate,
                            on_progress=display.progress if display.enabled else None)
    except InputError as err:
        raise _as_flag(err, model_options, args.file) from None
    finally:
        display.close()
    if args.output and res.schedule is not None:
        with atomic_output(args.output) as tmp:
            res.schedule.save(tmp)
    d = res.to_dict()
    text = (f"status {d['status']}  objective {_fmt(d['objective'])}  bound {_fmt(d['bound'])}  "
            f"gap {_fmt(d['gap'])}  checked-feasible {d['feasible']}  "
            f"solve {d['runtime_s']:.2f}s  build {d['build_s']:.2f}s  "
            f"({d['solver']} {d['solver_version']})")
    v = res.verification
    if v is not None:
        if v.verified:
            text += f"\nverified by {v.verified_by} ({v.runtime_s:.2f}s)"
        elif v.second is not None and v.outcome.value == "disputed":
            text += (f"\nDISPUTED by {v.solver}: {v.first['solver']} objective "
                     f"{_fmt(v.first['objective'])} bound {_fmt(v.first['bound'])}; {v.solver} "
                     f"objective {_fmt(v.second['objective'])} bound "
                     f"{_fmt(v.second['bound'])} ({v.reason})")
        else:
            text += f"\nnot verified ({v.solver}): {v.reason}"
    if d["status"] in SOLVE_EXIT and res.solve.message:
        text += f"\n{res.solve.message}"
    emit(d, args.json, text)
    return SOLVE_EXIT.get(d["status"], 0) if d["feasible"] is not False else 1


def _as_flag(err: InputError, model_options: dict, file: str) -> InputError:
    """solve_offline's error with the flag the user typed as its field (``--time-limit``, not
    the keyword ``time_limit``; ``--model-option tight``, not ``options.tight``), and the
    too-large refusal's commands ('mlopt bracket FILE ...') with the file typed."""
    import shlex

    field, message = err.field or "", err.message
    flag = {"time_limit": "--time-limit", "warm_start": "--warm-start"}.get(field)
    # the too-large refusal (for time or for memory) suggests commands: with the file typed
    for suggested in ("'mlopt bracket", "'mlopt bound"):
        message = message.replace(f"{suggested} FILE", f"{suggested} {shlex.quote(file)}")
    name = field[len("options."):] if field.startswith("options.") else field
    if name in model_options:  # a model option's name (unknown) or value (out of range)
        flag = f"--model-option {name}"
    if flag is None and message == err.message:
        return err
    return InputError(message, file=err.file, field=flag or err.field, value=err.value)


# ---- run --------------------------------------------------------------------------------------
@command("run", "run an online algorithm or baseline on a workload; the schedule is checked",
         epilog=listing.run)
def _run_args(p):
    p.add_argument("algorithm", help="an algorithm of the workload's family (listed below)")
    p.add_argument("file")
    p.add_argument("--family", default=None, help=FAMILY_HELP)
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="algorithm option (value parsed as JSON; listed below); repeatable")
    p.add_argument("--json", action="store_true")
    p.add_argument("-o", "--output", help="write the schedule here")
    p.set_defaults(handler=_run)


def _run(args) -> int:
    from mlopt.fileio import atomic_output, check_output
    from mlopt.pipeline import run_algorithm
    from mlopt.workload import Workload

    options = parse_kv(args.option, "--option")
    if args.output:
        check_output(args.output)
    workload = Workload.load(args.file)
    res = run_algorithm(workload, args.algorithm, family=args.family, seed=args.seed,
                        options=options)
    if args.output:
        with atomic_output(args.output) as tmp:
            res.schedule.save(tmp)
    d = res.to_dict()
    text = (f"{args.algorithm}: objective {_fmt(d['objective'])}  admitted {d['admitted']}/"
            f"{len(workload.jobs)}  checked-feasible {d['feasible']}  {d['runtime_s']:.3f}s")
    speed = (d.get("check_options") or {}).get("speed", 1.0)
    if speed != 1.0:  # a speed-augmented run can beat OPT: say so where the number is read
        text += (f"\nchecked at speed {speed:g} (the speed-augmented problem: not comparable "
                 "with OPT)")
    if not res.check.feasible:
        text += "\n" + res.check.summary()
    emit(d, args.json, text)
    return 0 if res.check.feasible else 1


# ---- check ------------------------------------------------------------------------------------
@command("check", "independently check a schedule against a workload (exit 1 if infeasible; "
         "2 for a schedule of another family, or infeasible on a workload other than its "
         "meta.workload)")
def _check_args(p):
    p.add_argument("file", help="the workload (JSON)")
    p.add_argument("schedule", help="the schedule (JSON), e.g. from mlopt run/solve/bracket -o")
    p.add_argument("--family", default=None, help=FAMILY_HELP)
    p.add_argument("--speed", type=float, default=None,
                   help="check the speed-augmented problem at this speed (1 + eps; families "
                        "with speed augmentation only; default 1: the problem itself).  The "
                        "schedule file's own meta never sets it")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_check)


def _check(args) -> int:
    import inspect

    from mlopt.families.base import family_of, resolve
    from mlopt.pipeline import check_schedule_family, first_violation, made_for_another
    from mlopt.schedule import Schedule
    from mlopt.workload import Workload

    try:
        workload = Workload.load(args.file)
        schedule = Schedule.load(args.schedule)
    except InputError as err:  # the files swapped, or twice one kind: say check's order
        if err.message.startswith("this is a "):
            raise InputError(err.message + " (mlopt check WORKLOAD SCHEDULE: the workload "
                             "first)", file=err.file) from None
        raise
    fam = family_of(workload, args.family)
    fam.validate(workload)
    check_schedule_family(fam, schedule, args.schedule)
    options = {}
    if args.speed is not None:
        if "speed" not in inspect.signature(resolve(fam.checker)).parameters:
            raise InputError(f"family {fam.name} has no speed augmentation", field="speed",
                             value=args.speed)
        options["speed"] = args.speed
    res = fam.check(workload, schedule, **options)
    mixed_up = "" if res.feasible else made_for_another(schedule, workload)
    if mixed_up:  # another workload's schedule: a mix-up of files (exit 2), not a verdict
        # the first violation still shown: the workload may have been edited on purpose
        raise InputError(f"infeasible here ({len(res.violations)} violations"
                         f"{first_violation(res)}){mixed_up}",
                         file=args.schedule, field="meta.workload",
                         value=schedule.meta.get("workload"))
    d = {"status": "feasible" if res.feasible else "infeasible",
         "objective": res.reported_objective, "partial_objective": res.partial_objective,
         "bound": None, "gap": None, "runtime_s": None, "feasible": res.feasible,
         "family": fam.name, **options, "violations": [v.__dict__ for v in res.violations[:50]]}
    text = res.summary(limit=10)
    if "speed" in options:
        text = f"checked at speed {options['speed']:g}" + (
            " (the speed-augmented problem: not comparable with OPT)"
            if options["speed"] != 1.0 else "") + f": {text}"
    emit(d, args.json, text)
    return 0 if res.feasible else 1


def _fmt(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.6g}"
    return str(x)


__all__ = ["InputError"]
