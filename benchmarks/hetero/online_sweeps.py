"""A_online figure sweeps of seed 003 (Sec. 7.1) at 2-core scale, PS and Ring-AllReduce:

* ``servers`` (Fig. 3 / 6): WCT of A_online and the baselines vs the number of servers H, the
  same jobs on clusters of H servers whose total GPUs equal those of a reference cluster
  (``--capacity fixed``, the paper's reading) or drawn as they are (``--capacity grow``);
* ``F`` (Fig. 4): WCT of A_online vs F (A1's bound, lambda = 2 T H R F + 1), as multiples of
  the instance's default F;
* ``types`` (Fig. 9): A_online with every job on one fixed worker type vs its free choice;
* ``workers`` (Fig. 10): A_online with exactly min(k, D_j) workers per job vs its free choice;
* ``twin`` (RA vs PS): every algorithm on a PS instance and on its Ring-AllReduce twin (the
  same jobs and cluster, _sweep.ra_twin), so the two architectures are compared on equal jobs.

Every row is the checker's WCT with the certified lower bound of the instance (ratio WCT / LB;
restricted runs are compared with the unrestricted instance's bound, still below their optimum).

    python benchmarks/hetero/online_sweeps.py servers -o benchmarks/hetero/data/wct_vs_servers.csv
    python benchmarks/hetero/online_sweeps.py F -o benchmarks/hetero/data/wct_vs_F.csv
    python benchmarks/hetero/online_sweeps.py types -o benchmarks/hetero/data/fixed_worker_types.csv
    python benchmarks/hetero/online_sweeps.py workers -o benchmarks/hetero/data/workers.csv
    python benchmarks/hetero/online_sweeps.py twin --jobs 10 --seeds 0 1 2 \
        -o benchmarks/hetero/data/ps_vs_ra.csv

Rows are appended as they finish; re-running the same command resumes (see _sweep.py).
"""
from __future__ import annotations

import argparse

from _sweep import ALGS, Rows, bench, gpus, ra_twin, run, with_cluster

from mlopt.families.hetero.bounds import lower_bound
from mlopt.families.hetero.fields import hetero_data
from mlopt.families.hetero.maxweight import default_F, lam_of

COMMON = ["arch", "jobs", "servers", "seed", "algorithm"]
TAIL = ["feasible", "wct", "lower_bound", "ratio_to_lb", "seconds", "note"]


def _row(key: dict, lb: float, res: dict) -> dict:
    ratio = round(res["wct"] / lb, 4) if res["wct"] != "" else ""
    return {**key, **res, "lower_bound": round(lb, 1), "ratio_to_lb": ratio}


def sweep_servers(a):
    rows = Rows(a.out, ["capacity", *COMMON, "capacity_scale", *TAIL],
                ["capacity", *COMMON])
    for arch in a.arch:
        for seed in a.seeds:
            ref = bench(arch, seed, a.jobs, a.ref_servers)
            total = gpus(ref) if a.capacity == "fixed" else None
            for H in a.servers:
                w = with_cluster(ref, arch, seed, H, total)
                lb = None
                for label in a.algs:
                    key = {"capacity": a.capacity, "arch": arch, "jobs": a.jobs, "servers": H,
                           "seed": seed, "algorithm": label}
                    if rows.done(**key):
                        continue
                    lb = lb or lower_bound(w)["bound"]
                    key["capacity_scale"] = round(w.meta["cluster"]["capacity_scale"], 4)
                    rows.add(_row(key, lb, run(w, label)))


def sweep_F(a):
    rows = Rows(a.out, [*COMMON, "factor", "F", "lambda", *TAIL], [*COMMON, "factor"])
    for arch in a.arch:
        for seed in a.seeds:
            w = bench(arch, seed, a.jobs, a.ref_servers)
            data = hetero_data(w)
            F0 = default_F(data)
            lb = lower_bound(w)["bound"]
            for factor in a.factors:
                for label in a.online:
                    key = {"arch": arch, "jobs": a.jobs, "servers": a.ref_servers, "seed": seed,
                           "algorithm": label, "factor": factor}
                    if rows.done(**key):
                        continue
                    F = F0 * factor
                    key.update(F=round(F, 6), **{"lambda": round(lam_of(data, F), 3)})
                    rows.add(_row(key, lb, run(w, label, F=F)))


def _restricted(a, what: str, values_of):
    rows = Rows(a.out, [*COMMON, what, "worker_gpus", *TAIL], [*COMMON, what])
    for arch in a.arch:
        for seed in a.seeds:
            w = bench(arch, seed, a.jobs, a.ref_servers)
            data = hetero_data(w)
            lb = lower_bound(w)["bound"]
            for value, opts, gpu in values_of(data):
                for label in a.online:
                    key = {"arch": arch, "jobs": a.jobs, "servers": a.ref_servers, "seed": seed,
                           "algorithm": label, what: value}
                    if rows.done(**key):
                        continue
                    key["worker_gpus"] = gpu
                    rows.add(_row(key, lb, run(w, label, **opts)))


def sweep_types(a):
    def values(data):
        yield "all", {}, ""  # A_online's own choice (no restriction)
        for m, t in enumerate(data.wtype_ids):
            yield t, {"worker_types": [t]}, int(data.e[m, data.resources.index("gpu")])
    _restricted(a, "worker_type", values)


def sweep_workers(a):
    def values(data):
        yield "all", {}, ""
        for k in a.counts:
            yield k, {"workers": k}, ""
    _restricted(a, "workers", values)


def sweep_twin(a):
    rows = Rows(a.out, [*COMMON, *TAIL], COMMON)
    for seed in a.seeds:
        ps = bench("ps", seed, a.jobs, a.ref_servers)
        for arch, w in (("ps", ps), ("ra", ra_twin(ps))):
            lb = None
            for label in a.algs:
                key = {"arch": arch, "jobs": a.jobs, "servers": a.ref_servers, "seed": seed,
                       "algorithm": label}
                if rows.done(**key):
                    continue
                lb = lb or lower_bound(w)["bound"]
                rows.add(_row(key, lb, run(w, label)))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("sweep", choices=["servers", "F", "types", "workers", "twin"])
    ap.add_argument("--arch", nargs="+", default=["ps", "ra"])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1])
    ap.add_argument("--jobs", type=int, default=20)
    ap.add_argument("--ref-servers", type=int, default=20,
                    help="cluster size of the F / types / workers sweeps, and the reference "
                         "cluster whose GPU total the servers sweep keeps")
    ap.add_argument("--servers", type=int, nargs="+", default=[10, 20, 30, 40])
    ap.add_argument("--capacity", choices=["fixed", "grow"], default="fixed")
    ap.add_argument("--algs", nargs="+", default=list(ALGS), choices=list(ALGS))
    ap.add_argument("--online", nargs="+", default=["a_online", "a_online-compact"],
                    choices=["a_online", "a_online-compact"])
    ap.add_argument("--factors", type=float, nargs="+", default=[0.001, 0.01, 0.1, 1, 10, 100])
    ap.add_argument("--counts", type=int, nargs="+", default=[1, 2, 4, 8, 16, 32])
    ap.add_argument("-o", "--out", required=True)
    a = ap.parse_args(argv)
    {"servers": sweep_servers, "F": sweep_F, "types": sweep_types,
     "workers": sweep_workers, "twin": sweep_twin}[a.sweep](a)


if __name__ == "__main__":
    main()
