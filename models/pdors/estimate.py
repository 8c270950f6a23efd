"""Size of the DMLRS MILP before it is built (:class:`mlopt.modelsize.ModelSize`).

Counts the variables, rows and nonzeros of :func:`build_dmlrs_milp` row family by row family
from the machines each job's worker / PS fits on (:func:`copies`, as the builder) and slot
ranges summed arithmetically.  Exact for the model as built (the tests compare with
:func:`mlopt.modelsize.measure`)."""
from __future__ import annotations

import math

import numpy as np

from mlopt.families.pdors.fields import EPS, copies, pdors_arrays
from mlopt.modelsize import ModelSize
from mlopt.workload import Workload


def _suffix_terms(a: int, first: int, T: int) -> int:
    """sum over t = a..T of the completion indicators e[t'] with t' >= max(t, first)."""
    return sum(T - max(t, first) + 1 for t in range(a, T + 1) if max(t, first) <= T)


def estimate_dmlrs_milp(workload: Workload, **options) -> ModelSize:
    """Return the exact size of the DMLRS MILP without building it."""
    arr = pdors_arrays(workload)
    T = workload.horizon
    wfit = copies(arr.cap, arr.alpha) >= 1  # I x H
    sfit = copies(arr.cap, arr.beta) >= 1
    nvars = nrows = nnz = 0
    earliest: dict[tuple[int, int], int] = {}  # (machine, resource) -> first slot of a row
    for i in range(len(workload.jobs)):
        a, F = int(arr.arrival[i]), int(arr.batch[i])
        first = a + max(1, math.ceil(arr.n_int[i] / F - EPS)) - 1
        span, nE = T - a + 1, max(0, T - first + 1)
        hw, hs = np.flatnonzero(wfit[i]), np.flatnonzero(sfit[i])
        nw, ns, both = len(hw), len(hs), int(np.sum(wfit[i] & sfit[i]))
        W = nw * span
        nvars += 1 + nE + 3 * W + ns * span  # x, e, w z om, s
        nrows += 2 + nE  # c_one_completion, c3_work, c6
        nnz += nE + 1 + (2 * W + 1 if W else 1) + nE * (nw + 1)
        if nw or ns:  # the job's slots: c4, two ratio rows (fact1_one_machine below)
            nrows += 3 * span
            nnz += span * nw + _suffix_terms(a, first, T) + 2 * span * (nw + ns)
        if nw:
            nrows += span  # fact1_one_machine
            nnz += W
        # per w cell: fact1_alone_on_h (when the job has another machine), ps_on_h, two credit rows
        for fits_s in (True, False):
            cells = (both if fits_s else nw - both) * span
            others = nw - 1 + ns - (1 if fits_s else 0)
            nrows += cells * (3 + (others > 0))
            nnz += cells * ((others + 1 if others > 0 else 0) + (2 if fits_s else 1) + 4)
        ra, rb = np.flatnonzero(arr.alpha[i] > 0), np.flatnonzero(arr.beta[i] > 0)
        nnz += W * len(ra) + ns * span * len(rb)  # c5 capacity
        for h, rs in [(h, ra) for h in hw] + [(h, rb) for h in hs]:
            for r in rs:
                earliest[h, r] = min(earliest.get((h, r), T + 1), a)
    nrows += sum(T - a + 1 for a in earliest.values())
    return ModelSize("pdors_dmlrs_milp", nvars, nrows, nnz)
