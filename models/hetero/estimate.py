"""Size of the exact heterogeneous-WCT MILP before it is built
(:class:`mlopt.modelsize.ModelSize`).

Uses the builder's own configurations and completion caps (:func:`job_configs`,
:func:`completion_caps`) and counts :func:`build_wct_milp`'s row families arithmetically: a
start variable z_jkt covers d_k running slots, so the link rows' nonzeros sum d_k over the
starts.  Exact for the model as built (the tests compare with
:func:`mlopt.modelsize.measure`)."""
from __future__ import annotations

from mlopt.families.hetero.configs import fits_alone, job_configs
from mlopt.families.hetero.fields import hetero_data
from mlopt.modelsize import ModelSize, union_len
from mlopt.models.hetero.wct_milp import completion_caps
from mlopt.workload import Workload


def estimate_wct_milp(workload: Workload, **options) -> ModelSize:
    """Return the size of the weighted-completion-time MILP without building it."""
    data = hetero_data(workload)
    ps = data.architecture == "ps"
    J = list(range(len(data.job_ids)))
    H, R = data.cap.shape
    M, P = len(data.e), len(data.z)
    cfg = {j: [c for c in job_configs(data, j) if fits_alone(data, c)] for j in J}
    cmax = completion_caps(data, J, cfg)
    first = {j: int(data.arrival[j]) for j in J}
    nvars = nrows = nnz = 0
    spans = []  # each job's running slots [first, cmax)
    for j in J:
        starts = [max(0, cmax[j] - c.d - first[j] + 1) for c in cfg[j]]  # per configuration
        nz_j = sum(starts)
        covered = sum(n * c.d for n, c in zip(starts, cfg[j]))  # sum of d_k over the starts
        nq = sum(n for n, c in zip(starts, cfg[j]) if c.q == 1)
        jrun = max(0, cmax[j] - first[j])
        if jrun:
            spans.append((first[j], cmax[j] - 1))
        nvars += nz_j + H * M + jrun * H * M + H  # z, y, Y, o
        nrows += 1 + M + 1 + H * M + jrun * H * M  # c2a, c2b, c2d_pick, c2d_workers, link
        nnz += nz_j + (M * H + nz_j) + (H + nq) + H * M * (2 + nq)
        nnz += H * M * (2 * jrun + covered)
        if ps:
            v = [sum(n for n, c in zip(starts, cfg[j]) if c.p == p) for p in range(P)]
            nvars += H * P + jrun * H * P + H  # s, S, sigma
            nrows += 3 * H * P + P + H + jrun * H * P  # c2c, c2d_ps, c2i_mark; c2e; c2i_bw; link
            nnz += H * sum(1 + vp for vp in v) + sum(H + vp for vp in v)
            nnz += H * P * (2 + nq) + 2 * H * P + H * ((H - 1) * M + P + 1)
            nnz += H * P * (2 * jrun + covered)
    # capacity rows (server, resource, running slot), over the jobs running then
    for r in range(R):
        kinds = int((data.e[:, r] > 0).sum()) + (int((data.z[:, r] > 0).sum()) if ps else 0)
        if kinds:
            nrows += H * union_len(spans)
            nnz += H * kinds * sum(hi - lo + 1 for lo, hi in spans)
    return ModelSize("hetero_wct_milp", nvars, nrows, nnz)


def estimate_placement_ti(workload: Workload, **options) -> ModelSize:
    """:func:`build_placement_ti`'s counts without Pyomo: the same placements (symmetry-
    restricted job included), starts and capacity rows, the rows that can never bind omitted
    by the builder's own rule."""
    from collections import defaultdict

    import numpy as np

    from mlopt.models.hetero.placement_ti import binds, columns

    data = hetero_data(workload)
    J, pls, cmax, firsts, _ = columns(data)
    count: dict[tuple, int] = defaultdict(int)  # (h, r, tau) -> terms
    most: dict[tuple, dict[int, float]] = defaultdict(dict)  # (h, r, tau) -> job -> max coef
    nvars = 0
    for j in J:
        first = firsts[j]
        for l, d in enumerate(pls[j].d.tolist()):
            d = int(d)
            n_starts = max(0, cmax[j] - d - first + 1)
            if not n_starts:
                continue
            nvars += n_starts
            use = pls[j].use[l]
            for h, r in zip(*np.nonzero(use > 0)):
                coef = float(use[h, r])
                # starts t in [first, cmax - d]; slot tau is covered by the starts in
                # [tau - d + 1, tau] among them
                for tau in range(first, cmax[j]):
                    k = min(tau, cmax[j] - d) - max(first, tau - d + 1) + 1
                    if k <= 0:
                        continue
                    key = (int(h), int(r), tau)
                    count[key] += k
                    prev = most[key].get(j, 0.0)
                    most[key][j] = max(prev, coef)
    kept = [key for key in count if binds(sum(most[key].values()),
                                          float(data.cap[key[0], key[1]]))]
    return ModelSize("hetero_placement_ti", nvars, len(J) + len(kept),
                     nvars + sum(count[key] for key in kept))


def estimate_placement_clique(workload: Workload, **options) -> ModelSize:
    """:func:`build_placement_clique`'s counts: ``placement_ti``'s plus its clique rows, which
    are enumerated here as the builder does (:func:`clique_rows`, no Pyomo); a model already
    too large for ``placement_ti`` is reported as that (the builder refuses it first)."""
    from mlopt.models.hetero.placement_clique import clique_rows
    from mlopt.models.hetero.placement_ti import columns
    from mlopt.models.hetero.wct_milp import MAX_MODEL_VARS

    base = estimate_placement_ti(workload)
    if base.variables > MAX_MODEL_VARS:
        return ModelSize("hetero_placement_clique", base.variables, base.rows, base.nonzeros)
    data = hetero_data(workload)
    J, pls, cmax, first, _ = columns(data)
    idx = [(j, l, t) for j in J for l, d in enumerate(pls[j].d.tolist())
           for t in range(first[j], cmax[j] - d + 1)]
    rows = clique_rows(data, pls, idx)
    return ModelSize("hetero_placement_clique", base.variables, base.rows + len(rows),
                     base.nonzeros + sum(map(len, rows)))
