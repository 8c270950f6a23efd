"""The results store: one long SQLite table with a fixed schema, written one task at a time.

Every finished task is committed in its own transaction (all of its rows or none), so a run
stopped at any moment — Ctrl-C, a killed worker, a killed parent — leaves only complete tasks
behind, and :meth:`ResultStore.keys` tells a resumed run what to skip.  Only the parent process
writes.  The database runs in WAL mode with ``synchronous=NORMAL``: a commit is atomic and
survives a crash of the process; only an OS crash or power loss can drop the last commits (never
half of one).

Columns (one row per task x method):

==================  ===========================================================================
key                 ``<task_key>/<method_kind>/<method>``, primary key
task_key            hash of the instance (family, preset, params, seed) and the method config
spec                the spec's name
instance_id         readable ``preset(k=v,...)#seed`` (``preset#seed`` without parameters)
content_hash        :meth:`mlopt.workload.Workload.content_hash` of the generated instance
family, preset      names
params              generator parameters, canonical JSON
seed                the instance seed (also passed to algorithms)
method_kind         ``offline`` | ``algorithm`` | ``bound`` | ``instance`` (generator error)
method              model name, algorithm label or bound method name
status              offline: the solve status (optimal, feasible, no_solution, ...) or error;
                    algorithm: feasible | infeasible | error; bound: ok | no_bound | violated |
                    error; instance: error
objective           the CHECKER's objective of the method's schedule
feasible            the checker's verdict (NULL when nothing was checked)
proven              OPT of this instance is proven (point ratios)
bound_low/high      offline and algorithm rows: bracket on OPT from all sources; bound rows:
                    the one-sided bound (high for max, low for min); NULL = unknown
ratio_low/high      algorithm rows: competitive-ratio interval (equal when proven);
                    +inf is stored as IEEE Inf; NULL = undefined (no feasible schedule)
runtime_s           solver runtime (offline), algorithm runtime, bound computation time
solver, solver_version
mlopt_version, python_version, numpy_version   of the process that ran the task
timestamp           UTC ISO-8601 time the row was produced
extra               JSON: solver objective/bound/gap/termination, violations, options, errors
timing              JSON: timing breakdown, the task's wall and CPU time (task_wall_s,
                    task_cpu_s), host and pid (all differ between identical runs)
verified            offline and algorithm rows of a spec with ``[offline] verify``: a second
                    solver agreed with the optimum (1), or did not / could not (0); NULL when
                    verification was not requested (and in rows written before schema 2)
verified_by         ``"<solver> <version>[ with settings]"`` of the agreeing second solver
==================  ===========================================================================

A resumed run trusts nothing it has not checked (:meth:`ResultStore.check_integrity`,
:meth:`ResultStore.malformed`): SQLite's ``PRAGMA integrity_check`` must pass (a damaged file is
one InputError saying what to do), every stored row must be well formed (its key matches its
task, method kind and method; known status; numbers where numbers belong; JSON where JSON
belongs), and the runner re-runs every task whose rows are missing or malformed
(:func:`mlopt.harness.runner.stored_tasks`).

Schema versions: 1 had no ``verified``/``verified_by``; 2 appends them.  A version-1 database
opens as it is (reading gives NULL for the new columns, so committed results still report and
the file is not touched) and is migrated lazily, by ``ALTER TABLE ... ADD COLUMN``, in the same
transaction as the first write to it.
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterable

from mlopt.errors import InputError
from mlopt.harness.tasks import ROW_FIELDS

SCHEMA_VERSION = 2
#: columns each schema version appends to the previous one (older -> newer)
_ADDED = {2: ("verified", "verified_by")}

_TYPES = {
    "seed": "INTEGER", "objective": "REAL", "feasible": "INTEGER", "proven": "INTEGER",
    "bound_low": "REAL", "bound_high": "REAL", "ratio_low": "REAL", "ratio_high": "REAL",
    "runtime_s": "REAL", "verified": "INTEGER",
}
COLUMNS = ROW_FIELDS
#: the statuses a row of each method kind may have (:mod:`mlopt.harness.tasks`)
ROW_STATUSES = {
    "offline": {"optimal", "feasible", "no_solution", "infeasible", "unbounded", "error",
                "disputed"},
    "algorithm": {"feasible", "infeasible", "error"},
    "bound": {"ok", "no_bound", "violated", "error"},
    "instance": {"error"},
}
_NUMBERS = ("objective", "bound_low", "bound_high", "ratio_low", "ratio_high", "runtime_s")
_FLAGS = ("feasible", "proven", "verified")
_TEXTS = ("key", "task_key", "spec", "instance_id", "family", "preset", "params", "method_kind",
          "method", "status", "extra", "timing")
#: what a user does about a damaged store
REPAIR_HINT = ("move the file away and run again (or run into a new folder); its intact tasks "
               "can be kept by resuming a copy made with `sqlite3 OLD .recover | sqlite3 NEW`")
#: columns that legitimately differ between two runs of the same spec
VOLATILE = ("runtime_s", "timestamp", "timing")


def _columns(version: int) -> tuple[str, ...]:
    """The results columns of schema ``version``."""
    later = {c for v, cols in _ADDED.items() if v > version for c in cols}
    return tuple(c for c in COLUMNS if c not in later)


def _coldef(c: str) -> str:
    return f"{c} {_TYPES.get(c, 'TEXT')}"


def _ddl() -> str:
    cols = []
    for c in COLUMNS:
        if c == "key":
            cols.append("key TEXT PRIMARY KEY")
        elif c == "task_key":
            cols.append("task_key TEXT NOT NULL")
        else:
            cols.append(f"{c} {_TYPES.get(c, 'TEXT')}")
    return "CREATE TABLE IF NOT EXISTS results (\n  " + ",\n  ".join(cols) + "\n)"


class ResultStore:
    """SQLite results of one experiment directory.  ``ResultStore(path)`` creates or opens."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._con = None
        self._version = SCHEMA_VERSION  # of the file; < SCHEMA_VERSION until the first write
        try:
            self._con = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None)
            self._con.execute("PRAGMA journal_mode=WAL")
            self._con.execute("PRAGMA synchronous=NORMAL")
            self._init_schema()
        except sqlite3.DatabaseError as err:
            self.close()
            if _environment(err):
                raise InputError(f"cannot open the results database ({err}): check the "
                                 "folder's space and permissions", file=str(path)) from None
            raise InputError(f"not a usable results database ({err}); {REPAIR_HINT}",
                             file=str(path)) from None
        except BaseException:
            self.close()
            raise

    # -- schema -----------------------------------------------------------------------------------
    def _init_schema(self) -> None:
        con = self._con
        con.execute("BEGIN IMMEDIATE")
        try:
            con.execute("CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT)")
            con.execute(_ddl())
            row = con.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone()
            if row is None:
                con.execute("INSERT INTO meta VALUES ('schema_version', ?)",
                            (str(SCHEMA_VERSION),))
                version = SCHEMA_VERSION
            else:
                try:
                    version = int(row[0])
                except ValueError:
                    version = -1
                if not 1 <= version <= SCHEMA_VERSION:
                    raise InputError(f"results schema version {row[0]}, this mlopt reads 1 to "
                                     f"{SCHEMA_VERSION}", file=str(self.path))
            have = [r[1] for r in con.execute("PRAGMA table_info(results)")]
            if tuple(have) != _columns(version):
                raise InputError("results table has an unexpected schema", file=str(self.path))
            self._version = version
            con.execute("CREATE INDEX IF NOT EXISTS results_task ON results(task_key)")
            con.execute("COMMIT")
        except BaseException:
            _rollback(con)
            raise

    @property
    def schema_version(self) -> int:
        """The file's schema version (older files are migrated on their first write)."""
        return self._version

    def _migrate(self) -> None:
        """Bring an older file to SCHEMA_VERSION; call inside a write transaction."""
        for v in range(self._version + 1, SCHEMA_VERSION + 1):
            for c in _ADDED.get(v, ()):
                self._con.execute(f"ALTER TABLE results ADD COLUMN {_coldef(c)}")
        self._con.execute("UPDATE meta SET value = ? WHERE name = 'schema_version'",
                          (str(SCHEMA_VERSION),))

    def _write(self, fn) -> None:
        """Run ``fn(con)`` in one transaction, migrating an older file first (same transaction:
        a failed write leaves the file at its old version)."""
        con = self._con
        con.execute("BEGIN IMMEDIATE")
        try:
            if self._version < SCHEMA_VERSION:
                self._migrate()
            fn(con)
            con.execute("COMMIT")
        except BaseException:
            _rollback(con)
            raise
        self._version = SCHEMA_VERSION

    # -- writing ----------------------------------------------------------------------------------
    def add_task(self, rows: Iterable[dict[str, Any]]) -> None:
        """Write all rows of one task in ONE transaction (replacing earlier rows of that task)."""
        rows = list(rows)
        if not rows:
            return
        keys = {r["task_key"] for r in rows}
        if len(keys) != 1:
            raise ValueError("add_task takes the rows of exactly one task")
        values = [tuple(_sql_value(r.get(c)) for c in COLUMNS) for r in rows]
        sql = (f"INSERT INTO results ({', '.join(COLUMNS)}) "
               f"VALUES ({', '.join('?' * len(COLUMNS))})")
        key = keys.pop()

        def write(con):
            con.execute("DELETE FROM results WHERE task_key = ?", (key,))
            con.executemany(sql, values)

        self._write(write)

    def set_meta(self, name: str, value: Any) -> None:
        text = json.dumps(value, sort_keys=True)
        self._write(lambda con: con.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                                            (name, text)))

    def get_meta(self, name: str, default: Any = None) -> Any:
        row = self._con.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except json.JSONDecodeError:
            return row[0]

    # -- checking ---------------------------------------------------------------------------------
    def check_integrity(self) -> None:
        """SQLite's own ``PRAGMA integrity_check``: a damaged file is one InputError."""
        try:
            found = [r[0] for r in self._con.execute("PRAGMA integrity_check")]
        except sqlite3.DatabaseError as err:
            found = [str(err)]
        if found != ["ok"]:
            what = " ".join(" ".join(map(str, found[:3])).split())
            what = what if len(what) <= 200 else what[:197] + "..."
            raise InputError(f"the results database is damaged ({what}); "
                             f"{REPAIR_HINT}", file=str(self.path))

    def malformed(self) -> dict[int, tuple[str | None, str]]:
        """Rows that are not what a task writes: rowid -> (task_key, why)."""
        have = _columns(self._version)
        bad: dict[int, tuple[str | None, str]] = {}
        try:
            cur = self._con.execute(f"SELECT rowid, {', '.join(have)} FROM results")
            for rowid, *values in cur:
                row = dict(zip(have, values))
                why = row_problem(row)
                if why:
                    tk = row.get("task_key")
                    bad[rowid] = (tk if isinstance(tk, str) else None, why)
        except sqlite3.DatabaseError as err:
            raise InputError(f"the results database is damaged ({err}); {REPAIR_HINT}",
                             file=str(self.path)) from None
        return bad

    def delete_rows(self, rowids: Iterable[int]) -> None:
        """Remove rows by rowid (malformed rows, before their tasks run again)."""
        ids = [(int(i),) for i in rowids]
        if ids:
            self._write(lambda con: con.executemany("DELETE FROM results WHERE rowid = ?",
                                                    ids))

    def stored_methods(self) -> dict[str, set[str]]:
        """task_key -> the row keys stored for it."""
        out: dict[str, set[str]] = {}
        for key, tk in self._con.execute("SELECT key, task_key FROM results"):
            out.setdefault(tk, set()).add(key)
        return out

    # -- reading ----------------------------------------------------------------------------------
    def keys(self) -> set[str]:
        """Task keys with results (each is complete: tasks are written atomically)."""
        return {r[0] for r in self._con.execute("SELECT DISTINCT task_key FROM results")}

    def has(self, task_key: str) -> bool:
        return self._con.execute("SELECT 1 FROM results WHERE task_key = ? LIMIT 1",
                                 (task_key,)).fetchone() is not None

    def __len__(self) -> int:
        return self._con.execute("SELECT COUNT(*) FROM results").fetchone()[0]

    def rows(self) -> list[dict[str, Any]]:
        """All rows with every current column (NULL for columns an older file lacks)."""
        have = _columns(self._version)
        cur = self._con.execute(f"SELECT {', '.join(have)} FROM results ORDER BY key")
        return [{c: None for c in COLUMNS} | dict(zip(have, r)) for r in cur]

    def to_frame(self):
        """All rows as a pandas DataFrame (feasible/proven as nullable booleans)."""
        import pandas as pd

        df = pd.DataFrame(self.rows(), columns=list(COLUMNS))
        for c in ("feasible", "proven", "verified"):
            df[c] = df[c].astype("boolean")
        df["seed"] = df["seed"].astype("Int64")
        for c in ("objective", "bound_low", "bound_high", "ratio_low", "ratio_high",
                  "runtime_s"):
            df[c] = pd.to_numeric(df[c]).astype("float64")
        return df

    def flat_frame(self):
        """:meth:`to_frame` with the documented keys of ``extra`` and ``timing`` as columns of
        their own (:data:`FLAT_EXTRA`, :data:`FLAT_TIMING`: ``extra.gap``,
        ``timing.build_s``, ``extra.verification.outcome``, ...; empty where a row lacks the
        key), so a spreadsheet or ``pandas.read_csv`` gets numbers, not JSON strings.  The JSON
        columns stay: they keep every key."""
        import pandas as pd

        df = self.to_frame()
        for column, keys in (("extra", FLAT_EXTRA), ("timing", FLAT_TIMING)):
            parsed = [json.loads(v) if isinstance(v, str) else {} for v in df[column]]
            for key in keys:
                values = [_dig(d, key) for d in parsed]
                numbers = all(v is None or (isinstance(v, (int, float))
                                            and not isinstance(v, bool)) for v in values)
                df[f"{column}.{key}"] = (pd.to_numeric(pd.Series(values, dtype="object"))
                                         .astype("float64") if numbers else values)
        return df

    def export_csv(self, path: str | Path) -> Path:
        from mlopt.fileio import atomic_output

        with atomic_output(path) as tmp:  # never a partial file (full device, Ctrl-C)
            self.flat_frame().to_csv(tmp, index=False)
        return Path(path)

    def export_parquet(self, path: str | Path) -> Path:
        from mlopt.fileio import atomic_output

        with atomic_output(path) as tmp:
            try:
                self.flat_frame().to_parquet(tmp, index=False)
            except ImportError as err:
                raise InputError(f"Parquet export needs pyarrow ({err}); pip install "
                                 "mlopt[parquet]", file=str(path)) from None
        return Path(path)

    # -- lifecycle --------------------------------------------------------------------------------
    def close(self) -> None:
        if self._con is not None:
            self._con.close()
            self._con = None

    def __enter__(self) -> "ResultStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


#: keys of ``extra`` exported as columns ``extra.<key>`` (dots walk into nested objects):
#: offline rows (the solver's objective, bound, gap and termination, verification outcome),
#: algorithm rows (admitted jobs, partial objective of an infeasible schedule, speed of an
#: augmented run), bound rows (the bound's method and its own status), errors
FLAT_EXTRA = ("solver_objective", "solver_bound", "gap", "termination", "admitted",
              "partial_objective", "speed", "method", "method_status", "error",
              "verification.outcome")
#: keys of ``timing`` exported as columns ``timing.<key>``: the task's wall and CPU time and its
#: steps (generate, build, solve, extract, check, verify)
FLAT_TIMING = ("task_wall_s", "task_cpu_s", "generate_s", "build_s", "solve_wall_s",
               "extract_s", "check_s", "verify_s")


def _dig(d: Any, dotted: str) -> Any:
    """``d["a"]["b"]`` for ``"a.b"``; None where a step is missing or the value is not a
    scalar (a nested object stays in the JSON column)."""
    for part in dotted.split("."):
        if not isinstance(d, dict) or part not in d:
            return None
        d = d[part]
    return d if d is None or isinstance(d, (str, int, float, bool)) else None


def row_problem(row: dict[str, Any]) -> str:
    """Why a stored row is not one a task writes ("" when it is well formed)."""
    for c in _TEXTS:
        if not isinstance(row.get(c), str) or not row[c]:
            return f"{c} is not text"
    kind, status = row["method_kind"], row["status"]
    if kind not in ROW_STATUSES:
        return f"unknown method_kind {kind!r}"
    if status not in ROW_STATUSES[kind]:
        return f"unknown status {status!r} for a {kind} row"
    if row["key"] != f"{row['task_key']}/{kind}/{row['method']}":
        return "key does not match task_key/method_kind/method"
    seed = row.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        return "seed is not an integer >= 0"
    for c in _NUMBERS:
        v = row.get(c)
        if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))):
            return f"{c} is not a number"
    for c in _FLAGS:
        if row.get(c) not in (None, 0, 1) or isinstance(row.get(c), float):
            return f"{c} is not a flag"
    for c in ("params", "extra", "timing"):
        try:
            value = json.loads(row[c])
        except (ValueError, RecursionError):
            return f"{c} is not JSON"
        if c != "params" and not isinstance(value, dict):
            return f"{c} is not a JSON object"
    for c in ("content_hash", "solver", "solver_version", "timestamp", "verified_by"):
        if row.get(c) is not None and not isinstance(row[c], str):
            return f"{c} is not text"
    return ""


def _environment(err: Exception) -> bool:
    text = str(err).lower()
    return any(s in text for s in ("readonly", "read-only", "disk is full", "unable to open",
                                   "disk i/o error"))


def _rollback(con: sqlite3.Connection) -> None:
    """Roll back if a transaction is still open (a Ctrl-C can land right after COMMIT)."""
    if con.in_transaction:
        con.execute("ROLLBACK")


def _sql_value(v: Any) -> Any:
    if v is None or isinstance(v, (str, int, float)):
        return int(v) if isinstance(v, bool) else v
    if hasattr(v, "item"):  # numpy scalar
        return v.item()
    return json.dumps(v, sort_keys=True, default=str)
