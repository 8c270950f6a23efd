"""Greedy: jobs by value (or arrival), each in the earliest (slot, server) with room."""
from mlopt.schedule import Schedule


def run(workload, *, seed: int = 0, order: str = "value") -> Schedule:
    free = {(t, s.id): s.capacity["gpu"] for t in range(1, workload.horizon + 1)
            for s in workload.servers}
    key = (lambda j: (-j.utility.max_value(), j.id)) if order == "value" else \
        (lambda j: (j.arrival, j.id))
    rows = []
    for job in sorted(workload.jobs, key=key):
        need = job.worker_demand["gpu"]
        for (t, s), room in sorted(free.items()):
            if t >= job.arrival and room >= need:
                free[t, s] -= need
                rows.append((job.id, t, s, "worker", int(need)))
                break
    return Schedule.from_rows({r[0] for r in rows}, rows, {"producer": "greedy"})
