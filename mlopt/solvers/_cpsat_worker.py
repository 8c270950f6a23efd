"""CP-SAT in a child process: one JSON request per input line, one JSON answer per output line.

Run as a plain script (``python _cpsat_worker.py``), never imported by mlopt: OR-Tools bundles
its own ``libhighs.so.1``, whose symbols clash with highspy's library of the same name, so
OR-Tools and highspy cannot be loaded into one process (whichever comes second fails to import).
Keeping OR-Tools in a child process lets HiGHS, SCIP and CP-SAT all run from one mlopt process.
The child stays alive between solves (importing OR-Tools takes seconds) and exits at the end
of its input.

Request: ``{"vars": [[lb, ub], ...], "rows": [[[cols], [coefs], lo, hi], ...],
"objective": [[cols], [coefs]], "params": {name: value}, "id": n}`` -- integers except
params; the objective is minimized; optional ``"hint": [[cols], [values]]`` (a warm start,
:mod:`mlopt.warmstart`) becomes the proto's ``solution_hint``.  Answer: ``{"id", "status", "objective", "bound",
"wall_time", "solution", "invalid", "version", "message"}``, echoing the request's id.
"""
import json
import sys


def solve(data: dict, cp_model, version: str) -> dict:
    model = cp_model.CpModel()
    proto = model.proto
    for lb, ub in data["vars"]:
        proto.variables.add().domain.extend([lb, ub])
    for cols, coefs, lo, hi in data["rows"]:
        ct = proto.constraints.add()
        ct.linear.vars.extend(cols)
        ct.linear.coeffs.extend(coefs)
        ct.linear.domain.extend([lo, hi])
    cols, coefs = data["objective"]
    proto.objective.vars.extend(cols)
    proto.objective.coeffs.extend(coefs)
    hint_cols, hint_vals = data.get("hint") or ([], [])
    proto.solution_hint.vars.extend(hint_cols)
    proto.solution_hint.values.extend(hint_vals)
    out = {"version": version, "invalid": model.validate()}
    if out["invalid"]:
        out["status"] = "MODEL_INVALID"
        return out
    solver = cp_model.CpSolver()
    for key, val in data["params"].items():
        setattr(solver.parameters, key, val)
    code = solver.solve(model)
    out["status"] = solver.status_name(code)
    out["wall_time"] = solver.wall_time
    if out["status"] in ("OPTIMAL", "FEASIBLE"):
        out["objective"] = solver.objective_value
        out["solution"] = list(solver.response_proto.solution)
    out["bound"] = solver.best_objective_bound
    return out


def _watch_parent() -> None:
    """End with the parent (no orphan solving on): mlopt/lifeline.py, loaded by path because
    importing the mlopt package here would load highspy next to OR-Tools."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "lifeline.py"
    spec = importlib.util.spec_from_file_location("_mlopt_lifeline", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    # polling only: the parent may have started this worker from a thread that ends early
    module.watch_parent(pdeathsig=False)


def main() -> None:
    _watch_parent()
    from ortools.sat.python import cp_model
    import ortools

    for line in sys.stdin:
        if not line.strip():
            continue
        rid = None
        try:
            data = json.loads(line)
            rid = data.get("id")
            out = solve(data, cp_model, ortools.__version__)
        except Exception as err:  # reported to the parent as a result, the worker lives on
            out = {"status": "WORKER_ERROR", "message": f"{type(err).__name__}: {err}"}
        out["id"] = rid
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
