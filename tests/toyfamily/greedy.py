"""Greedy: jobs by value (or arrival), each in the earliest (slot, server) with room."""
from mlopt.schedule import Schedule


def free_gpus(workload) -> dict:
    """(slot, server) -> GPUs free in an empty schedule."""
    return {(t, s.id): s.capacity["gpu"] for t in range(1, workload.horizon + 1)
            for s in workload.servers}


def place(jobs, free: dict) -> list[tuple]:
    """Each job in turn in the earliest (slot, server) with room at or after its arrival
    (``free`` is updated); the schedule rows of the placed ones."""
    rows = []
    for job in jobs:
        need = job.worker_demand["gpu"]
        for (t, s), room in sorted(free.items()):
            if t >= job.arrival and room >= need:
                free[t, s] -= need
                rows.append((job.id, t, s, "worker", int(need)))
                break
    return rows


def run(workload, *, seed: int = 0, order: str = "value") -> Schedule:
    key = (lambda j: (-j.utility.max_value(), j.id)) if order == "value" else \
        (lambda j: (j.arrival, j.id))
    rows = place(sorted(workload.jobs, key=key), free_gpus(workload))
    return Schedule.from_rows({r[0] for r in rows}, rows, {"producer": "greedy"})
