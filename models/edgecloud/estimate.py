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


def estimate_jct_step(workload: Workload, *, symmetry: bool = True, pool_cut: bool = False,
                      dominance: bool = True, tight: bool = True) -> ModelSize:
    """Return the exact size of :func:`mlopt.models.edgecloud.jct_step.build_jct_step` without
    building it: ``jct_milp``'s rows over the edge slots it keeps (to H_j - 1 under dominance),
    without c2j_completion, plus the step, floor, dominance, symmetry and cut rows, counted
    row family by row family in the builder's order."""
    from mlopt.models.edgecloud.jct_step import edge_makespan, identical_runs

    ec = EdgeCloud(workload)
    nvars = nrows = nnz = 0
    by_worker: dict[int, list[tuple[int, int]]] = defaultdict(list)  # w -> slot ranges
    jobs_on: dict[int, int] = defaultdict(int)  # w -> (j, w) pairs (symmetry row terms)
    stored: dict[str, list] = defaultdict(list)
    for jv in ec.jobs:
        H, p0 = ec.horizon_bound(jv), jv.p_edge
        last = H - 1 if dominance else H
        pad = p0 - 1 if dominance else 0  # the builder's JW filter under dominance
        pairs = [(w, ec.start(jv, w.server)) for w in ec.eligible(jv)]
        pairs = [(w, s) for (w, s) in pairs if s + pad <= last]
        cells = sum(last - s + 1 for _, s in pairs)
        E = edge_makespan(ec, jv)
        F = min(E, H)
        nz = H - F  # z_j(t), t in (F_j, H_j]
        late = [max(s, F + 1) for _, s in pairs if max(s, F + 1) <= last]  # step_edge starts
        u_in = dominance and tight  # the u_j term of step_edge, step_width, worker_floor
        l0, l1 = ec.cloud_finish(jv, 0), ec.cloud_finish(jv, 1)
        nvars += 4 + len(pairs) + cells + nz  # k, u, zeta, c; n; y; z
        # jct_milp's rows: chunks placed, c2b, c2h, cloud_used, cloud completion (c2d below)
        nrows += 3 + 2 * len(pairs)
        nnz += (len(pairs) + 1) + (cells + len(pairs)) + 2 * len(pairs) + 2 + (2 + (l0 != l1))
        nnz += cells  # c2d's terms
        # step_monotone, step_completion, step_cloud
        nrows += max(0, nz - 1) + 1 + nz
        nnz += 2 * max(0, nz - 1) + (1 + nz) + 2 * nz
        # step_edge: (j, w, t) with t > F_j
        n_late = sum(last - t0 + 1 for t0 in late)
        nrows += n_late
        nnz += n_late * (3 if u_in else 2)
        if tight and late:  # step_width: one row per late slot of the job
            slots = last - min(late) + 1
            nrows += slots
            nnz += n_late + slots * (2 if u_in else 1)
        nrows += cells + len(pairs)  # slot_needs_chunk, worker_floor
        nnz += 2 * cells + len(pairs) * (3 if u_in else 2)
        if E < H:  # cloud_floor
            nrows += 1
            nnz += 2
        if dominance:  # whole_cloud, whole_cloud_mode
            nrows += 2
            nnz += 4
        for w, s in pairs:
            by_worker[w.index].append((s, last))
            jobs_on[w.index] += 1
            if w.server in ec.storage:
                f = max(0, H - (s + p0) + 1)  # f[j,w,t] for t = s+p0..H (to H_j itself)
                nvars += f
                nrows += f
                nnz += sum(1 + (min(t - 1, last) - s + 1) for t in range(s + p0, H + 1))
                if jv.chunk_gb > 0:
                    stored[w.server].append((jv.arrival, s + p0, H))
    nrows += sum(union_len(r) for r in by_worker.values())  # c2d: (worker, slot)
    for server, terms in stored.items():  # c7b, as in estimate_jct_milp
        nrows += union_len([(a, h) for a, _, h in terms if a <= h])
        nnz += sum((h - a + 1) + max(0, h - max(a, f0) + 1) for a, f0, h in terms if a <= h)
    if symmetry:
        for run in identical_runs(ec):
            for a, b in zip(run, run[1:]):
                if jobs_on[a] or jobs_on[b]:
                    nrows += 1
                    nnz += jobs_on[a] + jobs_on[b]
    if pool_cut:
        nrows += 1
        nnz += len(ec.jobs)
    return ModelSize("edgecloud_jct_step", nvars, nrows, nnz)
