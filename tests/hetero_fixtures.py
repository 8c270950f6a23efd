"""A hand-made hetero instance (seed 003) used by the checker, model and algorithm tests.

Two servers s1, s2: 2 GPUs, 8 vCPUs, 32 GB, 10 Gbps each.  Worker types w1 (1 GPU, 2 vCPU, 4 GB,
1 Gbps) and w2 (2 GPUs, 4 vCPU, 8 GB, 2 Gbps); PS types p1 (1 vCPU, 2 GB, 1.5 Gbps) and p2
(2 vCPU, 2 GB, 4 Gbps).  Slot = 1 h, U = 0 ms, pi = 225 MB so 2 pi / b_w1 = 3.6 s = 0.001 slot.

Job A: a = 1, w = 2, E D K = 1 * 2 * 2 = 4 mini-batches, v = (0.5, 0.3) slots.
  q = 1 on w1: rho = 1 / 0.5 = 2, so N = 2 workers need d = ceil(4 / 4) = 1 slot.
Job B: a = 1, w = 1, E D K = 1 * 1 * 3 = 3, v = (1.0, 0.8); D = 1 so N = 1:
  q = 1 on w2: rho = 1.25, d = ceil(3 / 1.25) = 3 (w1: d = 3 too).
"""
from __future__ import annotations

import copy

from mlopt.schedule import COLUMNS, Schedule
from mlopt.workload import Workload

RES = ["gpu", "cpu", "memory_gb", "bandwidth_gbps"]


def _job(jid, arrival, weight, chunks, minibatches, v):
    return {"id": jid, "arrival": arrival, "epochs": 1, "chunks": chunks,
            "minibatches": minibatches, "minibatch_seconds": 0.0, "gradient_mb": 225.0,
            "worker_demand": {"gpu": 1, "cpu": 2, "memory_gb": 4, "bandwidth_gbps": 1},
            "ps_demand": {"gpu": 0, "cpu": 1, "memory_gb": 2, "bandwidth_gbps": 1.5},
            "utility": {"kind": "constant", "value": 0.0},
            "extra": {"weight": weight, "minibatch_slots": v, "ps_update_ms": [0.0, 0.0],
                      "ra_update_ms": 0.0}}


def hand_dict(architecture="ps") -> dict:
    cap = {"gpu": 2, "cpu": 8, "memory_gb": 32, "bandwidth_gbps": 10}
    return {
        "schema_version": 1, "name": "hetero-hand", "horizon": 4, "slot_seconds": 3600.0,
        "resources": RES,
        "servers": [{"id": "s1", "role": "any", "capacity": dict(cap)},
                    {"id": "s2", "role": "any", "capacity": dict(cap)}],
        "jobs": [_job("A", 1, 2.0, 2, 2, [0.5, 0.3]), _job("B", 1, 1.0, 1, 3, [1.0, 0.8])],
        "meta": {},
        "extra": {"hetero": {
            "architecture": architecture,
            "worker_types": [
                {"id": "w1", "demand": {"gpu": 1, "cpu": 2, "memory_gb": 4, "bandwidth_gbps": 1}},
                {"id": "w2", "demand": {"gpu": 2, "cpu": 4, "memory_gb": 8, "bandwidth_gbps": 2}}],
            "ps_types": [
                {"id": "p1", "demand": {"gpu": 0, "cpu": 1, "memory_gb": 2,
                                        "bandwidth_gbps": 1.5}},
                {"id": "p2", "demand": {"gpu": 0, "cpu": 2, "memory_gb": 2,
                                        "bandwidth_gbps": 4}}]}},
    }


def hand(architecture="ps", mutate=None) -> Workload:
    d = copy.deepcopy(hand_dict(architecture))
    if mutate:
        mutate(d)
    return Workload.from_dict(d)


def sched(rows) -> Schedule:
    """rows: (job, slot, server, role, count, type)."""
    return Schedule.from_dict({"schema_version": 1, "admitted": sorted({r[0] for r in rows}),
                               "columns": [*COLUMNS, "type"], "rows": [list(r) for r in rows],
                               "meta": {}})


# The optimum of the PS instance: A on s1 in slot 1 (2 x w1 + 1 x p1, q = 1), c_A = 2;
# B on s2 in slots 1-3 (1 x w1 + 1 x p1), c_B = 4.  WCT = 2 * 2 + 1 * 4 = 8, and no schedule does
# better: c_A >= a_A + 1 = 2 and c_B >= a_B + 3 = 4.
OPT_ROWS = [("A", 1, "s1", "worker", 2, "w1"), ("A", 1, "s1", "ps", 1, "p1")] + [
    r for t in (1, 2, 3) for r in (("B", t, "s2", "worker", 1, "w1"), ("B", t, "s2", "ps", 1, "p1"))]
OPT = 8.0
# RA: the same without PSs; A's ring of 2 on one server has U = 0 so rho = 2: c_A = 2, c_B = 4.
OPT_RA_ROWS = [("A", 1, "s1", "worker", 2, "w1")] + [("B", t, "s2", "worker", 1, "w1")
                                                      for t in (1, 2, 3)]
OPT_RA = 8.0


def tiny_draw(seed: int, ra: bool, rng, n_jobs: int = 4, n_servers: int = 3) -> Workload:
    """A tiny PS or RA workload with full- or half-size servers (hypothesis tests); a draw
    that places no job at all is refused by the generator and skipped with ``assume``."""
    from hypothesis import assume

    from mlopt.errors import InputError
    from mlopt.families.hetero.generator import generate

    try:
        return generate("tiny-ra" if ra else "tiny", seed=seed, n_jobs=n_jobs,
                        n_servers=n_servers, capacity_scale=float(rng.choice([0.5, 1.0])))
    except InputError:  # half-size servers: a draw may place no job at all (refused)
        assume(False)
