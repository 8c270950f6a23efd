"""The ``mlopt`` command line.

Each command group lives in its own module and registers itself in :data:`COMMANDS`
(``name -> (add_arguments, handler)``).

Exit status (every command):

* ``0``: done; for ``solve`` an ``optimal`` or ``feasible`` result (or ``no_solution`` when a
  limit stopped the solver: what was asked for), for ``run``/``check`` a feasible schedule;
* ``1``: the command ran but its result is a failure: a schedule the checker rejects, a solve
  whose status is ``infeasible``, ``unbounded``, ``error`` or ``disputed`` (:data:`SOLVE_EXIT`),
  a benchmark with failed or errored tasks;
* ``2``: bad input: an :class:`~mlopt.errors.InputError`, an argument error, an unreadable or
  unwritable file (missing folder, full device, read-only folder), a corrupt results store, a
  numeric warning raised by the input (NumPy's RuntimeWarning is an error here) -- always
  exactly one line on stderr, never a traceback;
* ``3``: a bug in mlopt: one line (``MLOPT_DEBUG=1`` re-raises it with the traceback);
* ``130``: interrupted (Ctrl-C), at any moment, including while mlopt is still importing.

This module imports only the standard library and :mod:`mlopt.errors`: the command modules
(and with them NumPy, pydantic, Pyomo) load inside :func:`main`, so an early Ctrl-C is one line.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable

from mlopt.errors import InputError

#: solve statuses that make ``mlopt solve`` (and a solver benchmark) exit 1
SOLVE_EXIT = {"error": 1, "infeasible": 1, "unbounded": 1, "disputed": 1}
INTERRUPTED = "mlopt: interrupted (results written so far are kept)"

COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                          Callable[[argparse.Namespace], int]]] = {}


def command(name: str, help: str):
    """Register ``add_arguments`` under ``name``; the handler is attached as its attribute."""
    def deco(add_arguments):
        add_arguments.help = help
        COMMANDS[name] = add_arguments
        return add_arguments
    return deco


class OneLineParser(argparse.ArgumentParser):
    """argparse prints usage plus an error; the contract here is one line and exit 2."""

    def error(self, message: str):  # noqa: D401
        raise InputError(f"{self.prog}: {message}")


def parse_kv(items: list[str] | None, field: str = "--param") -> dict:
    """``["a=1", "b=[1,2]", "c=x"]`` -> ``{"a": 1, "b": [1, 2], "c": "x"}`` (values as JSON)."""
    out = {}
    for item in items or []:
        if "=" not in item:
            raise InputError("expected KEY=VALUE", field=field, value=item)
        key, raw = item.split("=", 1)
        try:
            out[key.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            out[key.strip()] = raw
    return out


def emit(obj: dict, as_json: bool, text: str) -> None:
    if as_json:
        print(json.dumps(obj, default=_default))
    else:
        print(text)


def _default(o):
    if hasattr(o, "item"):
        return o.item()
    if hasattr(o, "value"):
        return o.value
    return str(o)


def build_parser() -> argparse.ArgumentParser:
    from mlopt.cli import (  # noqa: F401  (register commands)
        bench, bracket, core, families, instances, quickstart, schema, solvers, train)

    parser = OneLineParser(prog="mlopt", description="Scheduling distributed ML training jobs: "
                           "offline optima, online algorithms, checked schedules, benchmarks.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    for name, add_arguments in COMMANDS.items():
        p = sub.add_parser(name, help=add_arguments.help, description=add_arguments.help)
        add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:  # also while printing an error or importing the commands
        _say(INTERRUPTED)
        return 130


def _say(line: str) -> None:
    try:
        print(line, file=sys.stderr)
    except (OSError, ValueError):  # stderr closed
        pass


def _main(argv: list[str] | None) -> int:
    import warnings

    args = None
    try:
        with warnings.catch_warnings():
            # a numeric warning caused by the input is the one-line error, not a warning line
            # followed by a result (FloatingPointError: where a module raises on them itself)
            warnings.simplefilter("error", RuntimeWarning)
            parser = build_parser()
            args = parser.parse_args(argv)
            return int(args.handler(args) or 0)
    except InputError as err:
        # a family's field check runs after loading: name the workload file it came from
        if err.file is None and str(err.field or "").startswith(("jobs[", "servers[", "extra.")) \
                and isinstance(getattr(args, "file", None), str):
            err = err.with_file(args.file)
        _say(f"mlopt: error: {' '.join(str(err).split())}")  # one line, whatever it quotes
        return 2
    except KeyboardInterrupt:
        _say(INTERRUPTED)
        return 130
    except BrokenPipeError:
        return 0
    except RecursionError:  # input nested beyond what any loader can walk
        _say("mlopt: error: input nested too deeply")
        return 2
    except MemoryError:
        _say("mlopt: error: out of memory (the input is too large for this machine; see "
             "mlopt.limits)")
        return 2
    except (RuntimeWarning, FloatingPointError) as err:
        _say(f"mlopt: error: numeric problem with the input ({type(err).__name__}: "
             f"{' '.join(str(err).split())[:200]})")
        return 2
    except OSError as err:  # the machine's: full device, read-only folder, missing file
        from mlopt.fileio import ENVIRONMENT_ERRNOS, os_error

        if err.errno not in ENVIRONMENT_ERRNOS or os.environ.get("MLOPT_DEBUG"):
            return _bug(err)
        _say(f"mlopt: error: {os_error(err, doing='read or write')}")
        return 2
    except Exception as err:  # a bug, not bad input: one line, exit 3 (MLOPT_DEBUG=1: traceback)
        if _is_sqlite_environment(err):
            _say(f"mlopt: error: results store: {' '.join(str(err).split())[:200]} (check the "
                 "folder's space and permissions)")
            return 2
        return _bug(err)


def _is_sqlite_environment(err: Exception) -> bool:
    """SQLite's errors of the machine (read-only, full, unopenable): not mlopt's bugs."""
    if type(err).__module__ != "sqlite3" or os.environ.get("MLOPT_DEBUG"):
        return False
    text = str(err).lower()
    return any(s in text for s in ("readonly", "read-only", "disk is full", "unable to open",
                                   "disk i/o error", "database is locked"))


def _bug(err: BaseException) -> int:
    if os.environ.get("MLOPT_DEBUG"):
        raise err
    text = " ".join(f"{type(err).__name__}: {err}".split())
    _say(f"mlopt: internal error (please report; MLOPT_DEBUG=1 shows the traceback): "
         f"{text[:300]}")
    return 3
