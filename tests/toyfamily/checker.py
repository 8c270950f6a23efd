"""Independent checker: each admitted job has one row (its GPUs, at or after its arrival);
per slot and server the GPUs fit; the objective is the admitted jobs' value."""
from mlopt.check import CheckResult, Violation


def check(workload, schedule, *, strict: bool = True) -> CheckResult:
    """``strict=False``: a broken checker that accepts everything (the suite must notice)."""
    jobs = {j.id: j for j in workload.jobs}
    cap = {s.id: s.capacity["gpu"] for s in workload.servers}
    viol, a = [], schedule.allocations
    if not strict:
        value = sum(jobs[j].utility.max_value() for j in schedule.admitted if j in jobs)
        return CheckResult(True, float(value), "max", [])
    for jid in sorted(schedule.admitted):
        rows = a[a["job"] == jid]
        job = jobs[jid]
        if len(rows) != 1 or int(rows["count"].iat[0]) != job.worker_demand["gpu"] \
                or int(rows["slot"].iat[0]) < job.arrival or rows["server"].iat[0] not in cap:
            viol.append(Violation("c_one_row", f"{len(rows)} rows, need one with "
                                  f"{job.worker_demand['gpu']:g} GPUs at or after slot "
                                  f"{job.arrival} on a server", job=jid))
    for jid in sorted(set(a["job"]) - schedule.admitted):
        viol.append(Violation("c_admitted", "rows for a job not admitted", job=jid))
    for (slot, server), used in a.groupby(["slot", "server"])["count"].sum().items():
        if used > cap.get(server, 0) + 1e-9:
            viol.append(Violation("c_capacity", f"{used:g} GPUs > {cap.get(server, 0):g}",
                                  slot=int(slot), server=str(server)))
    value = sum(jobs[j].utility.max_value() for j in schedule.admitted if j in jobs)
    return CheckResult(not viol, float(value), "max", viol)
