"""Smoke tests for benchmarks/oasis/ (OASiS paper Fig. 3-6 reproduction): specs parse, the
Fig. 4 script runs end to end on a tiny configuration, and plot.py draws from a tiny store."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd
import pytest

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "oasis"


def _module(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_oasis_{name}", BENCH / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("name, n_instances, n_algorithms", [
    ("fig3_utility_vs_jobs", 20, 5), ("fig5_ratio", 150, 5), ("fig6_estimates", 12, 6)])
def test_specs_parse(name, n_instances, n_algorithms):
    from mlopt.harness.spec import load_spec

    spec = load_spec(BENCH / f"{name}.toml")
    assert spec.family == "oasis"
    assert len(spec.instances()) == n_instances
    assert len(spec.algorithms) == n_algorithms


def test_fig4_tiny(tmp_path):
    fig4 = _module("fig4_timeliness")
    fig4.main(["--seeds", "1", "--jobs", "4", "--servers", "2", "--horizon", "30",
               "--workers", "1", "-o", str(tmp_path)])
    df = pd.read_csv(tmp_path / "per_job.csv")
    assert len(df) == 4 * len(fig4.SCHEMES)  # every job of every scheme, completed or not
    done = df.status == "completed"
    assert df.loc[done, "lateness"].notna().all() and df.loc[~done, "lateness"].isna().all()
    d = df[done]
    assert ((d.lateness - (d.duration - d.gamma3)).abs() < 1e-4).all()
    assert (tmp_path / "fig4_timeliness.png").stat().st_size > 0
    assert "| oasis |" in (tmp_path / "summary.md").read_text()


def test_plot_fig3_from_tiny_store(tmp_path):
    from mlopt.harness.runner import run_spec

    spec = tmp_path / "t.toml"
    spec.write_text("""
name = "t"
family = "oasis"
[[instances]]
preset = "tiny"
seeds = [0, 1]
[instances.grid]
n_jobs = [2, 3]
[[algorithms]]
name = "oasis"
[[algorithms]]
name = "fifo"
[offline]
method = "none"
    """)
    run_spec(spec, tmp_path, workers=0, progress=False)
    plot = _module("plot")
    plot.fig3(tmp_path)
    assert (tmp_path / "fig3_utility_vs_jobs.png").stat().st_size > 0
    assert "| 3 | 2 |" in (tmp_path / "fig3_utility_vs_jobs.md").read_text()
