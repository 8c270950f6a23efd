"""Model export: MPS/LP files re-read by highspy directly give the in-memory optimum."""
from __future__ import annotations

import math

import pyomo.environ as pyo
import pytest

from mlopt.errors import InputError
from mlopt.export import export_model, export_workload
from mlopt.solve import Status, solve


def _highs_file_optimum(path) -> tuple[str, float, str]:
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("mip_rel_gap", 0.0)
    assert h.readModel(str(path)) == highspy.HighsStatus.kOk
    h.run()
    return (h.modelStatusToString(h.getModelStatus()), h.getInfo().objective_function_value,
            str(h.getLp().sense_))


def _small():
    """Real coefficients, a maximization, general integers (an LP relaxation would differ)."""
    m = pyo.ConcreteModel()
    m.x = pyo.Var(["a", "b"], domain=pyo.NonNegativeIntegers, bounds=(0, 10))
    m.y = pyo.Var(domain=pyo.Binary)
    m.obj = pyo.Objective(expr=1 / 3 * m.x["a"] + math.e * m.x["b"] + 0.1 * m.y,
                          sense=pyo.maximize)
    m.cap = pyo.Constraint(expr=2.5 * m.x["a"] + 3.7 * m.x["b"] <= 17.3)
    m.link = pyo.Constraint(expr=m.x["a"] >= 1.5 * m.y)
    return m


@pytest.mark.parametrize("suffix", [".mps", ".lp"])
def test_exported_file_reread_by_highspy_gives_the_same_optimum(tmp_path, suffix):
    m = _small()
    res = solve(m, "highs")
    assert res.status == Status.OPTIMAL
    relaxed = _small()
    pyo.TransformationFactory("core.relax_integer_vars").apply_to(relaxed)
    lp = solve(relaxed, "highs")
    assert lp.objective > res.objective + 1e-3  # integrality matters in this model
    path = export_model(m, tmp_path / f"small{suffix}")
    status, value, sense = _highs_file_optimum(path)
    assert status == "Optimal" and "Maximize" in sense
    assert value == pytest.approx(res.objective, rel=1e-9, abs=1e-9)
    assert [p.name for p in tmp_path.iterdir()] == [f"small{suffix}"]  # no temp file left


def test_lp_export_has_symbolic_labels(tmp_path):
    text = export_model(_small(), tmp_path / "m.lp").read_text()
    assert "cap" in text and "link" in text and "x(a)" in text and "max" in text


def test_bad_suffix_is_an_input_error(tmp_path):
    with pytest.raises(InputError) as err:
        export_model(_small(), tmp_path / "m.txt")
    assert err.value.field == "out_path"
    with pytest.raises(InputError):
        export_model(_small(), tmp_path / "missing-dir" / "m.mps")


def test_export_workload_matches_in_memory_solve(tmp_path):
    gen = pytest.importorskip("mlopt.families.oasis.generator")
    mod = pytest.importorskip("mlopt.models.oasis")
    w = gen.generate("paper-fig5", 2)
    wpath = tmp_path / "w.json"
    w.save(wpath)
    res = solve(mod.build_utility_ilp(w), "highs")
    assert res.status == Status.OPTIMAL
    out = export_workload(wpath, "utility_ilp", tmp_path / "w.mps")
    status, value, _ = _highs_file_optimum(out)
    assert status == "Optimal"
    assert value == pytest.approx(res.objective, rel=1e-7)
    # the family default model is used when no name is given; LP labels name the equations
    text = export_workload(wpath, None, tmp_path / "w.lp").read_text()
    assert "c2_work_covered" in text and "obj1_total_utility" in text


def test_export_workload_bad_input(tmp_path):
    pytest.importorskip("mlopt.families.oasis.generator")
    with pytest.raises(InputError) as err:
        export_workload(tmp_path / "none.json", "utility_ilp", tmp_path / "o.mps")
    assert "none.json" in str(err.value)
    from mlopt.families.oasis.generator import generate

    generate("tiny", 0).save(tmp_path / "w.json")
    with pytest.raises(InputError) as err:
        export_workload(tmp_path / "w.json", "no-such-model", tmp_path / "o.mps")
    assert err.value.field == "model" and err.value.value == "no-such-model"
    with pytest.raises(InputError) as err:
        export_workload(tmp_path / "w.json", None, tmp_path / "o.xyz")
    assert err.value.field == "out_path"
    with pytest.raises(InputError) as err:
        export_workload(tmp_path / "w.json", None, tmp_path / "o.mps", family="nope")
    assert err.value.field == "family"
