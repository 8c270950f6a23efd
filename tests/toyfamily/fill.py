"""An improvement algorithm (``start_option``): keep a start schedule's rows and add every
job that still fits, by value, in the earliest (slot, server) with room.  Never worse than its
start (it only adds jobs); without a start it fills from the empty schedule."""
from mlopt.schedule import Schedule

from toyfamily.greedy import free_gpus, place


def run(workload, *, seed: int = 0, time_limit: float = 5.0, start: Schedule | None = None
        ) -> Schedule:
    free, rows, done = free_gpus(workload), [], set()
    if start is not None:
        for r in start.allocations.itertuples(index=False):
            free[int(r.slot), str(r.server)] -= int(r.count)
            rows.append((r.job, int(r.slot), str(r.server), r.role, int(r.count)))
            done.add(r.job)
    rows += place(sorted((j for j in workload.jobs if j.id not in done),
                         key=lambda j: (-j.utility.max_value(), j.id)), free)
    return Schedule.from_rows({r[0] for r in rows}, rows,
                              {"producer": "fill", "started_from": None if start is None else
                               start.meta.get("producer")})
