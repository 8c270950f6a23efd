"""The shared exponential-price module (OASiS and PD-ORS) and its ``price_scale`` option
(not from the papers): unset it changes nothing; set it caps ln(U/L) by raising L only."""
from __future__ import annotations

import math

import numpy as np
import pytest

from mlopt.errors import InputError
from mlopt.exp_prices import cap_log_lower, check_price_scale, exp_price, log_ratio
from mlopt.families.oasis.generator import generate as generate_oasis
from mlopt.families.oasis.online import oasis_online
from mlopt.families.oasis.prices import price_params


def test_exp_price_endpoints():
    log_l, log_u = math.log(2.0), np.array([math.log(50.0), math.log(2.0)])
    cap = np.array([[10.0, 0.0]])
    assert np.allclose(exp_price(np.array([[0.0, 0.0]]), cap, log_l, log_u), [[2.0, 2.0]])
    assert np.allclose(exp_price(np.array([[10.0, 3.0]]), cap, log_l, log_u), [[50.0, 2.0]])
    # half full: L (U/L)^(1/2) = 2 * 5 = 10
    assert exp_price(np.array([[5.0, 0.0]]), cap, log_l, log_u)[0, 0] == pytest.approx(10.0)


def test_cap_log_lower():
    log_u = np.array([10.0, 4.0])
    assert cap_log_lower(-1600.0, log_u, None) == -1600.0
    assert cap_log_lower(-1600.0, log_u, 12.0) == pytest.approx(-2.0)
    assert cap_log_lower(5.0, log_u, 12.0) == 5.0  # never lowers L
    assert float(np.max(log_ratio(log_u, cap_log_lower(-1600.0, log_u, 12.0)))) == \
        pytest.approx(12.0)
    for bad in (0, -1.0, float("inf"), "10", True):
        with pytest.raises(InputError, match="price_scale"):
            check_price_scale(bad)


def test_oasis_unset_price_scale_changes_nothing():
    w = generate_oasis("paper-fig5", seed=4)
    assert price_params(w).to_dict() == price_params(w, price_scale=None).to_dict()
    a = oasis_online(w).schedule.allocations
    b = oasis_online(w, price_scale=None).schedule.allocations
    assert a.equals(b)


def test_oasis_price_scale_caps_both_pools():
    w = generate_oasis("paper-default", seed=0, n_jobs=30, horizon=100, n_worker_servers=5,
                       n_ps_servers=5)
    lit = price_params(w)
    assert lit.alpha > 12.0
    cap = price_params(w, price_scale=12.0)
    assert cap.alpha == pytest.approx(12.0)
    assert np.allclose(cap.log_U1, lit.log_U1) and np.allclose(cap.log_U2, lit.log_U2)
    assert cap.to_dict()["price_scale"] == 12.0
