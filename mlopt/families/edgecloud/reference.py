"""A plain transliteration of A_greedy (Alg. 2-4) for tests: slot-by-slot plans, no cleverness.

Each edge worker's plan is a dict slot -> (job, chunk), i.e. the y_jdsw(t) = 1 entries.
CALCULATEQ scans the plan, UPDATEVARIABLES moves every entry at t >= t* to t + p (Alg. 4 lines
3-7 applied to all A2 chunks at once) and writes the new chunk into [t*, t* + p).

``printed_order=True`` follows Alg. 2 as printed (recompute the chosen worker's Q at line 21
*before* the insertion at line 24): it shows the ordering bug (every chunk of a job lands on
one worker).  The default applies the fixes documented in :mod:`.online`; the fast A_greedy must
produce exactly the same plans (tested on random instances).
"""
from __future__ import annotations

from mlopt.workload import Workload

from mlopt.families.edgecloud.fields import EdgeCloud


def a_greedy_reference(workload: Workload, *, eps: float = 0.0, use_cloud: bool = True,
                       printed_order: bool = False) -> dict:
    """(job id, chunk) -> (server, worker name, tuple of slots); plus ``"alpha"`` per chunk."""
    ec = EdgeCloud(workload, speed=1.0 + eps)
    plan = [dict() for _ in ec.workers]  # worker -> {slot: (job index, chunk)}
    gamma = {jv.index: 1.0 / (jv.chunks * jv.p_edge) for jv in ec.jobs}
    out, alpha = {}, {}

    def calc(jv, w):
        delta = jv.delay[ec.workers[w].server]
        t0 = jv.arrival + delta
        pending: dict = {}
        last: dict = {}
        for t, key in plan[w].items():
            last[key] = max(last.get(key, 0), t)
        for t, key in plan[w].items():
            if last[key] >= t0:  # uncompleted at t0
                pending.setdefault(key, 0)
                if t >= t0:
                    pending[key] += 1
        t_star = t0
        wait = hurt = 0.0
        for key, remaining in pending.items():
            if gamma[key[0]] >= gamma[jv.index]:
                wait += remaining
                t_star = max(t_star, last[key] + 1)
            else:
                hurt += 1.0 / ec.jobs[key[0]].chunks
        p = jv.p_edge
        return (delta / jv.chunks + wait / jv.chunks + p / jv.chunks + p * hurt, t_star, 0, w)

    def cloud_q(jv, zeta):
        delta = jv.delay[ec.cloud]
        return ((delta + (jv.p_cloud if zeta else jv.p_edge)) / jv.chunks,
                jv.arrival + delta, 1, -1)

    def update(jv, d, w, t_star):
        p = jv.p_edge
        moved = {(t + p if t >= t_star else t): key for t, key in plan[w].items()}
        for t in range(t_star, t_star + p):
            moved[t] = (jv.index, d)
        plan[w].clear()
        plan[w].update(moved)

    def fits(jv, w):  # storage extension: room on w's server at r_j (see online.Greedy.fits)
        server = ec.workers[w].server
        if server not in ec.storage:
            return True
        used = 0.0
        for w2 in ec.workers:
            if w2.server != server:
                continue
            last: dict = {}
            for t, key in plan[w2.index].items():
                last[key] = max(last.get(key, 0), t)
            used += sum(ec.jobs[k[0]].chunk_gb for k, lt in last.items() if lt >= jv.arrival)
        return used + jv.chunk_gb <= ec.storage[server] * (1 + 1e-9) + 1e-9

    for jv in sorted(ec.jobs, key=lambda jv: (jv.arrival, jv.index)):
        entries = {w.index: calc(jv, w.index) for w in ec.eligible(jv)}
        cloud = cloud_q(jv, 1) if use_cloud else None
        for d in range(jv.chunks):
            cands = [e for e in entries.values() if fits(jv, e[3])]
            if cloud is None and not cands:
                cloud = cloud_q(jv, int(d == 0))
            best = min(cands + ([cloud] if cloud else []))
            q, t_star, is_cloud, w = best
            if is_cloud:
                zeta = int(d == 0)
                p = jv.p_cloud if zeta else jv.p_edge
                for dd in range(d, jv.chunks):
                    out[(jv.id, dd)] = (ec.cloud, "cloud", tuple(range(t_star, t_star + p)))
                    alpha[(jv.id, dd)] = q
                break
            alpha[(jv.id, d)] = q
            if d == 0 and cloud:
                cloud = cloud_q(jv, 0)
            if printed_order:  # Alg. 2 line 21 before line 24, as printed
                entries[w] = calc(jv, w)
                update(jv, d, w, t_star)
            else:
                update(jv, d, w, t_star)
                entries[w] = calc(jv, w)
    for w, p in enumerate(plan):
        slots: dict = {}
        for t, key in p.items():
            slots.setdefault(key, []).append(t)
        for (j, d), ts in slots.items():
            out[(ec.jobs[j].id, d)] = (ec.workers[w].server, ec.workers[w].name,
                                       tuple(sorted(ts)))
    out["alpha"] = alpha
    return out
