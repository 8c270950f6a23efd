"""Model size before building (mlopt.modelsize, Formulation.estimate): every builtin family's
exact model has an estimate, and it matches the built model on small instances."""
from __future__ import annotations

import pytest

from mlopt.families import get_family
from mlopt.families.base import Family, Formulation
from mlopt.modelsize import (BUILD_S_PER_NONZERO, BYTES_PER_NONZERO, COUNT_TOL, ModelSize,
                             estimate, measure, refusal, union_len)

# (family, preset, generator parameters): the tiny instance of every family plus a larger
# one where the builder stays under a second
CASES = [
    ("oasis", "tiny", {}), ("oasis", "paper-fig5", {"n_jobs": 6, "horizon": 12}),
    ("pdors", "tiny", {}), ("pdors", "small", {}),
    ("edgecloud", "tiny", {}), ("edgecloud", "paper-ratio", {}),
    ("edgecloud", "tiny", {"storage_gb": [1.0, 4.0]}),  # the storage extension's rows
    ("harmony", "tiny", {}), ("harmony", "small", {}),
    ("hetero", "tiny", {}), ("hetero", "tiny-ra", {}), ("hetero", "small", {}),
]


def _close(est: int, got: int) -> bool:
    return abs(est - got) <= COUNT_TOL * max(1, got)


@pytest.mark.parametrize("family,preset,params", CASES,
                         ids=[f"{f}-{p}{'-' + '-'.join(q) if q else ''}" for f, p, q in CASES])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_estimate_matches_the_built_model(family, preset, params, seed):
    fam = get_family(family)
    w = fam.generate(preset, seed=seed, **params)
    est = estimate(fam, w)
    got = measure(fam.model()(w))
    assert est.model == got.model
    for what in ("variables", "rows", "nonzeros"):
        assert _close(getattr(est, what), getattr(got, what)), (what, est, got)
    # stated tolerance is 15%; on these instances every count is in fact exact
    assert (est.variables, est.rows, est.nonzeros) == (got.variables, got.rows, got.nonzeros)


def test_every_builtin_exact_model_has_an_estimate():
    from mlopt.families.base import BUILTIN

    # the built-in families only: other tests register toy families (without estimates)
    for name, fam in ((n, get_family(n)) for n in BUILTIN):
        exact = [f for f in fam.formulations.values() if f.role == "exact"
                 and f.name == fam.default_model]
        assert exact and exact[0].estimate is not None, name


def test_memory_and_build_time_follow_the_nonzeros():
    s = ModelSize("m", 10, 20, 1_000_000)
    assert s.memory_bytes == 1_000_000 * BYTES_PER_NONZERO
    assert s.build_s == pytest.approx(1_000_000 * BUILD_S_PER_NONZERO)
    d = s.to_dict()
    assert d["nonzeros"] == 1_000_000 and d["memory_bytes"] == s.memory_bytes


def test_refusal_by_time_and_by_memory():
    # 10^7 nonzeros at BUILD_S_PER_NONZERO (4e-6 s) = 40 s of building: a 5 s limit refuses,
    # a 100 s limit does not; 10^8 * 40 B = 4 GB against 1 GB available refuses
    big = ModelSize("m", 1, 1, 10_000_000)
    assert "time limit" in refusal(big, 5.0, memory=10 ** 12)
    assert refusal(big, 100.0, memory=10 ** 12) is None
    assert "available" in refusal(ModelSize("m", 1, 1, 10 ** 8), None, memory=10 ** 9)
    assert refusal(ModelSize("m", 1, 1, 10 ** 8), None, memory=10 ** 10) is None
    assert refusal(None, 0.001) is None  # nothing known: never refused on a guess


def test_paper_default_oasis_is_estimated_fast_and_refused_at_5_s():
    import time

    fam = get_family("oasis")
    w = fam.generate("paper-default", seed=5)
    t0 = time.perf_counter()
    est = estimate(fam, w)
    assert time.perf_counter() - t0 < 5.0
    # 200 jobs, T = 300, 100 servers: millions of variables, tens of millions of nonzeros
    assert est.variables > 1_000_000 and est.nonzeros > 10_000_000
    assert refusal(est, 5.0) is not None


def test_a_family_without_an_estimate_gets_none():
    fam = get_family("oasis")
    plain = Formulation("plain", fam.formulations["utility_ilp"].build,
                        fam.formulations["utility_ilp"].extract)
    assert plain.estimate is None
    toy = Family(name="toy_size", paper="-", sense="max", package="mlopt.families.oasis",
                 checker="mlopt.families.oasis.checker:check_oasis",
                 fields="mlopt.families.oasis.fields:validate_oasis",
                 formulations=[plain], default_model="plain")
    assert estimate(toy, fam.generate("tiny", seed=0)) is None


def test_union_len():
    assert union_len([]) == 0
    assert union_len([(1, 3), (2, 5), (7, 7)]) == 6  # 1..5 and 7
    assert union_len([(4, 4), (1, 2)]) == 3


@pytest.mark.parametrize("model", ["flow_lb", "flow_lb_zeta1"])
@pytest.mark.parametrize("preset", ["tiny", "paper-ratio"])
def test_edgecloud_bound_models_are_estimated_too(model, preset):
    fam = get_family("edgecloud")
    for seed in (0, 1):
        w = fam.generate(preset, seed=seed)
        est, got = estimate(fam, w, model), measure(fam.model(model)(w))
        assert (est.variables, est.rows, est.nonzeros) == (got.variables, got.rows,
                                                           got.nonzeros), (est, got)


def test_available_memory_is_known_here():
    from mlopt.modelsize import available_memory

    mem = available_memory()
    assert mem is None or mem > 0
