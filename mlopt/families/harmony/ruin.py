"""Ruin and recreate: ``local_search``'s perturbation that leaves the insertion start's basin.

A *kick* (:func:`mlopt.families.harmony.local_search._kick`) moves a few random jobs to random
(start, placement) pairs and climbs again; at ``uniform`` (Fig. 8 scale) 115 kicks in 300 s
found nothing past the insertion start's climb (benchmarks/harmony/frontier.md): a random
move of a job is almost always undone by the climb.  Ruin and recreate instead

* *ruins* ``size`` **related** jobs: a random seed job and the jobs whose runs overlap its run
  the longest (the ones competing with it for servers in the same intervals; ties broken at
  random, random jobs when too few overlap), taken out of the schedule;
* *recreates* them one by one, each at its **best insertion** given all the others
  (:func:`best_insert`: the start and placement, room-fitted or compact, that least raise the
  replayed total with every placed job's slowdown included), in arrival order or in a random
  order (a fair coin per round), so the freed room is re-packed as a whole.

The result is then climbed (one-job moves) and kept by local_search only when it beats the best
total so far.  When a recreated job fits nowhere the schedule is restored (the round is spent).

DECISIONS (the paper has no offline search; mlopt's): relatedness is overlap of the run
intervals [start, completion] in the current schedule, not shared servers (a job waiting for
room overlaps the jobs that hold it, whichever servers it ends up on); best insertion tries
starts from the arrival while a later start still wins, up to ``horizon`` intervals past the
arrival and at least one past the job's start before the ruin (:func:`best_insert`), the rule
of :func:`~mlopt.families.harmony.local_search.insertion`.
"""
from __future__ import annotations

import numpy as np


def best_insert(rp, s, x, n, cands, last: int) -> tuple[float, int, np.ndarray] | None:
    """(total, start, placement) of job n's cheapest insertion into (s, x), n not placed there
    (s[n] > T), trying starts from its arrival up to ``last`` while a later start still wins;
    None when it fits nowhere.  s and x are left as given."""
    best = None
    rp.set_base(s, x)
    for t in range(int(rp.jobs.arrival[n]), min(last, rp.T) + 1):
        for place in rp.fitted(s, x, n, t) + cands[n]:
            s[n], x[:, n] = t, place
            val = rp.total(s, x, n)
            if np.isfinite(val) and (best is None or val < best[0] - 1e-9):
                best = (val, t, place)
        s[n], x[:, n] = rp.T + 1, 0
        if best is not None and best[1] < t:  # a later start than the best so far rarely wins
            break
    return best


def related(rp, s, x, rng, size: int) -> np.ndarray:
    """A random seed job and the ``size - 1`` jobs whose runs overlap its run the longest (the
    replay's completions of (s, x)); random others when fewer overlap."""
    n_jobs = len(s)
    size = min(size, n_jobs)
    rp.total(s, x)  # completions of the current schedule in rp.done
    end = rp.done
    seed = int(rng.integers(n_jobs))
    overlap = np.minimum(end, end[seed]) - np.maximum(s, s[seed]) + 1
    overlap[seed] = -1
    noise = rng.random(n_jobs)  # random tie-break, and the order of the non-overlapping
    order = np.lexsort((noise, -np.maximum(overlap, 0)))
    return np.concatenate(([seed], order[order != seed][:size - 1]))


def ruin_recreate(rp, s, x, cands, rng, size: int, horizon: int = 4) -> bool:
    """Take ``size`` related jobs out of (s, x) and re-insert each at its best insertion (module
    docstring); s and x are changed in place.  When a job fits nowhere (the room freed at its
    starts is taken by jobs re-inserted before it) (s, x) is restored and False returned."""
    out = related(rp, s, x, rng, size)
    before, saved = s[out].copy(), x[:, out].copy()
    s[out], x[:, out] = rp.T + 1, 0
    arrival = rp.jobs.arrival[out]
    order = np.argsort(arrival, kind="stable") if rng.random() < 0.5 else rng.permutation(len(out))
    for i in order:
        n = int(out[i])
        best = best_insert(rp, s, x, n, cands,
                           max(int(arrival[i]) + horizon, int(before[i]) + 1))
        if best is None:
            s[out], x[:, out] = before, saved
            return False
        s[n], x[:, n] = best[1], best[2]
    return True
