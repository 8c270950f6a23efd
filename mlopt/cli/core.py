"""Core commands: generate, solve, run, check, quickstart."""
from __future__ import annotations

import argparse
import sys

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.schedule import Schedule
from mlopt.workload import Workload
from mlopt.cli import command, emit, parse_kv


def _family_of(workload: Workload, explicit: str | None) -> str:
    return explicit or workload.meta.get("family", "oasis")


def _solver_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--solver", default="highs", help="solver backend (default: highs)")
    p.add_argument("--time-limit", type=float, default=None,
                   help="the solver's time limit in seconds (model build not included: it is "
                        "reported as build time)")
    p.add_argument("--mip-gap", type=float, default=0.0,
                   help="relative gap at which to stop (status stays 'feasible' unless proven)")
    p.add_argument("--threads", type=int, default=1)


# ---- generate ---------------------------------------------------------------------------------
@command("generate", "generate a workload from a family's preset: mlopt generate oasis "
         "--preset paper-fig5 --seed 1 -o w.json")
def _generate_args(p):
    p.add_argument("family")
    p.add_argument("--preset", default="paper-default")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("-p", "--param", action="append", metavar="KEY=VALUE",
                   help="override a generator parameter (value parsed as JSON); repeatable")
    p.add_argument("-o", "--output", required=True)
    p.set_defaults(handler=_generate)


def _generate(args) -> int:
    fam = get_family(args.family)
    workload = fam.preset(args.preset)(seed=args.seed, **parse_kv(args.param))
    workload.save(args.output)
    print(f"wrote {args.output}: {len(workload.jobs)} jobs, {len(workload.servers)} servers, "
          f"T={workload.horizon}, hash {workload.content_hash()}", file=sys.stderr)
    return 0


# ---- solve ------------------------------------------------------------------------------------
@command("solve", "offline optimum (or incumbent + bound) of a workload, checked")
def _solve_args(p):
    p.add_argument("file")
    p.add_argument("--family", default=None, help="default: the workload's meta.family or oasis")
    p.add_argument("--model", default=None, help="formulation name (default: the family's)")
    _solver_args(p)
    p.add_argument("--verify", nargs="?", const="auto", default=None, metavar="SOLVER",
                   help="after an optimal solve, re-solve with a second solver (default: scip "
                   "if installed, else highs with presolve off) and report verified / disputed")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument("-o", "--output", help="write the solver's schedule here")
    p.set_defaults(handler=_solve)


def _solve(args) -> int:
    from mlopt.pipeline import solve_offline

    workload = Workload.load(args.file)
    res = solve_offline(workload, family=_family_of(workload, args.family), model=args.model,
                        solver=args.solver, time_limit=args.time_limit, mip_gap=args.mip_gap,
                        threads=args.threads, verify=args.verify)
    if args.output and res.schedule is not None:
        res.schedule.save(args.output)
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
    emit(d, args.json, text)
    return 0


# ---- run --------------------------------------------------------------------------------------
@command("run", "run an online algorithm or baseline on a workload; the schedule is checked")
def _run_args(p):
    p.add_argument("algorithm")
    p.add_argument("file")
    p.add_argument("--family", default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--option", action="append", metavar="KEY=VALUE",
                   help="algorithm option (value parsed as JSON); repeatable")
    p.add_argument("--json", action="store_true")
    p.add_argument("-o", "--output", help="write the schedule here")
    p.set_defaults(handler=_run)


def _run(args) -> int:
    from mlopt.pipeline import run_algorithm

    workload = Workload.load(args.file)
    res = run_algorithm(workload, args.algorithm, family=_family_of(workload, args.family),
                        seed=args.seed, options=parse_kv(args.option, "--option"))
    if args.output:
        res.schedule.save(args.output)
    d = res.to_dict()
    text = (f"{args.algorithm}: objective {_fmt(d['objective'])}  admitted {d['admitted']}/"
            f"{len(workload.jobs)}  checked-feasible {d['feasible']}  {d['runtime_s']:.3f}s")
    if not res.check.feasible:
        text += "\n" + res.check.summary()
    emit(d, args.json, text)
    return 0 if res.check.feasible else 1


# ---- check ------------------------------------------------------------------------------------
@command("check", "independently check a schedule against a workload (exit 1 if infeasible)")
def _check_args(p):
    p.add_argument("file")
    p.add_argument("schedule")
    p.add_argument("--family", default=None)
    p.add_argument("--speed", type=float, default=None,
                   help="check the speed-augmented problem at this speed (1 + eps; families "
                        "with speed augmentation only; default 1: the problem itself).  The "
                        "schedule file's own meta never sets it")
    p.add_argument("--json", action="store_true")
    p.set_defaults(handler=_check)


def _check(args) -> int:
    import inspect

    from mlopt.families.base import resolve

    workload = Workload.load(args.file)
    schedule = Schedule.load(args.schedule)
    fam = get_family(_family_of(workload, args.family))
    fam.validate(workload)
    options = {}
    if args.speed is not None:
        if "speed" not in inspect.signature(resolve(fam.checker)).parameters:
            raise InputError(f"family {fam.name} has no speed augmentation", field="speed",
                             value=args.speed)
        options["speed"] = args.speed
    res = fam.check(workload, schedule, **options)
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
