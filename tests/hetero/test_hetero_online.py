"""A_online / A_dual / A_maxweight / A_mincost of seed 003."""
from __future__ import annotations

import pytest

from mlopt import pipeline
from mlopt.families.hetero.generator import generate
from mlopt.families.hetero.online import a_online, theorem5_alpha
from tests.hetero_fixtures import hand


@pytest.mark.parametrize("preset, seed", [("tiny", 0), ("tiny-ra", 1), ("small", 2),
                                          ("small-ra", 3)])
def test_a_online_schedules_are_feasible(preset, seed):
    w = generate(preset, seed=seed)
    res = pipeline.run_algorithm(w, "a_online", family="hetero")
    assert res.check.feasible, res.check.summary()
    assert len(res.schedule.admitted) == len(w.jobs)


def test_a_online_on_hand_instance_rounds():
    # A needs d = 1 <= tau - 1: round 2 (tau = 2), base alpha tau = 8: A runs in slot 8, c_A = 9.
    # B (d = 3) fits from tau = 4 (round 3, base 16): c_B = 16 + 3 = 19.  WCT = 2*9 + 19 = 37.
    run = a_online(hand())
    starts = {run_pl.job: start for run_pl, start in run.placements.values()}
    assert starts == {0: 8, 1: 16}
    res = pipeline.run_algorithm(hand(), "a_online", family="hetero")
    assert res.check.feasible and res.check.objective == pytest.approx(37.0)
    # compact rounds start at max(tau_i, last end): A at 2 (c 3), B at max(4, 3) = 4 (c 7)
    res = pipeline.run_algorithm(hand(), "a_online", family="hetero", compact=True)
    assert res.check.feasible and res.check.objective == pytest.approx(2 * 3 + 7)


def test_theorem5_alpha_formula():
    import numpy as np
    lam = 2 ** 20  # log lambda = 20, gamma = 40: denominator 1 + log2 20 - log2 39
    w = np.array([1.0, 1.0, 2.0])  # log2 w(J) - log2 w_min = 2
    den = 1 + np.log2(20) - np.log2(39)
    assert theorem5_alpha(w, lam) == int(np.floor(2 / den)) + 1


def test_a_online_ra_refuses_ps_workload():
    from mlopt.errors import InputError
    from mlopt.families.hetero.online import run_a_online_ra
    with pytest.raises(InputError):
        run_a_online_ra(hand())
    assert run_a_online_ra(hand("ra")).admitted == {"A", "B"}


def test_a_online_ra_by_name_cli(tmp_path, capsys):
    """``a_online_ra`` is a registered algorithm: on an RA workload it writes exactly what
    ``a_online`` writes (but the producer name); on a PS workload the CLI prints one line and
    exits 2; a bad option value for it fails at spec load (probed on ``tiny-ra``, not the PS
    probe), and so does an unknown option name."""
    from mlopt.cli import main
    from mlopt.families import get_family
    from mlopt.errors import InputError

    ra, ps = tmp_path / "ra.json", tmp_path / "ps.json"
    assert main(["generate", "hetero", "--preset", "tiny-ra", "--seed", "0", "-o", str(ra)]) == 0
    assert main(["generate", "hetero", "--preset", "tiny", "--seed", "0", "-o", str(ps)]) == 0
    outs = {}
    for alg in ("a_online", "a_online_ra"):
        outs[alg] = tmp_path / f"{alg}.json"
        assert main(["run", alg, str(ra), "--family", "hetero", "-o", str(outs[alg])]) == 0
    a, b = (outs[k].read_text() for k in ("a_online", "a_online_ra"))
    # the same schedule; only the producer's name differs
    assert a.replace('"producer": "a_online"', '"producer": "a_online_ra"') == b
    capsys.readouterr()
    assert main(["run", "a_online_ra", str(ps), "--family", "hetero",
                 "-o", str(tmp_path / "x.json")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "extra.hetero.architecture" in err
    fam = get_family("hetero")
    assert fam.probe_preset_of("a_online_ra") == "tiny-ra"
    fam.validate_options("a_online_ra", {"alpha": 2})
    with pytest.raises(InputError) as e:
        fam.validate_options("a_online_ra", {"alpha": 0})
    assert e.value.field == "alpha"
    with pytest.raises(InputError) as e:
        fam.validate_options("a_online_ra", {"observe": 1})
    assert e.value.field == "observe"


def test_theory_diagnostics_on_hand_instance():
    from mlopt.families.hetero.theory import diagnostics
    res = pipeline.run_algorithm(hand(), "a_online", family="hetero")
    t = diagnostics(hand(), res.schedule, options={}, opt_upper=8.0)
    # WCT 37 against OPT 8: ratio 4.625 <= 4 alpha = 16
    assert t["alpha"] == 4 and t["competitive_bound"] == 16
    assert t["ratio_upper"] == pytest.approx(37 / 8) and t["within_bound"]
    assert t["alpha_theorem5"] >= 1 and t["placements"] == 2


def test_order_weight_changes_who_goes_first():
    """order="weight" (A_maxweight takes J_i by descending weight) vs arrival order, by hand.
    One server (2 GPUs); A and B are the fixture's job A (d = 1 only with 2 w1 workers = both
    GPUs) with weights 1 and 3, both arriving at 1.  Round 2 (tau = 2, usable slot 1) fits one of
    them per A_maxweight call: sub-window 1 starts at alpha tau = 8, sub-window 2 at 8 + tau = 10.
      arrival: A at 8 (c 9), B at 10 (c 11): 1*9 + 3*11 = 42;
      weight:  B at 8 (c 9), A at 10 (c 11): 3*9 + 1*11 = 38.
    Compact rounds (base max(tau, last end) = 2): 1*3 + 3*5 = 18 against 3*3 + 1*5 = 14."""
    import copy

    def two_rivals(d):
        d["servers"] = d["servers"][:1]
        b = copy.deepcopy(d["jobs"][0])
        b["id"], b["extra"]["weight"] = "B", 3.0
        d["jobs"][0]["extra"]["weight"] = 1.0
        d["jobs"][1] = b

    w = hand(mutate=two_rivals)
    want = {("arrival", False): ({0: 8, 1: 10}, 42.0), ("weight", False): ({1: 8, 0: 10}, 38.0),
            ("arrival", True): ({0: 2, 1: 4}, 18.0), ("weight", True): ({1: 2, 0: 4}, 14.0)}
    for (order, compact), (starts, wct) in want.items():
        run = a_online(w, order=order, compact=compact)
        assert {int(pl.job): s for pl, s in run.placements.values()} == starts, (order, compact)
        res = pipeline.run_algorithm(w, "a_online", family="hetero", order=order,
                                     compact=compact)
        assert res.check.feasible and res.check.objective == pytest.approx(wct)
