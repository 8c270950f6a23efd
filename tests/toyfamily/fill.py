"""An improvement algorithm (``start_option``): keep a start schedule's rows and add every
job that still fits, by value, in the earliest (slot, server) with room.  Never worse than its
start (it only adds jobs); without a start it fills from the empty schedule."""
from mlopt.schedule import Schedule


def run(workload, *, seed: int = 0, time_limit: float = 5.0, start: Schedule | None = None
        ) -> Schedule:
    free = {(t, s.id): s.capacity["gpu"] for t in range(1, workload.horizon + 1)
            for s in workload.servers}
    rows, done = [], set()
    if start is not None:
        for r in start.allocations.itertuples(index=False):
            free[int(r.slot), str(r.server)] -= int(r.count)
            rows.append((r.job, int(r.slot), str(r.server), r.role, int(r.count)))
            done.add(r.job)
    for job in sorted(workload.jobs, key=lambda j: (-j.utility.max_value(), j.id)):
        if job.id in done:
            continue
        need = job.worker_demand["gpu"]
        for (t, s), room in sorted(free.items()):
            if t >= job.arrival and room >= need:
                free[t, s] -= need
                rows.append((job.id, t, s, "worker", int(need)))
                break
    return Schedule.from_rows({r[0] for r in rows}, rows,
                              {"producer": "fill", "started_from": None if start is None else
                               start.meta.get("producer")})
