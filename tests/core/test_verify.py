"""Optima verified by a second solver (issue 8, section 2).

A claimed optimum is re-solved by a second backend; agreement gives ``verified``, a contradiction
gives status ``disputed`` (never ``optimal``), and a verification that cannot run or conclude is
``not verified`` with its reason.  Disputes are planted with fake backends (HiGHS underneath,
then a forged claim) registered only for the test that uses them.
"""
from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import pyomo.environ as pyo
import pytest

from mlopt.cli import main
from mlopt.errors import InputError
from mlopt.harness.runner import run_spec
from mlopt.harness.spec import parse_spec
from mlopt.harness.store import COLUMNS, SCHEMA_VERSION, ResultStore, _columns
from mlopt.instances import SOLU_COLUMNS, load_set, read_solu, solve_set, verify_set, write_solu
from mlopt.pipeline import solve_offline
from mlopt.solve import (Agreement, SolveResult, Status, VERIFY_REL_TOL, agree, solve,
                         verify)
from mlopt.solvers import BACKENDS
from mlopt.solvers.highs import HighsBackend

ROOT = Path(__file__).resolve().parents[2]
SCIP = BACKENDS["scip"].available()


# ---- fake second solvers ------------------------------------------------------------------------
class _Forged(HighsBackend):
    """HiGHS, then report ``factor`` x its objective and bound as a proven optimum."""

    name = "toy_forged"
    factor = 1.001
    status = Status.OPTIMAL

    def solve(self, model, **kw) -> SolveResult:
        res = super().solve(model, **kw)
        obj, bnd = res.objective * self.factor, res.bound * self.factor
        return SolveResult(self.status, obj, bnd, 0.0, res.runtime_s, self.name,
                           res.solver_version, res.sense, "forged")


class _Worse(_Forged):  # claims a proven optimum 0.1% below the true one (the HiGHS bug's shape)
    name = "toy_worse"
    factor = 0.999


class _Tiny(_Forged):  # differs by 1e-7 relative: within the verification tolerance
    name = "toy_tiny"
    factor = 1 + 1e-7


class _Capped(_Forged):  # stopped at a limit: incumbent below, bound above: contradicts nothing
    name = "toy_capped_v"

    def solve(self, model, **kw) -> SolveResult:
        res = HighsBackend.solve(self, model, **kw)
        return SolveResult(Status.FEASIBLE, res.objective * 0.9, res.bound * 1.5, 0.6,
                           res.runtime_s, self.name, res.solver_version, res.sense, "timelimit")


class _Crash(HighsBackend):
    name = "toy_crash"

    def solve(self, model, **kw):
        raise RuntimeError("segfault simulated")


class _Absent(HighsBackend):
    name = "toy_absent"

    @classmethod
    def available(cls) -> bool:
        return False


class _Zeroes(HighsBackend):
    """Loads an all-zero point into the model and claims the first optimum is right."""

    name = "toy_zeroes"

    def solve(self, model, **kw) -> SolveResult:
        res = super().solve(model, **kw)
        for v in model.component_data_objects(pyo.Var):
            v.set_value(0, skip_validation=True)
        return res


FAKES = (_Forged, _Worse, _Tiny, _Capped, _Crash, _Absent, _Zeroes)


@pytest.fixture(autouse=True)
def fakes(monkeypatch):
    for cls in FAKES:
        monkeypatch.setitem(BACKENDS, cls.name, cls)


@pytest.fixture(scope="module")
def tiny():
    iset = load_set("oasis-tiny")
    return iset.load(iset.entries[0])


def knapsack() -> pyo.ConcreteModel:
    """max 5a + 4b + 3c  s.t. 2a + 3b + c <= 5, binaries.

    Hand check: {a, b} weighs 5 and earns 9; {a, c} weighs 3 and earns 8; {b, c} 7; {a, b, c}
    weighs 6 > 5.  Optimum 9.
    """
    m = pyo.ConcreteModel()
    m.x = pyo.Var(["a", "b", "c"], domain=pyo.Binary)
    m.obj = pyo.Objective(expr=5 * m.x["a"] + 4 * m.x["b"] + 3 * m.x["c"], sense=pyo.maximize)
    m.cap = pyo.Constraint(expr=2 * m.x["a"] + 3 * m.x["b"] + m.x["c"] <= 5)
    return m


# ---- the solve layer ----------------------------------------------------------------------------
def test_status_enum_has_disputed():
    assert Status("disputed") is Status.DISPUTED
    r = SolveResult(Status.DISPUTED, 1.0, 2.0, 1.0, 0.0, "s", "v", "max")
    assert r.has_solution  # an incumbent, just not a proven optimum


def test_agreement_on_a_hand_checked_model():
    m = knapsack()
    first = solve(m)
    assert first.status == Status.OPTIMAL and first.objective == pytest.approx(9)
    v = verify(m, first)  # default second solver
    assert v.outcome == Agreement.VERIFIED and v.verified
    assert v.second["objective"] == pytest.approx(9)
    assert v.verified_by.startswith("scip " if SCIP else "highs ")
    # the same through the package-level name (mlopt.solve is the function there)
    import mlopt

    assert mlopt.solve.verify(m, first, "highs").verified


def test_highs_as_second_solver_runs_without_presolve_and_restarts():
    m = knapsack()
    v = verify(m, solve(m), "highs")
    assert v.verified
    assert v.options == {"presolve": "off", "mip_allow_restart": False}
    assert "presolve=off" in v.verified_by and "mip_allow_restart=false" in v.verified_by


def test_model_keeps_the_first_solution_after_verification():
    m = knapsack()
    first = solve(m)
    before = {k: m.x[k].value for k in "abc"}
    assert verify(m, first, "toy_zeroes").verified
    assert {k: m.x[k].value for k in "abc"} == before == {"a": 1, "b": 1, "c": 0}


@pytest.mark.parametrize("liar, why", [("toy_forged", "better than the claimed optimum"),
                                       ("toy_worse", "cuts off the claimed optimum")])
def test_planted_disagreement_is_disputed(liar, why):
    m = knapsack()
    v = verify(m, solve(m), liar)
    assert v.outcome == Agreement.DISPUTED and not v.verified and v.verified_by is None
    assert why in v.reason
    assert v.first["objective"] == pytest.approx(9)
    assert v.second["objective"] != pytest.approx(9)


def test_minimization_disputes_mirror():
    """min 2a + 3b + c  s.t. a + b + c >= 2, binaries: cheapest pair {a, c} costs 3."""
    m = pyo.ConcreteModel()
    m.x = pyo.Var(["a", "b", "c"], domain=pyo.Binary)
    m.obj = pyo.Objective(expr=2 * m.x["a"] + 3 * m.x["b"] + m.x["c"], sense=pyo.minimize)
    m.cover = pyo.Constraint(expr=m.x["a"] + m.x["b"] + m.x["c"] >= 2)
    first = solve(m)
    assert first.objective == pytest.approx(3)
    assert verify(m, first).verified
    # for min, a lower objective (toy_worse: x0.999) is the "better" claim, a higher bound cuts
    assert "better than the claimed" in verify(m, first, "toy_worse").reason
    assert "cuts off the claimed" in verify(m, first, "toy_forged").reason


def test_tolerance_is_relative_and_documented():
    # 1e-7 relative apart: agree; the 5e-5 error that motivated verification: disagree
    assert agree(1000.0, 1000.0 * (1 + 1e-7))
    assert not agree(1000.0, 1000.0 * (1 + 5e-5))
    assert agree(0.0, 5e-7)  # absolute floor near zero
    assert VERIFY_REL_TOL < 5e-5
    m = knapsack()
    assert verify(m, solve(m), "toy_tiny").verified


@pytest.mark.parametrize("second, reason", [
    ("toy_capped_v", "did not prove optimality"),
    ("toy_crash", "failed: segfault simulated"),
    ("toy_absent", "not installed"),
])
def test_verification_that_cannot_conclude_is_not_verified(second, reason):
    m = knapsack()
    v = verify(m, solve(m), second)
    assert v.outcome == Agreement.NOT_VERIFIED and not v.verified
    assert reason in v.reason


def test_nothing_to_verify_without_an_optimum():
    m = knapsack()
    first = solve(m)
    first.status = Status.FEASIBLE
    v = verify(m, first, "highs")
    assert not v.verified and "nothing to verify" in v.reason and v.second is None


# ---- pipeline -----------------------------------------------------------------------------------
def test_pipeline_verified(tiny):
    off = solve_offline(tiny, verify=True)
    assert off.solve.status == Status.OPTIMAL and off.verified
    d = off.to_dict()
    assert d["verified"] is True and d["verified_by"] == off.verification.verified_by
    assert d["verification"]["second"]["checked_feasible"] is True
    assert d["verification"]["second"]["checked_objective"] == pytest.approx(off.objective)
    assert "dispute" not in d


@pytest.mark.skipif(not SCIP, reason="SCIP is not installed")
def test_scip_first_is_verified_by_highs_without_presolve(tiny):
    off = solve_offline(tiny, solver="scip", verify=True)
    assert off.verified and off.verified_by.startswith("highs ")
    assert "presolve=off" in off.verified_by


def test_pipeline_without_verify_reports_unverified(tiny):
    d = solve_offline(tiny).to_dict()
    assert d["status"] == "optimal" and d["verified"] is False and d["verified_by"] is None
    assert d["verification"] is None


def test_pipeline_dispute_is_never_optimal(tiny):
    off = solve_offline(tiny, verify="toy_forged")
    assert off.solve.status == Status.DISPUTED and not off.verified
    d = off.to_dict()
    assert d["status"] == "disputed"
    first, second = d["dispute"]["first"], d["dispute"]["second"]
    assert first["objective"] == pytest.approx(off.objective)
    assert second["objective"] == pytest.approx(first["objective"] * 1.001)
    assert first["bound"] is not None and second["bound"] is not None
    # the reported bound is the looser one: valid whichever solver is right (max: the larger)
    assert d["bound"] == pytest.approx(max(first["bound"], second["bound"]))
    assert d["gap"] > 0


def test_pipeline_unknown_verifier_is_an_input_error(tiny):
    with pytest.raises(InputError, match="verify"):
        solve_offline(tiny, verify="nosuch")


# ---- CLI ----------------------------------------------------------------------------------------
def _cli(capsys, *argv):
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def tiny_file():
    iset = load_set("oasis-tiny")
    return str(iset.file(iset.entries[0]))


def test_cli_verify_default(tiny_file, capsys):
    code, out, _ = _cli(capsys, "solve", tiny_file, "--verify", "--json")
    d = json.loads(out)
    assert code == 0 and d["status"] == "optimal" and d["verified"] is True
    assert d["verified_by"].split()[0] == ("scip" if SCIP else "highs")
    code, out, _ = _cli(capsys, "solve", tiny_file, "--verify")
    assert code == 0 and "verified by" in out


def test_cli_verify_named_solver_and_dispute(tiny_file, capsys):
    code, out, _ = _cli(capsys, "solve", tiny_file, "--json", "--verify", "highs")
    assert json.loads(out)["verified_by"].startswith("highs ")
    code, out, _ = _cli(capsys, "solve", tiny_file, "--json", "--verify", "toy_worse")
    d = json.loads(out)  # a disputed optimum is a failed result: exit 1
    assert code == 1 and d["status"] == "disputed" and d["verified"] is False
    assert d["dispute"]["second"]["objective"] < d["dispute"]["first"]["objective"]
    assert d["dispute"]["first"]["bound"] is not None and d["dispute"]["second"]["bound"]
    code, out, _ = _cli(capsys, "solve", tiny_file, "--verify", "toy_worse")
    assert "DISPUTED" in out


def test_cli_verify_unknown_solver_is_one_line_exit_2(tiny_file, capsys):
    code, out, err = _cli(capsys, "solve", tiny_file, "--verify", "nosuch")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and "nosuch" in err


# ---- specs and the harness ----------------------------------------------------------------------
def _spec(verify_line: str, method: str = "exact") -> str:
    return ('family = "oasis"\n[[instances]]\npreset = "tiny"\nseeds = [0, 1]\n'
            '[[algorithms]]\nname = "fifo"\n'
            f'[offline]\nmethod = "{method}"\ntime_limit = 30\n{verify_line}\n')


def test_spec_verify_option_parses():
    assert parse_spec(_spec("")).verify is None
    assert parse_spec(_spec("verify = false")).verify is None
    assert parse_spec(_spec("verify = true")).verify == "auto"
    assert parse_spec(_spec('verify = "highs"')).verify == "highs"
    # an absent option leaves the fingerprint (and so resumable results) unchanged
    assert parse_spec(_spec("")).fingerprint() == parse_spec(_spec("verify = false")).fingerprint()
    assert parse_spec(_spec("verify = true")).fingerprint() != parse_spec(_spec("")).fingerprint()


@pytest.mark.parametrize("line, method, msg", [
    ('verify = "nosuch"', "exact", "unknown solver"),
    ('verify = "toy_absent"', "exact", "not installed"),
    ("verify = 3", "exact", "true, false or a solver name"),
    ("verify = true", "none", "needs offline.method"),
])
def test_spec_verify_option_rejects_bad_values(line, method, msg):
    text = _spec(line, method)
    with pytest.raises(InputError, match=msg) as err:
        parse_spec(text, file="s.toml")
    assert "offline.verify" in str(err.value)


def _run(tmp_path, name, verify_line):
    path = tmp_path / f"{name}.toml"
    path.write_text(_spec(verify_line))
    run_spec(path, tmp_path / name, workers=0, progress=False)
    with ResultStore(tmp_path / name / "results.sqlite") as s:
        return s.to_frame()


def test_harness_verified_optima_give_point_ratios(tmp_path):
    df = _run(tmp_path, "ok", "verify = true")
    off = df[df.method_kind == "offline"]
    assert (off.status == "optimal").all() and off.verified.all() and off.proven.all()
    assert off.verified_by.str.startswith("scip" if SCIP else "highs").all()
    alg = df[df.method_kind == "algorithm"]
    assert alg.verified.all() and (alg.ratio_low == alg.ratio_high).all()


def test_harness_dispute_gives_intervals_never_optimal(tmp_path):
    df = _run(tmp_path, "bad", 'verify = "toy_forged"')
    off = df[df.method_kind == "offline"]
    assert (off.status == "disputed").all() and not off.verified.any()
    assert not off.proven.any() and off.verified_by.isna().all()
    assert (off.bound_low < off.bound_high).all()  # OPT bracketed, not a point
    alg = df[df.method_kind == "algorithm"]
    assert not alg.proven.any()
    finite = alg[alg.ratio_high < float("inf")]  # fifo earning 0 gives inf at both ends
    assert len(finite) and (finite.ratio_low < finite.ratio_high).all()
    ex = json.loads(off.extra.iloc[0])
    assert ex["verification"]["outcome"] == "disputed"
    # the reported bound is the forged (looser, larger) one
    assert ex["solver_bound"] == pytest.approx(ex["verification"]["second"]["bound"])


def test_harness_unverifiable_optimum_is_not_a_point_value(tmp_path):
    df = _run(tmp_path, "capped", 'verify = "toy_capped_v"')
    off = df[df.method_kind == "offline"]
    assert (off.status == "optimal").all() and not off.verified.any() and not off.proven.any()
    assert "did not prove" in json.loads(off.extra.iloc[0])["verification"]["reason"]
    alg = df[df.method_kind == "algorithm"]
    assert (alg.ratio_low <= alg.ratio_high).all() and not alg.proven.any()


def test_harness_report_counts_verification(tmp_path):
    from mlopt.harness.report import report

    _run(tmp_path, "bad", 'verify = "toy_forged"')
    text = report(tmp_path / "bad")
    assert "verified by a second solver" in text and "| disputed |" in text


# ---- results store migration --------------------------------------------------------------------
def _v1_db(path: Path) -> None:
    con = sqlite3.connect(str(path), isolation_level=None)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT)")
    con.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    con.execute(f"CREATE TABLE results ({', '.join(_columns(1))}, PRIMARY KEY (key))")
    con.execute("CREATE INDEX results_task ON results(task_key)")  # as version 1 wrote it
    row = {c: None for c in _columns(1)} | {"key": "t1/offline/m", "task_key": "t1",
                                             "status": "optimal", "objective": 3.0}
    con.execute(f"INSERT INTO results VALUES ({', '.join('?' * len(row))})", list(row.values()))
    con.close()


def test_old_schema_opens_read_only_and_migrates_on_first_write(tmp_path):
    path = tmp_path / "results.sqlite"
    _v1_db(path)
    assert "verified" not in _columns(1) and len(_columns(1)) == len(COLUMNS) - 2
    before = path.read_bytes()
    with ResultStore(path) as s:
        assert s.schema_version == 1
        (r,) = s.rows()
        assert r["objective"] == 3.0 and r["verified"] is None and set(r) == set(COLUMNS)
        assert s.to_frame().verified.isna().all()
    assert path.read_bytes() == before  # reading never rewrites an old file
    with ResultStore(path) as s:
        s.add_task([{"key": "t2/offline/m", "task_key": "t2", "status": "optimal",
                     "verified": True, "verified_by": "scip 10"}])
        assert s.schema_version == SCHEMA_VERSION == 2
    with ResultStore(path) as s:
        assert s.schema_version == 2 and s.get_meta("schema_version") == 2
        rows = {r["key"]: r for r in s.rows()}
        assert rows["t1/offline/m"]["verified"] is None
        assert rows["t2/offline/m"]["verified"] == 1
        assert rows["t2/offline/m"]["verified_by"] == "scip 10"


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "results.sqlite"
    with ResultStore(path):
        pass
    con = sqlite3.connect(str(path))
    con.execute("UPDATE meta SET value = '99' WHERE name = 'schema_version'")
    con.commit()
    con.close()
    with pytest.raises(InputError, match="schema version 99"):
        ResultStore(path)


@pytest.mark.parametrize("db", sorted(ROOT.glob("benchmarks/*/results/*/results.sqlite")),
                         ids=lambda p: p.parent.name)
def test_committed_results_still_open_and_report(db):
    from mlopt.harness.report import report

    digest = hashlib.sha256(db.read_bytes()).hexdigest()
    with ResultStore(db) as s:
        df = s.to_frame()
        assert len(df) > 0 and df.verified.isna().all()
    assert "Experiment report" in report(db.parent)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == digest


# ---- instances/solu.csv -------------------------------------------------------------------------
@pytest.fixture
def one_tiny():
    iset = load_set("oasis-tiny")
    iset.entries = iset.entries[:1]
    return iset


def test_solu_has_a_verified_by_column():
    assert SOLU_COLUMNS[-1] == "verified_by"
    header = (ROOT / "instances" / "solu.csv").read_text().splitlines()[0].split(",")
    assert header == list(SOLU_COLUMNS)


def test_update_solu_verifies_before_it_writes(tmp_path, one_tiny):
    path = tmp_path / "solu.csv"
    (row,) = solve_set(one_tiny, update_solu=True, solu_path=path)
    rec = read_solu(path)[row["instance"]]
    assert rec["status"] == "optimal" and rec["verified_by"] == row["verified_by"]
    assert rec["verified_by"].split()[0] == ("scip" if SCIP else "highs")


def test_update_solu_refuses_a_disputed_optimum(tmp_path, one_tiny, capsys):
    path = tmp_path / "solu.csv"
    (row,) = solve_set(one_tiny, update_solu=True, solu_path=path, verify="toy_forged")
    assert row["status"] == "disputed" and row["verified_by"] is None
    assert read_solu(path) == {}  # nothing written for it
    # an older (verified) record stays as it was
    solve_set(one_tiny, update_solu=True, solu_path=path)
    before = path.read_text()
    solve_set(one_tiny, update_solu=True, solu_path=path, verify="toy_worse")
    assert path.read_text() == before


def test_update_solu_records_an_unverifiable_optimum_as_a_bound(tmp_path, one_tiny):
    path = tmp_path / "solu.csv"
    (row,) = solve_set(one_tiny, update_solu=True, solu_path=path, verify="toy_absent")
    rec = read_solu(path)[row["instance"]]
    assert rec["status"] == "bound" and rec["verified_by"] is None
    assert "not installed" in row["reason"]


def test_verify_set_fills_and_clears_verified_by(tmp_path, one_tiny):
    name = one_tiny.entries[0].name
    path = tmp_path / "solu.csv"
    rec = {**read_solu()[name], "verified_by": None}
    write_solu({name: rec}, path)
    (r,) = verify_set(one_tiny, update_solu=True, solu_path=path)
    assert r["outcome"] == "verified" and read_solu(path)[name]["verified_by"] == r["verified_by"]
    # a recorded optimum that a second solver refutes loses its verified_by
    (r,) = verify_set(one_tiny, solver="toy_worse", update_solu=True, solu_path=path)
    assert r["outcome"] == "disputed" and read_solu(path)[name]["verified_by"] is None
    # a planted wrong record (0.1% below the optimum) is caught by the real second solver
    write_solu({name: {**rec, "objective": rec["objective"] * 0.999,
                       "bound": rec["bound"] * 0.999}}, path)
    (r,) = verify_set(one_tiny, update_solu=True, solu_path=path)
    assert r["outcome"] == "disputed" and "better than the claimed optimum" in r["reason"]


def test_verify_set_lists_a_bracket_proof_without_re_solving_it(tmp_path, one_tiny,
                                                                  monkeypatch, capsys):
    """An optimum ``mlopt instances bracket`` recorded (a bound a second solver confirmed,
    oasis-open-1's) is listed as such and never re-solved: at open scale a re-solve stopped
    at its limit would have blanked a two-solver proof with --update-solu."""
    import mlopt.pipeline as pipeline

    name = one_tiny.entries[0].name
    path = tmp_path / "solu.csv"
    rec = {**read_solu()[name], "solver": "mlopt bracket 7200s (start s.json / class_relaxation)",
           "verified_by": "scip 10"}
    write_solu({name: rec}, path)
    before = path.read_text()

    def no_solve(*args, **kwargs):
        raise AssertionError("re-solved a bracket's proof")
    monkeypatch.setattr(pipeline, "verify_offline", no_solve)
    (r,) = verify_set(one_tiny, update_solu=True, solu_path=path)
    assert r["outcome"] == "bracket-proof" and r["verified_by"] == "scip 10"
    assert "re-run that bracket" in r["reason"] and path.read_text() == before
    import mlopt.instances as inst
    real = inst.verify_set
    monkeypatch.setattr(inst, "verify_set", lambda iset, **kw: real(
        one_tiny, **{**kw, "solu_path": path}))
    code, out, _ = _cli(capsys, "instances", "verify", "oasis-tiny")
    assert code == 0 and "bracket-proof" in out and "scip 10" in out


def test_cli_instances_solve_and_verify(tmp_path, capsys, monkeypatch):
    import mlopt.instances as inst

    code, out, _ = _cli(capsys, "instances", "verify", "oasis-tiny", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 5 and all(r["outcome"] == "verified" for r in rows)
    # --update-solu with a disputing second solver: exit 1, nothing written
    path = tmp_path / "solu.csv"
    real = inst.solve_set
    monkeypatch.setattr(inst, "solve_set", lambda iset, **kw: real(
        load_set("oasis-tiny").__class__(iset.name, iset.path, iset.family, iset.description,
                                   iset.entries[:1]), **{**kw, "solu_path": path}))
    code, out, err = _cli(capsys, "instances", "solve", "oasis-tiny", "--update-solu", "--verify",
                          "toy_forged")
    assert code == 1 and "disputed" in out and "not recorded" in err
    assert not path.exists() or read_solu(path) == {}
    code, _, err = _cli(capsys, "instances", "solve", "oasis-tiny", "--verify", "nosuch")
    assert code == 2 and "nosuch" in err


def test_every_quick_spec_verifies():
    from mlopt.cli.quickstart import quick_specs
    from mlopt.harness.spec import load_spec

    # the README: the quickstart verifies every optimum with a second solver (Harmony's spec
    # once did not, and its table said "optimal" where the others said "(verified)"); that the
    # quickstart's table says so: tests/cli/test_cli.py (one quickstart run in the suite)
    assert {p.name: load_spec(p).verify for p in quick_specs()} == {
        p.name: "auto" for p in quick_specs()}
