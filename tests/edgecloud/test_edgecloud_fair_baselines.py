"""Issue 23's readings of SRTF and Tiresias-L: D_j-wide gangs (``*_gang``) and gangs with cloud
overflow (``*_cloud``) beside the original trace-width variants."""
from __future__ import annotations

import pytest
from edgecloud_tiny import tiny_job, tiny_workload
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mlopt.errors import InputError
from mlopt.families import get_family
from mlopt.families.edgecloud.baselines._gang import simulate_gang
from mlopt.families.edgecloud.generator import generate

FAM = get_family("edgecloud")
VARIANTS = ("srtf_gang", "srtf_cloud", "tiresias_l_gang", "tiresias_l_cloud")
EDGE_ONLY = ("srtf", "srtf_gang", "tiresias_l", "tiresias_l_gang")


def _total(w, alg, **options):
    res = FAM.check(w, FAM.run(alg, w, seed=0, options=options))
    assert res.feasible, (alg, res.summary())
    return res.objective


def near_cloud_workload():
    """The hand instance with job b's cloud delay 4 -> 3 (cloud slot 4)."""
    return tiny_workload(jobs=(tiny_job("a", 2, {"e0": 1, "e1": 1, "cloud": 3}),
                               tiny_job("b", 1, {"e0": 1, "e1": 2, "cloud": 3})))


@pytest.mark.parametrize("family_name", ("srtf", "tiresias_l"))
def test_hand_widths_and_cloud(family_name):
    """Both jobs arrive at 1 (a: D = 2, gpus 1; b: D = 1); chunks take p0 = 2 slots on the edge,
    p1 = 1 in the cloud; equal priorities at the start, so a (job order) goes first.

    original (a 1 wide): a's two chunks back to back on e0, slots 2-5 (JCT 4); b on e1 (least
      loaded), ready 1 + 2 = 3, slots 3-4 (JCT 3): total 7.
    gang (a 2 wide): a on e0 + e1 in slots 2-3 (JCT 2); b on e0 (load 2 ties e1's 2, delay 1 < 2),
      blocked while a runs, slots 4-5 (JCT 4): total 6.
    cloud: a's edge estimate 1 + 2 = slot 3 beats its cloud slot 1 + 3 + 1 - 1 = 4: edge.
      With b's cloud delay 4, b's cloud slot 5 ties its edge estimate 1 + (2 + 2) = 5: edge, 6.
      With cloud delay 3, the cloud slot 4 < 5: cloud (JCT 3): total 2 + 3 = 5."""
    w, near = tiny_workload(), near_cloud_workload()
    assert _total(w, family_name) == 7
    assert _total(w, f"{family_name}_gang") == 6
    assert _total(w, f"{family_name}_cloud") == 6
    assert _total(near, family_name) == 7
    assert _total(near, f"{family_name}_gang") == 6
    assert _total(near, f"{family_name}_cloud") == 5
    zeta = FAM.check(near, FAM.run(f"{family_name}_cloud", near)).per_job.set_index("job")["zeta"]
    assert zeta.to_dict() == {"a": 0, "b": 1}


@pytest.mark.parametrize("alg", VARIANTS)
def test_deterministic_and_declared(alg):
    w = generate("paper-ratio", 5)
    a = FAM.run(alg, w, seed=1).allocations
    assert a.equals(FAM.run(alg, w, seed=1).allocations)
    assert FAM.algorithms_[alg].role == "baseline"
    with pytest.raises(InputError):
        FAM.run(alg, w, options={"no_such_option": 1})


def test_tiresias_variants_check_thresholds():
    w = generate("tiny", 0)
    for alg in ("tiresias_l_gang", "tiresias_l_cloud"):
        with pytest.raises(InputError):
            FAM.run(alg, w, options={"thresholds": [100, 10]})
        assert FAM.check(w, FAM.run(alg, w, options={"thresholds": [2, 4, 8]})).feasible


def test_unknown_width_refused():
    with pytest.raises(InputError, match="width"):
        simulate_gang(generate("tiny", 0), lambda g, t: (0,), seed=0, producer="x",
                      width="half")


def test_edge_only_variants_never_use_the_cloud():
    w = generate("paper-ratio", 2)
    for alg in EDGE_ONLY:
        df = FAM.run(alg, w).allocations
        assert not (df[df["role"] == "worker"]["server"] == "cloud").any(), alg


def test_gang_width_is_d_j_or_the_eligible_workers():
    """Each gang job trains on min(D_j, eligible edge workers) distinct workers."""
    w = generate("paper-ratio", 7)
    from mlopt.families.edgecloud.fields import EdgeCloud
    ec = EdgeCloud(w)
    df = FAM.run("srtf_gang", w).allocations
    used = df[df["role"] == "worker"].groupby("job").apply(
        lambda g: len(set(zip(g["server"], g["worker"]))))
    for jv in ec.jobs:
        assert used[jv.id] == min(jv.chunks, len(ec.eligible(jv))), jv.id


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_jobs=st.integers(1, 8), preset=st.sampled_from(
    ("tiny", "paper-ratio")))
def test_random_small_feasible(seed, n_jobs, preset):
    w = generate(preset, seed, n_jobs=n_jobs)
    for alg in VARIANTS:
        res = FAM.check(w, FAM.run(alg, w, seed=seed))
        assert res.feasible, (alg, res.summary())


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_jobs=st.integers(1, 4))
def test_never_below_the_exact_optimum(seed, n_jobs):
    """Every reading is a feasible schedule, so its checked total JCT is >= the proven OPT."""
    from mlopt.models.edgecloud import build_jct_milp
    from mlopt.solve import Status, solve

    w = generate("tiny", seed, n_jobs=n_jobs)
    opt = solve(build_jct_milp(w), "highs", time_limit=60)
    assert opt.status == Status.OPTIMAL
    for alg in VARIANTS:
        assert _total(w, alg) >= opt.objective - 1e-6, alg
