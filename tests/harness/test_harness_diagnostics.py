"""The harness runs a family's per-algorithm diagnostics on every checked run, stores them in
the row's extra["theory"], and reports them; a failing diagnostic is recorded, never raised."""
from __future__ import annotations

import dataclasses
import json

from mlopt.families import get_family
from mlopt.harness import ResultStore, run_spec, write_report

SPEC = """family = "oasis"
[[instances]]
preset = "tiny"
seeds = [0, 1]
[[algorithms]]
name = "oasis"
[[algorithms]]
name = "fifo"
[offline]
method = "exact"
"""


def test_diagnostics_are_stored_and_reported(tmp_path, monkeypatch):
    fam = get_family("oasis")
    seen = []

    def diag(workload, schedule, *, options, opt_upper):
        seen.append(opt_upper)
        return {"competitive_bound": 3.0, "within_bound": True, "lemma_violations": 1,
                "lemma_checked": len(workload.jobs)}

    def broken(workload, schedule, *, options, opt_upper):
        raise RuntimeError("boom")

    algs = dict(fam.algorithms_)
    algs["oasis"] = dataclasses.replace(algs["oasis"], diagnostics=diag)
    algs["fifo"] = dataclasses.replace(algs["fifo"], diagnostics=broken)
    monkeypatch.setattr(fam, "algorithms_", algs)
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC)
    summary = run_spec(spec, tmp_path / "out", workers=0, progress=False)
    assert summary.ok
    df = ResultStore(tmp_path / "out" / "results.sqlite").to_frame()
    algs = df[df.method_kind == "algorithm"].set_index(["seed", "method"])
    for seed in (0, 1):
        theory = json.loads(algs.loc[(seed, "oasis"), "extra"])["theory"]
        assert theory["competitive_bound"] == 3.0
        assert json.loads(algs.loc[(seed, "fifo"), "extra"])["theory"] == {
            "error": "RuntimeError: boom"}
        assert algs.loc[(seed, "fifo"), "feasible"]  # the diagnostic did not change the result
    # the diagnostic saw the proven optimum as the upper end of OPT
    assert sorted(seen) == sorted(df[df.method_kind == "offline"].objective.tolist())
    text = write_report(tmp_path / "out").read_text()
    assert "### Theory checks" in text
    assert "| `oasis` | 2 | 0 | 3 | 3 | 2/2 | 2/6 |" in text
