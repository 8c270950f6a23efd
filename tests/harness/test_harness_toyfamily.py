"""Toy families for the harness tests (importable by worker processes) and their own tests.

``harness_toy_max`` — 0/1 knapsack on a Workload: job j has weight = its worker GPU demand and
value = its (constant) utility; the single ``any`` server's GPU capacity is the knapsack capacity.
Offline: a Pyomo knapsack MILP (``knapsack``).  Algorithms: greedy by density, random order,
nothing (ALG = 0), everything (infeasible), raise (error).  Bounds: ``fractional`` (Dantzig's
fractional-knapsack bound, valid), ``too_low`` (an invalid "bound" the harness must flag).

``harness_toy_min`` — covering knapsack: admit jobs of total value >= target (the server's CPU
capacity) at minimum total weight.  Offline: ``cover`` MILP.  Algorithms: greedy, all, none.

Fake solver backends: ``toy_capped`` solves with HiGHS but reports ``feasible`` with a looser
(still valid) bound, like a run stopped at its time limit; ``toy_nosol`` reports no incumbent.
"""
from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pyomo.environ as pyo
import pytest

from mlopt.check import CheckResult, Violation
from mlopt.families.base import (FAMILIES, Algorithm, Bound, Family, Formulation,
                                 register_family)
from mlopt.params import Param
from mlopt.schedule import Schedule
from mlopt.solve import SolveResult, Status
from mlopt.solvers.base import BACKENDS
from mlopt.solvers.highs import HighsBackend
from mlopt.workload import BANDWIDTH, Workload

RES = ["gpu", "cpu", BANDWIDTH]


def _weights_values(w: Workload) -> tuple[dict, dict]:
    return ({j.id: j.worker_demand["gpu"] for j in w.jobs},
            {j.id: float(j.utility.max_value()) for j in w.jobs})


def _server(w: Workload):
    return w.servers[0]


# ---- generator ----------------------------------------------------------------------------------
def toy_generator(seed: int = 0, n_jobs: int = 6, capacity_ratio: float = 0.5,
                  target_ratio: float = 0.5) -> Workload:
    rng = np.random.default_rng(seed)
    weights = rng.integers(1, 10, size=n_jobs)
    values = rng.integers(1, 20, size=n_jobs)
    cap = max(int(weights.max()), int(capacity_ratio * weights.sum()))
    target = float(np.floor(target_ratio * values.sum()))
    jobs = [{"id": f"j{i}", "arrival": 1, "epochs": 1, "chunks": 1, "minibatches": 1,
             "minibatch_seconds": 1.0, "gradient_mb": 0.0,
             "worker_demand": {"gpu": int(weights[i]), "cpu": 0, BANDWIDTH: 1.0},
             "ps_demand": {"gpu": 0, "cpu": 0, BANDWIDTH: 1.0},
             "utility": {"kind": "constant", "value": float(values[i])}} for i in range(n_jobs)]
    return Workload.from_dict({
        "schema_version": 1, "name": f"toy-{seed}", "horizon": 1, "slot_seconds": 10.0,
        "resources": RES,
        "servers": [{"id": "s", "role": "any",
                     "capacity": {"gpu": cap, "cpu": target, BANDWIDTH: 100.0}}],
        "jobs": jobs, "meta": {"seed": seed}})


def _schedule(w: Workload, admitted) -> Schedule:
    return Schedule.from_rows(admitted, [(j, 1, "s", "worker", 1) for j in sorted(admitted)])


# ---- max family ---------------------------------------------------------------------------------
def check_max(w: Workload, s: Schedule) -> CheckResult:
    weights, values = _weights_values(w)
    viol = [Violation("unknown_job", f"job {j} not in workload", job=j)
            for j in s.admitted if j not in weights]
    ok = [j for j in s.admitted if j in weights]
    load = sum(weights[j] for j in ok)
    cap = _server(w).capacity["gpu"]
    if load > cap + 1e-9:
        viol.append(Violation("c_capacity", f"weight {load} > capacity {cap}"))
    return CheckResult(not viol, float(sum(values[j] for j in ok)), "max", viol)


def build_knapsack(w: Workload, scale: float = 1.0, forbid: tuple = ()) -> pyo.ConcreteModel:
    """The knapsack MILP; ``scale`` (objective not the checker's) and ``forbid`` (a restricted
    model) exist to test how the harness treats a model that disagrees with the checker."""
    weights, values = _weights_values(w)
    m = pyo.ConcreteModel()
    m.J = pyo.Set(initialize=sorted(weights))
    m.x = pyo.Var(m.J, domain=pyo.Binary)
    for j in forbid:
        m.x[j].fix(0)
    m.obj = pyo.Objective(expr=sum(scale * values[j] * m.x[j] for j in m.J), sense=pyo.maximize)
    m.c_capacity = pyo.Constraint(expr=sum(weights[j] * m.x[j] for j in m.J)
                                  <= _server(w).capacity["gpu"])
    return m


def extract_x(m: pyo.ConcreteModel, w: Workload) -> Schedule:
    return _schedule(w, [j for j in m.J if pyo.value(m.x[j]) > 0.5])


def _maybe_crash(seed, crash_seed, crashes, crash_marker):
    """Kill this (worker) process while ``crash_marker`` holds fewer than ``crashes`` lines."""
    if not crash_marker or seed != crash_seed:
        return
    marker = Path(crash_marker)
    done = len(marker.read_text().splitlines()) if marker.exists() else 0
    if done < crashes:
        with marker.open("a") as fh:
            fh.write(f"crash {done + 1} pid {os.getpid()}\n")
        os.kill(os.getpid(), signal.SIGKILL)  # a worker process killed mid-task


def _fill(w, order, sleep_s=0.0):
    if sleep_s:
        time.sleep(sleep_s)
    weights, _ = _weights_values(w)
    cap, load, chosen = _server(w).capacity["gpu"], 0.0, []
    for j in order:
        if load + weights[j] <= cap:
            chosen.append(j)
            load += weights[j]
    return _schedule(w, chosen)


def _wait_gate(gate: str, seed: int, timeout: float = 300.0) -> None:
    """Block until the file ``gate``/<seed> exists: the interrupt test's stand-in for a long
    task, which it ends when it wants instead of after a time a loaded machine may not keep
    (gives up after ``timeout`` seconds so a broken test cannot hang)."""
    if not gate:
        return
    path = Path(gate) / str(seed)
    end = time.monotonic() + timeout
    while not path.exists() and time.monotonic() < end:
        time.sleep(0.02)


def alg_greedy(w: Workload, seed: int = 0, sleep_s: float = 0.0, crash_marker: str = "",
               crash_seed: int = -1, crashes: int = 1, gate: str = ""):
    _maybe_crash(seed, crash_seed, crashes, crash_marker)
    _wait_gate(gate, seed)
    weights, values = _weights_values(w)
    order = sorted(weights, key=lambda j: (-values[j] / weights[j], j))
    return _fill(w, order, sleep_s)


def alg_random(w: Workload, seed: int = 0):
    ids = sorted(_weights_values(w)[0])
    return _fill(w, list(np.random.default_rng(seed).permutation(ids)))


def alg_nothing(w: Workload, seed: int = 0):
    return _schedule(w, [])


def alg_everything(w: Workload, seed: int = 0):
    return _schedule(w, [j.id for j in w.jobs])


def alg_raise(w: Workload, seed: int = 0):
    raise RuntimeError("this algorithm always fails")


def bound_fractional(w: Workload, seed: int = 0) -> float:
    weights, values = _weights_values(w)
    cap, total = float(_server(w).capacity["gpu"]), 0.0
    for j in sorted(weights, key=lambda j: -values[j] / weights[j]):
        take = min(1.0, cap / weights[j])
        total += take * values[j]
        cap -= take * weights[j]
        if cap <= 0:
            break
    return total


def bound_too_low(w: Workload) -> dict:
    return {"bound": 0.5, "note": "deliberately invalid"}


# ---- min family ---------------------------------------------------------------------------------
def check_min(w: Workload, s: Schedule) -> CheckResult:
    weights, values = _weights_values(w)
    viol = [Violation("unknown_job", f"job {j} not in workload", job=j)
            for j in s.admitted if j not in weights]
    ok = [j for j in s.admitted if j in weights]
    covered, target = sum(values[j] for j in ok), _server(w).capacity["cpu"]
    if covered < target - 1e-9:
        viol.append(Violation("c_cover", f"value {covered} < target {target}"))
    return CheckResult(not viol, float(sum(weights[j] for j in ok)), "min", viol)


def build_cover(w: Workload) -> pyo.ConcreteModel:
    weights, values = _weights_values(w)
    m = pyo.ConcreteModel()
    m.J = pyo.Set(initialize=sorted(weights))
    m.x = pyo.Var(m.J, domain=pyo.Binary)
    m.obj = pyo.Objective(expr=sum(weights[j] * m.x[j] for j in m.J), sense=pyo.minimize)
    m.c_cover = pyo.Constraint(expr=sum(values[j] * m.x[j] for j in m.J)
                               >= _server(w).capacity["cpu"])
    return m


def alg_cover_greedy(w: Workload, seed: int = 0):
    weights, values = _weights_values(w)
    target, got, chosen = _server(w).capacity["cpu"], 0.0, []
    for j in sorted(weights, key=lambda j: (-values[j] / weights[j], j)):
        if got >= target:
            break
        chosen.append(j)
        got += values[j]
    return _schedule(w, chosen)


# ---- fake solver backends -----------------------------------------------------------------------
class _Loosened(HighsBackend):
    """HiGHS, then pretend the run stopped at a limit (bound loosened by 25%, still valid)."""

    name = "toy_capped"
    keep_incumbent = True

    def solve(self, model, **kw) -> SolveResult:
        res = super().solve(model, **kw)
        if res.objective is None:
            return res
        bound = res.objective * (1.25 if res.sense == "max" else 0.8)
        obj = res.objective if self.keep_incumbent else None
        status = Status.FEASIBLE if self.keep_incumbent else Status.NO_SOLUTION
        return SolveResult(status, obj, bound, None, res.runtime_s, self.name,
                           res.solver_version, res.sense, "fake limit")


class _NoSolution(_Loosened):
    name = "toy_nosol"
    keep_incumbent = False


def _toy_generate(preset: str, seed: int = 0, **params) -> Workload:
    return toy_generator(seed, **params)


TOY_PARAMS = {"n_jobs": Param.int(6, low=1, high=40), "capacity_ratio": Param.float(0.5),
              "target_ratio": Param.float(0.5)}
TOY_GENERATOR = SimpleNamespace(PRESETS={"small": {}}, generate=_toy_generate,
                                params=lambda preset: TOY_PARAMS)


def _toy_algorithms(table: dict) -> list[Algorithm]:
    return [Algorithm(name, fn) for name, fn in table.items()]


TOY_MAX = Family(
    name="harness_toy_max", paper="toy", sense="max", checker=check_max,
    fields=lambda w: None, generator=TOY_GENERATOR,
    formulations=[Formulation("knapsack", build_knapsack, extract_x)], default_model="knapsack",
    algorithms_=_toy_algorithms({"greedy": alg_greedy, "random": alg_random,
                                 "nothing": alg_nothing, "everything": alg_everything,
                                 "raise": alg_raise}),
    bounds_=[Bound("fractional", bound_fractional), Bound("too_low", bound_too_low)])
TOY_MIN = Family(
    name="harness_toy_min", paper="toy", sense="min", checker=check_min,
    fields=lambda w: None, generator=TOY_GENERATOR,
    formulations=[Formulation("cover", build_cover, extract_x)], default_model="cover",
    algorithms_=_toy_algorithms({"greedy": alg_cover_greedy, "all": alg_everything,
                                 "none": alg_nothing}))
FAKE_BACKENDS = (_Loosened, _NoSolution)


def register(backends: bool = False) -> None:
    """Register the toy families (and, on request, the fake solver backends)."""
    for fam in (TOY_MAX, TOY_MIN):
        if fam.name not in FAMILIES:
            register_family(fam)
    if backends:
        for cls in FAKE_BACKENDS:
            BACKENDS.setdefault(cls.name, cls)


def unregister() -> None:
    for fam in (TOY_MAX, TOY_MIN):
        FAMILIES.pop(fam.name, None)
    for cls in FAKE_BACKENDS:
        if BACKENDS.get(cls.name) is cls:
            del BACKENDS[cls.name]


# Families are registered on import, so worker processes that import this module find them.
# The fake backends are registered only while the harness tests run (``toys`` fixture) so
# that no other test module sees them; the same fixture removes the families afterwards.
register()


@pytest.fixture(autouse=True, scope="module")
def toys():
    register(backends=True)
    yield
    unregister()


# ---- tests of the toy itself (they keep the harness tests meaningful) ---------------------------
def _brute_force(w: Workload, sense: str) -> float:
    """Optimum by enumeration (plain sums, no Schedule objects: fast enough for n <= 10)."""
    weights, values = _weights_values(w)
    ids = sorted(weights)
    cap, target = _server(w).capacity["gpu"], _server(w).capacity["cpu"]
    best = None
    for mask in range(1 << len(ids)):
        chosen = [ids[i] for i in range(len(ids)) if mask >> i & 1]
        wt, val = sum(weights[j] for j in chosen), sum(values[j] for j in chosen)
        if sense == "max" and wt <= cap + 1e-9 and (best is None or val > best):
            best = val
        if sense == "min" and val >= target - 1e-9 and (best is None or wt < best):
            best = wt
    return float(best)


def test_toy_milps_match_brute_force():
    from mlopt.solve import solve

    for seed in (0, 1, 2):
        w = toy_generator(seed=seed, n_jobs=7)
        for sense, build, check in (("max", build_knapsack, check_max),
                                    ("min", build_cover, check_min)):
            m = build(w)
            res = solve(m)
            assert res.status == Status.OPTIMAL
            c = check(w, extract_x(m, w))
            assert c.feasible and c.objective == pytest.approx(_brute_force(w, sense))


def test_toy_checker_and_bound():
    w = toy_generator(seed=3, n_jobs=8, capacity_ratio=0.3)
    assert not check_max(w, alg_everything(w)).feasible
    assert check_max(w, alg_nothing(w)).objective == 0
    assert bound_fractional(w) >= _brute_force(w, "max") - 1e-9
    assert not check_min(w, alg_nothing(w)).feasible
