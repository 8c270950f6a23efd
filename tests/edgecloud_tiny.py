"""A hand-built edge-cloud instance whose optima are worked out by hand (shared by tests).

slot_seconds = 1, m = 1 s, G = 0, q = 62.5 MB over b = 1 Gbps: 2q/b = 2*8*62.5/1000 = 1 s.
E = B = 1, so a chunk takes p0 = ceil(1 * (1 + 0 + 1) / 1) = 2 slots when zeta = 0 and
p1 = ceil(1 * (1 + 0) / 1) = 1 slot with the whole job in the cloud (zeta = 1).

Edge servers e0, e1: one worker of type w0 and one PS of type p0 each; the cloud.
Job a: r = 1, D = 2 chunks, delays e0: 1, e1: 1, cloud: 3.
Job b: r = 1, D = 1 chunk,  delays e0: 1, e1: 2, cloud: 4.

Exact optimum (pinned, jct_milp) = 5:
* a alone: both chunks on e0, e1 in slots 2-3 -> c = 3, JCT 2; all in the cloud: slot 4, JCT 3.
* b alone: e0 slots 2-3 -> JCT 2 (e1: slots 3-4, JCT 3; cloud zeta=1: slot 5, JCT 4).
* Both want the two workers in slots 2-3; JCT 2 + 2 = 4 is impossible (a needs both workers
  then).  b on e0 (JCT 2) + a entirely in the cloud (slot 4, JCT 3) = 5.  Other candidates:
  a on the edge (JCT 2) and b after it (e0 slots 4-5 or cloud slot 5: JCT 4) = 6; a on one
  worker / mixed (c = 5, JCT 4) + b JCT 2 = 6.  So OPT = 5.
flow_lb (ILP (4), f = sum_t x (t - r) / (D p)) = 3.75: b on e0 slots 2, 3: (1 + 2) / (1*2) = 1.5;
a needs D p0 = 4 chunk-slots, at most 2 per slot (4e): e1 at 2 and 3, both workers at 4:
(1 + 2 + 3 + 3) / (2*2) = 2.25; total 3.75 (chunks may hop between workers in (4)).  Others:
a in the cloud 2 * (4-1) / (2*1) = 3 -> 4.5; b on e1 at 3, 4 ((2 + 3) / 2 = 2.5) and a at
e0@2, e1@2, e0@3, e0@4 ((1 + 1 + 2 + 3) / 4 = 1.75) -> 4.25.  The bound, rounded up to an
integer (every total JCT is one), is 4.
flow_lb_zeta1 (every chunk at p1 = 1 slot) = 2.5: b at slot 2: (2-1)/1 = 1; a: one chunk at
slot 2 (1/2 = 0.5), the other at slot 3 (2/2 = 1) -> 1.5; total 2.5 (rounded up: 3).
"""
from __future__ import annotations

from mlopt.utility import Constant
from mlopt.workload import BANDWIDTH, Job, Server, Workload, validate

OPT = 5.0
FLOW_LB = 3.75
FLOW_LB_ZETA1 = 2.5


def tiny_extra(storage: bool = False) -> dict:
    ex = {"edgecloud": {"cloud": "cloud", "servers": {
        "e0": {"workers": {"w0": 1}, "ps": {"p0": 1}},
        "e1": {"workers": {"w0": 1}, "ps": {"p0": 1}}}}}
    if storage:  # room for one chunk (chunk_gb 1) per edge server
        for spec in ex["edgecloud"]["servers"].values():
            spec["storage_gb"] = 1.0
    return ex


def tiny_job(jid: str, chunks: int, delay: dict, arrival: int = 1, **extra) -> Job:
    ex = {"worker_type": "w0", "ps_type": "p0", "delay": dict(delay),
          "ps_update_seconds": 0.0, "gpus": 1, **extra}
    return Job(jid, arrival, epochs=1, chunks=chunks, minibatches=1, minibatch_seconds=1.0,
               gradient_mb=62.5, worker_demand={BANDWIDTH: 1.0}, ps_demand={BANDWIDTH: 1.0},
               utility=Constant(1.0), extra=ex)


def tiny_workload(jobs=None, storage: bool = False) -> Workload:
    servers = (Server("e0", "any", {BANDWIDTH: 10.0}, location="edge"),
               Server("e1", "any", {BANDWIDTH: 10.0}, location="edge"),
               Server("cloud", "any", {BANDWIDTH: 1e6}, location="cloud"))
    if jobs is None:
        more = {"chunk_gb": 1.0} if storage else {}
        jobs = (tiny_job("a", 2, {"e0": 1, "e1": 1, "cloud": 3}, **more),
                tiny_job("b", 1, {"e0": 1, "e1": 2, "cloud": 4}, **more))
    return validate(Workload("edgecloud-tiny-hand", 6, 1.0, (BANDWIDTH,), servers, tuple(jobs),
                             {"family": "edgecloud"}, tiny_extra(storage)))
