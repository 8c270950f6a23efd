"""Solver benchmark: instances x solvers x time limits x threads -> a long table and a report.

Spec (TOML)::

    name = "oasis-fig5"              # required
    family = "oasis"                 # required: a registered family (never guessed)
    model = "utility_ilp"            # default: the family's default formulation
    solvers = ["highs", "scip", "cpsat"]
    time_limits = [60.0]             # seconds, > 0
    threads = [1]                    # >= 1
    mip_gap = 0.0                    # default 0: "optimal" means proven
    output = "results/fig5"          # default "results/<name>", relative to the spec file

    [[instances]]                    # a generated set: the family preset, one per seed
    preset = "paper-fig5"
    seeds = [0, 1, 2]
    overrides = { n_jobs = 12 }      # optional generator parameters

    [[instances]]                    # or a workload file (relative to the spec file)
    path = "../../instances/foo.json"

Every (instance, solver, time limit, threads) run builds the model afresh (build time measured),
solves it, reads the schedule back with the family's extractor and runs the family's independent
checker on it.  Each row is appended to ``results.csv`` as soon as it finishes (and, as one
transaction, to ``results.sqlite`` through :class:`mlopt.harness.store.ResultStore`), so an
interrupted run resumes where it stopped (rows are keyed by instance content hash, solver, time
limit, threads and gap).  Solvers are warmed up on a trivial model first, so one-time costs
(imports, the CP-SAT worker process) are not charged to the first instance.

Report (``report.md`` + ``profile_*.png``), per time limit x threads setting and solver: runs,
number solved to proven optimality, shifted geometric mean of the run time (shift 10 s; a run
not proven optimal counts at the time limit), the gap left at the limit, checker verdicts, and a
Dolan-More performance profile; stamped with CPU model, date, solver versions and settings.
The report math is in pure functions (:func:`shifted_geomean`, :func:`performance_ratios`,
:func:`performance_profile`, :func:`summarize`).

Run: ``python -m mlopt.harness.solver_bench SPEC.toml [--out DIR] [--fresh]``.
"""
from __future__ import annotations

import argparse
import csv
import datetime as _dt
import hashlib
import importlib.metadata
import json
import math
import os
import platform
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from mlopt.errors import InputError

SGM_SHIFT_S = 10.0
# "the checker agrees with the solver": relative tolerance between the two objectives
CHECK_OBJ_RTOL = 1e-6

COLUMNS = ("spec", "instance", "content_hash", "family", "model", "n_vars", "n_cons", "solver",
           "solver_version", "threads", "time_limit", "mip_gap", "status", "objective",
           "bound", "gap", "runtime_s", "solve_s", "build_s", "check_feasible",
           "check_objective", "termination", "message", "timestamp")
_KEY = ("instance", "content_hash", "solver", "time_limit", "threads", "mip_gap")


# ---- spec -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BenchInstance:
    preset: str | None = None
    seed: int | None = None
    overrides: dict = field(default_factory=dict)
    path: Path | None = None

    @property
    def instance_id(self) -> str:
        """A readable id: the file's stem, or preset, overrides and seed."""
        if self.path is not None:
            return self.path.stem
        inner = ",".join(f"{k}={json.dumps(v, sort_keys=True)}"
                         for k, v in sorted(self.overrides.items()))
        return f"{self.preset}({inner})#{self.seed}" if inner else f"{self.preset}#{self.seed}"


@dataclass
class BenchSpec:
    name: str
    solvers: list[str]
    time_limits: list[float]
    threads: list[int]
    instances: list[BenchInstance]
    family: str  # required in the spec: never guessed
    model: str | None = None
    mip_gap: float = 0.0
    output: Path = Path("results")
    file: str | None = None


def _check_solve_params(time_limits, threads, gap, file: str | None) -> None:
    """The solve layer's own ranges (:data:`mlopt.solve.SOLVE_PARAMS`): NaN, absurd time
    limits, thread counts beyond what any machine has, a gap above 1."""
    from mlopt.params import check_values
    from mlopt.solve import SOLVE_PARAMS

    for key, values in (("time_limits", time_limits), ("threads", threads), ("mip_gap", [gap])):
        param = SOLVE_PARAMS[{"time_limits": "time_limit"}.get(key, key)]
        for v in values:
            try:
                check_values({key: param}, {key: v})
            except InputError as err:
                raise InputError(err.message, file=file, field=key, value=v) from None


def _need(data: dict, key: str, file: str | None):
    if key not in data:
        raise InputError("missing", file=file, field=key)
    return data[key]


def _list_of(data: dict, key: str, kind: Callable[[Any], bool], what: str, file: str | None,
             default=None) -> list:
    value = data.get(key, default) if default is not None else _need(data, key, file)
    if not isinstance(value, list) or not value:
        raise InputError(f"must be a non-empty list of {what}", file=file, field=key,
                         value=value)
    for v in value:
        if not kind(v):
            raise InputError(f"must be a non-empty list of {what}", file=file, field=key,
                             value=v)
    return value


def _is_num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def parse_spec(data: dict, file: str | None = None, base_dir: Path | None = None) -> BenchSpec:
    """Validate a spec dict (as read from TOML); bad input -> InputError naming the field."""
    from mlopt.solvers import BACKENDS

    base_dir = Path(base_dir) if base_dir is not None else Path.cwd()
    known = {"name", "family", "model", "solvers", "time_limits", "threads", "mip_gap", "output",
             "instances"}
    for key in data:
        if key not in known:
            raise InputError(f"unknown key (known: {', '.join(sorted(known))})", file=file,
                             field=key, value=data[key])
    name = _need(data, "name", file)
    if not isinstance(name, str) or not name.strip():
        raise InputError("must be a non-empty string", file=file, field="name", value=name)
    family = _need(data, "family", file)
    if not isinstance(family, str):
        raise InputError("must be a string", file=file, field="family", value=family)
    model = data.get("model")
    if model is not None and not isinstance(model, str):
        raise InputError("must be a string", file=file, field="model", value=model)
    solvers = _list_of(data, "solvers", lambda v: isinstance(v, str), "solver names", file)
    for s in solvers:
        if s not in BACKENDS:
            raise InputError(f"unknown solver (known: {', '.join(sorted(BACKENDS))})",
                             file=file, field="solvers", value=s)
    tls = _list_of(data, "time_limits", lambda v: _is_num(v) and v > 0, "positive seconds",
                   file)
    threads = _list_of(data, "threads", lambda v: isinstance(v, int) and not isinstance(v, bool)
                       and v >= 1, "integers >= 1", file, default=[1])
    gap = data.get("mip_gap", 0.0)
    if not _is_num(gap) or gap < 0:
        raise InputError("must be a number >= 0", file=file, field="mip_gap", value=gap)
    _check_solve_params(tls, threads, gap, file)
    output = data.get("output", f"results/{name}")
    if not isinstance(output, str):
        raise InputError("must be a path string", file=file, field="output", value=output)
    raw = _need(data, "instances", file)
    if not isinstance(raw, list) or not raw:
        raise InputError("must be a non-empty array of tables", file=file, field="instances",
                         value=raw)
    instances: list[BenchInstance] = []
    for n, inst in enumerate(raw):
        where = f"instances[{n}]"
        if not isinstance(inst, dict):
            raise InputError("must be a table", file=file, field=where, value=inst)
        extra = set(inst) - {"preset", "seeds", "overrides", "path"}
        if extra:
            key = sorted(extra)[0]
            raise InputError("unknown key (known: overrides, path, preset, seeds)", file=file,
                             field=f"{where}.{key}", value=inst[key])
        if ("path" in inst) == ("preset" in inst):
            raise InputError("needs exactly one of 'preset' or 'path'", file=file, field=where,
                             value=inst)
        if "path" in inst:
            if not isinstance(inst["path"], str):
                raise InputError("must be a path string", file=file, field=f"{where}.path",
                                 value=inst["path"])
            instances.append(BenchInstance(path=(base_dir / inst["path"]).resolve()))
            continue
        if not isinstance(inst["preset"], str):
            raise InputError("must be a string", file=file, field=f"{where}.preset",
                             value=inst["preset"])
        seeds = _list_of(inst, "seeds", lambda v: isinstance(v, int) and not isinstance(v, bool)
                         and v >= 0, "integers >= 0", file, default=[0])
        overrides = inst.get("overrides", {})
        if not isinstance(overrides, dict):
            raise InputError("must be a table", file=file, field=f"{where}.overrides",
                             value=overrides)
        for seed in seeds:
            instances.append(BenchInstance(preset=inst["preset"], seed=seed,
                                           overrides=dict(overrides)))
    return BenchSpec(name=name, solvers=list(solvers), time_limits=[float(t) for t in tls],
                     threads=list(threads), instances=instances, family=family, model=model,
                     mip_gap=float(gap), output=(base_dir / output), file=file)


def load_spec(path: str | Path) -> BenchSpec:
    """Read and check a solver benchmark spec (TOML)."""
    from mlopt.fileio import load_toml  # size cap, UTF-8, TOML errors naming the file

    path = Path(path)
    return parse_spec(load_toml(path), file=str(path), base_dir=path.parent)


# ---- report math (pure) ---------------------------------------------------------------------


def shifted_geomean(values, shift: float = SGM_SHIFT_S) -> float:
    """exp(mean(log(v + shift))) - shift; NaN for no values."""
    v = np.asarray(list(values), dtype=float)
    if v.size == 0:
        return math.nan
    if np.any(v < 0) or np.any(~np.isfinite(v)):
        raise ValueError("shifted geometric mean needs finite values >= 0")
    return float(np.exp(np.mean(np.log(v + shift))) - shift)


def performance_ratios(times) -> np.ndarray:
    """Dolan-More ratios r[p, s] = t[p, s] / min_s t[p, s] for a (problems x solvers) array.

    ``inf`` marks "not solved"; a problem no solver solved gets ``inf`` everywhere.
    """
    t = np.asarray(times, dtype=float)
    if t.ndim != 2:
        raise ValueError("times must be a problems x solvers array")
    if np.any(t <= 0):
        raise ValueError("times must be > 0 (use inf for unsolved)")
    best = t.min(axis=1, keepdims=True)
    with np.errstate(invalid="ignore"):
        r = t / best
    r[~np.isfinite(best[:, 0]), :] = np.inf
    return r


def performance_profile(ratios, taus) -> np.ndarray:
    """rho[s, k] = share of problems with r[p, s] <= taus[k]."""
    r = np.asarray(ratios, dtype=float)
    taus = np.asarray(taus, dtype=float)
    if r.shape[0] == 0:
        return np.zeros((r.shape[1], len(taus)))
    return (r[:, :, None] <= taus[None, None, :]).mean(axis=0)


def _solved(df: pd.DataFrame) -> pd.Series:
    return df["status"] == "optimal"


def charged_time(df: pd.DataFrame) -> pd.Series:
    """Run time for the SGM: the measured time when proven optimal, else the time limit."""
    return df["runtime_s"].where(_solved(df), df["time_limit"]).astype(float)


def summarize(df: pd.DataFrame) -> pd.DataFrame:
    """One row per (time_limit, threads, solver): the numbers of the report table."""
    out = []
    for (tl, th, solver), g in df.groupby(["time_limit", "threads", "solver"], sort=True):
        solved = _solved(g)
        open_ = g[~solved]
        gaps = pd.to_numeric(open_["gap"], errors="coerce").astype(float)
        has_inc = open_["objective"].notna()
        checked = g["check_feasible"].dropna()
        out.append({
            "time_limit": tl, "threads": th, "solver": solver, "runs": len(g),
            "optimal": int(solved.sum()),
            "sgm_runtime_s": shifted_geomean(charged_time(g)),
            "median_gap_open": float(np.median(gaps[has_inc])) if has_inc.any() else math.nan,
            "max_gap_open": float(np.max(gaps[has_inc])) if has_inc.any() else math.nan,
            "no_incumbent": int((~has_inc).sum()),
            "errors": int((g["status"] == "error").sum()),
            "checked_feasible": f"{int(checked.astype(bool).sum())}/{len(checked)}",
        })
    res = pd.DataFrame(out)
    if len(res):  # SGM relative to the best solver of the same setting
        best = res.groupby(["time_limit", "threads"])["sgm_runtime_s"].transform("min")
        res.insert(res.columns.get_loc("sgm_runtime_s") + 1, "sgm_ratio",
                   res["sgm_runtime_s"] / best)
    return res


def optimum_spread(df: pd.DataFrame) -> pd.DataFrame:
    """Per instance: how far apart the proven optima of different solvers are.

    Columns: instance, solvers (proven optimal), spread = (max - min) / max(1, |max|); a spread
    above 2e-6 (twice the optimality tolerance) is a disagreement -- a bug somewhere.
    """
    rows = []
    opt = df[df["status"] == "optimal"]
    for inst, g in opt.groupby("instance", sort=True):
        vals = g["objective"].astype(float)
        spread = (vals.max() - vals.min()) / max(1.0, abs(vals.max()))
        rows.append({"instance": inst, "solvers": len(g), "spread": float(spread)})
    return pd.DataFrame(rows, columns=["instance", "solvers", "spread"])


def time_matrix(df: pd.DataFrame, solvers: list[str]) -> tuple[list[str], np.ndarray]:
    """(instances, times) for one setting: runtime when proven optimal, else inf."""
    insts = sorted(df["instance"].unique())
    t = np.full((len(insts), len(solvers)), np.inf)
    pos = {i: n for n, i in enumerate(insts)}
    for _, r in df.iterrows():
        if r["solver"] in solvers and r["status"] == "optimal":
            t[pos[r["instance"]], solvers.index(r["solver"])] = max(float(r["runtime_s"]), 1e-6)
    return insts, t


# ---- running ----------------------------------------------------------------------------------


def machine_stamp() -> dict[str, Any]:
    """Machine, CPU and package versions of this process, for the report."""
    from mlopt.machine import cpu_model

    cpu = cpu_model()
    versions = {}
    for pkg in ("mlopt", "pyomo", "highspy", "pyscipopt", "ortools", "gurobipy", "numpy"):
        try:
            versions[pkg] = importlib.metadata.version(pkg)
        except importlib.metadata.PackageNotFoundError:
            pass
    return {"cpu": cpu, "cores": os.cpu_count(), "platform": platform.platform(),
            "python": platform.python_version(), "host": platform.node(),
            "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "packages": versions}


def _row_key(row: dict) -> tuple:
    return (str(row["instance"]), str(row["content_hash"]), str(row["solver"]),
            float(row["time_limit"]), int(row["threads"]), float(row["mip_gap"]))


def read_results(path: Path) -> pd.DataFrame:
    """The results table; a truncated last line (a killed run) is dropped."""
    if not path.exists():
        return pd.DataFrame(columns=list(COLUMNS))
    with path.open(newline="") as fh:
        rows = [r for r in csv.reader(fh)]
    if not rows or tuple(rows[0]) != COLUMNS:
        raise InputError("not a solver-benchmark results table (header differs)",
                         file=str(path))
    good = [r for r in rows[1:] if len(r) == len(COLUMNS) and _well_formed(r)]
    df = pd.DataFrame(good, columns=list(COLUMNS))
    for c in ("n_vars", "n_cons", "threads"):
        df[c] = pd.to_numeric(df[c]).astype(int)
    for c in ("time_limit", "mip_gap", "objective", "bound", "gap", "runtime_s", "solve_s",
              "build_s", "check_objective"):
        df[c] = pd.to_numeric(df[c].replace("", np.nan)).astype(float)
    df["check_feasible"] = df["check_feasible"].map({"True": True, "False": False})
    # rows a run did not write (garbled, cut short): dropped here, so a resumed run runs them
    # again; how many, for a report that must not pass over them silently
    df.attrs["malformed"] = len(rows) - 1 - len(good)
    return df


_INTS = ("n_vars", "n_cons", "threads")
_FLOATS = ("time_limit", "mip_gap", "objective", "bound", "gap", "runtime_s", "solve_s",
           "build_s", "check_objective")
_STATUSES = {"optimal", "feasible", "no_solution", "infeasible", "unbounded", "error",
             "disputed"}


def _well_formed(row: list[str]) -> bool:
    """A results line as :class:`_CsvSink` writes it (numbers where numbers belong, a known
    status, a boolean verdict)."""
    r = dict(zip(COLUMNS, row))
    try:
        for c in _INTS:
            int(r[c])
        for c in _FLOATS:
            if r[c] != "":
                float(r[c])
        float(r["time_limit"]), float(r["mip_gap"])
    except ValueError:
        return False
    return (r["status"] in _STATUSES and r["check_feasible"] in ("True", "False", "")
            and all(r[c] for c in ("instance", "content_hash", "solver")))


class _CsvSink:
    def __init__(self, path: Path):
        self.path = path
        if not path.exists() or path.stat().st_size == 0:
            with path.open("w", newline="") as fh:
                csv.writer(fh).writerow(COLUMNS)
        else:  # rewrite without a truncated or malformed line, if any (atomically: a Ctrl-C
            # here keeps the old file)
            from mlopt.fileio import atomic_output

            df = read_results(path)
            with atomic_output(path) as tmp:
                with tmp.open("w", newline="") as fh:
                    w = csv.writer(fh)
                    w.writerow(COLUMNS)
                    for r in df.to_dict("records"):
                        w.writerow([_fmt(r[c]) for c in COLUMNS])

    def add(self, row: dict) -> None:
        with self.path.open("a", newline="") as fh:
            csv.writer(fh).writerow([_fmt(row[c]) for c in COLUMNS])
            fh.flush()
            os.fsync(fh.fileno())


def _fmt(v) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _store_row(spec: BenchSpec, inst: BenchInstance, row: dict, res_extra: dict) -> dict:
    """The same run as a row of the harness results store (mlopt.harness.store)."""
    from mlopt.harness.tasks import ROW_FIELDS, environment

    task_key = hashlib.sha256(json.dumps([spec.name, *_row_key(row)]).encode()).hexdigest()[:20]
    method = f"{row['model']}@{row['solver']}/threads={row['threads']}/tl={row['time_limit']:g}"
    sense = res_extra.get("sense", "max")
    checked_ok = row["check_feasible"] is True
    obj = row["check_objective"] if checked_ok else None
    agree = (checked_ok and row["objective"] is not None and math.isclose(
        row["objective"], row["check_objective"], rel_tol=CHECK_OBJ_RTOL, abs_tol=1e-6))
    low, high = (obj, row["bound"]) if sense == "max" else (row["bound"], obj)
    r = {f: None for f in ROW_FIELDS}
    r.update(environment())
    r.update(key=f"{task_key}/offline/{method}", task_key=task_key, spec=spec.name,
             instance_id=row["instance"], content_hash=row["content_hash"],
             family=row["family"], preset=inst.preset,
             params=json.dumps(inst.overrides, sort_keys=True, separators=(",", ":")),
             seed=inst.seed, method_kind="offline", method=method, status=row["status"],
             objective=obj, feasible=row["check_feasible"],
             proven=bool(row["status"] == "optimal" and agree),
             bound_low=low, bound_high=high, runtime_s=row["runtime_s"], solver=row["solver"],
             solver_version=row["solver_version"], timestamp=row["timestamp"],
             extra=json.dumps({"solver_objective": row["objective"], "bound": row["bound"],
                               "gap": row["gap"], "termination": row["termination"],
                               "message": row["message"], **res_extra}, sort_keys=True,
                              default=str),
             timing=json.dumps({"build_s": row["build_s"], "solve_s": row["solve_s"]},
                               sort_keys=True))
    return r


def _open_store(path: Path):
    try:
        from mlopt.harness.store import ResultStore
    except ImportError:  # the harness is optional for this module
        return None
    return ResultStore(path)


def _materialize(spec: BenchSpec, inst: BenchInstance):
    from mlopt.families import get_family
    from mlopt.workload import Workload

    fam = get_family(spec.family)
    if inst.path is not None:
        return Workload.load(inst.path)
    return fam.preset(inst.preset)(seed=inst.seed, **inst.overrides)


def _warm_up(solvers: list[str]) -> None:
    """Solve a 2-variable MILP with each solver so one-time costs are not charged to a run."""
    import pyomo.environ as pyo

    from mlopt.solve import solve

    for s in solvers:
        m = pyo.ConcreteModel()
        m.x = pyo.Var([0, 1], domain=pyo.Binary)
        m.o = pyo.Objective(expr=m.x[0] + 2 * m.x[1], sense=pyo.maximize)
        m.c = pyo.Constraint(expr=m.x[0] + m.x[1] <= 1)
        solve(m, s, time_limit=10)


def run_one(spec: BenchSpec, inst: BenchInstance, workload, solver: str, time_limit: float,
            threads: int) -> tuple[dict, dict]:
    """Build, solve, extract and check one run; returns (row, extra)."""
    import pyomo.environ as pyo

    from mlopt.families import get_family
    from mlopt.solve import solve
    from mlopt.solvers import get_backend

    fam = get_family(spec.family)
    model_name = spec.model or fam.default_model
    row = {c: None for c in COLUMNS}
    row.update(spec=spec.name, instance=inst.instance_id, content_hash=workload.content_hash(),
               family=fam.name, model=model_name, solver=solver, threads=threads,
               time_limit=time_limit, mip_gap=spec.mip_gap, n_vars=0, n_cons=0)
    extra: dict = {"sense": fam.sense}
    try:
        row["solver_version"] = get_backend(solver).version()
        t0 = time.perf_counter()
        model = fam.model(model_name)(workload)
        row["build_s"] = time.perf_counter() - t0
        row["n_vars"] = sum(1 for _ in model.component_data_objects(pyo.Var))
        row["n_cons"] = sum(1 for _ in model.component_data_objects(pyo.Constraint,
                                                                    active=True))
        res = solve(model, solver, time_limit=time_limit, mip_gap=spec.mip_gap,
                    threads=threads)
        row.update(status=res.status.value, objective=res.objective, bound=res.bound,
                   gap=res.gap, runtime_s=res.runtime_s, termination=res.termination,
                   message=res.message, solver_version=res.solver_version,
                   solve_s=res.options.get("solve_s", res.runtime_s))
        extra["options"] = res.options
        if res.has_solution and model_name in fam.extract:
            schedule = fam.extract[model_name](model, workload)
            check = fam.check(workload, schedule)
            row["check_feasible"] = bool(check.feasible)
            row["check_objective"] = float(check.objective)
            if not check.feasible:
                extra["violations"] = check.summary()
    except InputError as err:  # e.g. CP-SAT refusing a model it cannot represent
        row.update(status="error", message=str(err), runtime_s=row["runtime_s"] or 0.0)
    except Exception as err:  # a crash is a result, the sweep goes on
        row.update(status="error", message=f"{type(err).__name__}: {err}"[:500],
                   runtime_s=row["runtime_s"] or 0.0)
    row["timestamp"] = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
    if row["gap"] is not None and math.isinf(row["gap"]):
        row["gap"] = math.inf
    return row, extra


def run_bench(spec: BenchSpec, out_dir: str | Path | None = None, *, resume: bool = True,
              log: Callable[[str], None] | None = print) -> pd.DataFrame:
    """Run every (instance, solver, time limit, threads) of ``spec``; return the results table.

    Writes ``results.csv`` (and ``results.sqlite`` when the harness store is present) in
    ``out_dir`` (default: the spec's ``output``) row by row; with ``resume`` rows already there
    are kept and skipped.  Solvers not available on this machine are skipped (and reported).
    """
    from mlopt.solvers import BACKENDS

    out = Path(out_dir) if out_dir is not None else spec.output
    out.mkdir(parents=True, exist_ok=True)
    csv_path = out / "results.csv"
    if not resume and csv_path.exists():
        csv_path.unlink()
    sink = _CsvSink(csv_path)
    done = {_row_key(r) for r in read_results(csv_path).to_dict("records")}
    store = _open_store(out / "results.sqlite") if _has_store() else None
    solvers = [s for s in spec.solvers if BACKENDS[s].available()]
    skipped = [s for s in spec.solvers if s not in solvers]
    if skipped and log:
        log(f"skipping solvers not available here: {', '.join(skipped)}")
    _warm_up(solvers)
    try:
        for inst in spec.instances:
            workload = _materialize(spec, inst)
            for tl in spec.time_limits:
                for th in spec.threads:
                    for solver in solvers:
                        key = (inst.instance_id, workload.content_hash(), solver, float(tl),
                               int(th), float(spec.mip_gap))
                        if key in done:
                            continue
                        row, extra = run_one(spec, inst, workload, solver, tl, th)
                        sink.add(row)
                        if store is not None:
                            store.add_task([_store_row(spec, inst, row, extra)])
                        done.add(key)
                        if log:
                            log(f"{row['instance']:<28} {solver:<6} tl={tl:g} th={th} "
                                f"{row['status']:<11} obj={row['objective']} "
                                f"bound={row['bound']} t={row['runtime_s']:.2f}s")
    finally:
        if store is not None:
            store.close()
    meta = {"spec": spec.name, "settings": {"time_limits": spec.time_limits,
                                            "threads": spec.threads, "mip_gap": spec.mip_gap,
                                            "model": spec.model, "family": spec.family},
            "skipped_solvers": skipped, "machine": machine_stamp()}
    (out / "run_meta.json").write_text(json.dumps(meta, indent=2, default=str) + "\n")
    return read_results(csv_path)


def _has_store() -> bool:
    try:
        import importlib.util

        return importlib.util.find_spec("mlopt.harness.store") is not None
    except ImportError:
        return False


# ---- report -----------------------------------------------------------------------------------


def plot_profile(df: pd.DataFrame, solvers: list[str], path: Path, title: str) -> Path:
    """Write the performance profile of ``solvers`` to ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from mlopt.harness.report_figures import plain_log_ticks

    _, t = time_matrix(df, solvers)
    r = performance_ratios(t)
    finite = r[np.isfinite(r)]
    top = max(2.0, float(finite.max()) * 1.1) if finite.size else 2.0
    taus = np.unique(np.concatenate([[1.0], finite, [top]])) if finite.size else np.array(
        [1.0, top])
    rho = performance_profile(r, taus)
    fig, ax = plt.subplots(figsize=(6, 4))
    for s, solver in enumerate(solvers):
        ax.step(taus, rho[s], where="post", label=solver)
    ax.set_xscale("log", base=2)
    plain_log_ticks(ax.xaxis, 1.0, top)  # 1, 2, 5 (or finer), not 2^0, 2^1
    ax.set_xlim(1.0, top)
    ax.set_ylim(0.0, 1.02)
    ax.set_xlabel("tau (run time / best run time, log scale)")
    ax.set_ylabel("share of instances solved to optimality")
    ax.set_title(title, fontsize=10)
    ax.legend(loc="lower right")
    ax.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _md_table(df: pd.DataFrame) -> str:
    cols = list(df.columns)
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for _, r in df.iterrows():
        cells = []
        for c in cols:
            v = r[c]
            if isinstance(v, float):
                cells.append("" if math.isnan(v) else f"{v:.4g}")
            else:
                cells.append(str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_report(df: pd.DataFrame, out_dir: str | Path, *, title: str = "Solver benchmark",
                 stamp: dict | None = None) -> Path:
    """``report.md`` + one performance-profile PNG per (time limit, threads) setting
    (aggregates over missing values are expected: their RuntimeWarning is no error here)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return _write_report(df, out_dir, title=title, stamp=stamp)


def _write_report(df: pd.DataFrame, out_dir: str | Path, *, title: str = "Solver benchmark",
                  stamp: dict | None = None) -> Path:
    """``report.md`` + one performance-profile PNG per (time limit, threads) setting."""
    out = Path(out_dir)
    if stamp is None:  # the machine and date of the run, not of this rewrite
        meta = out / "run_meta.json"
        stamp = json.loads(meta.read_text())["machine"] if meta.exists() else machine_stamp()
    solvers = sorted(df["solver"].unique())
    lines = [f"# {title}", "",
             f"- machine: {stamp['cpu']}, {stamp['cores']} cores, {stamp['platform']}",
             f"- date: {stamp['date']}",
             "- packages: " + ", ".join(f"{k} {v}" for k, v in sorted(
                 stamp.get("packages", {}).items())),
             "- solver versions: " + ", ".join(
                 f"{s} {v}" for s, v in sorted(set(zip(df["solver"], df["solver_version"])))),
             f"- mip_gap: {', '.join(sorted({f'{g:g}' for g in df['mip_gap']}))}; "
             f"instances: {df['instance'].nunique()}; runs: {len(df)}", "",
             f"`optimal` = proven (gap <= 1e-6). SGM = shifted geometric mean of the wall time "
             f"of the solve call (shift {SGM_SHIFT_S:g} s), a run not proven optimal counted at "
             f"the time limit. Gaps are relative, over runs not proven optimal that have an "
             f"incumbent. `checked` = schedules the independent checker accepted / checked.",
             ""]
    summ = summarize(df)
    for (tl, th), g in summ.groupby(["time_limit", "threads"], sort=True):
        lines += [f"## time limit {tl:g} s, threads {th}", ""]
        table = g.drop(columns=["time_limit", "threads"]).rename(
            columns={"sgm_runtime_s": "SGM time (s)", "sgm_ratio": "SGM / best",
                     "median_gap_open": "median gap",
                     "max_gap_open": "max gap", "no_incumbent": "no incumbent",
                     "checked_feasible": "checked"})
        lines += [_md_table(table), ""]
        sub = df[(df["time_limit"] == tl) & (df["threads"] == th)]
        png = out / f"profile_tl{tl:g}_th{th}.png"
        plot_profile(sub, solvers, png, f"{title}: time limit {tl:g} s, {th} thread(s)")
        lines += [f"![performance profile]({png.name})", ""]
        spread = optimum_spread(sub)
        multi = spread[spread["solvers"] > 1]
        bad = multi[multi["spread"] > 2e-6]
        lines += [f"Agreement: {len(multi)} instances proven optimal by two or more solvers; "
                  f"largest relative spread of their optima "
                  f"{(multi['spread'].max() if len(multi) else math.nan):.2g}; "
                  f"disagreements (> 2e-6): {len(bad)}"
                  + (f" -- {', '.join(bad['instance'])}" if len(bad) else "") + ".", ""]
        per = sub.pivot(index="instance", columns="solver", values="runtime_s")
        status = sub.pivot(index="instance", columns="solver", values="status")
        detail = per.copy().astype(object)
        for i in per.index:
            for s in per.columns:
                st = status.loc[i, s]
                detail.loc[i, s] = f"{per.loc[i, s]:.2f}" + ("" if st == "optimal" else
                                                             f" ({st})")
        lines += ["Run time (s) per instance:", "",
                  _md_table(detail.reset_index().rename(columns={"index": "instance"})), ""]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path


def main(argv: list[str] | None = None) -> int:
    """``python -m mlopt.harness.solver_bench SPEC``; return the exit status."""
    p = argparse.ArgumentParser(prog="python -m mlopt.harness.solver_bench",
                                description="Run a solver benchmark spec (TOML).")
    p.add_argument("spec")
    p.add_argument("--out", help="output directory (default: the spec's 'output')")
    p.add_argument("--fresh", action="store_true", help="discard earlier results")
    p.add_argument("--report-only", action="store_true", help="only rewrite the report")
    args = p.parse_args(argv)
    try:
        spec = load_spec(args.spec)
        out = Path(args.out) if args.out else spec.output
        if args.report_only:
            df = read_results(out / "results.csv")
        else:
            df = run_bench(spec, out, resume=not args.fresh)
        report = write_report(df, out, title=f"Solver benchmark: {spec.name}")
    except InputError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {report}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
