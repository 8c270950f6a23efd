"""Size of the pinned total-JCT MILP before it is built (:class:`mlopt.modelsize.ModelSize`).

Counts :func:`build_jct_milp`'s row families from the (job, worker) pairs and their slot
ranges (the builder's own :class:`EdgeCloud` view), storage rows included, with slot ranges
summed arithmetically.  Exact for the model as built (the tests compare with
:func:`mlopt.modelsize.measure`)."""
from __future__ import annotations

from collections import defaultdict

from mlopt.families.edgecloud.fields import EdgeCloud
from mlopt.modelsize import ModelSize, union_len
from mlopt.workload import Workload


def estimate_jct_milp(workload: Workload, **options) -> ModelSize:
    """Return the exact size of the pinned total-JCT MILP without building it."""
    ec = EdgeCloud(workload)
    nvars = nrows = nnz = 0
    by_worker: dict[int, list[tuple[int, int]]] = defaultdict(list)  # w -> slot ranges
    stored: dict[str, list] = defaultdict(list)  # storage server -> (job, start, H) pairs
    for jv in ec.jobs:
        H = ec.horizon_bound(jv)
        pairs = [(w, ec.start(jv, w.server)) for w in ec.eligible(jv)]
        pairs = [(w, s) for (w, s) in pairs if s <= H]
        cells = sum(H - s + 1 for _, s in pairs)
        nvars += 4 + len(pairs) + cells  # k, u, zeta, c; n; y
        nrows += 3 + 2 * len(pairs) + cells  # chunks, cloud rows; c2b, c2h; c2j
        l0, l1 = ec.cloud_finish(jv, 0), ec.cloud_finish(jv, 1)
        nnz += (len(pairs) + 1) + 2 + (2 + (l0 != l1))
        nnz += cells + len(pairs) + 2 * len(pairs) + 2 * cells + cells  # c2b, c2h, c2j, c2d
        for w, s in pairs:
            by_worker[w.index].append((s, H))
            if w.server in ec.storage:
                p0 = jv.p_edge
                f = max(0, H - (s + p0) + 1)  # f[j,w,t] for t = s+p0..H
                nvars += f
                nrows += f
                nnz += sum(1 + (t - s) for t in range(s + p0, H + 1))  # f and earlier y
                if jv.chunk_gb > 0:
                    stored[w.server].append((jv.arrival, s + p0, H))
    nrows += sum(union_len(r) for r in by_worker.values())  # c2d: (worker, slot)
    for server, terms in stored.items():  # c7b: n (and f once a chunk can be done) per slot
        lo = min(a for a, _, _ in terms)
        hi = max(h for _, _, h in terms)
        nrows += union_len([(a, h) for a, _, h in terms if a <= h and lo <= hi])
        nnz += sum((h - a + 1) + max(0, h - max(a, f0) + 1) for a, f0, h in terms if a <= h)
    return ModelSize("edgecloud_jct_milp", nvars, nrows, nnz)


def estimate_flow_lb(workload: Workload, *, zeta_one: bool = False) -> ModelSize:
    """Size of the flow-time bound ILP (4) (:func:`build_flow_lb`), per (server, type) group."""
    from mlopt.models.edgecloud.common import _groups

    ec = EdgeCloud(workload)
    keys = sorted(_groups(ec))
    by_group: dict[int, list[tuple[int, int]]] = defaultdict(list)
    nvars = nrows = nnz = 0
    cloud_cols = 1 if zeta_one else 2  # x1 (and x0) per cloud slot
    for jv in ec.jobs:
        H, cs = ec.horizon_bound(jv), ec.start(jv, ec.cloud)
        ranges = [(ec.start(jv, key[0]), H) for key in keys if key[1] == jv.worker_type]
        for g, key in enumerate(keys):
            if key[1] == jv.worker_type and ec.start(jv, key[0]) <= H:
                by_group[g].append((ec.start(jv, key[0]), H))
        cells = sum(max(0, hi - lo + 1) for lo, hi in ranges)
        jt = max(0, H - cs + 1)
        nvars += cells + cloud_cols * jt + (0 if zeta_one else 1)  # x, x1 (x0), zeta
        nrows += 1  # c4a
        nnz += cells + cloud_cols * jt
        slots = union_len([r for r in ranges if r[0] <= r[1]] + ([(cs, H)] if jt else []))
        nrows += slots  # c4e: the job's slots
        nnz += cells + cloud_cols * jt
        if not zeta_one:  # c4f, c4g_cloud per cloud slot; c4g_edge per edge cell
            nrows += 2 * jt + cells
            nnz += 4 * jt + 2 * cells
    for ranges in by_group.values():  # c4b: (group, slot)
        nrows += union_len(ranges)
        nnz += sum(hi - lo + 1 for lo, hi in ranges)
    return ModelSize("edgecloud_flow_lb" + ("_zeta1" if zeta_one else ""), nvars, nrows, nnz)


def estimate_flow_lb_zeta1(workload: Workload) -> ModelSize:
    """Return the size of the flow lower-bound ILP with zeta_j = 1."""
    return estimate_flow_lb(workload, zeta_one=True)
