"""x[j, t, s] = 1: job j runs in slot t on server s.  max sum v_j x  s.t. each job at most
once, at or after its arrival; per (t, s) the GPUs fit."""
import pyomo.environ as pyo

from mlopt.schedule import Schedule


def build(workload) -> pyo.ConcreteModel:
    jobs = {j.id: j for j in workload.jobs}
    m = pyo.ConcreteModel(name="unit_ilp")
    m.J = pyo.Set(initialize=sorted(jobs))
    m.T = pyo.RangeSet(1, workload.horizon)
    m.S = pyo.Set(initialize=[s.id for s in workload.servers])
    cap = {s.id: s.capacity["gpu"] for s in workload.servers}
    m.x = pyo.Var(m.J, m.T, m.S, domain=pyo.Binary)
    for j, t, s in m.x:
        if t < jobs[j].arrival:
            m.x[j, t, s].fix(0)
    m.obj = pyo.Objective(expr=sum(jobs[j].utility.max_value() * m.x[j, t, s]
                                   for j, t, s in m.x), sense=pyo.maximize)
    m.c_once = pyo.Constraint(m.J, rule=lambda m, j: sum(m.x[j, t, s] for t in m.T
                                                         for s in m.S) <= 1)
    m.c_capacity = pyo.Constraint(m.T, m.S, rule=lambda m, t, s: sum(
        jobs[j].worker_demand["gpu"] * m.x[j, t, s] for j in m.J) <= cap[s])
    return m


def extract(m, workload) -> Schedule:
    jobs = {j.id: j for j in workload.jobs}
    rows = [(j, t, s, "worker", int(jobs[j].worker_demand["gpu"]))
            for (j, t, s) in m.x if pyo.value(m.x[j, t, s]) > 0.5]
    return Schedule.from_rows({r[0] for r in rows}, rows)
