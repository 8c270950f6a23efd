"""Shared pieces of the hetero (seed 003) figure sweeps: resumable CSV rows, instances whose
cluster varies while the jobs stay, and one checked algorithm run.

Rows are appended (and flushed) as they finish; a re-run with the same output skips every row
whose key is already there, so an interrupted sweep resumes where it stopped.
"""
from __future__ import annotations

import csv
import dataclasses
import time
from pathlib import Path

from mlopt import pipeline
from mlopt.errors import InputError
from mlopt.families.hetero.generator import generate
from mlopt.workload import Server, validate

# label -> (algorithm, options); the paper's A_online (alpha = 4), its compact-rounds variant and
# the four baselines of Sec. 7 in their ideal configuration
ALGS = {"a_online": ("a_online", {}), "a_online-compact": ("a_online", {"compact": True}),
        "fifo": ("fifo", {}), "drf": ("drf", {}), "antman": ("antman", {}),
        "tiresias": ("tiresias", {})}


class Rows:
    """Append-only CSV keyed by ``key`` columns; ``done(row)`` says a row is already there."""

    def __init__(self, path: str | Path, fields: list[str], key: list[str]):
        self.path, self.fields, self.key = Path(path), fields, key
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.seen: set[tuple] = set()
        if self.path.exists() and self.path.stat().st_size:
            with open(self.path, newline="") as f:
                rd = csv.DictReader(f)
                if rd.fieldnames != fields:
                    raise SystemExit(f"{self.path}: columns {rd.fieldnames} != {fields}; "
                                     "use another -o or delete the file")
                self.seen = {self._k(r) for r in rd}
        else:
            with open(self.path, "w", newline="") as f:
                csv.DictWriter(f, fieldnames=fields).writeheader()

    def _k(self, row: dict) -> tuple:
        return tuple(str(row[k]) for k in self.key)

    def done(self, **key) -> bool:
        return self._k(key) in self.seen

    def add(self, row: dict) -> None:
        with open(self.path, "a", newline="") as f:
            csv.DictWriter(f, fieldnames=self.fields).writerow(row)
        self.seen.add(self._k(row))
        print(row, flush=True)


def bench(arch: str, seed: int, jobs: int, servers: int):
    """Preset ``bench`` (PS) or ``bench-ra`` at the given size."""
    return generate("bench" if arch == "ps" else "bench-ra", seed=seed, n_jobs=jobs,
                    n_servers=servers)


def gpus(w) -> float:
    return float(sum(s.capacity["gpu"] for s in w.servers))


def with_cluster(w, arch: str, seed: int, servers: int, total_gpu: float | None):
    """The jobs and worker / PS types of ``w`` on another cluster of ``servers`` machines (drawn
    from the same EC2 shapes with ``seed``); ``total_gpu``: scale every capacity so the cluster
    has exactly that many GPUs in total (the paper's Fig. 3 / 6 keep the overall capacity about
    the same while H grows), None: the shapes as they are (capacity grows with H)."""
    c = bench(arch, seed, 0, servers)
    scale = 1.0 if total_gpu is None else total_gpu / gpus(c)
    srv = tuple(Server(s.id, s.role, {r: v * scale for r, v in s.capacity.items()}, kind=s.kind)
                for s in c.servers)
    meta = dict(w.meta, cluster={"servers": servers, "seed": seed, "capacity_scale": scale})
    return validate(dataclasses.replace(w, name=f"{w.name}-H{servers}", servers=srv, meta=meta))


def ra_twin(w):
    """The Ring-AllReduce twin of a PS workload: the same cluster, worker types and jobs (the
    generator's RA presets draw different jobs, since they draw no PS types); each job's ring
    reduce time U_j is the mean of its PS update times U_j^p (the paper draws both from the same
    range), and the PS types are dropped."""
    spec = dict(w.extra["hetero"], architecture="ra", ps_types=[])
    jobs = tuple(dataclasses.replace(j, extra={
        **{k: v for k, v in j.extra.items() if k != "ps_update_ms"},
        "ra_update_ms": float(f"{sum(j.extra['ps_update_ms']) / len(j.extra['ps_update_ms']):.6g}")})
        for j in w.jobs)
    return validate(dataclasses.replace(w, name=f"{w.name}-ra-twin", jobs=jobs,
                                        extra={**w.extra, "hetero": spec}))


def run(w, label: str, **extra) -> dict:
    """One checked run: feasible, the checker's WCT, wall seconds; or the input error's text
    when the options do not fit the instance (e.g. a worker type too big for every server)."""
    name, opts = ALGS[label] if label in ALGS else (label, {})
    t0 = time.perf_counter()
    try:
        r = pipeline.run_algorithm(w, name, family="hetero", **opts, **extra)
    except InputError as e:
        return {"feasible": False, "wct": "", "seconds": round(time.perf_counter() - t0, 2),
                "note": str(e)[:120]}
    return {"feasible": r.check.feasible, "wct": round(r.check.objective, 1),
            "seconds": round(time.perf_counter() - t0, 2), "note": ""}
