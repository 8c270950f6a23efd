"""A toy job needs ``worker_demand["gpu"]`` GPUs for one slot on one server."""
from mlopt.errors import InputError
from mlopt.workload import validate as validate_workload


def validate(workload) -> None:
    validate_workload(workload)
    if not workload.servers:
        raise InputError("needs at least one server", field="servers", value=[])
    biggest = max(s.capacity.get("gpu", 0) for s in workload.servers)
    for i, job in enumerate(workload.jobs):
        need = job.worker_demand.get("gpu", 0)
        if not 1 <= need <= biggest or need != int(need):
            raise InputError(f"must be an integer in [1, {biggest:g}] (the largest server)",
                             field=f"jobs[{i}].worker_demand.gpu", value=need)
