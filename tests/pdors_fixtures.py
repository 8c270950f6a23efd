"""Shared PD-ORS test helpers (tests/ is on pytest's pythonpath): random single-job pricing
cases and the DP payoff over the per-slot oracle, used by tests/pdors/test_pdors_online.py and
tests/pdors/test_pdors_colgen.py."""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from mlopt.families.pdors.dp import best_schedule
from mlopt.families.pdors.oracle import SlotOracle
from mlopt.utility import Sigmoid


@st.composite
def pricing_cases(draw):
    T = draw(st.integers(1, 3))
    H = draw(st.integers(1, 2))
    R = 2
    a = draw(st.integers(1, T))
    F = draw(st.integers(1, 5))
    gamma = draw(st.integers(1, 3))
    n_int = draw(st.floats(0.3, 6.0))
    n_ext = n_int * draw(st.floats(1.0, 4.0))
    alpha = [draw(st.integers(1, 2)), draw(st.integers(0, 2))]
    beta = [draw(st.integers(0, 1)), draw(st.integers(1, 2))]
    price = np.array(draw(st.lists(st.floats(0.0, 0.6), min_size=T * H * R,
                                   max_size=T * H * R))).reshape(T, H, R)
    free = np.array(draw(st.lists(st.integers(1, 8), min_size=T * H * R,
                                  max_size=T * H * R)), dtype=float).reshape(T, H, R)
    grid = draw(st.integers(1, 4))
    util = Sigmoid(draw(st.floats(1.0, 30.0)), draw(st.floats(0.0, 1.0)),
                   draw(st.floats(0.0, 3.0)))
    return dict(T=T, H=H, a=a, F=F, gamma=gamma, n_int=n_int, n_ext=n_ext, alpha=alpha,
                beta=beta, price=price, free=free, grid=grid, utility=util)


def dp_payoff(c, oracle="exact", seed=0):
    orc = SlotOracle(alpha=c["alpha"], beta=c["beta"], F=c["F"], gamma=c["gamma"],
                     n_int=c["n_int"], n_ext=c["n_ext"], grid=c["grid"], H=c["H"],
                     rng=np.random.default_rng(seed), oracle=oracle)
    theta = {t: orc.slot(c["price"][t - 1], c["free"][t - 1])[0]
             for t in range(c["a"], c["T"] + 1)}
    return best_schedule(theta, c["a"], c["T"], c["grid"], c["utility"]).payoff
