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
