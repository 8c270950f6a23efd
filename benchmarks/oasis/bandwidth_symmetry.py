"""Which servers of an OASiS instance are interchangeable (issue 22, sixth round).

Two servers of one instance type are interchangeable in every schedule when their NIC bandwidth
never binds: if the most bandwidth any load fitting the server's other capacities can use
(every job's workers, or PSs, counted with no cap but the resources, at the checker's
tolerance) is at most the server's own bandwidth, the server's feasible loads are those of
its type, whatever its bandwidth.  Then symmetry-breaking rows among those servers are valid;
among the others they are not (a load one server takes may not fit another).

Prints, per (role, type): that largest bandwidth load (a HiGHS MIP, one per type; it is an
upper limit on the real one, since no job's count cap N_i is applied), the servers' bandwidths and
how many of them it never binds on.

    python benchmarks/oasis/bandwidth_symmetry.py --instance oasis-open-1
"""
from __future__ import annotations

import argparse
from collections import defaultdict

import highspy
import numpy as np

from mlopt.families.oasis.checker import CAP_ATOL, CAP_RTOL
from mlopt.instances import load_instance
from mlopt.solvers.quiet_highs import quiet_highs, run_highs

BW = "bandwidth_gbps"


def most_bandwidth(workload, server, demand: str) -> float:
    """max sum_i n_i d_i^bw over integer n >= 0 with sum_i n_i d_i^r <= c^r (1 + rtol) + atol
    for every other resource r: the solver's dual bound (>= the optimum)."""
    dem = [getattr(j, demand) for j in workload.jobs]
    n = len(dem)
    h = quiet_highs()
    inf = highspy.kHighsInf
    idx = np.arange(n, dtype=np.int32)
    for _ in range(n):
        h.addVar(0.0, inf)
    h.changeColsIntegrality(n, idx, np.array([highspy.HighsVarType.kInteger] * n))
    h.changeColsCost(n, idx, np.array([d.get(BW, 0.0) for d in dem], dtype=float))
    h.changeObjectiveSense(highspy.ObjSense.kMaximize)
    for r in workload.resources:
        if r == BW:
            continue
        h.addRow(-inf, server.capacity[r] * (1 + CAP_RTOL) + CAP_ATOL, n, idx,
                 np.array([d.get(r, 0.0) for d in dem], dtype=float))
    run_highs(h)
    return float(h.getInfo().mip_dual_bound)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--instance", default="oasis-open-1")
    args = ap.parse_args(argv)
    wl = load_instance(args.instance)
    types = defaultdict(list)
    for s in wl.servers:
        types[(s.role, s.kind)].append(s)
    for (role, kind), ss in types.items():
        most = most_bandwidth(wl, ss[0], "worker_demand" if role == "worker" else "ps_demand")
        bws = sorted(s.capacity[BW] for s in ss)
        free = sum(b >= most for b in bws)
        print(f"| {role} | {kind} | {len(ss)} | {most:.2f} | {min(bws):.2f}-{max(bws):.2f} "
              f"| {free} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
