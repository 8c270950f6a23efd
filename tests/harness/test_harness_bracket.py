"""``[offline] method = "bracket"``: the harness's OPT column comes from mlopt.bracket, so a
spec's ratio intervals are as tight as bracket makes them within the time limit."""
from __future__ import annotations

import json

import pytest

from mlopt.errors import InputError
from mlopt.harness import ResultStore, run_spec
from mlopt.harness.spec import parse_spec

SPEC = """family = "{family}"
[[instances]]
preset = "tiny"
seeds = [0, 1]
[[algorithms]]
name = "{alg}"
[offline]
method = "bracket"
time_limit = 30
"""


@pytest.mark.parametrize("family,alg", [("oasis", "oasis"), ("edgecloud", "srtf")])
def test_bracket_rows_give_point_ratios_on_tiny(tmp_path, family, alg):
    spec = tmp_path / "s.toml"
    spec.write_text(SPEC.format(family=family, alg=alg))
    summary = run_spec(spec, tmp_path / "out", workers=0, progress=False)
    assert summary.ok
    df = ResultStore(tmp_path / "out" / "results.sqlite").to_frame()
    off = df[df.method_kind == "offline"]
    assert set(off.method) == {"bracket"} and set(off.status) == {"optimal"}
    for _, r in off.iterrows():
        extra = json.loads(r["extra"])
        assert extra["proof"] and extra["sources"]
        assert r["bound_low"] == pytest.approx(r["bound_high"])
    algs = df[df.method_kind == "algorithm"]
    assert len(algs) == 2 and algs.proven.all()
    assert (algs.ratio_low == algs.ratio_high).all() and (algs.ratio_low >= 1 - 1e-9).all()


def test_bracket_refuses_verify():
    with pytest.raises(InputError) as err:
        parse_spec(SPEC.format(family="oasis", alg="oasis") + "verify = true\n")
    assert err.value.field == "offline.verify"
