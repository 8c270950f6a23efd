"""The best certified interval on OPT within a wall-clock budget: :func:`bracket`.

OPT lies in ``[low, high]``.  For a maximization family the low end is the best *checked*
schedule's objective (a schedule is a proof that OPT is at least its value) and the high end the
smallest certified upper bound; for a minimization family the other way round.  Every end names
the source it came from.

Sources (each inside what is left of one wall-clock budget):

1. **primal**: every algorithm of the family (online algorithms, baselines, references) with
   default options, each schedule passed through the family's checker; algorithms that do not
   apply to the workload (an InputError) are listed and skipped.  An anytime algorithm (one
   declaring ``Algorithm.budget_option``: local search, price-and-branch) gets its share of
   the budget as that option, and once every source has started with time left and the interval
   still open, the anytime algorithms run again in turn, on every free core, until the
   budget ends (an improvement search, ``Algorithm.start_option``, from the best schedule
   found so far; DECISION on reruns below);
2. **exact**: the family's default exact model, built under the budget (a model whose size
   estimate, :mod:`mlopt.modelsize`, says it cannot be built in an eighth of the budget or in
   the memory available is skipped before building, and so is its LP relaxation; one that has
   reported no bound by half of the budget is stopped, DECISION on patience; a build that would not
   finish in time is stopped and reported, never left running), warm-started from the best
   checked schedule of the family's ``warm_start_algorithms`` (default: its online ones;
   :mod:`mlopt.warmstart`; at most a fifth of its time), solved with the time left; its
   incumbent is checked like any other schedule, its dual bound is a dual source (the solver's
   word: a proven optimum is reported ``optimal`` only after a second solver agrees);
3. **dual**: every certified bound the family registers (LP relaxations, column generation,
   dual certificates, flow-time and volume bounds, ...), and the LP relaxation of the exact
   model when the solver gave no bound.

Every source runs in a forked child process that is killed at its deadline (:func:`run_boxed`):
a solver call deep in C code cannot be interrupted from Python, and an algorithm that solves a
MILP per event (Dorm) can sit in one call for minutes.  So ``time_limit`` is honest wall clock,
and a source that runs out of memory takes only its child down.

DECISION (order and budget split; the machine has 2 cores): the exact model starts first in its
own child with the whole budget (one solver thread), so ``bracket`` is never worse than the
exact model alone in the same budget.  Beside it, on the other core: the algorithms (the
family's ``warm_start_algorithms`` first, each stopped at half of the time left, the others at
a quarter, all of them within half of the budget when the family has bounds), then the family's bounds sharing what is left; each
step first looks whether the exact model has finished, and a closed interval with a proof ends
the run early (a proof without the exact model, a theorem's bound met, stops it too).  When no exact model runs (it does not fit the budget or the memory, refuses
the workload, has finished, or ``exact=False``) and two cores are free, the algorithms and the
bounds run side by side, one core taking the algorithms first and the other the bounds first,
for the whole budget, instead of in turn on one core while the other sits idle (each source's
``started_s`` shows the timeline).  An anytime bound gets its own time limit 15% inside its
hard one, so it returns what it found instead of being killed with it (and so does an
anytime algorithm).  The LP relaxation runs at the end, if time is left and the solver gave
no bound.  Building a model counts against the budget: ``time_limit`` is wall-clock for
everything.

DECISION (time split when a bound can close the interval; issue 22, oasis-open-1): a bound
registered with ``Bound.proves_from_start`` (OASiS's ``class_relaxation``: a check-and-cut
loop above the best schedule, its proof confirmed by a second solver) takes the exact model's
core when the bracket is given a start schedule: the exact model is not started (its row says
why), and that bound runs first, on its own core, with all the time left, beside the
algorithms on the other core.  Measured at oasis-open-1 (50 jobs, T = 50, H = K = 20) from
its 782.93 schedule (benchmarks/oasis/frontier.md, eighth round): beside the exact model,
``class_relaxation`` got a share too small to finish one round of its loop (the exact model's
600 s bound there was 783.74, and at oasis-open-2 the relaxation stopped at its 120 s share
with no bound); the loop needs several 100-400 s rounds and then the second solver.  Without a
start nothing changes: the loop has no schedule to sit above.

DECISION (reruns; issue 21, harmony-open-0 in 600 s): once every source has started, a free
core runs an anytime algorithm again (it does not wait for the other core's runs: a rerun may
start, from the best schedule then, while the same algorithm's first run goes on) -- the anytime algorithms in turn, each run from the best
schedule so far, with a fresh seed (its round number, so two runs on the two cores do not
repeat each other; with ``seed`` s > 0 a seed drawn from (s, round), see
:func:`run_seed`), for at most ``RERUN_SHARE`` of the budget (so an improvement found on one
core reaches the other's next run) -- until the budget ends.  An algorithm that stopped on
its own before its cap without improving the best schedule has settled there: it runs again
only after another source has moved the best schedule.  Before, they ran once more, and a
600 s bracket at harmony-open-0 left a core idle for its last 158 s.

DECISION (patience with the exact model; issue 21, harmony-open-0 in 600 s): an exact model
whose solver reports its progress (HiGHS; SCIP on one thread) and has reported no dual bound
after ``EXACT_PATIENCE`` of the budget is stopped, and its core goes to the other sources (its
row says why; its LP relaxation, the same model, is not run at the end).  At harmony-open-0
``placement_milp`` (429k columns, 24M nonzeros; 90 s to build and 68 s to compile on a quiet
core, estimated at 95 s) held a core for all 600 s and returned nothing, while the searches
on the other core moved the interval.  The size estimate is a lower bound on the build alone,
so it cannot say in advance how long the solver needs for its first bound; the solver's
silence can.  Where the estimate alone says the model cannot report in time, it is not
started: an estimated build above ``BUILD_SHARE`` (an eighth) of the budget leaves, after the
compile (0.75 of the build at harmony-open-0), presolve and root LP, no first bound by half
of the budget (at harmony-open-0, estimate 95 s: skipped in a 600 s bracket, started in a
1200 s one, then held to the same patience).

DECISION (late bounds): a bound that is stronger from a better schedule (``Bound.start_option``,
unless it takes the exact model's core as a closer above: Harmony's ``share_ip``, whose runs
are those within a reduced-cost slack of the schedule's value; OASiS's ``class_relaxation``
when the bracket has no start, whose cutoff row sits above the schedule it is given) starts
once ``LATE_AT`` of the budget has passed -- or
earlier when nothing else would run -- on the first free core, with all the time left and the
best schedule found by then; the searches before it on that core are cut to end by then, and
so are the bounds in turn when they share one core with it (beside the exact model, or on one
core: the last of them took all the time left).
Started first, it would take a baseline's schedule (at harmony-open-0 ``share_ip`` with a
22 s local search's schedule stayed below ``share`` after 150 s; from a good schedule it lifts
it).  At oasis-open-2 from scratch, ``class_relaxation`` started late with ``lns``'s schedule
gave 2964.95 in 600 s (benchmarks/oasis/frontier.md, ninth round), where in turn with the other
bounds it had stopped at its 120 s share without a bound (seventh round).

A closed interval is ``optimal`` only with a proof (:func:`_proof`): its rules accept a
theorem's bound met by a checked schedule, the exact optimum confirmed by a second solver, and
a solver's bound whose method had a second solver confirm a level within the optimality
tolerance (1e-6 relative) of the best checked schedule -- never one solver's word alone.
"""
from __future__ import annotations

import math
import numbers
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from mlopt.errors import InputError

#: relative width at or below which an interval is closed (OPT proven up to rounding)
CLOSED_TOL = 1e-9
#: seconds kept in reserve for checking, verification and reporting
RESERVE_S = 0.5


@dataclass
class Source:
    """One contribution to the interval."""
    name: str  # algorithm, bound or model name
    kind: str  # "primal" (a checked schedule), "dual" (a certified bound), "exact" (the model)
    value: float | None  # objective of the checked schedule, or the bound
    status: str  # "ok", "skipped", "stopped", "error", "infeasible", "no_bound", ...
    runtime_s: float
    note: str = ""
    bound: float | None = None  # exact sources: the solver's dual bound
    started_s: float | None = None  # when it started, in seconds after the bracket began
    # dual sources whose method asked a second solver (class_relaxation's ``confirm``): that
    # solver, and the level it found nothing at or beyond (OPT < level for a max family)
    verified_by: str | None = None
    confirmed_at: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """This source as a JSON-able dict (non-finite numbers as strings)."""
        return {"name": self.name, "kind": self.kind, "value": _num(self.value),
                "bound": _num(self.bound), "status": self.status,
                "runtime_s": round(self.runtime_s, 4), "started_s": self.started_s,
                "note": self.note, "verified_by": self.verified_by,
                "confirmed_at": _num(self.confirmed_at)}


@dataclass
class Bracket:
    family: str
    sense: str
    low: float | None
    high: float | None
    status: str  # "optimal", "interval", "no_solution", "no_bound", "disputed" (crossed)
    low_source: str | None
    high_source: str | None
    sources: list[Source]
    time_limit: float
    elapsed_s: float
    schedule: Any = field(default=None, repr=False)  # the best checked schedule
    proof: str | None = None  # how "optimal" was established (for "disputed": what crossed)
    verified_by: str | None = None  # the second solver behind an "optimal" (rules 2 and 3)
    seed: int = 0  # the algorithms' runs took their seeds from it (run_seed)

    @property
    def gap(self) -> float | None:
        """(high - low) / max(|low|, |high|), 0 for a closed interval; None when open."""
        if self.low is None or self.high is None:
            return None
        width = self.high - self.low
        scale = max(abs(self.low), abs(self.high))
        return 0.0 if width <= 0 else (width / scale if scale > 0 else math.inf)

    def to_dict(self) -> dict[str, Any]:
        """The bracket as a JSON-able dict: both ends, their sources, the proof."""
        return {"family": self.family, "sense": self.sense, "low": _num(self.low),
                "high": _num(self.high), "gap": _num(self.gap), "status": self.status,
                "proof": self.proof, "verified_by": self.verified_by,
                "low_source": self.low_source,
                "high_source": self.high_source, "time_limit": self.time_limit,
                "elapsed_s": round(self.elapsed_s, 3), "seed": self.seed,
                "sources": [s.to_dict() for s in self.sources]}


def _num(x):
    return None if x is None or not math.isfinite(x) else float(x)


class _State:
    """The interval as sources arrive."""

    def __init__(self, fam, on_update: Callable[["_State"], None] | None):
        self.fam, self.sense, self.on_update = fam, fam.sense, on_update
        self.t0 = time.perf_counter()
        self.sources: list[Source] = []
        self.primal = self.dual = None
        self.primal_src = self.dual_src = None
        self.schedule = None

    @property
    def low(self):
        return self.primal if self.sense == "max" else self.dual

    @property
    def high(self):
        return self.dual if self.sense == "max" else self.primal

    def add(self, source: Source, schedule=None) -> None:
        self.sources.append(source)
        if source.status == "ok" and source.value is not None and source.kind == "primal":
            better = self.primal is None or (source.value > self.primal if self.sense == "max"
                                             else source.value < self.primal)
            if better:
                self.primal, self.primal_src, self.schedule = source.value, source.name, schedule
        bound = source.value if source.kind == "dual" else source.bound
        if source.status in ("ok", "stopped") and bound is not None and math.isfinite(bound):
            tighter = self.dual is None or (bound < self.dual if self.sense == "max"
                                            else bound > self.dual)
            if tighter:
                self.dual, self.dual_src = bound, source.name
        if self.on_update is not None:
            self.on_update(self)

    def stamp(self, first: int, started: float) -> None:
        """Record ``started`` (a ``perf_counter`` time) on the sources added from index
        ``first`` on, in seconds after the bracket began."""
        for source in self.sources[first:]:
            source.started_s = round(started - self.t0, 3)

    def _width(self) -> float | None:
        """dual - primal for a max family, primal - dual for a min one (None when open)."""
        if self.primal is None or self.dual is None:
            return None
        return (self.dual - self.primal) if self.sense == "max" else (self.primal - self.dual)

    def crossed(self) -> bool:
        """A bound lies beyond a checked schedule by more than the tolerance: a bound method,
        a model or the checker is wrong (e.g. a model stricter than the checker).  Never
        closed, never optimal: the bracket reports ``disputed``."""
        width = self._width()
        return width is not None and width < -CLOSED_TOL * max(1.0, abs(self.primal))

    def closed(self) -> bool:
        width = self._width()
        if width is None or self.crossed():
            return False
        return width <= CLOSED_TOL * max(1.0, abs(self.primal)) or self.confirmed() is not None

    def confirmed(self) -> Source | None:
        """A dual source whose second solver found nothing at or beyond a level within the
        optimality tolerance of the best checked schedule (OPT between the two), or None."""
        from mlopt.solvers.result import OPTIMALITY_GAP_TOL, relative_gap

        if self.primal is None:
            return None
        for s in self.sources:
            if s.kind != "dual" or not s.verified_by or s.confirmed_at is None:
                continue
            beyond = (s.confirmed_at >= self.primal if self.sense == "max"
                      else s.confirmed_at <= self.primal)
            if beyond and relative_gap(self.primal, s.confirmed_at) <= OPTIMALITY_GAP_TOL:
                return s
        return None


def bracket(workload, *, family: str | None = None, time_limit: float = 60.0,
            solver: str = "highs", threads: int = 1, verify: bool = True,
            algorithms: list[str] | None = None, bounds: list[str] | None = None,
            exact: bool = True, on_update: Callable[[Any], None] | None = None,
            on_progress: Callable[[float | None, float | None], None] | None = None,
            start_schedule=None, seed: int = 0) -> Bracket:
    """The best certified interval on OPT within ``time_limit`` seconds of wall clock (see the
    module docstring).  ``algorithms`` / ``bounds``: restrict the sources (default: all the
    family registers); ``exact=False`` skips the exact model, and so does a model whose size
    estimate (:mod:`mlopt.modelsize`) says it cannot be built in the budget or the memory
    available (its source row says why).  ``on_update(state)``: after every source;
    ``on_progress(incumbent, bound)``: the exact model's solver while it runs (from its
    child process through a pipe; :mod:`mlopt.solvers.progress`), called from a reader
    thread.  ``start_schedule``: a schedule to continue from (e.g. the best one a previous run
    wrote with ``-o``): checked first (a rejected one is refused), it is the first primal
    source ("start"), every improvement search (``Algorithm.start_option``) starts from the
    best schedule so far from its first run on, and the exact model may be warm-started
    from it.  ``seed``: every algorithm's runs take their seeds from it (:func:`run_seed`); the
    default 0 is the seeds bracket has always used (the first runs 0, the reruns their
    round), so another seed samples another path of the searches on purpose: on a quiet
    machine two runs with one seed tend to repeat each other's every step."""
    start = time.perf_counter()  # the budget covers everything from here, imports included
    from mlopt.families.base import family_of

    from mlopt.solve import check_settings

    if time_limit is None:  # a bracket always has a budget
        raise InputError("must be a positive number of seconds", field="time_limit",
                         value=time_limit)
    check_settings(time_limit=time_limit, threads=threads, solver=solver)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or seed < 0:
        raise InputError("must be an integer >= 0", field="seed", value=seed)
    seed = int(seed)  # numpy's integers too (a sweep's seeds)
    deadline = start + float(time_limit)
    fam = family_of(workload, family)
    fam.validate(workload)
    # the family's warm-start algorithms (its quick good schedules) first, in their order,
    # then online, baseline, reference: at paper scale the budget may end before the last
    order = {"online": 0, "baseline": 1, "reference": 2}
    first = list(fam.warm_start_algorithms or ())
    names = (sorted(fam.algorithms_, key=lambda n: (
        first.index(n) if n in first else len(first), order[fam.algorithms_[n].role], n))
             if algorithms is None else list(algorithms))
    for n in names:
        fam.algorithm_record(n)
    bound_names = (sorted(n for n, b in fam.bounds_.items() if b.bracket) if bounds is None
                   else list(bounds))
    # "lp_relaxation" (the exact model's relaxation, run at the end when the exact model gave
    # no bound) may be named among ``bounds``; every other name is a registered bound
    wants_lp = bounds is None or "lp_relaxation" in bound_names
    bound_names = [n for n in bound_names if n != "lp_relaxation"]
    for n in bound_names:
        fam.bound(n)
    st = _State(fam, on_update)
    given = None  # the start schedule as a checked warm-start candidate
    if start_schedule is not None:
        given = _add_start(st, fam, workload, start_schedule)

    def left() -> float:
        return deadline - time.perf_counter() - RESERVE_S

    # bounds that prove from a start take the exact model's core (DECISION on the time split)
    closers = ([n for n in bound_names if fam.bounds_[n].proves_from_start]
               if start_schedule is not None else [])
    exact_handle = exact_res = listener = why = None
    if exact and fam.formulations and fam.default_model:
        t_exact = time.perf_counter()
        why = None if closers else _too_large(fam, workload, left())
        if closers:
            st.add(Source(f"{fam.exact_formulation().name} ({solver})", "exact", None,
                          "skipped", 0.0, f"not started: {', '.join(closers)} proves from the "
                          "start schedule and takes its core (Bound.proves_from_start)"))
        elif why is not None:  # the estimate says it cannot be built: use what fits
            st.add(Source(f"{fam.exact_formulation().name} ({solver})", "exact", None,
                          "skipped", time.perf_counter() - t_exact, why))
        else:  # on its own core for the whole budget, beside everything else (see DECISION)
            listener = _Listener(on_progress)
            exact_handle = _start_exact(fam, workload, solver, threads, share=left(),
                                        verify=verify, report=listener.sink,
                                        given=given)
            listener.start()

    _import_sources(fam, names, until=start + 0.25 * float(time_limit))

    from mlopt.solvers.progress import reports

    patience_at = start + EXACT_PATIENCE * float(time_limit)

    def exact_in() -> bool:
        nonlocal exact_handle, exact_res, why
        if exact_handle is not None and not exact_handle.done() and reports(solver, threads) \
                and not listener.bound_seen and time.perf_counter() >= patience_at:
            # DECISION (patience): silent for half of the budget, it has not reached its first
            # bound; its core goes to the other sources (module docstring)
            why = (f"no bound after {EXACT_PATIENCE:.0%} of the budget "
                   f"({time.perf_counter() - start:.0f} s): its core went to the other sources")
            exact_handle.cancel("stopped: " + why)
        if exact_handle is not None and exact_handle.done():
            exact_res = _finish_exact(st, fam, exact_handle, solver, t_exact)
            exact_handle = None
        return st.closed() and _proof(st, exact_res, solver) is not None

    # fixed-cost bounds first, each with its share; anytime bounds (those taking a time limit:
    # column generation) last, so they get whatever the others leave instead of half of it.
    # A bound stronger from a better schedule (Bound.start_option) waits for the searches
    # (DECISION on late bounds, module docstring)
    late = [n for n in bound_names if fam.bounds_[n].start_option and n not in closers]
    bound_order = sorted((n for n in bound_names if n not in late),
                         key=lambda n: (n not in closers, _anytime(fam, n)))
    algorithm_queue = [_Step("primal", n) for n in names]
    for step in algorithm_queue:
        step.seed = run_seed(seed, 0)
    bound_queue = [_Step("dual", n) for n in bound_order]
    late_queue = [_Step("dual", n) for n in late]
    late_at = start + LATE_AT * float(time_limit)
    # beside a running exact model, one core: the algorithms get at most half of what is left
    # now, the bounds the rest (at paper scale, 300 edgecloud jobs, ten algorithms at a
    # quarter of the time left each used the whole budget and no bound ran)
    algorithms_until = time.perf_counter() + 0.5 * left() if bound_names else deadline
    cores = _cores()

    def two_slots() -> bool:
        # no exact model on the other core (skipped, refused, finished, or not asked for):
        # the algorithms and the bounds run side by side, each on its own core (at paper
        # scale one core sat idle while the other ran both in turn)
        return exact_handle is None and cores >= 2

    def until_late() -> float:
        """Seconds a search may take before a late bound is due (inf when none waits)."""
        return late_at - time.perf_counter() if late_queue else math.inf

    def share(step: _Step) -> float:
        if step.rerun:  # a round of the searches: a slice of the budget, up to a late bound
            return min(left(), max(RERUN_MIN_S, RERUN_SHARE * float(time_limit)),
                       max(RERUN_MIN_S, until_late()))
        if step.kind == "primal":
            window = left() if two_slots() else algorithms_until - time.perf_counter()
            # a warm-start algorithm (the family's quick good schedule) may take half of
            # what is left: at paper scale on a loaded machine a quarter cut it off
            return min(left() * (0.5 if step.name in first else 0.25), window,
                       max(RERUN_MIN_S, until_late()))
        if step.name in closers or step.name in late:  # it can close the interval, or it
            return left()                                 # came late: all the time left
        # on the only core (beside the exact model, or one core), a bound in turn ends by a
        # late bound's time as the searches do: the last one took all the time left (left / 1)
        cut = math.inf if two_slots() else max(RERUN_MIN_S, until_late())
        return min(left() / (len(bound_queue) + 1), cut)

    # the anytime algorithms run again (from the best schedule, a fresh seed each run) while
    # time is left: ``rounds`` counts their runs; ``settled[name]`` is the best value when the
    # algorithm last stopped on its own (before its cap) without improving it: run again only
    # once another source has moved the best schedule (DECISION, module docstring)
    refused: set[str] = set()
    settled: dict[str, float | None] = {}
    rounds = 0

    def rerun_step() -> _Step | None:
        nonlocal rounds
        if st.closed() or left() <= RERUN_MIN_S:
            return None
        refused.update(x.name for x in st.sources if x.kind == "primal"
                       and x.status == "skipped")  # an InputError: it would refuse again
        again = [n for n in names if fam.algorithm_record(n).budget_option is not None
                 and n not in refused and not (n in settled and settled[n] == st.primal)]
        if not again:
            return None
        name = again[rounds % len(again)]
        rounds += 1
        step = _Step("primal", name, rerun=True)
        step.seed, step.best_before = run_seed(seed, rounds), st.primal
        return step

    def next_step(slot: int) -> _Step | None:
        # slot 0 takes the algorithms first, slot 1 the bounds first; alone, slot 0 runs the
        # algorithms and then the bounds; then a late bound once due (or once nothing else
        # would run), else a search again
        for queue in ((algorithm_queue, bound_queue) if slot == 0
                      else (bound_queue, algorithm_queue)):
            if queue:
                return queue.pop(0)
        due = late_queue and time.perf_counter() >= late_at - RERUN_MIN_S
        step = None if due else rerun_step()
        if step is None and late_queue:
            return late_queue.pop(0)
        return step

    running: list = [None, None]  # (step, Boxed) per core
    while not exact_in():
        for slot, item in enumerate(running):
            if item is not None and item[1].done():
                item[0].finish(st, item[1])
                if item[0].rerun and st.primal == item[0].best_before and \
                        item[0].runtime < 0.9 * item[0].cap:
                    settled[item[0].name] = st.primal  # stopped before its cap, no gain
                running[slot] = None
        if exact_in():
            break
        for slot in range(2 if two_slots() else 1):
            if running[slot] is None:
                step = next_step(slot)
                if step is not None:
                    running[slot] = (step, step.start(
                        fam, workload, solver, threads, share(step), best=st.schedule,
                        best_from=st.primal_src, from_best=start_schedule is not None))
        if running == [None, None]:
            break  # every source has run and nothing runs again
        time.sleep(0.02)
    for item in running:  # the interval closed: what still runs is no longer needed
        if item is not None:
            item[1].cancel("the interval closed")
            item[0].finish(st, item[1])
    if exact_handle is not None and not exact_handle.done() and st.closed() \
            and _proof(st, None, solver) is not None:
        # proven without it (a theorem's bound met, a confirmed bound): nothing it could add
        exact_handle.cancel("stopped: the interval closed with a proof without it")
    while exact_handle is not None and not exact_handle.done():
        exact_in()  # waits for the exact model, with the same patience
        time.sleep(0.05)
    if exact_handle is not None:
        exact_res = _finish_exact(st, fam, exact_handle, solver, t_exact)
    if listener is not None:
        listener.stop()
    # the exact model's LP relaxation, unless --bound named the bounds without it (a helper's
    # 900 s share_ip bracket spent its last 820 s and 9.3 GB there: the user asked for share_ip)
    if wants_lp and not st.closed() and (exact_res is None or exact_res.get("bound") is None) \
            and left() > 1.0:
        if why is not None:  # the relaxation is the same model: it does not fit either
            st.add(Source("lp_relaxation", "dual", None, "skipped", 0.0,
                          "the exact model's relaxation: " + why))
        else:
            _run_bound(st, fam, workload, "lp_relaxation", solver, threads, share=left())
    proof, status, verified_by = None, "interval", None
    if st.primal is None:
        status = "no_solution"
    elif st.dual is None:
        status = "no_bound"
    elif st.crossed():
        # DECISION: a bound beyond a checked schedule is reported, not resolved: no end is
        # trusted over the other, so solu.csv is not updated from it (mlopt.instances)
        status, proof = "disputed", (
            f"bound {st.dual_src} ({st.dual!r}) lies beyond the checked schedule "
            f"{st.primal_src} ({st.primal!r}): a bound method, a model or the checker is wrong")
    elif st.closed():
        proven = _proof(st, exact_res, solver)
        if proven is not None:  # else the solver's word alone, not confirmed: an interval
            status, (proof, verified_by) = "optimal", proven
    return Bracket(fam.name, fam.sense, st.low, st.high, status,
                   st.primal_src if fam.sense == "max" else st.dual_src,
                   st.dual_src if fam.sense == "max" else st.primal_src,
                   st.sources, float(time_limit), time.perf_counter() - start, st.schedule,
                   proof, verified_by, seed=seed)


def _add_start(st: _State, fam, workload, schedule):
    """The given start schedule as the first primal source, after the family's checker;
    returned as a warm-start candidate for the exact model."""
    from mlopt.warmstart import Candidate

    from mlopt.pipeline import made_for_another

    res = fam.check(workload, schedule)
    if not res.feasible:
        # its first violations stay in the line, as check's and --warm-start's do
        raise InputError("the start schedule fails the checker: " + res.summary(limit=2)
                         + made_for_another(schedule, workload),
                         field="start")
    st.add(Source("start", "primal", float(res.objective), "ok", 0.0,
                  "the given start schedule, checked"), schedule)
    return Candidate("the given start", schedule, float(res.objective))


class Refusal(str):
    """An InputError's message as it comes back from a :class:`Boxed` child: a string (what
    a bracket row shows) that also keeps the error's ``field`` and ``value``, so a caller can
    raise the same one-line error the source raised (``mlopt bound``)."""

    def __new__(cls, message: str, field: str | None = None, value: Any = None):
        self = super().__new__(cls, message)
        self.field, self.value = field, _picklable(value)
        return self

    def error(self) -> InputError:
        return InputError(str(self), field=self.field, value=self.value)


def _picklable(value: Any) -> Any:
    """``value`` if it survives the pipe back to the parent, else its repr."""
    import pickle

    try:
        pickle.dumps(value)
    except Exception:  # noqa: BLE001
        return repr(value)
    return value


class Boxed:
    """``fn()`` running in a forked child process with a hard wall-clock deadline.

    :meth:`result` returns ``("ok", value)``, ``("input", message)`` (an InputError: the source
    does not apply; the message is a :class:`Refusal`, which keeps the error's field and value), ``("error", message)``, ``("memory", message)`` or ``("stopped",
    message)`` (the child was killed at its deadline: a solver call in C code cannot be
    interrupted from Python, a process can).  The value travels back pickled.  The child ends
    with its parent (:mod:`mlopt.lifeline`)."""

    def __init__(self, seconds: float, fn: Callable[[], Any], why: str | None = None):
        import multiprocessing

        self.seconds = seconds
        self.deadline = time.perf_counter() + seconds
        self._out = None
        if seconds <= 0:  # never started: ``why`` (a skipped source) or out of time
            self._out = ("skipped", why) if why else ("stopped", "no time left in the budget")
            return
        ctx = multiprocessing.get_context("fork")
        self._recv, send = ctx.Pipe(duplex=False)

        def child():
            from mlopt.lifeline import watch_parent

            watch_parent()
            try:
                out = ("ok", fn())
            except InputError as err:
                out = ("input", Refusal(err.message, err.field, err.value))
            except MemoryError:
                out = ("memory", "out of memory")
            except BaseException as err:  # noqa: BLE001  (reported, never lost)
                out = ("error", f"{type(err).__name__}: {err}")
            try:
                send.send(out)
            except Exception as err:  # noqa: BLE001
                send.send(("error", f"result could not be sent back: {err}"))

        # not daemonic: a source may box work of its own (the exact model's warm start); it
        # is killed at its deadline here and ends with its parent (lifeline) regardless
        self._proc = ctx.Process(target=child, daemon=False)
        self._proc.start()
        send.close()

    def done(self) -> bool:
        """Whether the result is in (or the deadline has passed), without waiting."""
        if self._out is not None:
            return True
        return self._recv.poll(0) or time.perf_counter() >= self.deadline

    def cancel(self, why: str) -> None:
        """Stop the child now (its result is no longer needed): ``result()`` says ``why``."""
        if self._out is None:
            self._out = ("stopped", why)
            if self._proc.is_alive():
                self._proc.kill()
            self._proc.join()
            self._recv.close()

    def result(self) -> tuple[str, Any]:
        """Wait (at most until the deadline) for the result; the child is gone afterwards."""
        if self._out is not None:
            return self._out
        try:
            if self._recv.poll(max(0.0, self.deadline - time.perf_counter())):
                try:
                    self._out = self._recv.recv()
                except EOFError:
                    self._proc.join(1)
                    self._out = ("error", f"the child process died (exit code "
                                          f"{self._proc.exitcode})")
            else:
                self._out = ("stopped", f"stopped at its share of the budget "
                                        f"({self.seconds:.1f} s)")
        finally:
            if self._proc.is_alive():
                self._proc.kill()
            self._proc.join()
            self._recv.close()
        return self._out


def run_boxed(seconds: float, fn: Callable[[], Any]) -> tuple[str, Any]:
    """``fn()`` in a child process killed after ``seconds`` of wall clock (:class:`Boxed`)."""
    return Boxed(seconds, fn).result()


def _anytime(fam, name: str) -> bool:
    """A bound that uses the time it is given (its function takes a time limit)."""
    import inspect

    try:
        params = inspect.signature(fam.bound(name)).parameters
    except (TypeError, ValueError):
        return False
    return "time_limit" in params or "total_time_limit" in params


def _import_sources(fam, names: list[str], until: float) -> None:
    """Import the algorithms' modules and the checker here, once, before any source is
    forked (the exact model has started already): each child would otherwise import them
    again (ten algorithms importing pandas and Pyomo cost seconds of a loaded core each).
    Stops at ``until`` (the children import what is left); a module that fails to import is
    left to its source's child, which reports the error in its row."""
    from mlopt.families.base import resolve

    for ref in ["mlopt.check:structural_violations", fam.checker] + [
            fam.algorithm_record(n).run for n in names]:
        if time.perf_counter() >= until:
            return
        try:
            resolve(ref)
        except Exception:  # noqa: BLE001  (reported by the source itself)
            pass


def _cores() -> int:
    """CPU cores this process may use (:func:`mlopt.machine.cores`; tests replace this)."""
    from mlopt.machine import cores

    return cores()


class _Step:
    """One source of the bracket (an algorithm, ``kind="primal"``, or a bound, ``"dual"``):
    started in its own child process (:class:`Boxed`), its result added to the state when the
    child is done."""

    def __init__(self, kind: str, name: str, rerun: bool = False):
        self.kind, self.name, self.rerun = kind, name, rerun
        self.t0 = 0.0
        self.runtime = 0.0  # how long it ran
        # the time it was given: its budget option's value (clipped to the option's range,
        # so it may be shorter than the inner limit of ``share``), at most that inner limit
        self.cap = 0.0
        self.seed = 0  # the run's seed (run_seed), so two runs do not repeat each other
        self.best_before = None  # the best value when a rerun started
        self.note = ""  # added to the source's note (what a rerun started from)

    def start(self, fam, workload, solver: str, threads: int, share: float,
              best=None, best_from: str | None = None, from_best: bool = False) -> "Boxed":
        """``best``: the best checked schedule so far (from source ``best_from``); an
        improvement algorithm run again (``Algorithm.start_option``) starts from it, so its
        second run continues from the best interval end instead of repeating its first run.
        ``from_best`` (a bracket given a start schedule): its first run starts from it too."""
        self.t0 = time.perf_counter()
        if self.kind == "primal":
            start = best if (self.rerun or from_best) and \
                fam.algorithm_record(self.name).start_option else None
            self.note = "" if start is None else f"started from {best_from}'s schedule"
            if self.seed:
                self.note = "; ".join(x for x in (self.note, f"seed {self.seed}") if x)
            options = _budget_options(fam, self.name, share)
            self.cap = min([_inner(share), *options.values()])
            return Boxed(share, _algorithm_work(fam, workload, self.name, options, start,
                                                seed=self.seed))
        if share <= 0.5:
            return Boxed(0.0, lambda: None, why="no time left in the budget")
        record = fam.bounds_.get(self.name)  # None: lp_relaxation, the exact model's own
        keyword = record.start_option if record is not None else None
        options = {keyword: best} if keyword and best is not None else None
        self.note = "" if options is None else f"given {best_from}'s schedule"
        return Boxed(share, _bound_work(fam, workload, self.name, solver, threads,
                                        _inner(share), options))

    def finish(self, st: "_State", handle: "Boxed") -> None:
        kind, out = handle.result()
        dt = self.runtime = time.perf_counter() - self.t0
        before = len(st.sources)
        (_finish_algorithm if self.kind == "primal" else _finish_bound)(
            st, self.name, kind, out, dt)
        st.stamp(before, self.t0)
        for source in st.sources[before:]:
            if self.note:
                source.note = "; ".join(x for x in (self.note, source.note) if x)


def run_seed(seed: int, round_: int) -> int:
    """The seed of an algorithm's run in a bracket of ``seed``: its first run is round 0, its
    reruns count up from 1 across the algorithms.  ``seed`` 0 keeps the seeds bracket always
    used (the round itself), so earlier runs repeat; any other seed draws each run's seed from
    (seed, round) through numpy's SeedSequence, so two brackets' seeds do not overlap."""
    if seed == 0:
        return round_
    import numpy as np

    return int(np.random.SeedSequence([seed, round_]).generate_state(1)[0])


def _inner(share: float) -> float:
    """A method's own time limit inside its hard one (``share``), with room to return its
    result: an anytime method killed at the hard limit loses everything it found."""
    return max(0.5, share - max(1.0, 0.15 * share))


def _budget_options(fam, name: str, share: float) -> dict[str, float]:
    """``{budget_option: seconds}`` for an anytime algorithm (``Algorithm.budget_option``:
    local search, price-and-branch), its share of the budget as its own cap, clipped to the
    option's declared range; ``{}`` for every other algorithm (run with its defaults).  Before,
    such a search ran to its default cap: killed with nothing when the share was shorter
    (Harmony's 30 s local search in a 60 s bracket), stopped early when it was longer."""
    option = fam.algorithm_record(name).budget_option
    if option is None:
        return {}
    param = (fam.option_schema(name) or {})[option]
    seconds = _inner(share)
    if param.high is not None:
        seconds = min(seconds, float(param.high))
    if param.low is not None:
        seconds = max(seconds, float(param.low) + (0.5 if param.low_open else 0.0))
    return {option: seconds}


def _algorithm_work(fam, workload, name: str, options: dict | None = None,
                    start=None, seed: int = 0) -> Callable[[], Any]:
    def work():
        schedule = fam.run(name, workload, seed=seed, options=options, start=start)
        res = fam.check(workload, schedule)
        return schedule, res.feasible, float(res.objective), res.summary(limit=2)
    return work


def _finish_algorithm(st: "_State", name: str, kind: str, out, dt: float) -> None:
    if kind != "ok":
        status = {"input": "skipped"}.get(kind, kind)
        st.add(Source(name, "primal", None, status, dt, str(out)))
        return
    schedule, feasible, objective, summary = out
    if not feasible:
        st.add(Source(name, "primal", None, "infeasible", dt, summary))
        return
    st.add(Source(name, "primal", objective, "ok", dt), schedule)


#: the least time left for which the anytime algorithms run again once every source has run
RERUN_MIN_S = 5.0
#: the longest run of an anytime algorithm run again, as a share of the budget (the best
#: schedule moves to the other core's next run at least this often)
RERUN_SHARE = 0.25
#: the share of the budget after which a late bound (``Bound.start_option``) starts
LATE_AT = 0.6
#: the share of the budget after which an exact model that has reported no bound is stopped
EXACT_PATIENCE = 0.5
#: the share of the budget above which an exact model's estimated build (a lower bound on the
#: build alone) skips it (DECISION on patience, module docstring)
BUILD_SHARE = 0.125

#: most of the budget the size estimate may take before the exact model starts (DECISION: an
#: estimate that needs longer -- hetero's enumerates every configuration, as its builder does --
#: leaves the decision to the build itself, in its child process, as without an estimate)
ESTIMATE_SHARE = 0.05


def _too_large(fam, workload, budget: float) -> str | None:
    """Why the default exact model cannot be built in ``budget`` seconds or in the memory
    available, from its size estimate (:mod:`mlopt.modelsize`); None when it can, when the
    formulation registers no estimate, or when the estimate takes more than
    :data:`ESTIMATE_SHARE` of the budget.

    The estimate runs in a child process: stopped by a signal here, it could leave a module it
    was importing half-initialized in ``sys.modules`` (pandas, under load), and every source
    forked afterwards would fail on it."""
    from mlopt.modelsize import estimate, refusal

    kind, out = run_boxed(max(0.1, ESTIMATE_SHARE * budget), lambda: estimate(fam, workload))
    if kind == "input":  # the model refuses this workload outright (hetero's placement_ti
        return f"not built: {out}"  # beyond its placement cap)
    if kind != "ok" or out is None:  # too slow, failed, or no estimate: the build decides
        return None
    size = out
    why = refusal(size, budget)
    if why is None and size.build_s > BUILD_SHARE * budget:
        why = (f"building it takes at least {size.build_s:.3g} s, more than "
               f"{BUILD_SHARE:.3g} of the {budget:.0f} s left: it would not report a bound "
               f"by half of the budget (EXACT_PATIENCE)")
    return None if why is None else (f"not built: {why} ({size.summary()})")


class _Listener:
    """The exact model's progress from its child process: the child's sink sends (incumbent,
    bound) pairs through a pipe; a daemon thread here passes them to ``on_progress`` (if any)
    and notes whether a dual bound has come (the bracket's patience with the exact model)."""

    def __init__(self, on_progress):
        import multiprocessing
        import threading

        self.on_progress = on_progress
        self.bound_seen = False  # the solver has reported a dual bound
        self._recv, send = multiprocessing.get_context("fork").Pipe(duplex=False)
        self._send = send
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

        def sink(incumbent, bound):  # runs in the child, inside the solver's callback
            send.send((incumbent, bound))
        self.sink = sink

    def start(self) -> None:
        self._send.close()  # the child holds the sending end now
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                if self._recv.poll(0.1):
                    incumbent, bound = self._recv.recv()
                    self.bound_seen = self.bound_seen or bound is not None
                    if self.on_progress is not None:
                        self.on_progress(incumbent, bound)
            except (EOFError, OSError):
                return
            except Exception:  # noqa: BLE001  (a display never breaks the bracket)
                return

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(1.0)
        self._recv.close()


def _start_exact(fam, workload, solver: str, threads: int, share: float,
                 verify: bool, report=None, given=None) -> "Boxed":
    """Build, solve, extract, check (and, for a claimed optimum, verify with a second solver)
    in one child process, all inside ``share`` seconds; started, not waited for."""
    form = fam.exact_formulation()
    deadline = time.perf_counter() + share

    def work():
        from mlopt.families.base import resolve
        from mlopt.solve import Status, solve
        from mlopt.solve import verify as verify_optimum

        t0 = time.perf_counter()
        model = fam.model(form.name)(workload)
        build_s = time.perf_counter() - t0
        left = deadline - time.perf_counter()
        # room to extract, check and send back: a solver can overrun its limit (presolve,
        # cleanup), and a child killed at the deadline loses its incumbent and bound
        limit = 0.85 * left - 1.0
        if limit <= 0.5:
            return {"build_s": build_s, "solved": False}
        from mlopt.solvers.progress import reporting

        start, warm_note = _warm_start(fam, workload, model, cap=0.2 * limit, given=given)
        with reporting(report):
            if start is not None:
                from mlopt.warmstart import solve_warm

                limit = 0.85 * (deadline - time.perf_counter()) - 1.0
                res = solve_warm(model, start, solver, time_limit=max(0.5, limit),
                                 mip_gap=0.0, threads=threads)
            else:
                res = solve(model, solver, time_limit=limit, mip_gap=0.0, threads=threads)
        if report is not None and res.bound is not None and math.isfinite(res.bound):
            # the solver's last word, before extraction, checking and verification: HiGHS
            # sends a bound found in presolve or at the root only at a later node, if any,
            # and the bracket reads silence as no bound yet (patience)
            try:
                report(res.objective, res.bound)
            except Exception:  # noqa: BLE001  (a display never breaks the solve)
                pass
        out = {"build_s": build_s, "solved": True, "status": res.status.value,
               "solve_s": res.runtime_s, "bound": res.bound, "schedule": None, "value": None,
               "check": None, "verified_by": None, "warm": warm_note}
        if res.has_solution:
            schedule = resolve(form.extract)(model, workload)
            check = fam.check(workload, schedule)
            out["schedule"], out["check"] = schedule, check.summary(limit=2)
            out["value"] = float(check.objective) if check.feasible else None
        if verify and res.status == Status.OPTIMAL and out["value"] is not None:
            left = deadline - time.perf_counter() - 0.5
            if left > 0.5:
                v = verify_optimum(model, res, "auto", time_limit=left, threads=threads)
                out["verified_by"] = v.verified_by if v.verified else None
                out["verify_note"] = v.reason if not v.verified else ""
        return out

    return Boxed(share, work)


def _warm_start(fam, workload, model, cap: float, given=None):
    """The exact model's start: the best checked schedule of the family's
    ``warm_start_algorithms`` (default: its online algorithms;
    :func:`mlopt.warmstart.best_start`, in a child process stopped after ``cap`` seconds)
    and the bracket's ``given`` start (a checked :class:`~mlopt.warmstart.Candidate`), encoded
    for ``model``.
    (None, why) when there is none or it cannot be encoded."""
    from mlopt.warmstart import _better, best_start, encode_schedule

    names = (list(fam.warm_start_algorithms) if fam.warm_start_algorithms is not None else
             sorted(n for n, a in fam.algorithms_.items() if a.role == "online"))
    until, best = time.perf_counter() + cap, given
    for name in names:  # one child each, in order: a slow one loses only its own schedule
        kind, cand = run_boxed(until - time.perf_counter(),
                               lambda name=name: best_start(workload, fam.name, [name]))
        if kind == "ok" and cand is not None and (
                best is None or _better(fam.sense, cand.objective, best.objective)):
            best = cand
    if best is None:
        return None, (f"cold start (no schedule of {', '.join(names)} within the warm-start "
                      "cap)")
    try:
        start = encode_schedule(fam.name, model, workload, best.schedule)
    except Exception as err:  # noqa: BLE001  (a start is an optimisation, never required)
        return None, f"cold start (encoding {best.algorithm}'s schedule failed: {err})"
    return start, f"warm start from {best.algorithm} ({best.objective:.6g})"


def _finish_exact(st: _State, fam, handle: "Boxed", solver: str, t0: float):
    before = len(st.sources)
    out = _exact_sources(st, fam, handle, solver, t0)
    st.stamp(before, t0)
    return out


def _exact_sources(st: _State, fam, handle: "Boxed", solver: str, t0: float):
    name = f"{fam.exact_formulation().name} ({solver})"
    form = fam.exact_formulation()
    kind, out = handle.result()
    dt = time.perf_counter() - t0
    if kind != "ok":
        st.add(Source(name, "exact", None, {"input": "skipped"}.get(kind, kind), dt,
                      str(out)))
        return None
    if not out["solved"]:
        st.add(Source(name, "exact", None, "stopped", dt,
                      f"built in {out['build_s']:.1f} s; no time left to solve"))
        return None
    note = (f"build {out['build_s']:.1f} s, {out.get('warm') or 'cold start'}, solve "
            f"{out['solve_s']:.1f} s, solver status {out['status']}")
    if out["schedule"] is not None and out["value"] is None:
        note += "; the checker rejects its incumbent: " + out["check"]
    if out.get("verified_by"):
        note += f"; verified by {out['verified_by']}"
    elif out.get("verify_note"):
        note += f"; not verified: {out['verify_note']}"
    bound = out["bound"] if out["bound"] is not None and math.isfinite(out["bound"]) else None
    st.add(Source(name, "exact", None, "ok" if bound is not None else "no_bound", dt, note,
                  bound=bound))
    if out["value"] is not None:
        st.add(Source(f"{form.name} incumbent", "primal", out["value"], "ok", 0.0,
                      f"{solver} incumbent, checked"), out["schedule"])
    return out


def compute_bound(fam, workload, name: str, *, solver: str, time_limit: float, threads: int,
                  options: dict | None = None) -> float | dict | None:
    """Bound ``name`` of ``fam`` on ``workload`` as its method returns it: a family's bound
    (with the context keywords -- time_limit, threads, solver -- its signature takes, and the
    user's ``options``, which may not name them), or ``lp_relaxation`` of the default exact model."""
    from mlopt.harness.tasks import _call, lp_relaxation_bound

    if name == "lp_relaxation":
        return lp_relaxation_bound(workload, family=fam, model=None, model_options={},
                                   solver=solver, time_limit=time_limit, threads=threads,
                                   solver_options={})
    fn = fam.bound(name)
    # the context reaches the bound with or without options: a bound given options and no
    # time limit of its own would run to the hard deadline and be killed with nothing
    return _call(fn, workload, context={"time_limit": time_limit, "threads": threads,
                                        "solver": solver}, **(options or {}))


def _bound_work(fam, workload, name: str, solver: str, threads: int,
                inner: float, options: dict | None = None) -> Callable[[], Any]:
    """The bound's method with ``inner`` seconds as its own time limit (inside the hard one)
    and ``options`` (the best schedule, through ``Bound.start_option``); a schedule it also
    returns (a restricted master's) is checked here, in the child."""
    def work():
        from mlopt.harness.tasks import _bound_value

        ret = compute_bound(fam, workload, name, solver=solver, time_limit=inner,
                            threads=threads, options=options)
        schedule = ret.pop("schedule", None) if isinstance(ret, dict) else None
        value, status, details = _bound_value(ret)
        checked = None
        if schedule is not None:
            check = fam.check(workload, schedule)
            checked = float(check.objective) if check.feasible else None
        return value, status, schedule, checked, _confirmation(details)
    return work


def _confirmation(details: dict) -> dict:
    """A bound method's second-solver answer (class_relaxation's and share_ip's ``confirm``):
    ``verified_by`` when it confirmed, with ``confirmed_at`` when the answer names a ``level``
    (class_relaxation's: near a schedule, so it may close an interval; share_ip's confirms
    its own bound and names none), ``asked`` (what it said) whenever it was asked; {} when it
    was not."""
    answer = details.get("confirm") or {}
    out = {}
    if answer:
        at = f" at {answer['level']!r}" if "level" in answer else ""
        out["asked"] = (f"second solver {answer.get('solver')}{at}: "
                        f"{answer.get('status')}, bound {answer.get('bound')!r}, "
                        f"{answer.get('runtime_s')} s")
    by, level = details.get("verified_by"), answer.get("level")
    if by:  # confirmed; a ``level`` near a schedule also lets it close an interval (_proof)
        out["verified_by"] = str(by)
        if isinstance(level, (int, float)) and math.isfinite(level):
            out["confirmed_at"] = float(level)
    return out


def _finish_bound(st: "_State", name: str, kind: str, out, dt: float) -> None:
    if kind != "ok":
        st.add(Source(name, "dual", None, {"input": "skipped"}.get(kind, kind), dt, str(out)))
        return
    value, status, schedule, checked, confirmed = out
    confirmed = dict(confirmed)
    asked = confirmed.pop("asked", None)
    note = "; ".join(x for x in (f"method status {status}" if status else "", asked) if x)
    st.add(Source(name, "dual", value, "ok" if value is not None else "no_bound", dt,
                  note, **confirmed))
    if checked is not None:  # a bound method that also found a schedule (restricted master)
        st.add(Source(f"{name} schedule", "primal", checked, "ok", 0.0,
                      "found by the bound method, checked"), schedule)


def _run_bound(st: "_State", fam, workload, name: str, solver: str, threads: int,
               share: float) -> None:
    """Bound ``name`` in a child process stopped after ``share`` seconds, waited for."""
    step = _Step("dual", name)
    step.finish(st, step.start(fam, workload, solver, threads, share))


def _proof(st: _State, exact_out, solver: str) -> tuple[str, str | None] | None:
    """How a closed interval is proven, as (proof, second solver or None), or None (only one
    solver's word: reported as an interval).  The rules, in order:

    1. a checked schedule meets (within CLOSED_TOL) a bound the family registers from a
       theorem (``Bound.solver`` False): the bound is certified, the schedule a witness;
    2. a checked schedule meets a solver's bound (``Bound.solver``: an LP or MILP dual bound)
       whose method had a *second* solver confirm it: that solver found no solution of the
       method's model at or beyond a level (``Source.confirmed_at``) within the optimality
       tolerance of ``mlopt instances solve`` (OPTIMALITY_GAP_TOL, 1e-6 relative) of the best
       checked schedule, so OPT lies between the two on two solvers' word -- the standard of
       an ``optimal`` row of ``solu.csv`` (class_relaxation's ``confirm``);
    3. the exact model's optimum, confirmed by a second solver.

    A solver's bound without a second solver's confirmation (``lp_relaxation``, or a
    ``Bound.solver`` bound that did not confirm, or confirmed a level too far from the
    schedule) closes nothing alone, however close it is."""
    if st.crossed():  # a bound beyond a checked schedule proves nothing (``disputed``)
        return None
    record = st.fam.bounds_.get(st.dual_src)
    width = None if st.primal is None or st.dual is None else abs(st.dual - st.primal)
    met = width is not None and width <= CLOSED_TOL * max(1.0, abs(st.primal))
    if met and record is not None and not record.solver:  # a theorem's bound, met by a witness
        return f"checked schedule {st.primal_src} meets certified bound {st.dual_src}", None
    confirmed = st.confirmed()
    if confirmed is not None and st.fam.bounds_.get(confirmed.name) is not None:
        return (f"checked schedule {st.primal_src} meets {confirmed.name}'s bound within the "
                f"optimality tolerance; confirmed by {confirmed.verified_by}: no solution at "
                f"or beyond {confirmed.confirmed_at!r}"), confirmed.verified_by
    if met and exact_out and exact_out.get("verified_by"):
        return (f"{solver} optimum verified by {exact_out['verified_by']}",
                exact_out["verified_by"])
    return None
