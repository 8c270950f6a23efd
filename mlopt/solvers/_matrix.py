"""One linear form for every native-API backend (SCIP, CP-SAT, Gurobi).

:func:`compile_linear` walks a Pyomo model once with Pyomo's own linear expression compiler
(``pyomo.repn.linear.LinearRepnVisitor``, the engine of Pyomo's LP writer) into row-bounded
matrix data in compressed sparse row (CSR) arrays, with no dependency beyond numpy::

    max/min  c @ x + c0     s.t.  row_lo <= A @ x <= row_hi,   col_lb <= x <= col_ub,
                                  x_j integer where ``integer[j]``

Columns are the unfixed Pyomo ``VarData`` objects that appear in the objective or a constraint,
in order of first appearance (objective first, then constraints in declaration order), so the
form is deterministic.  Fixed variables are constants (folded into ``c0`` and the row bounds).
A constraint whose body has no variable left is checked on the spot and dropped.

:func:`load_solution` writes a solver's values back onto the Pyomo variables so that the family's
schedule extractor and the independent checker read them, never the backend's internal copy.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np
import pyomo.environ as pyo
from pyomo.repn.linear import LinearRepnVisitor

from mlopt.errors import InputError

# A value this close to an integer is loaded as that integer for integer columns (SCIP and
# Gurobi return e.g. 0.9999999997 inside their feasibility tolerance 1e-6).
INTEGRALITY_TOL = 1e-6
# A constraint without variables (all fixed) must hold within this absolute tolerance.
CONSTANT_ROW_TOL = 1e-9


@dataclass
class LinearForm:
    columns: list  # Pyomo VarData, one per column
    c: np.ndarray  # objective coefficients, in the model's own sense
    c0: float  # objective constant (includes fixed variables)
    sense: str  # "max" or "min"
    indptr: np.ndarray  # CSR row pointers (n_rows + 1)
    indices: np.ndarray  # CSR column indices
    data: np.ndarray  # CSR coefficients
    row_lo: np.ndarray  # -inf where absent
    row_hi: np.ndarray  # +inf where absent
    row_names: list[str]
    col_lb: np.ndarray  # -inf where absent
    col_ub: np.ndarray  # +inf where absent
    integer: np.ndarray  # bool per column
    free_vars: list = field(default_factory=list)  # unfixed VarData in no row and not in c
    compile_s: float = 0.0

    @property
    def n_rows(self) -> int:
        return len(self.indptr) - 1

    @property
    def n_cols(self) -> int:
        return len(self.columns)

    @property
    def nnz(self) -> int:
        return len(self.data)

    def row(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """(column indices, coefficients) of row ``i``."""
        s, e = self.indptr[i], self.indptr[i + 1]
        return self.indices[s:e], self.data[s:e]

    def row_ids(self) -> np.ndarray:
        return np.repeat(np.arange(self.n_rows), np.diff(self.indptr))

    def activity(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.bincount(self.row_ids(), weights=self.data * x[self.indices],
                           minlength=self.n_rows)

    def objective(self, x: np.ndarray) -> float:
        return float(self.c @ np.asarray(x, dtype=float) + self.c0)

    def max_violation(self, x: np.ndarray) -> float:
        """Largest absolute violation of a row or column bound by ``x`` (0 when feasible)."""
        x = np.asarray(x, dtype=float)
        viol = [0.0]
        if self.n_rows:
            act = self.activity(x)
            viol.append(float(np.max(np.maximum(self.row_lo - act, act - self.row_hi))))
        if self.n_cols:
            viol.append(float(np.max(np.maximum(self.col_lb - x, x - self.col_ub))))
        return max(viol)


def compile_linear(model: pyo.ConcreteModel) -> LinearForm:
    """Extract ``model``'s linear form (see module doc).

    Raises :class:`InputError` (field ``model``) for a nonlinear objective or constraint, a
    model without exactly one active objective, and a constraint that is infeasible on its own
    (every variable in it fixed).
    """
    start = time.perf_counter()
    objs = list(model.component_data_objects(pyo.Objective, active=True))
    if len(objs) != 1:
        raise InputError(f"model must have exactly one active objective, has {len(objs)}",
                         field="model", value=model.name)
    obj = objs[0]
    sense = "max" if obj.sense == pyo.maximize else "min"
    visitor = LinearRepnVisitor({})
    col_of: dict[int, int] = {}  # id(VarData) -> column
    columns: list = []

    def linear(expr, what):
        repn = visitor.walk_expression(expr)
        if repn.nonlinear is not None:
            raise InputError(f"{what} is not linear; only linear (MI)LP models are supported",
                             field="model", value=model.name)
        cols, coefs = [], []
        for vid, coef in repn.linear.items():
            j = col_of.get(vid)
            if j is None:
                j = col_of[vid] = len(columns)
                columns.append(visitor.var_map[vid])
            cols.append(j)
            coefs.append(coef)
        return float(repn.constant), cols, coefs

    c0, ocols, ocoefs = linear(obj.expr, f"objective {obj.name}")
    indptr, indices, data = [0], [], []
    lo, hi, names = [], [], []
    for con in model.component_data_objects(pyo.Constraint, active=True):
        lb, body, ub = con.to_bounded_expression(True)
        if lb is None and ub is None:
            continue
        offset, cols, coefs = linear(body, f"constraint {con.name}")
        lb = -math.inf if lb is None else float(lb) - offset
        ub = math.inf if ub is None else float(ub) - offset
        if not cols:
            if lb > CONSTANT_ROW_TOL or ub < -CONSTANT_ROW_TOL:
                raise InputError(f"constraint {con.name} has no free variable and is "
                                 f"violated ({lb} <= 0 <= {ub} fails)", field="model",
                                 value=model.name)
            continue
        indices.extend(cols)
        data.extend(coefs)
        indptr.append(len(indices))
        lo.append(lb)
        hi.append(ub)
        names.append(con.name)

    n = len(columns)
    c = np.zeros(n)
    np.add.at(c, np.asarray(ocols, dtype=np.int64), np.asarray(ocoefs, dtype=float))
    col_lb = np.empty(n)
    col_ub = np.empty(n)
    integer = np.zeros(n, dtype=bool)
    for j, v in enumerate(columns):
        vlb, vub = v.bounds
        col_lb[j] = -np.inf if vlb is None else vlb
        col_ub[j] = np.inf if vub is None else vub
        integer[j] = v.is_integer()  # binary counts as integer (bounds 0..1)

    free = [v for v in model.component_data_objects(pyo.Var)
            if not v.fixed and id(v) not in col_of]
    return LinearForm(columns, c, c0, sense, np.asarray(indptr, dtype=np.int64),
                      np.asarray(indices, dtype=np.int64), np.asarray(data, dtype=float),
                      np.asarray(lo, dtype=float), np.asarray(hi, dtype=float), names,
                      col_lb, col_ub, integer, free, time.perf_counter() - start)


def load_solution(form: LinearForm, x) -> None:
    """Write the column values ``x`` onto the Pyomo variables.

    Integer columns within ``INTEGRALITY_TOL`` of an integer are rounded to it (a value further
    away is loaded as is, for the checker to reject).  Variables that appear nowhere in the
    model (``form.free_vars``) take the value in their bounds closest to 0, so that every
    variable of a solved model has a value; any such value is feasible and leaves the
    objective unchanged.
    """
    x = np.asarray(x, dtype=float)
    for j, v in enumerate(form.columns):
        val = float(x[j])
        if form.integer[j]:
            r = round(val)
            if abs(val - r) <= INTEGRALITY_TOL:
                val = float(r)
        v.set_value(val, skip_validation=True)
    for v in form.free_vars:
        lb, ub = v.bounds
        val = 0.0
        if lb is not None and val < lb:
            val = lb
        if ub is not None and val > ub:
            val = ub
        v.set_value(float(val), skip_validation=True)
