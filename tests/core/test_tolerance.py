"""mlopt.tolerance: where exact capacity rows are kept (:func:`integral`), they accept exactly
the loads the checkers accept (c (1 + 1e-9) + 1e-9), since every load is then a multiple of the
grid step 2^-k and the slack is below one step.  The models of pdors, hetero, edgecloud and
OASiS all rely on this (their golden LP files keep exact rows on integer data)."""
from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from mlopt.tolerance import EXACT_LIMIT, GRID_EXP, accepted_capacity, capacity_rhs, integral


@settings(max_examples=300, deadline=None)
@given(k=st.integers(0, GRID_EXP), demands=st.lists(st.integers(0, 10 ** 6), min_size=1,
                                                    max_size=4),
       counts=st.lists(st.integers(0, 9), min_size=4, max_size=4), delta=st.integers(-2, 2),
       top=st.booleans())
def test_exact_rows_on_the_grid_accept_what_the_checker_accepts(k, demands, counts, delta, top):
    """Demands a_i 2^-k, a load L = sum n_i d_i summed in floats as a checker sums it, and a
    capacity c = L - delta 2^-k (one or two steps either side of L, or near the 1e8-step edge
    with ``top``): the exact row L <= capacity_rhs and the checker's L <= c (1 + 1e-9) + 1e-9
    agree, and both say L <= c."""
    step = 2.0 ** -k
    ds = [a * step for a in demands]
    load = 0.0
    for n, d in zip(counts, ds):
        load += n * d
    steps = round(load / step) - delta
    if top:  # the largest capacities still called exact: slack c 1e-9 + 1e-9 nearest one step
        steps = int(EXACT_LIMIT) - 1 - (2 - delta)
        load = (steps + delta) * step
    assume(0 <= steps < EXACT_LIMIT)  # beyond 1e8 steps the rows keep the slack (below)
    c = steps * step
    assert integral(c, *ds)
    assert capacity_rhs(c, ds) == c  # exact
    assert (load <= accepted_capacity(c)) == (load <= c) == (delta <= 0)


def test_off_the_grid_or_too_many_steps_gets_the_slack():
    assert capacity_rhs(2.0, [1.0 + 1e-9]) == accepted_capacity(2.0)
    assert capacity_rhs(2.0, [2.0 ** -(GRID_EXP + 1)]) == accepted_capacity(2.0)
    assert capacity_rhs(EXACT_LIMIT, [1.0]) == accepted_capacity(EXACT_LIMIT)  # 1e8 steps
    assert capacity_rhs(EXACT_LIMIT - 1, [1.0]) == EXACT_LIMIT - 1
    assert capacity_rhs(1.5, [0.25, 3]) == 1.5  # one grid 2^-2
    assert not integral(float("nan")) and not integral(float("inf"), 1.0)
    # on the finest grid 2^-10, 1e8 steps are 97,656.25: one step more keeps the slack
    fine = 2.0 ** -GRID_EXP
    assert capacity_rhs((EXACT_LIMIT + 1) * fine, [fine]) == accepted_capacity(
        (EXACT_LIMIT + 1) * fine)
    assert capacity_rhs((EXACT_LIMIT - 1) * fine, [fine]) == (EXACT_LIMIT - 1) * fine
