"""``placement_ti`` with per-slot clique rows: the same columns, once rows, capacity rows and
objective (:mod:`mlopt.models.hetero.placement_ti`), plus

  clique    sum_{(j,l,t) in K, t <= tau < t + d_l} x_jlt <= 1     (per clique K of placement
            patterns and slot tau)

WHY: the capacity rows are knapsacks per (server, resource, slot); their LP relaxation lets two
columns that can never run together share a slot at fractions (on `small`'s cluster one PS uses
more than half of a server's bandwidth and a w1 worker all of its GPUs, yet the LP ran 1.4
columns of such placements at once).  Measured on the 15-job `small` instance, seed 0
(benchmarks/hetero/frontier.md): LP 461,835 -> 573,872 against the best schedule 584,948.

PATTERNS: a placement's per-server use (H x R) does not depend on the job, so columns are
grouped by it.  Two patterns *conflict* when together they exceed some server's resource by more
than the checker's tolerance and a float margin (use_a[h, r] + use_b[h, r] > C_h^r (1 + TOL) +
TOL, plus :data:`FLOAT_MARGIN` of it,
:data:`mlopt.families.hetero.checker.TOL`); a pattern conflicting with itself cannot run twice
at once.  A clique is a set of self-conflicting, pairwise conflicting patterns.

VALIDITY (every schedule the checker accepts satisfies every clique row, so OPT is kept):
in slot tau the columns running are of distinct jobs (each job runs one column: its once row)
and together load every (h, r) within the checker's capacity; two columns of one clique's
patterns, of distinct jobs, would overload one (h, r) beyond it, so at most one runs.  Edge
cases: zero use on a server or resource adds nothing to a sum, so the conflict test is per
(h, r) with both uses counted as they are (unequal servers are distinct coordinates of the
pattern and never pooled); two columns of the *same* job in one row are excluded by its once
row already; arrivals only decide which columns exist, not which rows are valid.  The rows are
implied by the capacity rows for binary x (a conflicting pair overloads C_h^r, so that capacity
row exists and forbids it: :func:`.placement_ti.binds` keeps it), so the integer optimum is
``placement_ti``'s; only the LP relaxation tightens.  Tests: equality with ``placement_ti`` /
``wct_milp`` on random instances with widened generator parameters
(tests/hetero/test_hetero_placement_clique.py).

SIZE: maximal cliques are enumerated (networkx's Bron-Kerbosch) up to :data:`MAX_CLIQUES`, over
at most :data:`MAX_PATTERNS` patterns, and cliques stop being added past
:data:`MAX_CLIQUE_NONZEROS`; any clique gives a valid row, so stopping early only weakens the
relaxation (the size estimate runs the same enumeration).  A row is kept only when
at least two jobs have columns in it (otherwise the once row implies it); rows with the same
columns are kept once.
"""
from __future__ import annotations

from collections import defaultdict

import networkx as nx
import numpy as np
import pyomo.environ as pyo

from mlopt.families.hetero.checker import TOL
from mlopt.families.hetero.fields import hetero_data
# extract_schedule / encode: the same columns, read back and warm-started as placement_ti's
from mlopt.models.hetero.placement_ti import (build_placement_ti, encode,  # noqa: F401
                                              extract_schedule)
from mlopt.workload import Workload

#: maximal cliques enumerated at most (each adds one row per slot it covers)
MAX_CLIQUES = 200
#: self-conflicting patterns in the conflict graph at most (its edges are tested pairwise)
MAX_PATTERNS = 2000
#: clique-row nonzeros at most; cliques beyond it are not added (the rows stay valid, fewer)
MAX_CLIQUE_NONZEROS = 2_000_000
#: relative and absolute margin above the checker's limit before two uses conflict (far above
#: the rounding of a server's summed rows, far below any data's precision)
FLOAT_MARGIN = 1e-12


def patterns(pls: dict) -> tuple[list[np.ndarray], dict]:
    """The distinct per-server uses of all jobs' placements, and (job, placement) -> pattern."""
    index: dict[bytes, int] = {}
    uses: list[np.ndarray] = []
    of = {}
    for j, pl in pls.items():
        for l in range(len(pl)):
            key = np.ascontiguousarray(pl.use[l]).tobytes()
            if key not in index:
                index[key] = len(uses)
                uses.append(pl.use[l])
            of[j, l] = index[key]
    return uses, of


def cliques(uses: list[np.ndarray], cap: np.ndarray, limit: int = MAX_CLIQUES) -> list[list[int]]:
    """Maximal cliques (at most ``limit``) of the conflict graph of self-conflicting patterns
    (module docstring), each sorted; singletons only for patterns conflicting with no other.
    Beyond :data:`MAX_PATTERNS` self-conflicting patterns only the first ones are used (a
    clique of a subgraph is still a clique: the rows stay valid, only fewer)."""
    # the most the checker accepts, plus a float margin: the checker sums a server's rows one
    # by one ((z + e) + z + e), this test whole patterns (2 fl(e + z)); the two can land a few
    # ulps apart on opposite sides of the limit, and the review found data where that made a
    # pair the checker accepts "conflict" (a false optimum 21.5% too high).  A pair within
    # FLOAT_MARGIN of the limit is not declared conflicting: fewer rows, each still valid
    top = (cap * (1 + TOL) + TOL).ravel()
    top = top * (1 + FLOAT_MARGIN) + FLOAT_MARGIN
    flat = np.array([u.ravel() for u in uses]).reshape(len(uses), top.size)  # P x (H R)
    nodes = np.flatnonzero((2 * flat > top).any(axis=1))[:MAX_PATTERNS]
    g = nx.Graph()
    g.add_nodes_from(nodes.tolist())
    for i, a in enumerate(nodes.tolist()):  # one vectorized row of the conflict matrix
        rest = nodes[i + 1:]
        hit = rest[(flat[a][None, :] + flat[rest] > top).any(axis=1)]
        g.add_edges_from((a, int(b)) for b in hit)
    out = []
    for c in nx.find_cliques(g):
        out.append(sorted(c))
        if len(out) >= limit:
            break
    return sorted(out)


def clique_rows(data, pls: dict, idx: list[tuple[int, int, int]]) -> list[list[int]]:
    """The clique rows over the columns ``idx`` ((job, placement, start) triples): each row is
    the sorted list of positions in ``idx`` of the columns it sums (module docstring)."""
    uses, of = patterns(pls)
    running = defaultdict(list)  # (pattern, tau) -> column positions
    for i, (j, l, t) in enumerate(idx):
        for tau in range(t, t + int(pls[j].d[l])):
            running[of[j, l], tau].append(i)
    slots = sorted({tau for (_, tau) in running})
    rows, seen, nnz = [], set(), 0
    for c in cliques(uses, data.cap):
        if nnz > MAX_CLIQUE_NONZEROS:
            break
        for tau in slots:
            cols = sorted(i for p in c for i in running.get((p, tau), ()))
            if len({idx[i][0] for i in cols}) < 2:
                continue
            key = tuple(cols)
            if key not in seen:
                seen.add(key)
                rows.append(cols)
                nnz += len(cols)
    return rows


def build_placement_clique(workload: Workload) -> pyo.ConcreteModel:
    """``placement_ti`` (same columns and rows) plus the clique rows; the same InputErrors."""
    m_ = build_placement_ti(workload)
    data = hetero_data(workload)
    idx = list(m_.X)
    rows = clique_rows(data, m_._hetero["placements"], idx)
    m_.clique = pyo.Constraint(range(len(rows)), rule=lambda m, k: sum(
        m.x[idx[i]] for i in rows[k]) <= 1)
    m_.name = "hetero_placement_clique"
    m_._hetero["model"] = "placement_clique"
    return m_
