"""The ``mlopt`` command line.

Each command group lives in its own module and registers itself in :data:`COMMANDS`
(``name -> (add_arguments, handler)``).  User errors (:class:`~mlopt.errors.InputError`, argument
errors, unreadable files) print exactly one line on stderr and exit with status 2; an infeasible
schedule exits 1; anything else is a bug in mlopt: one line, exit 3 (``MLOPT_DEBUG=1`` re-raises
it with the traceback).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Callable

from mlopt.errors import InputError

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
    args = None
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        return int(args.handler(args) or 0)
    except InputError as err:
        # a family's field check runs after loading: name the workload file it came from
        if err.file is None and str(err.field or "").startswith(("jobs[", "servers[")) \
                and isinstance(getattr(args, "file", None), str):
            err = err.with_file(args.file)
        print(f"mlopt: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mlopt: interrupted (results written so far are kept)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except RecursionError:  # input nested beyond what any loader can walk
        print("mlopt: error: input nested too deeply", file=sys.stderr)
        return 2
    except MemoryError:
        print("mlopt: error: out of memory (the input is too large for this machine; see "
              "mlopt.limits)", file=sys.stderr)
        return 2
    except Exception as err:  # a bug, not bad input: one line, exit 3 (MLOPT_DEBUG=1: traceback)
        if os.environ.get("MLOPT_DEBUG"):
            raise
        text = " ".join(f"{type(err).__name__}: {err}".split())
        print(f"mlopt: internal error (please report; MLOPT_DEBUG=1 shows the traceback): "
              f"{text[:300]}", file=sys.stderr)
        return 3


