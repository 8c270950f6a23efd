"""PD-ORS, Alg. 1 of seed 004: primal-dual online admission and scheduling on one shared pool.

Jobs are handled in arrival order (ties: workload order), each seeing only earlier jobs:

1. prices p_h^r[t] = Q_h^r(rho_h^r[t]) (12)-(14) (:mod:`.prices`; initial p[0] = Q(0) = L);
2. theta(t, j) for every slot t >= a_i and grid share j (Alg. 4, :mod:`.oracle`) under the
   current prices and residual capacities C - rho, then the DP over time and the best
   completion slot (Alg. 2/3, :mod:`.dp`) give the schedule pi* and payoff lambda_i;
3. lambda_i > 0: admit, commit pi* (never revised), rho += alpha w + beta s and re-price the
   touched (slot, machine) pairs; otherwise reject.

Options: ``grid`` (DP units, 100), ``oracle`` ("rounding" = the paper's LP + randomized
rounding, or "exact"), ``internal`` (False: the ablation without the co-location case),
``delta`` (0.1), ``retries`` (S = 10), ``gdelta`` ("hoeffding" or "one"), ``lp``
("persistent" or "rebuild"), ``price_mode`` / ``estimate_factor`` / ``price_scale`` (prices),
``compare_exact`` (also solve the exact external IP to measure what rounding costs), ``seed``.
Plans are executed exactly (notes O13): a slot planned external that happens to be co-located
runs faster, but the plan (and its utility) is the planned one; the checker recomputes both.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from mlopt.errors import InputError
from mlopt.families.pdors.dp import best_schedule
from mlopt.families.pdors.fields import pdors_arrays, validate_pdors
from mlopt.families.pdors.oracle import GDELTA, LP_MODES, ORACLES, OracleStats, SlotOracle
from mlopt.families.pdors.prices import PRICE_MODES, PdorsPrices, pdors_prices
from mlopt.params import Param, check_values
from mlopt.schedule import Schedule
from mlopt.workload import Workload


@dataclass(frozen=True)
class JobDecision:
    job: str
    arrival: int
    admitted: bool
    payoff: float
    end_slot: int | None
    utility: float
    cost: float
    seconds: float
    internal_slots: int


@dataclass
class PdorsRun:
    schedule: Schedule
    prices: PdorsPrices
    used: np.ndarray  # (T, H, R) rho
    price: np.ndarray  # (T, H, R) final p
    decisions: list[JobDecision] = field(default_factory=list)
    stats: OracleStats = field(default_factory=OracleStats)

    @property
    def decision_seconds(self) -> np.ndarray:
        """Wall-clock seconds of each decision, as an array."""
        return np.array([d.seconds for d in self.decisions])


def _grid(value) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        raise InputError("must be an integer >= 1", field="grid", value=value)
    return int(value)


def pdors_online(workload: Workload, *, grid: int = 100, oracle: str = "rounding",
                 internal: bool = True, delta: float = 0.1, retries: int = 10,
                 gdelta: str = "hoeffding", lp: str = "persistent", price_mode: str = "oracle",
                 estimate_factor: float = 1.0, price_scale: float | None = None,
                 compare_exact: bool = False, seed: int = 0,
                 prices: PdorsPrices | None = None) -> PdorsRun:
    """Run PD-ORS over the jobs in arrival order and return the run (schedule, prices, stats)."""
    validate_pdors(workload)
    grid = _grid(grid)
    arr = pdors_arrays(workload)
    if prices is None:
        prices = pdors_prices(workload, arr, price_mode=price_mode,
                              estimate_factor=estimate_factor, price_scale=price_scale)
    T, H, R = workload.horizon, len(arr.server_ids), len(arr.resources)
    rng = np.random.default_rng(seed)
    used = np.zeros((T, H, R))
    price = np.broadcast_to(prices.price(np.zeros((1, H, R)), arr.cap), (T, H, R)).copy()
    free = np.broadcast_to(arr.cap, (T, H, R)).copy()
    rows, admitted, decisions = [], [], []
    stats = OracleStats()
    for i in np.argsort(arr.arrival, kind="stable"):
        job = workload.jobs[i]
        start = time.perf_counter()
        a = int(arr.arrival[i])
        orc = SlotOracle(alpha=arr.alpha[i], beta=arr.beta[i], F=int(arr.batch[i]),
                         gamma=int(arr.gamma[i]), n_int=arr.n_int[i], n_ext=arr.n_ext[i],
                         grid=grid, H=H, rng=rng, oracle=oracle, internal=internal, delta=delta,
                         retries=retries, gdelta=gdelta, lp=lp, compare_exact=compare_exact)
        theta, plans = {}, {}
        for t in range(a, T + 1):
            theta[t], plans[t] = orc.slot(price[t - 1], free[t - 1])
        res = best_schedule(theta, a, T, grid, job.utility)
        admit = res.end_slot is not None and res.payoff > 0
        n_int_slots = 0
        if admit:
            for t, j in res.units.items():
                p = plans[t][j]
                n_int_slots += p.mode == "int"
                used[t - 1] += np.outer(p.w, arr.alpha[i]) + np.outer(p.s, arr.beta[i])
                price[t - 1] = prices.price(used[t - 1], arr.cap)
                free[t - 1] = np.maximum(arr.cap - used[t - 1], 0.0)
        seconds = time.perf_counter() - start
        stats.merge(orc.stats)
        if admit:
            admitted.append(job.id)
            for t, j in sorted(res.units.items()):
                p = plans[t][j]
                for h in np.flatnonzero(p.w):
                    rows.append((job.id, t, arr.server_ids[h], "worker", int(p.w[h])))
                for h in np.flatnonzero(p.s):
                    rows.append((job.id, t, arr.server_ids[h], "ps", int(p.s[h])))
        decisions.append(JobDecision(job.id, a, bool(admit), float(res.payoff) if admit else 0.0,
                                     res.end_slot if admit else None,
                                     float(job.utility(res.end_slot - a)) if admit else 0.0,
                                     res.cost if admit else 0.0, seconds, n_int_slots))
    secs = np.array([d.seconds for d in decisions])
    meta = {
        "producer": "pdors", "grid": grid, "oracle": oracle, "internal": internal,
        "delta": delta, "retries": retries, "gdelta": gdelta, "lp": lp, "seed": seed,
        "prices": prices.to_dict(),
        "oracle_stats": {k: v for k, v in stats.to_dict().items() if k != "lp_seconds"},
        "internal_slots": int(sum(d.internal_slots for d in decisions)),
    }
    schedule = Schedule.from_rows(admitted, rows, meta)
    # wall-clock times stay out of the schedule file (same seed, same bytes)
    schedule.timing = {"decision_seconds": ({"median": float(np.median(secs)),
                                             "p95": float(np.percentile(secs, 95)),
                                             "max": float(secs.max())} if len(secs) else {}),
                       "lp_seconds": stats.lp_seconds}
    return PdorsRun(schedule, prices, used, price, decisions, stats)


#: most DP units per job (the DP is O(T grid^2) per job) and most rounding draws per demand
MAX_GRID = 10_000
MAX_RETRIES = 10_000

#: the options of ``pdors`` (declared; ``Family.run`` refuses any other name or a bad value);
#: ``pdors_no_internal`` takes the same ones but ``internal``
OPTIONS = {
    "grid": Param.int(100, low=1, high=MAX_GRID, doc="DP units of a job's work"),
    "oracle": Param.choice("rounding", ORACLES,
                           doc="external case: LP + randomized rounding, or the exact IP"),
    "internal": Param.bool(True, doc="Alg. 4's co-location case (false: the ablation)"),
    "delta": Param.float(0.1, low=0.0, low_open=True, high=1.0,
                         doc="rounding failure probability of G_delta"),
    "retries": Param.int(10, low=1, high=MAX_RETRIES, doc="S: rounding draws per demand"),
    "gdelta": Param.choice("hoeffding", GDELTA, doc="G_delta rule"),
    "lp": Param.choice("persistent", LP_MODES, doc="one HiGHS LP per job, or rebuilt"),
    "price_mode": Param.choice("oracle", PRICE_MODES, doc="U and L from the jobs, or estimated"),
    "estimate_factor": Param.float(1.0, low=0.0, low_open=True,
                                   doc="price_mode=estimate: scale of U/L"),
    "price_scale": Param.float(None, low=0.0, low_open=True, nullable=True,
                               doc="cap on ln(U/L) (not from the papers); null: literal prices"),
    "compare_exact": Param.bool(False, doc="also solve the exact IP (rounding statistics)"),
}
OPTIONS_NO_INTERNAL = {k: v for k, v in OPTIONS.items() if k != "internal"}


def run_pdors(workload: Workload, *, seed: int = 0, grid: int = 100, oracle: str = "rounding",
              internal: bool = True, delta: float = 0.1, retries: int = 10,
              gdelta: str = "hoeffding", lp: str = "persistent", price_mode: str = "oracle",
              estimate_factor: float = 1.0, price_scale: float | None = None,
              compare_exact: bool = False) -> Schedule:
    """PD-ORS as a registered algorithm: ``workload -> Schedule`` (options: :data:`OPTIONS`)."""
    opts = check_values(OPTIONS, dict(
        grid=grid, oracle=oracle, internal=internal, delta=delta, retries=retries,
        gdelta=gdelta, lp=lp, price_mode=price_mode, estimate_factor=estimate_factor,
        price_scale=price_scale, compare_exact=compare_exact), where="algorithm 'pdors'")
    return pdors_online(workload, seed=seed, **opts).schedule


def run_pdors_no_internal(workload: Workload, *, seed: int = 0, grid: int = 100,
                          oracle: str = "rounding", delta: float = 0.1, retries: int = 10,
                          gdelta: str = "hoeffding", lp: str = "persistent",
                          price_mode: str = "oracle", estimate_factor: float = 1.0,
                          price_scale: float | None = None,
                          compare_exact: bool = False) -> Schedule:
    """Ablation: PD-ORS without Alg. 4's internal case, on the same shared pool."""
    return run_pdors(workload, seed=seed, grid=grid, oracle=oracle, internal=False,
                     delta=delta, retries=retries, gdelta=gdelta, lp=lp, price_mode=price_mode,
                     estimate_factor=estimate_factor, price_scale=price_scale,
                     compare_exact=compare_exact)
