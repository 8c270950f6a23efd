"""The edge-cloud instance sets: the manifests regenerate the committed files, and every optimum
recorded in instances/solu.csv (verified by a second solver) is re-proven here."""
from __future__ import annotations

import pytest

from mlopt.instances import build_entry, load_set, read_solu
from mlopt.pipeline import solve_offline
from mlopt.solve import Status

SETS = ("edgecloud-tiny", "edgecloud-small")
SOLU = read_solu()


@pytest.mark.parametrize("set_name", SETS)
def test_manifest_regenerates_committed_files(set_name):
    iset = load_set(set_name)
    assert iset.family == "edgecloud"
    for entry in iset.entries:
        w = build_entry(iset, entry)
        assert w.content_hash() == entry.hash == iset.load(entry).content_hash()
        assert SOLU[entry.name]["status"] == "optimal" and SOLU[entry.name]["verified_by"]


@pytest.mark.parametrize("name", sorted(n for n, r in SOLU.items() if r["set"] in SETS))
def test_recorded_optimum_is_reproduced(name):
    rec = SOLU[name]
    iset = load_set(rec["set"])
    entry = next(e for e in iset.entries if e.name == name)
    res = solve_offline(iset.load(entry), family="edgecloud", time_limit=60)
    assert res.solve.status == Status.OPTIMAL and res.check.feasible
    assert res.objective == pytest.approx(rec["objective"], abs=1e-6)
