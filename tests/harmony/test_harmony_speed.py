"""Each fact the paper states about interference (seed 002 Sec. II-B) is a test of the packaged
ground-truth speed model (``mlopt/families/harmony/speed_model.toml``)."""
from __future__ import annotations

import numpy as np
import pytest

from mlopt.errors import InputError
from mlopt.families.harmony.speed import SpeedModel, default_params

SM = SpeedModel.default()
IDX = {name: i for i, name in enumerate(SM.models)}


def speeds_of(models, xw, xp, workers=None):
    idx = np.array([IDX[m] for m in models])
    w = np.ones(len(models)) if workers is None else np.asarray(workers)
    return SM.speeds(idx, w, np.asarray(xw), np.asarray(xp)), SM.standalone(idx, w)


def slowdown(models, xw, xp):
    s, alone = speeds_of(models, xw, xp)
    return 1 - s / alone


def test_table_one_models():
    assert set(SM.models) == {"resnet", "vgg16", "resnext110", "ctc", "wlm", "seq2seq"}


def test_f1_bin_packing_six_jobs_loses_a_third_and_halves_resnext():
    """Fig. 1: six 1-worker/1-PS jobs, bin-packed two per server (Table I order) vs dedicated."""
    models = ["resnet", "vgg16", "resnext110", "ctc", "wlm", "seq2seq"]
    xw = np.zeros((6, 3), int)
    for n in range(6):
        xw[n, n // 2] = 1
    sd = slowdown(models, xw, xw.copy())
    assert 0.28 <= sd.mean() <= 0.38  # "33% performance degradation on average"
    assert 0.42 <= sd[2] <= 0.55  # ResNeXt's speed roughly halved ("nearly 2x slowdown")
    assert sd[2] == sd.max()
    # every job is at full speed on a dedicated server
    ded = np.eye(6, dtype=int)
    assert np.allclose(slowdown(models, ded, ded), 0.0)


def test_f2_resnet_with_wlm_or_seq2seq_interferes_little():
    """Fig. 2: interference of a pair = sum of both jobs' slowdown% when co-located."""
    pair = {}
    for a in SM.models:
        for b in SM.models:
            if a < b:
                one = np.ones((2, 1), int)
                pair[(a, b)] = slowdown([a, b], one, one).sum()
    ranked = sorted(pair, key=pair.get)
    low = ranked[:len(ranked) // 3]  # the least-interfering third of the 15 pairs
    assert ("resnet", "wlm") in low and ("resnet", "seq2seq") in low
    assert pair[("ctc", "resnext110")] > np.median(list(pair.values()))


def _lb_vs_bp(other):
    """Fig. 3: CTC and `other`, each 1 worker + 1 PS, on 2 servers (<= 4 tasks each).
    BP: everything on server 0. LB: CTC's worker with the other's PS on server 0, the other's
    worker with CTC's PS on server 1 (each job spans both servers)."""
    models = ["ctc", other]
    bp_w = np.array([[1, 0], [1, 0]])
    bp = speeds_of(models, bp_w, bp_w)[0].sum()
    lb = speeds_of(models, np.array([[1, 0], [0, 1]]), np.array([[0, 1], [1, 0]]))[0].sum()
    alone = speeds_of(models, np.eye(2, dtype=int), np.eye(2, dtype=int))[0].sum()
    return bp, lb, alone


def test_f3_load_balancing_wins_with_resnext_bin_packing_with_vgg():
    bp, lb, alone = _lb_vs_bp("resnext110")
    assert lb > bp and alone > lb  # "more severe interference between ResNeXt and CTC"
    bp, lb, alone = _lb_vs_bp("vgg16")
    assert bp > lb and alone > bp  # packing avoids VGG's cross-machine traffic


@pytest.mark.parametrize("victim", ["resnext110", "vgg16"])
def test_f4_speed_falls_with_each_co_located_ctc_job(victim):
    """Fig. 5 (capacity aside: the model alone): 1..4 CTC jobs (1 worker + 1 PS each) with the
    victim on one server."""
    prev = None
    for k in range(0, 5):
        models = [victim] + ["ctc"] * k
        x = np.ones((k + 1, 1), int)
        s = speeds_of(models, x, x)[0][0]
        if prev is not None:
            assert s < prev
        prev = s


def test_f5_profiles_and_lif_blind_spots():
    """CTC is the CPU hog, VGG the network hog, Seq2Seq the PCIe hog; PCIe and disk carry
    interference that a CPU+bandwidth model cannot see."""
    ch = {c: i for i, c in enumerate(SM.channels)}
    p = SM.pressure
    assert np.argmax(p[:, ch["cpu"]]) == IDX["ctc"]
    assert np.argmax(p[:, ch["network"]]) == IDX["vgg16"]
    assert np.argmax(p[:, ch["pcie"]]) == IDX["seq2seq"]
    assert SM.channel_weight[ch["pcie"]] > 0 and SM.channel_weight[ch["disk"]] > 0
    assert np.argmax(SM.comm_penalty) == IDX["vgg16"]


def test_factor_pieces_and_scaling():
    assert SM.standalone(0, 2) == pytest.approx(SM.base_speed[0] * 2 ** SM.worker_scaling)
    # knee 0.5, tail slope 0.1, floor 0.1: 0.3 -> 0.7; 1.5 -> 0.5 - 0.1 = 0.4; 9 -> 0.1
    assert SM.factor([0.0, 0.3, 0.5, 1.5, 9.0]) == pytest.approx([1.0, 0.7, 0.5, 0.4, 0.1])
    assert np.all(np.diff(SM.factor(np.linspace(0, 4, 50))) < 0)  # strictly decreasing there
    x = np.ones((6, 1), int)
    sd = slowdown(["resnext110"] * 6, x * 20, x * 30)
    assert np.allclose(sd, 1 - SM.min_factor)


@pytest.mark.parametrize("path,value", [
    (("ps_weight",), -1), (("knee",), 1.5), (("min_factor",), 0.9), (("models", "ctc", "base_speed"), 0),
    (("models", "ctc", "pressure"), [0.1]), (("models", "ctc", "sensitivity"), float("nan")),
    (("channel_weight",), "x"),
])
def test_bad_parameters_are_input_errors(path, value):
    p = default_params()
    obj = p
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    with pytest.raises(InputError) as err:
        SpeedModel.from_params(p)
    assert path[-1] in str(err.value)
