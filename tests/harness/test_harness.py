"""End-to-end harness runs on the toy families: checked results, ratios, resume, executors."""
from __future__ import annotations

import json
import math

import pandas as pd
import pytest
import test_harness_toyfamily as toy
from test_harness_toyfamily import toys  # noqa: F401  (autouse: registers the toys)

from mlopt.errors import InputError
from mlopt.harness import ResultStore, report, run_spec, write_report
from mlopt.harness.store import VOLATILE

ALL_MAX_ALGS = ["greedy", "random", "nothing", "everything", "raise"]


def spec_text(family="harness_toy_max", algorithms=ALL_MAX_ALGS, seeds="[0, 1, 2]",
              grid="n_jobs = [5, 8]", solver="highs", bounds='["fractional", "too_low", '
              '"lp_relaxation"]', algo_options=None, offline_extra=""):
    algo_options = algo_options or {}
    algs = "".join(
        f'[[algorithms]]\nname = "{a}"\n'
        + (f"options = {algo_options[a]}\n" if a in algo_options else "")
        for a in algorithms)
    return (f'name = "t"\nfamily = "{family}"\n[[instances]]\npreset = "small"\n'
            f"seeds = {seeds}\n[instances.grid]\n{grid}\n{algs}"
            f"[offline]\ntime_limit = 20\nbounds = {bounds}\n{offline_extra}"
            f'[solver]\nname = "{solver}"\n')


def run(tmp_path, name, text, **kw):
    spec = tmp_path / f"{name}.toml"
    spec.write_text(text)
    out = tmp_path / name
    summary = run_spec(spec, out, progress=False, **kw)
    with ResultStore(out / "results.sqlite") as s:
        return summary, s.to_frame()


def stable(df: pd.DataFrame) -> pd.DataFrame:
    return df.drop(columns=list(VOLATILE)).sort_values("key").reset_index(drop=True)


def by(df, seed, n_jobs, kind, method):
    sel = df[(df.seed == seed) & (df.params == json.dumps({"n_jobs": n_jobs}, separators=(",", ":")))
             & (df.method_kind == kind) & (df.method == method)]
    assert len(sel) == 1
    return sel.iloc[0]


@pytest.fixture(scope="module")
def max_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("maxrun")
    summary, df = run(tmp, "max", spec_text(), workers=0)
    return tmp, summary, df


def test_every_number_is_checked_and_ratios_are_points(max_run):
    _, summary, df = max_run
    assert summary.ok and summary.completed == 6 and summary.errors == 6  # 'raise' x 6
    assert len(df) == 6 * (1 + 3 + 5)
    for seed in (0, 1, 2):
        for n in (5, 8):
            w = toy.toy_generator(seed=seed, n_jobs=n)
            opt = toy._brute_force(w, "max")
            off = by(df, seed, n, "offline", "knapsack")
            assert off.status == "optimal" and off.proven and off.feasible
            assert off.objective == pytest.approx(opt)
            assert off.bound_low == off.bound_high == off.objective
            assert off.content_hash == w.content_hash()
            for label, fn in (("greedy", toy.alg_greedy), ("random", toy.alg_random)):
                row = by(df, seed, n, "algorithm", label)
                alg = toy.check_max(w, fn(w, seed=seed)).objective
                assert row.objective == alg and row.feasible and row.proven
                assert row.ratio_low == row.ratio_high == pytest.approx(opt / alg)
            nothing = by(df, seed, n, "algorithm", "nothing")
            assert nothing.objective == 0 and math.isinf(nothing.ratio_low)
            every = by(df, seed, n, "algorithm", "everything")
            assert every.status == "infeasible" and not every.feasible
            assert pd.isna(every.ratio_low) and "c_capacity" in every.extra
            err = by(df, seed, n, "algorithm", "raise")
            assert err.status == "error" and "always fails" in json.loads(err.extra)["error"]
            frac = by(df, seed, n, "bound", "fractional")
            assert frac.status == "ok" and frac.bound_high >= opt - 1e-9
            assert frac.bound_high == pytest.approx(toy.bound_fractional(w))
            lp = by(df, seed, n, "bound", "lp_relaxation")
            assert lp.bound_high == pytest.approx(frac.bound_high)  # LP of a knapsack = Dantzig
            low = by(df, seed, n, "bound", "too_low")
            assert low.status == "violated" and low.bound_high == 0.5
    assert set(df.solver.dropna()) == {"highs"} and df.mlopt_version.notna().all()


def test_interval_when_the_solver_stops_early(tmp_path):
    # toy_capped: HiGHS's optimum reported as an unproven incumbent with bound 1.25 * OPT
    _, df = run(tmp_path, "capped", spec_text(algorithms=["greedy", "random"], seeds="[4]",
                                              grid="n_jobs = [8]", solver="toy_capped",
                                              bounds="[]"), workers=0)
    w = toy.toy_generator(seed=4, n_jobs=8)
    opt = toy._brute_force(w, "max")
    off = by(df, 4, 8, "offline", "knapsack")
    assert off.status == "feasible" and not off.proven
    assert (off.bound_low, off.bound_high) == pytest.approx((opt, 1.25 * opt))
    rnd = by(df, 4, 8, "algorithm", "random")
    alg = toy.check_max(w, toy.alg_random(w, seed=4)).objective
    assert (rnd.ratio_low, rnd.ratio_high) == pytest.approx((opt / alg, 1.25 * opt / alg))
    assert not rnd.proven
    # with the fractional bound the tighter of the two bounds is used
    _, df = run(tmp_path, "capped2", spec_text(algorithms=["random"], seeds="[4]",
                                               grid="n_jobs = [8]", solver="toy_capped",
                                               bounds='["fractional"]'), workers=0)
    high = min(1.25 * opt, toy.bound_fractional(w))
    assert by(df, 4, 8, "algorithm", "random").ratio_high == pytest.approx(high / alg)


def test_no_incumbent_uses_algorithms_as_primal(tmp_path):
    _, df = run(tmp_path, "nosol", spec_text(algorithms=["greedy", "random"], seeds="[4]",
                                             grid="n_jobs = [8]", solver="toy_nosol",
                                             bounds="[]"), workers=0)
    w = toy.toy_generator(seed=4, n_jobs=8)
    opt = toy._brute_force(w, "max")
    off = by(df, 4, 8, "offline", "knapsack")
    assert off.status == "no_solution" and pd.isna(off.objective)
    g = toy.check_max(w, toy.alg_greedy(w)).objective
    r = toy.check_max(w, toy.alg_random(w, seed=4)).objective
    best = max(g, r)
    assert off.bound_low == best and off.bound_high == pytest.approx(1.25 * opt)
    assert by(df, 4, 8, "algorithm", "random").ratio_low == pytest.approx(best / r)


def test_minimization_family(tmp_path):
    text = spec_text(family="harness_toy_min", algorithms=["greedy", "all", "none"],
                     seeds="[0, 1]", grid="n_jobs = [6]", bounds='["lp_relaxation"]')
    _, df = run(tmp_path, "min", text, workers=0)
    for seed in (0, 1):
        w = toy.toy_generator(seed=seed, n_jobs=6)
        opt = toy._brute_force(w, "min")
        assert by(df, seed, 6, "offline", "cover").objective == pytest.approx(opt)
        for label, fn in (("greedy", toy.alg_cover_greedy), ("all", toy.alg_everything)):
            row = by(df, seed, 6, "algorithm", label)
            alg = toy.check_min(w, fn(w)).objective
            assert row.ratio_low == row.ratio_high == pytest.approx(alg / opt)  # ALG / OPT
            assert row.ratio_low >= 1 - 1e-9
        assert by(df, seed, 6, "algorithm", "none").status == "infeasible"
        lp = by(df, seed, 6, "bound", "lp_relaxation")
        assert pd.isna(lp.bound_high) and lp.bound_low <= opt + 1e-9  # a lower bound
    # min with an unproven incumbent: OPT in [0.8 OPT, OPT] -> ratio in [ALG/OPT, ALG/(0.8 OPT)]
    text = text.replace('name = "highs"', 'name = "toy_capped"').replace(
        '["lp_relaxation"]', "[]")
    _, df = run(tmp_path, "min2", text, workers=0)
    w = toy.toy_generator(seed=1, n_jobs=6)
    opt = toy._brute_force(w, "min")
    alg = toy.check_min(w, toy.alg_everything(w)).objective
    row = by(df, 1, 6, "algorithm", "all")
    assert (row.ratio_low, row.ratio_high) == pytest.approx((alg / opt, alg / (0.8 * opt)))


def test_resume_skips_finished_tasks_and_guards_the_directory(tmp_path):
    text = spec_text(algorithms=["greedy"], seeds="[0, 1]", grid="n_jobs = [5]", bounds="[]")
    s1, df1 = run(tmp_path, "r", text, workers=0)
    assert (s1.completed, s1.skipped) == (2, 0)
    with pytest.raises(InputError, match="already holds results"):
        run(tmp_path, "r", text, workers=0)
    # more seeds, same method configuration: only the new task runs
    s2, df2 = run(tmp_path, "r", text.replace("[0, 1]", "[0, 1, 2]"), workers=0, resume=True)
    assert (s2.completed, s2.skipped, s2.total) == (1, 2, 3)
    old = df2[df2.seed < 2].sort_values("key").reset_index(drop=True)
    pd.testing.assert_frame_equal(old, df1.sort_values("key").reset_index(drop=True))
    s3, _ = run(tmp_path, "r", text.replace("[0, 1]", "[0, 1, 2]"), workers=0, resume=True)
    assert (s3.completed, s3.skipped) == (0, 3)
    # a different method configuration must not mix into the same table
    with pytest.raises(InputError, match="different method configuration"):
        run(tmp_path, "r", text.replace("time_limit = 20", "time_limit = 30"), workers=0,
            resume=True)
    with pytest.raises(InputError) as info:
        run_spec(tmp_path / "r.toml", tmp_path / "x", workers=-1)
    assert info.value.field == "workers"


def test_local_pool_gives_the_inline_table(max_run, tmp_path):
    _, _, inline = max_run
    summary, pooled = run(tmp_path, "pool", spec_text(), workers=2)
    assert summary.ok and summary.executor == "local[2]"
    pd.testing.assert_frame_equal(stable(pooled), stable(inline))


def test_a_killed_worker_is_retried_then_reported(tmp_path):
    marker = tmp_path / "crash.log"
    opts = {"greedy": f'{{ crash_marker = "{marker}", crash_seed = 1, crashes = 1 }}'}
    text = spec_text(algorithms=["greedy"], seeds="[0, 1, 2]", grid="n_jobs = [5]",
                     bounds="[]", algo_options=opts)
    summary, df = run(tmp_path, "k1", text, workers=1)
    assert len(marker.read_text().splitlines()) == 1  # the worker really died once
    assert summary.ok and summary.completed == 3 and df.task_key.nunique() == 3
    # a task that kills its worker every time: reported as failed, nothing stored for it
    marker.unlink()
    text2 = text.replace("crashes = 1", "crashes = 2")
    summary, df = run(tmp_path, "k2", text2, workers=1)
    assert len(marker.read_text().splitlines()) == 2
    assert "small(n_jobs=5)#1" in [inst for inst, _ in summary.failed]
    assert 1 not in set(df.seed)
    assert summary.completed + len(summary.failed) == 3
    # ... and runs again on resume (the marker now lets it through)
    summary, df = run(tmp_path, "k2", text2, workers=1, resume=True)
    assert summary.ok and df.task_key.nunique() == 3


def test_report_tables_and_figures(max_run):
    tmp, _, _ = max_run
    path = write_report(tmp / "max")
    text = path.read_text()
    assert text.startswith("# Experiment report: t")
    assert "Generated" in text and "Python" in text and "highs" in text
    assert "| `knapsack` | 6 | 6/6 (100%) | 6/6 |" in text
    greedy = next(line for line in text.splitlines() if line.startswith("| `greedy` | 6 |"))
    assert "6/6" in greedy
    nothing = next(line for line in text.splitlines() if line.startswith("| `nothing` | 6 |"))
    assert nothing.rstrip(" |").endswith("6") and "inf" in nothing
    assert "| `too_low` | 6 | 0 | 0 | 6 | 0 |" in text
    assert "Errors (6)" in text and "always fails" in text
    for png in ("ratios.png", "runtimes.png"):
        data = (tmp / "max" / "figures" / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
        assert f"figures/{png}" in text
    assert report(tmp / "max").startswith("# Experiment report")  # no figures needed


@pytest.mark.parametrize("model_options, flag", [
    ('{ forbid = ["j4"] }', "optimum_beaten"),  # a restricted model: greedy beats its "optimum"
    ("{ scale = 2.0 }", "objective_mismatch"),  # the model's objective is not the checker's
])
def test_an_optimum_the_checker_disproves_is_not_proven(tmp_path, model_options, flag):
    text = spec_text(algorithms=["greedy"], seeds="[2]", grid="n_jobs = [6]",
                     bounds='["fractional"]', offline_extra=f"model_options = {model_options}\n")
    _, df = run(tmp_path, "bad", text, workers=0)
    w = toy.toy_generator(seed=2, n_jobs=6)
    greedy = toy.check_max(w, toy.alg_greedy(w)).objective
    off = by(df, 2, 6, "offline", "knapsack")
    assert off.status == "optimal" and off.feasible and not off.proven
    assert flag in json.loads(off.extra)
    # OPT is only bracketed: [best checked schedule, best valid bound]
    assert off.bound_low == greedy == 37.0
    assert off.bound_high == pytest.approx(toy.bound_fractional(w))
    g = by(df, 2, 6, "algorithm", "greedy")
    assert not g.proven and g.ratio_low == 1.0
    assert g.ratio_high == pytest.approx(toy.bound_fractional(w) / greedy)


def _oasis_available() -> bool:
    try:
        from mlopt.families import get_family

        return "tiny" in get_family("oasis").presets
    except Exception:
        return False


@pytest.mark.skipif(not _oasis_available(), reason="the OASiS family is not wired yet")
def test_real_oasis_spec(tmp_path):
    text = ('name = "oasis"\nfamily = "oasis"\n[[instances]]\npreset = "tiny"\nseeds = [0]\n'
            '[[algorithms]]\nname = "fifo"\n[offline]\ntime_limit = 30\n'
            'bounds = ["lp_relaxation"]\n')
    summary, df = run(tmp_path, "oasis", text, workers=0)
    assert summary.ok and summary.errors == 0
    off = df[df.method_kind == "offline"].iloc[0]
    assert off.feasible and off.bound_low <= off.bound_high
    lp = df[df.method == "lp_relaxation"].iloc[0]
    assert lp.status == "ok" and lp.bound_high >= off.bound_low - 1e-6
    fifo = df[df.method == "fifo"].iloc[0]
    if fifo.feasible:
        assert 1 - 1e-9 <= fifo.ratio_low <= fifo.ratio_high
