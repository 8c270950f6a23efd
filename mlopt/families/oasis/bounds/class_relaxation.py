"""Class-aggregated relaxation of the OASiS utility ILP: servers of one type merged into one.

The symmetry of the cluster: ``paper-default`` draws every server from a handful of EC2
instance types, so the utility ILP (1)-(13) (:mod:`mlopt.models.oasis`) has H + K near-copies
of a few servers, and its branch-and-bound explores equivalent assignments over and over.
Here each class of servers (same role, same instance type; untyped servers by identical
capacities, :func:`~mlopt.families.oasis.bounds.colgen.server_classes`) becomes ONE server
whose capacity is the class's summed capacity, and the same ILP is solved on that smaller
cluster, with one extra valid inequality per (job, class): y_ic(t) <= sum_{h in c} min(N_i,
floor_r(c_h^r / w_i^r)) (z likewise), the most workers (PSs) of the job that fit the class's
servers one by one.

Why it is a relaxation (so its optimum, or the solver's dual bound of it, is >= OPT): any
feasible schedule of the real cluster, with y_ic(t) = sum_{h in c} y_ih(t), is feasible here --
the summed loads fit the summed capacities, (2)(3)(6)(7)(9)-(13) only see per-job totals, the
per-(job, server) bounds add up to the extra inequality, and the earliest completion slot the
linearization of (8) allows can only move earlier (more servers per class).  Its utility is
unchanged.  It is NOT exact: servers of a type differ in NIC bandwidth here (bandwidth binds),
and the merged server ignores how the loads split into bins, so its optimum may exceed OPT;
a schedule of the merged cluster is not a schedule of the real one.  It proves OPT only when
its bound meets a checked schedule (``mlopt bracket``), and is registered as a solver's bound.

DECISION (issue 22, "a symmetry-aware exact MILP with identical servers aggregated"): the
servers of the open instances are never exact copies (each draws its own NIC bandwidth), so
exact aggregation does not apply; measured on oasis-open-1 (50 jobs / T = 50 / H = K = 20,
HiGHS, one thread, loaded machine): this relaxation's bound 793.3 after 150 s and 790.1 after
600 s, against the utility ILP's 798.9 after 300 s and the restricted master's Lagrangian bound
830-842 after 600 s (benchmarks/oasis/frontier.md).

Fourth round (issue 22, "prove oasis-open-1 through the class relaxation"): the bin-packing
rows of :mod:`.packing_cuts` (valid for the real cluster, so the bound stays >= OPT), the
split of every round's incumbent onto the real servers
(:mod:`mlopt.families.oasis.primal.disaggregate`, the primal side), and rounds that cut off
the (slot, class) groups a split could not pack.  OPT is proven when an optimal round splits
without a drop.  Measured on oasis-open-1 (benchmarks/oasis/frontier.md, fourth round): the
rows make the merged model solvable to optimality (783.36), one round of subset rows lowers
it to 783.15, and the splits still drop jobs: not proven in 1300 s at load 9-12.

Seventh round (issue 22, "prove oasis-open-1"): ``cutoff``, a check-and-cut loop above a known
schedule.  The merged model gets one more row, utility >= c, where c lies just above the best
checked schedule v (c = max(cutoff, v + CUTOFF_STEP * max(1, |v|)); CUTOFF_STEP is half of
``mlopt instances solve``'s relative optimality tolerance).  Every round the solver either
returns a merged solution of utility >= c, which is split: if it packs (no drop) it is a
checked schedule better than v, v moves up to its checker value and c with it; if not, the
subset rows of its unpackable groups cut it off -- or the solver says the model is
infeasible.  Validity, case by case:
* infeasible (the MILP solver's word): no merged solution of utility >= c satisfies the valid
  rows, and the image of every real schedule (module docstring above) satisfies them all, so
  OPT < c.  The bound is c.  ``proven`` when the best checked schedule is within the
  relative optimality tolerance of c (1e-6, as ``mlopt instances solve``).
* a round ending with a dual bound b (optimal, or stopped with an incumbent or without): every
  merged solution with utility >= c has utility <= b, the others have utility < c, so
  OPT <= max(b, c).  That, never b alone, is the round's bound.  When it meets the best
  checked schedule within the same relative tolerance (1e-6), ``proven`` is True too (in any
  mode): OPT lies between the two, on the word of the MILP solver's bound.
* a cutoff below OPT (a too-low input, or v below OPT): the image of an optimal schedule keeps
  the model feasible, so "infeasible" cannot happen; the rounds find packable solutions (v
  rises) or end at the time limit with max(b, c) >= OPT.  A cutoff above the merged optimum
  gives "infeasible" at once: the bound is that cutoff, valid, only weaker.
* the solver's feasibility tolerance: an accepted solution may miss a row by ~1e-7, so its
  "infeasible" is a statement about a slightly larger set -- only stronger.  The step
  CUTOFF_STEP * |v| (3.9e-4 at 783) is far above that tolerance, so the image of the best
  schedule itself is not taken as a solution; if a packable split is nevertheless not strictly
  better than v, the loop stops without a proof (it cannot progress).
* zero allocations, late arrivals, unequal servers: the row only involves the objective, and
  the split and its checker judge every schedule (the subset rows' own argument is in
  :mod:`.packing_cuts`).

Eighth round (issue 22, "oasis-open-1 proven through ``mlopt bracket``"): ``confirm``, a second
solver's word on a proof.  A proof above is one MILP solver's word (its "infeasible" or its
dual bound).  When the loop proves, the last round's model (every subset row added) is given
to a second solver with the cutoff row moved to c = v + CONFIRM_STEP * max(1, |v|) (v the best
checked schedule; CONFIRM_STEP just inside the 1e-6 tolerance): a feasibility question.  Its
"infeasible" says, on its own word, that no merged solution satisfying the valid rows reaches
c, so OPT < c: with the checked v, OPT lies in [v, c), within 1e-6 relative.  ``verified_by``
names that solver; anything else (a solution at or above c, a time limit, an error) leaves
``verified_by`` None and is reported in ``confirm``.  Only c changes (the last round's cutoff
row moved, or a new row without one), so the question is about the same valid rows: a
solution above c would contradict the first solver's bound, never the validity argument.  For
the second solve the work rows' running sums are declared integer, which removes no integer
solution (:func:`confirm_infeasible`).

DECISION (SCIP's objective limit, 2026-11-29): SCIP is asked through its objective limit
(``setObjlimit``, the solve layer's ``objlimit`` option) set at v + (CONFIRM_STEP -
OBJLIMIT_MARGIN) |v|, with the cutoff row switched off, instead of the row moved to c: the
same question (a merged solution above the limit: none means OPT below c, the margin covering
SCIP's tolerance on the limit), asked without a dense row in the LP.  Measured at oasis-open-1
on the last round's model (40 minutes, one thread each, benchmarks/oasis/frontier.md, tenth
round): with the row SCIP's bound came down to 788.29, with the limit to 783.36 (c =
782.93126); neither answered.

DECISION (cutoff with a start): ``cutoff="auto"`` (the default) is the check-and-cut loop just
above ``warm_start`` when one is given, and no cutoff row without one.  Measured at
oasis-open-1 from the 782.93 schedule (benchmarks/oasis/frontier.md, seventh round): with the
row the loop proved within 1e-6 in 614 s; without it the fourth round's rounds reached 783.15
in 1300 s and proved nothing.  Without a start there is no schedule to sit above, so no row.
The bound stays max(round bound, c), as valid as without the row (argued above).
"""
from __future__ import annotations

import dataclasses
import math
import time
from collections import defaultdict
from typing import Any

from mlopt.families.oasis.bounds.colgen import server_classes
from mlopt.families.oasis.bounds.packing_cuts import MAX_K, add_packing_cuts
from mlopt.families.oasis.primal.disaggregate import disaggregate, refill
from mlopt.models.oasis import _max_copies, build_utility_ilp, extract_schedule
from mlopt.errors import InputError
from mlopt.solve import solve
from mlopt.solvers.result import OPTIMALITY_GAP_TOL, relative_gap
from mlopt.workload import Server, Workload


#: share of the time limit the local search refilling a split with dropped jobs may take
#: (inside the 10% the solver leaves; 30 s without a limit)
REFILL_SHARE = 0.04
REFILL_SECONDS = 30.0
#: the cutoff sits this far (relative) above the best checked schedule: half of the optimality
#: tolerance of ``mlopt instances solve`` (OPTIMALITY_GAP_TOL), so "infeasible" proves the
#: schedule optimal within that tolerance, and far above the solver's row tolerance (~1e-7)
CUTOFF_STEP = 0.5e-6
#: the second solver is asked whether a merged solution reaches v + CONFIRM_STEP * |v|: just
#: inside OPTIMALITY_GAP_TOL, so its "infeasible" puts OPT within that tolerance of v
CONFIRM_STEP = 0.999e-6


def _scip_heuristics_off() -> dict:
    """SCIP's parameters for "heuristics off" (every ``heuristics/*/freq`` at -1, as SCIP's
    own OFF setting), by name, for the solve layer."""
    from pyscipopt import Model

    m = Model()
    m.hideOutput()
    out = {k: -1 for k in m.getParams() if k.startswith("heuristics/") and k.endswith("/freq")}
    # feasibility tolerance 1e-9, not SCIP's 1e-6: c lies 0.999e-6 relative above v, so at 1e-6
    # SCIP takes v's own image (or the first solver's optimum, 3.8e-7 below c at oasis-open-1)
    # as a solution "at c" and can never confirm (found by review: 14 of 39 random cases)
    out["numerics/feastol"] = 1e-9
    return out


#: solvers asked through their objective limit instead of the cutoff row (DECISION, module
#: docstring), and how far below c that limit sits (relative): SCIP's "infeasible" under a
#: limit ignores solutions better than it by less than its tolerance -- measured at
#: ``numerics/feastol`` 1e-9 (CONFIRM_SETTINGS): a solution 3e-8 relative better was found,
#: 3e-9 was not -- so the limit sits 1e-7 below c, and no solution reaching c is missed
OBJLIMIT_SOLVERS = ("scip",)
OBJLIMIT_MARGIN = 1e-7
#: a second solver's own parameters for the feasibility question, by solver (computed when
#: asked).  SCIP: heuristics off -- the question is whether any solution exists at all, the
#: first solver says none does, so a primal heuristic can only spend the time (a reasoned
#: choice, not an A/B measurement: benchmarks/oasis/frontier.md, eighth round)
CONFIRM_SETTINGS = {"scip": _scip_heuristics_off}
#: ``cutoff``'s default: just above the warm start when one is given, else none
AUTO = "auto"


def aggregate_servers(workload: Workload) -> tuple[Workload, dict[str, list[Server]]]:
    """The workload on the merged cluster (one server per class, capacities summed) and, per
    merged server id, the real servers it stands for."""
    a = workload.arrays
    cls_w, cls_p = server_classes(workload)
    label: dict[int, tuple] = {}
    for n, s in enumerate(a.worker_servers.tolist()):
        label[s] = ("w", int(cls_w[n]))
    for n, s in enumerate(a.ps_servers.tolist()):
        # a co-located ("any") server is in both lists: it keeps one class, its worker one
        label.setdefault(s, ("p", int(cls_p[n])))
    groups: dict[tuple, list[Server]] = defaultdict(list)
    for n, s in enumerate(workload.servers):
        if n in label:  # servers hosting nothing are left out: no variable uses them
            groups[(s.role,) + label[n]].append(s)
    merged, members = [], {}
    for key, ss in groups.items():
        sid = f"{ss[0].id}+{len(ss) - 1}" if len(ss) > 1 else ss[0].id
        cap = {r: _merged_capacity(workload, ss, r) for r in workload.resources}
        merged.append(Server(sid, key[0], cap, ss[0].kind, ss[0].location))
        members[sid] = ss
    return dataclasses.replace(workload, name=f"{workload.name}/classes",
                               servers=tuple(merged)), members


def _merged_capacity(workload: Workload, servers, r: str) -> float:
    """A class's capacity in resource r: the sum of its servers' loads the checker accepts
    (``accepted_capacity``), so the merged rows relax every checked schedule (an independent
    review built a schedule the checker accepts within its 1e-9 slack that exact rows cut
    off).  With integer capacities and demands in r every load is an integer, and the exact
    sum is equivalent (and keeps the packing cuts' exact branch)."""
    from mlopt.models.oasis import accepted_capacity

    caps = [s.capacity[r] for s in servers]
    demands = [j.worker_demand[r] for j in workload.jobs] + [j.ps_demand[r]
                                                              for j in workload.jobs]
    if all(float(x).is_integer() for x in caps + demands) and sum(caps) < 1e8:
        return float(sum(caps))
    return float(sum(accepted_capacity(c) for c in caps))


def build_class_relaxation(workload: Workload, packing_cuts: bool = True,
                           packing_k: int = MAX_K, work_rows: bool = False):
    """The utility ILP on the merged cluster with the per-(job, class) copy bounds (module
    docstring) and, with ``packing_cuts``, the bin-packing rows of :mod:`.packing_cuts`
    (functions u^(1) .. u^(packing_k)), with ``work_rows`` the cumulative-work rows of
    :mod:`.work_rows`; returns (Pyomo model, merged workload, members)."""
    merged, members = aggregate_servers(workload)
    m = build_utility_ilp(merged)
    R = workload.resources
    jobs = {j.id: j for j in workload.jobs}
    for var, demand in ((m.y, "worker_demand"), (m.z, "ps_demand")):
        most: dict[tuple[str, str], int] = {}
        for (i, s, t) in var:
            if (i, s) not in most:
                j = jobs[i]
                most[i, s] = sum(min(j.chunks, _max_copies(srv.capacity, getattr(j, demand), R)
                                     or 0) for srv in members[s])
            if most[i, s] < var[i, s, t].ub:
                var[i, s, t].setub(most[i, s])
    if packing_cuts:
        add_packing_cuts(m, workload, members, packing_k)
    if work_rows:
        from mlopt.families.oasis.bounds.work_rows import add_work_rows
        from mlopt.models.oasis import index_data

        add_work_rows(m, index_data(merged)["work"])
    return m, merged, members


def _add_cutoff_row(m, value: float) -> None:
    """utility >= ``m.cutoff_value`` (a mutable parameter, moved up by the rounds)."""
    import pyomo.environ as pyo

    obj = next(m.component_data_objects(pyo.Objective, active=True))
    m.cutoff_value = pyo.Param(mutable=True, initialize=float(value))
    m.cutoff_row = pyo.Constraint(expr=obj.expr >= m.cutoff_value)


def _above(value: float) -> float:
    return value + CUTOFF_STEP * max(1.0, abs(value))


def confirm_level(value: float) -> float:
    """The level c a second solver is asked about: OPT < c puts OPT within the optimality
    tolerance of the checked ``value``."""
    return value + CONFIRM_STEP * max(1.0, abs(value))


def confirm_infeasible(m, value: float, solver: str, *, time_limit: float | None = None,
                       threads: int = 1, options: dict | None = None) -> dict[str, Any]:
    """The second solver's word on a proof (module docstring, eighth round): ``m`` (the last
    round's model) with utility >= c = :func:`confirm_level` (``value``) must be infeasible.
    Returns the second solve's status, bound, incumbent and seconds, ``level`` c and
    ``confirmed`` (True only on the solver's "infeasible")."""
    import pyomo.environ as pyo

    level = confirm_level(value)
    limit = {}
    if solver in OBJLIMIT_SOLVERS:
        # SCIP's objective limit instead of the cutoff row (DECISION in the module docstring):
        # set below c by OBJLIMIT_MARGIN, more than SCIP's tolerance on the limit, so its
        # "infeasible" still puts OPT below c
        limit = {"objlimit": value + (CONFIRM_STEP - OBJLIMIT_MARGIN) * max(1.0, abs(value))}
        if hasattr(m, "cutoff_row"):
            m.cutoff_row.deactivate()
    elif hasattr(m, "cutoff_value"):
        m.cutoff_value.set_value(level)
    else:
        _add_cutoff_row(m, level)
    # the work rows' running sums are integral at every integer point (sums of the integer y
    # and of the binary u, the latter at most 1), so declaring them integer removes no
    # solution; CP-SAT, which takes integer variables only, needs it
    sums = [getattr(m, n) for n in ("work_done", "work_completed") if hasattr(m, n)]
    for var in sums:
        var.domain = pyo.NonNegativeIntegers
    t0 = time.perf_counter()
    try:
        res = solve(m, solver, time_limit=time_limit, mip_gap=0.0, threads=threads,
                    options={**(CONFIRM_SETTINGS[solver]() if solver in CONFIRM_SETTINGS
                                else {}), **limit, **(options or {})})
    except InputError:  # a bad option: the caller's error, named
        raise
    except Exception as err:  # noqa: BLE001  (a failing second solver confirms nothing)
        return {"solver": solver, "status": "error", "level": level, "bound": None,
                "objective": None, "runtime_s": round(time.perf_counter() - t0, 1),
                "confirmed": False, "message": f"{type(err).__name__}: {err}"}
    finally:
        for var in sums:
            var.domain = pyo.NonNegativeReals
        if limit and hasattr(m, "cutoff_row"):
            m.cutoff_row.activate()
    return {"solver": f"{res.solver} {res.solver_version}", "status": res.status.value,
            "level": level, "bound": res.bound, "objective": res.objective,
            "objlimit": limit.get("objlimit"),
            "runtime_s": round(time.perf_counter() - t0, 1),
            "confirmed": res.status.value == "infeasible"}


def merged_schedule(workload: Workload, members: dict[str, list[Server]], schedule):
    """A schedule of the real cluster as one of the merged cluster: every row's server is
    replaced by its class's merged server (counts of one job, slot and class add up).  The
    inverse direction of :func:`~mlopt.families.oasis.primal.disaggregate.disaggregate`, used to
    warm-start the relaxation from a known schedule (feasible there: see the module
    docstring)."""
    from mlopt.schedule import Schedule

    of = {s.id: sid for sid, ss in members.items() for s in ss}
    rows = [(j, int(t), of[s], role, int(n)) for j, t, s, role, n in schedule.allocations[
        ["job", "slot", "server", "role", "count"]].itertuples(index=False)]
    return Schedule.from_rows(schedule.admitted, rows, {"producer": "merged"})


def _split(workload, merged, members, m):
    """The solver's merged incumbent split onto the real servers: (schedule, dropped job ids,
    unpackable groups), or None without an integral incumbent."""
    try:
        ms = extract_schedule(m, merged)
    except ValueError:  # no integral incumbent loaded
        return None
    unpacked: list = []
    sched, dropped = disaggregate(workload, ms, members, unpacked)
    return sched, dropped, unpacked


def class_relaxation(workload: Workload, *, time_limit: float | None = None, threads: int = 1,
                     solver: str = "highs", mip_gap: float = 0.0, warm_start=None,
                     packing_cuts: bool = True, max_rounds: int = 20,
                     keep_model: bool = False, cutoff: float | str | None = AUTO,
                     packing_k: int = MAX_K, solver_options: dict | None = None,
                     work_rows: bool = True, confirm: str | None = AUTO,
                     confirm_options: dict | None = None) -> dict[str, Any]:
    """Upper bound on OPT: the solver's dual bound of the class-aggregated relaxation (its
    optimum when solved).  ``bound`` is None when the solver ends without one.

    Primal side: the solver's incumbent on the merged cluster is split onto the real servers
    (:func:`~mlopt.families.oasis.primal.disaggregate.disaggregate`) and checked; ``schedule``
    and ``feasible_objective`` are the best such schedule and the checker's objective (None
    without an incumbent), ``dropped`` the jobs its split had to drop (then the residual local
    search refills it: :func:`~mlopt.families.oasis.primal.disaggregate.refill`).

    Rounds (with ``packing_cuts``; at most ``max_rounds``): when the split finds (slot, class)
    groups that do not pack, the valid rows of
    :func:`~mlopt.families.oasis.bounds.packing_cuts.add_subset_cuts` cut that solution off
    and the relaxation is solved again in the time left (a root-only "branch-and-check").
    Every round's dual bound is valid (rows are only added), the lowest is returned.  When a
    round is solved to optimality and its split drops nothing, the schedule's objective equals
    the bound: ``proven`` is True (OPT, on the word of the MILP solver's optimality).
    ``warm_start``: a checked schedule of the real cluster handed to the solver as its first
    incumbent in the first round (HiGHS or SCIP; mapped onto the merged servers).
    ``keep_model``: also return the last round's Pyomo model (``model``, with every row
    added), e.g. to confirm its optimum with a second solver.

    ``cutoff``: the check-and-cut loop above the best checked schedule (module docstring,
    seventh round): only merged solutions of utility >= max(cutoff, just above the best
    schedule) are sought; packable ones raise the schedule, unpackable ones get subset rows,
    and "infeasible" makes the cutoff the bound (``cutoff_value`` in the result; ``proven``
    when it meets the schedule within 1e-6).  ``cutoff=0`` with a ``warm_start``: just above
    the start.  ``packing_k``: the packing rows use u^(1) .. u^(packing_k) (fewer rows, a
    weaker but valid relaxation).  ``solver_options``: the solver's own parameters for every
    round (e.g. ``{"mip_max_improving_sols": 1}``: stop a round at its first solution).
    ``work_rows``: add the cumulative-work rows of :mod:`.work_rows` (a tighter LP).
    ``cutoff="auto"`` (default): 0 when a ``warm_start`` is given (the loop just above it),
    else off (None); see the module docstring's DECISION.

    ``confirm``: when the loop proves, a second solver's word (module docstring, eighth
    round) in the time left: ``"auto"`` (default) SCIP when installed and not ``solver``
    (:func:`mlopt.solve.default_verifier`; never the first solver again: that is no second
    word, so it is not asked), a solver name, or None (not asked).
    ``confirm_options``: that solver's own parameters.  ``verified_by`` in the result names
    the confirming solver, ``confirm`` its answer.

    DECISION (seventh round, measured at oasis-open-2 from the committed 2870.15 start, HiGHS,
    600 s, loaded machine; benchmarks/oasis/frontier.md): the work rows are on by default.
    They lower the merged LP from 2987.02 to 2978.56 and the 600 s bound from 2972.52 to
    2961.86, for a longer build (8 s -> 23 s there); they never change an optimum."""
    from mlopt.families.oasis.bounds.packing_cuts import add_subset_cuts
    from mlopt.families.oasis.checker import check_oasis

    if isinstance(max_rounds, bool) or not isinstance(max_rounds, int) or max_rounds < 1:
        raise InputError("max_rounds must be an integer >= 1", field="max_rounds",
                         value=max_rounds)
    if isinstance(cutoff, str) and cutoff == AUTO:
        cutoff = None if warm_start is None else 0.0
    if cutoff is not None and (isinstance(cutoff, bool) or not isinstance(cutoff, (int, float))
                               or not math.isfinite(cutoff)):
        raise InputError("cutoff must be a finite number, 'auto' or null", field="cutoff",
                         value=cutoff)
    from mlopt.solve import second_solver

    confirm = second_solver(confirm, solver)
    if isinstance(packing_k, bool) or not isinstance(packing_k, int) or packing_k < 1:
        raise InputError("packing_k must be an integer >= 1", field="packing_k",
                         value=packing_k)
    t0 = time.perf_counter()
    if not isinstance(work_rows, bool):
        raise InputError("work_rows must be true or false", field="work_rows", value=work_rows)
    m, merged, members = build_class_relaxation(workload, packing_cuts, packing_k, work_rows)
    built = time.perf_counter() - t0
    # the solver gets 90% of the budget minus the build: handing the model over and reading
    # the result back take seconds on a loaded machine, and a caller that kills at its limit
    # (mlopt bound, mlopt bracket) would otherwise lose the bound; the splits, checks and the
    # refill take the rest (REFILL_SHARE of it for the refill)
    end = None if time_limit is None else t0 + 0.9 * float(time_limit)
    refill_s = REFILL_SECONDS if time_limit is None else REFILL_SHARE * float(time_limit)
    bound, best, log, proven, sol = None, None, [], False, None
    if warm_start is not None:  # never return less than the start
        res = check_oasis(workload, warm_start)
        if res.feasible:
            best = (warm_start, float(res.objective), [])
    level = None  # the cutoff in force (cutoff mode)
    if cutoff is not None:
        level = float(cutoff) if best is None else max(float(cutoff), _above(best[1]))
        _add_cutoff_row(m, level)
    for rnd in range(max_rounds):
        left = None if end is None else end - time.perf_counter() - (refill_s if rnd else 0.0)
        if left is not None and left < 0.5:
            break
        if warm_start is not None and rnd == 0 and level is None:
            from mlopt.families.oasis.bounds.work_rows import complete_start
            from mlopt.models.oasis.warmstart import encode
            from mlopt.warmstart import solve_warm

            start = encode(m, merged, merged_schedule(workload, members, warm_start))
            complete_start(m, start)  # the work rows' running sums, else the start is lost
            sol = solve_warm(m, start, solver, time_limit=left, mip_gap=mip_gap,
                             threads=threads, options=solver_options)
        else:
            sol = solve(m, solver, time_limit=left, mip_gap=mip_gap, threads=threads,
                        options=solver_options)
        entry = {"round": rnd, "status": sol.status.value, "relaxation_objective": sol.objective,
                 "bound": sol.bound, "s": round(time.perf_counter() - t0, 1)}
        got = None
        if level is not None:
            entry["cutoff"] = level
            if sol.status.value == "infeasible":  # the solver's word: OPT < level
                # level lies above every checked schedule (it moves up with them); the max
                # only guards against a solver error ever putting the bound below one
                b = level if best is None else max(level, best[1])
                bound = b if bound is None else min(bound, b)
                proven = best is not None and relative_gap(best[1], level) <= OPTIMALITY_GAP_TOL
                log.append(entry)
                break
            if sol.bound is not None and math.isfinite(sol.bound):
                # above the cutoff at most sol.bound, below it less than the cutoff
                b = max(float(sol.bound), level)
                bound = b if bound is None else min(bound, b)
        elif sol.bound is not None and math.isfinite(sol.bound):
            bound = sol.bound if bound is None else min(bound, sol.bound)
        if sol.has_solution:
            got = _split(workload, merged, members, m)
        value = None
        if got is not None:
            sched, dropped, unpacked = got
            res = check_oasis(workload, sched)
            if res.feasible:
                value = float(res.objective)
                entry.update(split=value, dropped=len(dropped), unpacked=len(unpacked))
                improved = best is None or value > best[1]
                if improved:
                    best = (sched, value, dropped)
                    if level is not None:  # look above the new schedule (cuts this one off)
                        level = max(level, _above(value))
                        m.cutoff_value.set_value(level)
        if (best is not None and bound is not None
                and relative_gap(best[1], bound) <= OPTIMALITY_GAP_TOL):
            # a checked schedule meets the certified bound within the optimality tolerance of
            # `mlopt instances solve` (oasis-open-1: a merged optimum 4.8e-4 above the
            # schedule, 6.2e-7 relative, whose split still dropped jobs)
            proven = True
            log.append(entry)
            break
        if value is not None:
            if level is not None and not dropped:
                log.append(entry)
                if not improved:  # a packable solution not above the schedule: the
                    break         # solver's tolerance let it through; no progress
                continue
            if not dropped and sol.status.value == "optimal":
                proven, best = True, (sched, value, dropped)
        log.append(entry)
        # in cutoff mode a round stopped early (e.g. at its first solution) still cuts its
        # solution off; without it a round that did not finish ends the loop, as before
        going = ("optimal", "feasible") if level is not None else ("optimal",)
        if proven or got is None or not packing_cuts or sol.status.value not in going:
            break
        entry["cuts"] = add_subset_cuts(m, workload, members, got[2])
        if not entry["cuts"]:
            break
    sched, value, dropped = best if best is not None else (None, None, None)
    if sched is not None and dropped and refill_s > 0:
        better = refill(workload, sched, refill_s)
        res = check_oasis(workload, better)
        if res.feasible and float(res.objective) > value:
            sched, value = better, float(res.objective)
    if level is not None and bound is not None and value is not None and value > bound:
        bound = value  # never a bound below a checked schedule (only a solver error could)
    second, verified_by = None, None
    if proven and confirm is not None and value is not None:
        # the second solver's word, in what is left of the solver's 90% (never past it)
        limit = None if end is None else end - time.perf_counter()
        if limit is None or limit >= 0.5:
            second = confirm_infeasible(m, value, confirm, time_limit=limit, threads=threads,
                                        options=confirm_options)
            second["s"] = round(time.perf_counter() - t0, 1)
            if second["confirmed"]:
                verified_by = second["solver"]
        else:
            second = {"solver": confirm, "status": "not_run", "confirmed": False,
                      "message": "no time left in the budget"}
    out = {"model": m} if keep_model else {}
    return {**out, "bound": bound, "status": None if sol is None else sol.status.value,
            "cutoff_value": level,
            "relaxation_objective": None if sol is None else sol.objective,
            "feasible_objective": value, "dropped": dropped, "proven": proven,
            "verified_by": verified_by, "confirm": second,
            "rounds": log, "schedule": sched,
            "classes": len(merged.servers), "servers": sum(len(v) for v in members.values()),
            "solver": None if sol is None else sol.solver, "build_s": built,
            "runtime_s": time.perf_counter() - t0}
