"""Primal side of OASiS column generation: restricted-master MIP + local search, alternated.

After the column generation loop (:func:`mlopt.families.oasis.bounds.colgen.colgen_bound`) the
master knows columns priced on the *empty* cluster; the best integer combination of them (the
restricted-master ILP) is often far below the LP, because those schedules collide.  This
phase alternates

0. one dive with re-pricing (:mod:`.diving`) from the last LP, in the first ``dive_share`` of
   the phase: its schedule (and every column it priced) seeds what follows;
1. local search in the residual cluster (:mod:`.local_search`) from the incumbent: each new
   schedule it finds is a column added to the master (re-pricing in the residual cluster);
2. the restricted-master MIP over the columns that matter (near-zero reduced cost at the last
   LP duals, those the LP uses, OASiS's, the incumbent's and every local-search column),
   warm-started from the incumbent (HiGHS ``setSolution``), so it is never worse than it;

until the time is up, ``max_rounds``, or ``MAX_STUCK`` rounds in a row without a gain
(fix-and-resolve: the MIP re-optimizes the whole selection over the enlarged column set; a
round where neither side moves doubles the local search's largest ruin, and once that reaches
the selection's size it restarts at 3 on a fresh random stream).  The start is the best of
OASiS's own schedule, the greedy rounding of the last LP and the caller's incumbent.  Every
schedule handed out goes through ``consider`` (the caller's checker); the incumbent here is
only ever replaced by a strictly better one.

DECISION (budget split, not in the paper): the dive gets at most ``dive_share`` (25%) of the
phase, then the first local search 20% of what is left, each MIP at most 40% of what is left
(at least 1 s), each later local search at most 20%.
"""
from __future__ import annotations

import time
from typing import Any, Callable

import numpy as np

from mlopt.families.oasis.primal.diving import dive
from mlopt.families.oasis.primal.local_search import GAIN_RTOL, LocalSearch, Packing
from mlopt.models.oasis.master import Column, schedule_from_columns
from mlopt.workload import Workload

PRODUCER = "mlopt.families.oasis.primal.price_and_branch"
#: rounds in a row without any gain after which the phase stops (time may be left)
MAX_STUCK = 8


def _selection(master, packing: Packing) -> np.ndarray:
    """0/1 vector over the master's columns selecting ``packing``'s columns (added if new)."""
    for col in packing.chosen.values():
        master.add(col)  # False (no-op) when the schedule is already a column
    index = {c.key: n for n, c in enumerate(master.columns)}
    x = np.zeros(len(master.columns))
    for col in packing.chosen.values():
        x[index[col.key]] = 1.0
    return x


def _packing(workload: Workload, master, x: np.ndarray) -> Packing:
    return Packing.from_columns(workload, [c for c, v in zip(master.columns, x) if v > 0.5])


def pad0(v: np.ndarray, n: int) -> np.ndarray:
    """``v`` padded with zeros to length ``n`` (columns added since it was made)."""
    return np.pad(np.asarray(v, dtype=float), (0, n - len(v)))


def master_primal(workload: Workload, master, last_lp: dict[str, Any] | None, *,
                  time_limit: float, consider: Callable[[Any, str], Any],
                  incumbent: np.ndarray | None = None, incumbent_source: str = "given",
                  rc_keep: float = 1e-6, local_search: bool = True, seed: int = 0,
                  max_rounds: int = 50, dive_share: float = 0.25) -> dict[str, Any]:
    """Run the phase on ``master`` (a :class:`~mlopt.families.oasis.bounds.colgen.MasterLP`);
    returns a JSON-able log.  ``consider(schedule, source)`` checks and keeps a schedule."""
    start = time.perf_counter()
    deadline = start + max(0.0, time_limit)
    util = lambda: np.array([c.utility for c in master.columns])  # noqa: E731
    x_lp = None if last_lp is None else last_lp["x"]
    is_oasis = np.array([c.source == "oasis" for c in master.columns])
    rounded = master.round_greedy(x_lp)
    inc, src = (rounded, "lp_rounding") if util() @ rounded >= util() @ is_oasis \
        else (is_oasis.astype(float), "oasis")
    if incumbent is not None and util() @ incumbent > util() @ inc:
        inc, src = np.asarray(incumbent, dtype=float), incumbent_source
    log: dict[str, Any] = {"start_objective": float(util() @ inc), "start_source": src,
                           "rounds": []}
    # columns the MIP may use: near-zero reduced cost at the last LP duals, the LP's support,
    # OASiS's; grown by every local-search column and incumbent
    keep = np.ones(len(master.columns), dtype=bool)
    if last_lp is not None:
        rc = master.reduced_costs(last_lp)
        x_full = np.zeros(len(keep))
        x_full[:len(x_lp)] = x_lp
        keep = (rc >= -rc_keep * np.maximum(1.0, util())) | (x_full > 1e-9) | is_oasis
    ls = None
    if local_search or dive_share > 0:
        gw = None if last_lp is None else last_lp["p"]
        gp = None if last_lp is None else last_lp["q"]
        ls = LocalSearch(workload, gw, gp, seed=seed)
    if dive_share > 0 and last_lp is not None:
        pk, info = dive(master, ls, time_limit=dive_share * (deadline - time.perf_counter()))
        for col in ls.found:  # the completion's columns (the dive's own are in already)
            master.add(col)
        ls.found.clear()
        log["dive"] = info
        now = float(util() @ pad0(inc, len(master.columns)))
        if pk.utility > now + GAIN_RTOL * max(1.0, now):  # never below the incumbent
            inc = _selection(master, pk)
            consider(schedule_from_columns(workload, master.columns, inc > 0.5,
                                           {"producer": f"{PRODUCER}.dive"}), "dive")
    if not local_search:
        ls = None

    def grow(mask: np.ndarray) -> np.ndarray:
        out = np.zeros(len(master.columns), dtype=bool)
        out[:len(mask)] = mask
        out[len(mask):] = True  # columns added since: local search / incumbents
        return out

    def pad(v: np.ndarray) -> np.ndarray:
        return pad0(v, len(master.columns))

    best_val = float(util() @ pad(inc))
    stuck = 0  # rounds in a row in which neither side moved
    share_ls = 0.2
    for rnd in range(max_rounds):
        entry: dict[str, Any] = {"round": rnd + 1}
        if ls is not None:
            left = deadline - time.perf_counter()
            if left <= 0.05:
                break
            pk, info = ls.improve(_packing(workload, master, pad(inc)), share_ls * left)
            n0 = len(master.columns)
            for col in ls.found:
                master.add(col)
            ls.found.clear()
            entry["local_search"] = {**info, "new_columns": len(master.columns) - n0}
            if pk.utility > best_val + GAIN_RTOL * max(1.0, best_val):
                inc = _selection(master, pk)
                best_val = float(util() @ inc)
                consider(schedule_from_columns(workload, master.columns, inc > 0.5,
                                               {"producer": f"{PRODUCER}.local_search"}),
                         "local_search")
        left = deadline - time.perf_counter()
        if left <= 0.5:
            log["rounds"].append(entry)
            break
        inc = pad(inc)
        keep = grow(keep) | (inc > 0.5)
        res = master.solve_ilp(min(left, max(1.0, 0.4 * left)) if ls is not None else left,
                               warm_start=inc, keep=keep)
        entry["mip"] = {k: res[k] for k in ("status", "objective", "bound", "columns",
                                            "seconds")}
        improved = False
        if res["x"] is not None and res["objective"] > best_val + GAIN_RTOL * max(1.0, best_val):
            inc, best_val, improved = res["x"], float(res["objective"]), True
            consider(schedule_from_columns(workload, master.columns, inc > 0.5,
                                           {"producer": f"{PRODUCER}.restricted_master",
                                            "objective": best_val}), "restricted_master")
        ls_gain = entry.get("local_search", {})
        log["rounds"].append(entry)
        if ls is None:
            break
        moved = improved or ls_gain.get("end", 0.0) > ls_gain.get("start", 0.0)
        stuck = 0 if moved else stuck + 1
        if stuck >= MAX_STUCK:
            break
        if not moved and res["status"] == "optimal":
            # neither side moves: the restricted MIP is optimal and the search is stuck;
            # larger ruins while some are possible, then small ones on a fresh random stream
            if ls.ruin_max >= len(_packing(workload, master, pad(inc)).chosen):
                ls.ruin_max = 3
                ls.rng = np.random.default_rng([seed, rnd])
            else:
                ls.ruin_max = 2 * ls.ruin_max
            entry["ruin_max"] = ls.ruin_max
    log["objective"] = best_val
    log["seconds"] = time.perf_counter() - start
    return log
