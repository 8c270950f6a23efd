"""OASiS (seed 000, Bao et al., INFOCOM'18): maximize total utility of admitted jobs.

Wires the pieces that live in their own modules into one registered :class:`Family`:
generator presets (:mod:`mlopt.families.oasis.generator`), the utility ILP (1)-(13)
(:mod:`mlopt.models.oasis`), the online algorithm (:mod:`mlopt.families.oasis.online`), the paper's
baselines (:mod:`mlopt.families.oasis.baselines`) and the independent checker
(:mod:`mlopt.families.oasis.checker`).
"""
from __future__ import annotations

from functools import partial

from mlopt.families.oasis.baselines import BASELINES
from mlopt.families.oasis.checker import check_oasis
from mlopt.families.oasis.generator import PRESETS, check_params, generate
from mlopt.families.oasis.online import run_oasis
from mlopt.models.oasis import build_utility_ilp, extract_schedule
from mlopt.families.base import Family, register_family


def _bound_adapter(name: str):
    """Expose a certified bound of :mod:`mlopt.families.oasis.bounds` to the harness: ``{"bound": upper, ...}``
    plus the feasible side and how the bound was certified (JSON-able, kept in the results)."""
    def bound(workload, *, time_limit=None, threads=1, **options):
        from mlopt.families.oasis.bounds import colgen_bound, dual_certificate

        fn = {"colgen": colgen_bound, "dual_certificate": dual_certificate}[name]

        options.pop("seed", None)  # deterministic; the harness offers its context to all bounds
        options.pop("solver", None)
        if name == "colgen":
            options.setdefault("time_limit", time_limit if time_limit is not None else 600.0)
            options.setdefault("threads", threads)
        res = fn(workload, **options)
        out = res.to_dict()
        out.pop("details", None)
        return {"bound": res.upper_bound, **out}
    bound.__name__ = f"{name}_bound"
    return bound


def _theory_adapter(workload, schedule, *, options, opt_upper):
    """Theorem 4 / Lemma 1 / Lemma 2 checks of an OASiS run (:mod:`mlopt.families.oasis.bounds.theory`),
    summarized for the results table (the per-job detail stays out of the store)."""
    from mlopt.families.oasis.online import oasis_online
    from mlopt.families.oasis.bounds.theory import theory_checks

    opts = {k: v for k, v in options.items() if k in ("price_mode", "estimate_factor",
                                                      "work_unit", "price_scale")}
    run = oasis_online(workload, **opts)  # deterministic: re-run for the prices along the way
    if not run.schedule.allocations.equals(schedule.allocations):
        raise AssertionError("re-run of OASiS did not reproduce the checked schedule")
    t = theory_checks(workload, run, opt_upper=opt_upper)
    lemma2 = t["lemma2"]
    return {
        "alpha": t["alpha"], "competitive_bound": t["theorem4"]["two_alpha"],
        "ratio_interval": t["theorem4"]["ratio_interval"],
        "within_bound": t["theorem4"]["within_2alpha"],
        "lemma_checked": lemma2["jobs_checked"], "lemma_violations": len(lemma2["violations"]),
        "lemma_min_slack": lemma2["min_slack"],
        "lemma_violating_jobs": [{k: v[k] for k in ("job", "delta_P", "delta_D_over_alpha")}
                                 for v in lemma2["violations"][:5]],
        "d0_le_half_opt": t["lemma1"]["D0_le_half_opt"],
        "allocation_cost_violated": t["allocation_cost"]["entries_violated"],
        "replay_ok": t["replay"]["primal_equals_checker"],
    }


def _from_trace(table, **options):
    """The trace conversion of :mod:`mlopt.traces.convert` (OASiS-style jobs; imported late:
    the converter itself imports the OASiS generator's ranges)."""
    from mlopt.traces.convert import trace_to_workload

    return trace_to_workload(table, **options)


FAMILY = register_family(Family(
    name="oasis",
    paper="seeds/000 OASiS (Bao, Peng, Wu, Li; INFOCOM'18)",
    sense="max",
    check=check_oasis,
    models={"utility_ilp": build_utility_ilp},
    default_model="utility_ilp",
    extract={"utility_ilp": extract_schedule},
    algorithms={"oasis": run_oasis, **BASELINES},
    presets={name: partial(generate, name) for name in PRESETS},
    bounds={name: _bound_adapter(name) for name in ("dual_certificate", "colgen")},
    diagnostics={"oasis": _theory_adapter},
    check_params=check_params,  # option values are tried on the "tiny" preset (probe_preset)
    from_trace=_from_trace,
))
