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
from typing import Callable, NoReturn

from mlopt.errors import InputError

#: solve statuses that make ``mlopt solve`` (and a solver benchmark) exit 1
SOLVE_EXIT = {"error": 1, "infeasible": 1, "unbounded": 1, "disputed": 1}
INTERRUPTED = "mlopt: interrupted (results written so far are kept)"
TERMINATED = "mlopt: terminated (results written so far are kept)"


_TERMINATED = False  # set by the SIGTERM handler


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread like Ctrl-C: the same clean stop (pools shut down,
    results so far kept), exit 143."""

COMMANDS: dict[str, tuple[Callable[[argparse.ArgumentParser], None],
                          Callable[[argparse.Namespace], int]]] = {}


def command(name: str, help: str, epilog: Callable[..., str] | None = None,
            ) -> Callable[[Callable], Callable]:
    """Register ``add_arguments`` under ``name``.  ``epilog(args)`` builds the text after the
    command's ``--help`` (the names it takes, from the registry; ``args``: what was parsed
    before ``--help``, e.g. the family of ``mlopt generate oasis --help``, or None): called
    only when that help is printed, so ``mlopt --help`` and every other command load no family
    for it."""
    def deco(add_arguments):
        add_arguments.help = help
        add_arguments.epilog = epilog
        COMMANDS[name] = add_arguments
        return add_arguments
    return deco


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter, but each line of a description or epilog is wrapped on its own,
    keeping its indentation (the registry listings are indented lines)."""

    def _fill_text(self, text, width, indent):
        import textwrap

        out = []
        for line in text.splitlines():
            body = line.lstrip(" ")
            if not body:
                out.append("")
                continue
            lead = indent + " " * (len(line) - len(body))
            hang = lead + "    " if len(body) < len(line) else lead  # a listed item hangs
            out.append(textwrap.fill(body, max(width, 20), initial_indent=lead,
                                     subsequent_indent=hang,
                                     break_on_hyphens=False))
        return "\n".join(out)


class ParserExit(Exception):
    """``--help`` / ``--version`` done: :func:`main` returns ``status`` instead of exiting."""

    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class _HelpAction(argparse.Action):
    """``-h/--help``: argparse's, but the epilog sees what was parsed before it."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="show this help message and exit"):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        parser.help_args = namespace
        parser.print_help()
        parser.exit()


class OneLineParser(argparse.ArgumentParser):
    """argparse prints usage plus an error; the contract here is one line and exit 2.

    ``epilog_fn`` (optional): ``fn(args) -> str`` builds the epilog when the help is
    formatted, not before (``args``: the arguments parsed before ``--help``, or None)."""

    def __init__(self, *args, epilog_fn: Callable[..., str] | None = None, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        add_help = kwargs.pop("add_help", True)
        super().__init__(*args, add_help=False, **kwargs)
        if add_help:
            self.add_argument("-h", "--help", action=_HelpAction)
        self.epilog_fn = epilog_fn
        self.help_args = None

    def format_help(self) -> str:
        """The help text, with the epilog built from the registry now."""
        if self.epilog_fn is not None:
            try:
                self.epilog = self.epilog_fn(self.help_args)
            except Exception as err:  # noqa: BLE001  (the help itself must still print)
                self.epilog = f"(the list of names could not be built: {type(err).__name__}: " \
                              f"{' '.join(str(err).split())[:200]})"
        return super().format_help()

    def error(self, message: str) -> NoReturn:  # noqa: D401
        """A usage error: one InputError line (main prints the prefix once)."""
        # "mlopt: error: " is printed once, by main(); a subcommand names itself after it
        where = self.prog.split(" ", 1)[1] if " " in self.prog else ""
        raise InputError(f"{where}: {message}" if where else message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        """Print ``message`` (if any) and leave argparse with ``status``."""
        if message:
            _say(message.rstrip("\n"))
        raise ParserExit(status)


def version() -> str:
    """The installed distribution's version (written once, in pyproject.toml)."""
    import mlopt

    return mlopt.__version__


class _VersionAction(argparse.Action):
    """``--version``: the metadata is read only when asked for."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS,
                 help="print mlopt's version and exit"):
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"mlopt {version()}")
        parser.exit()


class _Actions(argparse._SubParsersAction):
    """An action's one-line ``help`` (shown in its group's list) is also the first line of
    its own ``--help``, unless it has a description of its own."""

    def add_parser(self, name, **kwargs):
        if "help" in kwargs:
            kwargs.setdefault("description", kwargs["help"])
        return super().add_parser(name, **kwargs)


def actions(p: argparse.ArgumentParser) -> argparse._SubParsersAction:
    """Sub-actions of a command group (``mlopt bench run|report|...``).  The group named
    without an action prints its own help and exits 0, like bare ``mlopt``."""
    sub = p.add_subparsers(dest="action", metavar="ACTION", title="actions", parser_class=type(p),
                           action=_Actions)

    def show_help(args) -> int:
        p.print_help()
        return 0

    p.set_defaults(handler=show_help)
    return sub


def verify_solver(value: str) -> str:
    """``--verify [SOLVER]``'s value: ``solve --verify w.json`` took the file for a solver and
    then said the file was missing; a file or an instance set there is named as such."""
    import os

    from mlopt.instances import list_sets
    from mlopt.solvers import BACKENDS

    if value == "auto" or value in BACKENDS:  # a solver's name, even where a file has it too
        return value
    if value.endswith(".json") or os.path.exists(value) or value in list_sets():
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a solver: put --verify after it, or write --verify=SOLVER")
    return value


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
    """Print ``obj`` as one JSON line when ``as_json``, else ``text``."""
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


DESCRIPTION = ("Scheduling distributed ML training jobs: offline optima, online algorithms, "
               "checked schedules, benchmarks.\n"
               "mlopt COMMAND --help lists what that command takes (families, presets, "
               "algorithms and their options, models, solvers, bounds), from the registry.")


def build_parser() -> argparse.ArgumentParser:
    """The ``mlopt`` parser with every registered command."""
    from mlopt.cli import (  # noqa: F401  (register commands; each imports only what is light)
        bench, bracket, core, families, instances, quickstart, schema, solvers, train)

    parser = OneLineParser(prog="mlopt", description=DESCRIPTION)
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument("--traces", default=None, metavar="DIR",
                        help="the shared traces directory (else $MLOPT_SHARED_TRACES, else the "
                             "repository's ../shared/traces)")
    loud = parser.add_mutually_exclusive_group()
    loud.add_argument("-v", "--verbose", action="count", default=0,
                      help="say what each step does (-vv: details; messages on stderr)")
    loud.add_argument("-q", "--quiet", action="store_true",
                      help="errors only: no warnings, no progress bars")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands",
                                parser_class=OneLineParser)
    for name, add_arguments in COMMANDS.items():
        p = sub.add_parser(name, help=add_arguments.help, description=add_arguments.help,
                           epilog_fn=add_arguments.epilog)
        add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``mlopt`` command line on ``argv``; return the exit status."""
    global _TERMINATED
    _TERMINATED = False
    restore = _stop_signals()
    try:
        code = _main(argv)
        # a command that caught the stop itself (a benchmark keeps what finished) says 130
        return 143 if code == 130 and _TERMINATED else code
    except Terminated:
        _say(TERMINATED)
        return 143
    except KeyboardInterrupt:  # also while printing an error or importing the commands
        _say(INTERRUPTED)
        return 130
    finally:
        restore()
        paths = sys.modules.get("mlopt.traces.paths")
        if paths is not None:  # --traces holds for one command (main also runs in-process)
            paths.set_traces_dir(None)


def say_stopped() -> None:
    """The one line for a command that caught Ctrl-C / SIGTERM itself and kept its results."""
    _say(TERMINATED if _TERMINATED else INTERRUPTED)


def _stop_signals() -> Callable[[], None]:
    """SIGINT and SIGTERM stop mlopt the same clean way, wherever it was started.

    A shell starts a background job (``mlopt bench run ... &`` in a script) with SIGINT
    ignored, and Python then never raises KeyboardInterrupt: ``kill -INT`` did nothing.  SIGTERM
    killed the process outright, skipping the pools' shutdown (multiprocessing's resource
    tracker then warned about leaked semaphores).  Both now raise in the main thread; the
    previous handlers come back when :func:`main` returns (it is also called in-process)."""
    import signal

    import threading

    if threading.current_thread() is not threading.main_thread():  # only it can set handlers
        return lambda: None
    old = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}

    def terminated(signum, frame):
        global _TERMINATED
        _TERMINATED = True
        raise Terminated()

    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, terminated)

    def restore() -> None:
        for sig, handler in old.items():
            if handler is not None:
                signal.signal(sig, handler)

    return restore


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
            from mlopt.cli.progress import configure

            configure(getattr(args, "verbose", 0), getattr(args, "quiet", False))
            if getattr(args, "traces", None) is not None:
                from mlopt.traces.paths import set_traces_dir

                set_traces_dir(args.traces)
            if getattr(args, "command", None) is None:  # bare ``mlopt``: the help, not an error
                parser.print_help()
                return 0
            return int(args.handler(args) or 0)
    except ParserExit as done:  # --help, --version
        return done.status
    except Terminated:
        raise  # main() says it
    except InputError as err:
        # a family's field check runs after loading: name the workload file it came from
        if err.file is None and str(err.field or "").startswith(("jobs[", "servers[", "extra.")) \
                and isinstance(getattr(args, "file", None), str):
            err = err.with_file(args.file)
        _say(f"mlopt: error: {_unprefixed(str(err))}")  # one line, whatever it quotes
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


def _unprefixed(text: str) -> str:
    """``text`` on one line, without a leading ``mlopt:`` / ``mlopt: error:`` of its own (the
    one prefix is main's)."""
    text = " ".join(text.split())
    while True:
        for prefix in ("mlopt: error: ", "mlopt: ", "mlopt error: "):
            if text.startswith(prefix):
                text = text[len(prefix):]
                break
        else:
            return text


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
