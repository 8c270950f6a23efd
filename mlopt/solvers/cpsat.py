"""OR-Tools CP-SAT, fed from the shared linear form (:mod:`mlopt.solvers._matrix`).

CP-SAT solves pure integer programs with integer coefficients.  This backend maps a Pyomo MILP
onto that faithfully or refuses it:

* **Variables.**  Every variable must be integer (or binary) with finite bounds, given or implied
  by the rows (one bound-propagation pass per round, at most ``_PROPAGATION_ROUNDS``; implied
  bounds never change the feasible set).  A continuous variable, or an integer one with no
  finite bound, raises :class:`~mlopt.errors.InputError` (field ``solver``): CP-SAT cannot
  represent the model, and it is not silently changed.

* **Rows** ``lo <= a @ x <= hi`` are made integral by the first rule that applies at the
  smallest ``10^k`` (rules 1 and 2), else by rule 3:

  1. *exact decimal scaling*: the smallest ``S = 10^k`` (k <= 9) for which every ``a_j S`` is an
     integer up to float noise (relative 1e-12, at most 1e-3 scaled units; the same
     tolerance applies to the floors and ceilings of bounds); then ``ceil(lo S)``/``floor(hi S)``
     (exact, as ``a @ x`` is then integral);
  2. *one fractional binary*: if all but one coefficient scale exactly and the odd one multiplies
     a binary ``x_k``, the row is rewritten exactly: ``rest >= L - b x_k`` is equivalent, for
     integral ``rest``, to ``rest + (ceil(L) - ceil(L - b)) x_k >= ceil(L)`` (same with floors for
     ``<=``).  This keeps e.g. OASiS (2) ``sum y >= W_i x_i`` (real W_i) exact;
  3. *scaled relaxation*: the smallest ``S = 2^k`` whose worst-case rounding error over the
     variable box, ``eps = sum_j |a_j - round(a_j S)/S| max|x_j|``, is at most
     ``ROW_RELAX_TOL`` (1e-7, in the row's own units), with the bounds widened by ``eps``.  Every
     point feasible for the original row stays feasible (so CP-SAT's bound stays valid); a
     CP-SAT solution may violate the original row by at most ``eps`` -- a stricter tolerance than
     the 1e-6 primal feasibility tolerance of SCIP and HiGHS.  The number of such rows is
     reported in ``SolveResult.options["relaxed_rows"]``.  No ``S`` keeping the row activity
     below ``2^53`` reaches the tolerance -> InputError.

* **Objective.**  CP-SAT optimizes ``c_int @ x`` with ``c_int = round(c S_obj)``, ``S_obj`` the
  exact decimal scale when there is one (rule 1), else the smallest power of two with
  ``delta = sum_j |c_j - c_int_j / S_obj| max|x_j| <= OBJ_PRECISION`` (1e-7), capped so that the
  objective activity stays below ``2^53`` (then ``delta`` is whatever that scale gives).
  Mapped back: the reported **objective** is ``c @ x + c0`` of the returned solution, evaluated
  in floating point from the *original* coefficients; the reported **bound** is
  ``B / S_obj + c0 + delta`` (max) or ``- delta`` (min), ``B`` being CP-SAT's bound on the integer
  objective.  Both are valid for the original model: for every feasible x,
  ``|c @ x - c_int @ x / S_obj| <= delta``.  So CP-SAT's own "optimal" proves a gap of at most
  ``2 delta`` (about 2e-7) for the real objective, and :func:`mlopt.solve.classify` decides
  from that bound whether the result is reported ``optimal`` (the gap closes within 1e-6) or
  only ``feasible``.  ``options["objective_scale"]`` and ``["objective_delta"]`` record both.
  ``mip_gap`` is passed as CP-SAT's ``relative_gap_limit``, which CP-SAT applies to the integer
  objective without ``c0``; the status is decided on the real gap regardless.

Process: CP-SAT runs in a child process (:mod:`._cpsat_worker`) because OR-Tools and highspy
bundle incompatible libraries of the same name and cannot share a process; this module never
imports OR-Tools.  The child is started on first use (about 2.5 s here, to import OR-Tools) and
kept for later solves; the integer model travels as JSON.  ``runtime_s`` is the wall time of
the whole call (including a first start-up), ``options["solve_s"]`` CP-SAT's own wall time.

Settings: ``threads`` -> ``num_workers`` (CP-SAT's portfolio needs several workers to be strong;
1 worker is deterministic, more are not); ``time_limit`` -> ``max_time_in_seconds`` (wall);
``options`` are CP-SAT parameters by name (``{"random_seed": 3}``), plus ``objective_scale`` to
force ``S_obj``; :data:`DEFAULT_PARAMS` (``linearization_level=2``) apply unless overridden.
"""
from __future__ import annotations

import atexit
import importlib.metadata
import importlib.util
import json
import math
import os
import select
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from mlopt.errors import InputError
from mlopt.solvers.result import SolveResult, Status, classify
from mlopt.solvers._matrix import LinearForm, compile_linear, load_solution
from mlopt.solvers.base import Capabilities, SolverBackend, register_backend, unknown_option

MAX_ACTIVITY = 2 ** 53  # bound on sum |coef| max|x| of every scaled row and of the objective
OBJ_PRECISION = 1e-7  # target for delta, the objective rounding error over the variable box
ROW_RELAX_TOL = 1e-7  # largest relaxation of a row that cannot be scaled exactly
# float noise tolerated when a scaled number is taken as an integer (or floored/ceiled): relative
# 1e-12 of its magnitude, never more than _NOISE_CAP scaled units
_NOISE = 1e-12
_NOISE_CAP = 1e-3
_DECIMAL_EXPONENTS = range(0, 10)
_PROPAGATION_ROUNDS = 5
# CP-SAT parameters this backend sets unless ``options`` overrides them.  linearization_level 2
# puts the whole linear model into CP-SAT's LP relaxation (its default, 1, only part of it);
# on the OASiS ILP at paper-fig5 scale this turns a single-worker run that stalls at a 7.7 %
# gap after 60 s (seed 1) into a 0.6 s proof.
DEFAULT_PARAMS = {"linearization_level": 2}


def _tol(v: float) -> float:
    return min(_NOISE_CAP, _NOISE * max(1.0, abs(v)))


def _ceil(v: float) -> int:
    return math.ceil(v - _tol(v))


def _floor(v: float) -> int:
    return math.floor(v + _tol(v))


def _activity_cap_ok(coefs: np.ndarray, box: np.ndarray) -> bool:
    return float(np.sum(np.abs(coefs) * box)) <= MAX_ACTIVITY


def _integral(scaled: np.ndarray) -> np.ndarray:
    tol = np.minimum(_NOISE_CAP, _NOISE * np.maximum(1.0, np.abs(scaled)))
    return np.abs(scaled - np.round(scaled)) <= tol


def decimal_scale(values: np.ndarray, box: np.ndarray) -> int | None:
    """Smallest ``10^k`` (k <= 9) making every value an integer up to float noise, or None."""
    values = np.asarray(values, dtype=float)
    for k in _DECIMAL_EXPONENTS:
        scale = 10 ** k
        scaled = values * scale
        if not _activity_cap_ok(np.round(scaled), box):
            return None
        if np.all(_integral(scaled)):
            return scale
    return None


def scale_objective(c: np.ndarray, box: np.ndarray, precision: float = OBJ_PRECISION,
                    scale: float | None = None) -> tuple[float, list[int], float, bool]:
    """(S_obj, c_int, delta, exact) for the objective ``c`` over the box ``|x_j| <= box_j``.

    ``delta = sum_j |c_j - c_int_j / S_obj| box_j`` bounds ``|c @ x - c_int @ x / S_obj|`` for
    every x in the box.  ``exact`` tells whether a decimal scale was found (delta is float noise).
    """
    c = np.asarray(c, dtype=float)
    box = np.asarray(box, dtype=float)
    nz = c != 0
    if np.any(~np.isfinite(box[nz])):
        raise InputError("cpsat needs finite bounds on every variable in the objective",
                         field="solver", value="cpsat")

    def delta_for(s: float) -> tuple[np.ndarray, float]:
        ci = np.round(c * s)
        return ci, float(np.sum(np.abs(c - ci / s)[nz] * box[nz]))

    exact = False
    if scale is None:
        dec = decimal_scale(c[nz], box[nz])
        if dec is not None:
            scale, exact = float(dec), True
        else:
            scale = None
            for k in range(0, 80):
                s = 2.0 ** k
                ci, delta = delta_for(s)
                if not _activity_cap_ok(ci[nz], box[nz]):
                    break
                scale = s
                if delta <= precision:
                    break
            if scale is None:
                raise InputError("objective coefficients too large for CP-SAT's 64-bit "
                                 "integers", field="solver", value="cpsat")
    ci, delta = delta_for(float(scale))
    if not _activity_cap_ok(ci[nz], box[nz]):
        raise InputError(f"objective scale {scale} overflows CP-SAT's integers",
                         field="options.objective_scale", value=scale)
    return float(scale), [int(v) for v in ci], delta, exact


def integer_rows(idx: np.ndarray, a: np.ndarray, lo: float, hi: float, lb: np.ndarray,
                 ub: np.ndarray, binary: np.ndarray, name: str = "row"
                 ) -> tuple[list[tuple[list[int], list[int], float, float]], bool]:
    """Integer rows equivalent to (or, flagged True, an eps-relaxation of) ``lo <= a@x <= hi``.

    Returns ``([(cols, int_coefs, lo_int, hi_int), ...], relaxed)``; bounds are +-inf where
    absent.  ``lb``/``ub``/``binary`` describe the row's own variables (finite bounds).
    """
    a = np.asarray(a, dtype=float)
    box = np.maximum(np.abs(lb), np.abs(ub))
    cols = [int(j) for j in idx]

    def lo_i(v):
        return -math.inf if math.isinf(v) else _ceil(v)

    def hi_i(v):
        return math.inf if math.isinf(v) else _floor(v)

    # 1./2. the smallest decimal scale at which every coefficient is integral (rule 1) or all
    # but one, which multiplies a binary (rule 2)
    for k in _DECIMAL_EXPONENTS:
        s = 10 ** k
        scaled = a * s
        if not _activity_cap_ok(np.round(scaled), box):
            break
        odd = np.flatnonzero(~_integral(scaled))
        ai = [int(v) for v in np.round(scaled)]
        if len(odd) == 0:
            return [(cols, ai, lo_i(lo * s), hi_i(hi * s))], False
        if len(odd) > 1:
            continue
        o = int(odd[0])
        if not binary[o]:
            continue  # only a larger 10^k making this coefficient integral can help (rule 1)
        b = float(scaled[o])
        out = []
        if not math.isinf(lo):
            L = lo * s
            row = list(ai)
            row[o] = _ceil(L) - _ceil(L - b)
            out.append((cols, row, float(_ceil(L)), math.inf))
        if not math.isinf(hi):
            H = hi * s
            row = list(ai)
            row[o] = _floor(H) - _floor(H - b)
            if out and out[0][1] == row:
                out[0] = (cols, row, out[0][2], float(_floor(H)))
            else:
                out.append((cols, row, -math.inf, float(_floor(H))))
        return out, False
    # 3. power-of-two scaling, relaxed by the worst-case rounding error
    for k in range(0, 80):
        s = 2.0 ** k
        ai = np.round(a * s)
        if not _activity_cap_ok(ai, box):
            break
        err = float(np.sum(np.abs(a * s - ai) * box))  # in scaled units
        if err / s <= ROW_RELAX_TOL:
            return [(cols, [int(v) for v in ai], lo_i(lo * s - err), hi_i(hi * s + err))], True
    raise InputError(f"constraint {name} has coefficients CP-SAT cannot represent within "
                     f"{ROW_RELAX_TOL} using 64-bit integers", field="solver", value="cpsat")


def _propagate_bounds(form: LinearForm, lb: np.ndarray, ub: np.ndarray) -> None:
    """Tighten infinite column bounds in place from single-row activity bounds (valid only)."""
    for _ in range(_PROPAGATION_ROUNDS):
        changed = False
        for i in range(form.n_rows):
            idx, a = form.row(i)
            cols_inf = ~np.isfinite(lb[idx]) | ~np.isfinite(ub[idx])
            if not cols_inf.any():
                continue
            low = np.where(a > 0, a * lb[idx], a * ub[idx])  # smallest contribution
            high = np.where(a > 0, a * ub[idx], a * lb[idx])  # largest contribution
            for side, rhs in (("hi", form.row_hi[i]), ("lo", form.row_lo[i])):
                if math.isinf(rhs):
                    continue
                # hi side: a_j x_j <= rhs - sum_{l != j} low_l  (lo side mirrored with high)
                part = low if side == "hi" else high
                finite = np.isfinite(part)
                n_inf = int((~finite).sum())
                total = float(part[finite].sum())
                for p, j in enumerate(idx):
                    if n_inf - (0 if finite[p] else 1) > 0:
                        continue
                    rest = total - (part[p] if finite[p] else 0.0)
                    limit = (rhs - rest) / a[p]
                    upper = (a[p] > 0) == (side == "hi")
                    if form.integer[j]:
                        limit = _floor(limit) if upper else _ceil(limit)
                    if upper and limit < ub[j]:
                        ub[j], changed = limit, True
                    elif not upper and limit > lb[j]:
                        lb[j], changed = limit, True
        if not changed:
            return


_WORKER = Path(__file__).with_name("_cpsat_worker.py")
# wall-clock grace on top of the time limit before the child is killed (start-up, model load)
_GRACE_S = 120.0


class _Worker:
    """One long-lived CP-SAT child process, restarted after a crash, a kill or a fork.

    Requests carry an id that the answer must echo; any interruption while a request is out
    (time-out, Ctrl-C, a bad answer) kills the child, so a late answer can never be read as the
    answer to the next request.  A forked copy of this object (multiprocessing) never touches
    its parent's child: it starts its own.
    """

    def __init__(self):
        self.proc: subprocess.Popen | None = None
        self.owner = os.getpid()
        self.lock = threading.Lock()
        self.next_id = 0
        atexit.register(self.close)

    def _start(self) -> subprocess.Popen:
        if self.owner != os.getpid():  # inherited through fork: not ours to use
            self.proc, self.owner = None, os.getpid()
        if self.proc is None or self.proc.poll() is not None:
            # the worker ends with this process (mlopt.lifeline, told our pid at spawn time)
            env = {**os.environ, "MLOPT_PARENT_PID": str(os.getpid())}
            self.proc = subprocess.Popen([sys.executable, str(_WORKER)], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                         text=True, bufsize=1, env=env)
        return self.proc

    def close(self) -> None:
        proc, self.proc = self.proc, None
        if proc is not None and self.owner == os.getpid() and proc.poll() is None:
            proc.kill()
            proc.wait()

    def run(self, payload: dict, timeout: float | None) -> dict:
        with self.lock:
            proc = self._start()
            self.next_id += 1
            rid = self.next_id
            try:
                try:
                    proc.stdin.write(json.dumps({**payload, "id": rid}) + "\n")
                    proc.stdin.flush()
                except BrokenPipeError:
                    pass  # reported below from the missing answer
                ready, _, _ = select.select([proc.stdout], [], [], timeout)
                if not ready:
                    raise subprocess.TimeoutExpired("cpsat worker", timeout)
                line = proc.stdout.readline()
                if not line:
                    err = proc.stderr.read().strip().splitlines()[-1:] or ["no output"]
                    raise RuntimeError(f"CP-SAT worker died: {err[0]}")
                out = json.loads(line)
                if out.get("id") != rid:
                    raise RuntimeError(f"CP-SAT worker answered request {out.get('id')}, "
                                       f"expected {rid}")
                return out
            except BaseException:
                self.close()
                raise


_worker = _Worker()


def _run_worker(payload: dict, time_limit: float | None) -> dict:
    """Solve ``payload`` in the child process (see :mod:`._cpsat_worker` for why)."""
    timeout = None if time_limit is None else float(time_limit) * 1.5 + _GRACE_S
    return _worker.run(payload, timeout)


@register_backend
class CpSatBackend(SolverBackend):
    name = "cpsat"
    # lp=False: CP-SAT cannot take continuous variables (such models are refused)
    capabilities = Capabilities(mip=True, lp=False, dual_bound=True, time_limit=True,
                                threads=True, deterministic=False)

    @classmethod
    def available(cls) -> bool:
        # never import OR-Tools here: it would break highspy in this process
        return importlib.util.find_spec("ortools") is not None and _WORKER.exists()

    @classmethod
    def version(cls) -> str:
        return importlib.metadata.version("ortools")

    @classmethod
    def check_options(cls, options: dict) -> None:
        """CP-SAT parameter names and value types (``SatParameters``), plus this backend's
        ``objective_scale``."""
        from ortools.sat import sat_parameters_pb2

        params = sat_parameters_pb2.SatParameters()
        names = list(params.DESCRIPTOR.fields_by_name)
        for key, val in options.items():
            if key == "objective_scale":
                continue  # checked where it is used
            if key not in names:
                raise unknown_option("CP-SAT", key, val, names)
            try:
                setattr(params, key, val)
            except (TypeError, ValueError, AttributeError) as err:
                raise InputError(f"bad value for this CP-SAT parameter: {err}", field=key,
                                 value=val) from None

    def solve(self, model, *, time_limit, mip_gap, threads, options) -> SolveResult:
        from mlopt.solvers.log import not_streamed

        not_streamed(self.name)  # --log-solver: the worker's stdout carries the result
        start = time.perf_counter()
        options = dict(options)
        forced_scale = options.pop("objective_scale", None)
        form = compile_linear(model)
        version = self.version()
        settings = {"time_limit": time_limit, "mip_gap": mip_gap, "threads": threads}

        def result(status, objective=None, bound=None, gap=None, termination="", message=""):
            return SolveResult(status, objective, bound, gap, time.perf_counter() - start,
                               self.name, version, form.sense, termination, settings, message)

        model_int = integer_model(form, time_limit, mip_gap, threads, options, forced_scale)
        if model_int.infeasible:
            return result(Status.INFEASIBLE, termination=model_int.infeasible)
        payload, scale, delta, exact, relaxed = (model_int.payload, model_int.scale,
                                                 model_int.delta, model_int.exact,
                                                 model_int.relaxed)
        nz, sign = model_int.payload["objective"][0], model_int.sign
        settings.update(objective_scale=scale, objective_delta=delta, objective_exact=exact,
                        relaxed_rows=relaxed, build_s=round(time.perf_counter() - start, 6),
                        compile_s=round(form.compile_s, 6))
        try:
            out = _run_worker(payload, time_limit)
        except subprocess.TimeoutExpired:
            return result(Status.NO_SOLUTION, termination="worker killed after time limit")
        except Exception as err:  # a solver crash is a result, not a traceback
            return result(Status.ERROR, termination="exception", message=str(err))
        name = out["status"]
        version = out.get("version", version)
        settings["solve_s"] = out.get("wall_time")
        if name == "INFEASIBLE":
            return result(Status.INFEASIBLE, termination=name)
        if name in ("MODEL_INVALID", "WORKER_ERROR"):
            return result(Status.ERROR, termination=name,
                          message=out.get("invalid") or out.get("message", ""))
        bound = None
        if nz:
            b_int = sign * float(out["bound"])  # bound on c_int @ x, in the model's sense
            if math.isfinite(b_int):
                bound = b_int / scale + form.c0 + (delta if form.sense == "max" else -delta)
        else:
            bound = form.c0 + (delta if form.sense == "max" else -delta)
        objective = None
        if name in ("OPTIMAL", "FEASIBLE"):
            x = np.asarray(out["solution"], dtype=float)
            objective = form.objective(x)
            load_solution(form, x)
        status, gap = classify(form.sense, objective, bound, proven_optimal=(name == "OPTIMAL"),
                               limit_reached=name in ("FEASIBLE", "UNKNOWN"))
        return result(status, objective if status != Status.ERROR else None, bound, gap, name)


@dataclass
class IntegerModel:
    """The integer form CP-SAT solves (``payload`` for the worker) and how to map back."""
    payload: dict | None
    scale: float = 1.0
    delta: float = 0.0
    exact: bool = True
    relaxed: int = 0
    sign: int = 1  # CP-SAT minimizes: -1 for a max model
    lb: list = field(default_factory=list)
    ub: list = field(default_factory=list)
    infeasible: str = ""  # why the model is infeasible before solving ("" when it is not)


def integer_model(form, time_limit, mip_gap, threads, options, forced_scale=None
                  ) -> IntegerModel:
    """The integer model of a linear form: finite integer bounds (propagated where missing),
    integral rows (:func:`integer_rows`, redundant rows over the box dropped), the objective
    scaled to integers (:func:`scale_objective`) and the worker's parameters.  InputError where
    CP-SAT cannot represent the model (a continuous variable, an unbounded integer one).
    Shared by the backend and the warm starts (:mod:`mlopt.warmstart`)."""
    for j in np.flatnonzero(~form.integer):
        if form.col_lb[j] != form.col_ub[j] or form.col_lb[j] != round(form.col_lb[j]):
            raise InputError(f"CP-SAT cannot represent continuous variable "
                             f"{form.columns[j].name}; use a MILP solver (highs, scip)",
                             field="solver", value="cpsat")
    lb, ub = form.col_lb.copy(), form.col_ub.copy()
    if not (np.all(np.isfinite(lb)) and np.all(np.isfinite(ub))):
        _propagate_bounds(form, lb, ub)
        bad = np.flatnonzero(~np.isfinite(lb) | ~np.isfinite(ub))
        if len(bad):
            raise InputError(f"CP-SAT needs finite bounds; variable "
                             f"{form.columns[bad[0]].name} has none (given or implied)",
                             field="solver", value="cpsat")
    lb_i = [_ceil(v) for v in lb]
    ub_i = [_floor(v) for v in ub]
    if any(lo > hi for lo, hi in zip(lb_i, ub_i)):
        return IntegerModel(None, lb=lb_i, ub=ub_i, infeasible="empty integer domain")
    box = np.maximum(np.abs(lb_i), np.abs(ub_i)).astype(float)
    binary = (np.asarray(lb_i) >= 0) & (np.asarray(ub_i) <= 1)
    rows_out = []
    relaxed = 0
    for i in range(form.n_rows):
        idx, a = form.row(i)
        rows, was_relaxed = integer_rows(idx, a, form.row_lo[i], form.row_hi[i], lb[idx],
                                         ub[idx], binary[idx], form.row_names[i])
        relaxed += was_relaxed
        for cols, coefs, lo, hi in rows:
            amin = sum(cf * (lb_i[j] if cf > 0 else ub_i[j]) for j, cf in zip(cols, coefs))
            amax = sum(cf * (ub_i[j] if cf > 0 else lb_i[j]) for j, cf in zip(cols, coefs))
            lo = amin if math.isinf(lo) else max(int(lo), amin)
            hi = amax if math.isinf(hi) else min(int(hi), amax)
            if lo > hi:
                return IntegerModel(None, lb=lb_i, ub=ub_i,
                                    infeasible=f"row {form.row_names[i]} cannot hold")
            if lo == amin and hi == amax:
                continue  # redundant over the box
            rows_out.append([cols, coefs, lo, hi])
    scale, c_int, delta, exact = scale_objective(form.c, box, scale=forced_scale)
    sign = -1 if form.sense == "max" else 1  # CP-SAT minimizes
    nz = [j for j, v in enumerate(c_int) if v]
    params = {"num_workers": 1 if threads is None else max(1, int(threads)),
              "relative_gap_limit": float(mip_gap), "absolute_gap_limit": 0.0,
              **DEFAULT_PARAMS}
    if time_limit is not None:
        params["max_time_in_seconds"] = max(float(time_limit), 0.0)
    params.update(options)
    payload = {"vars": [[lo, hi] for lo, hi in zip(lb_i, ub_i)], "rows": rows_out,
               "objective": [nz, [sign * c_int[j] for j in nz]], "params": params}
    return IntegerModel(payload, scale, delta, exact, relaxed, sign, lb_i, ub_i)
