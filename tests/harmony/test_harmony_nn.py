"""The numpy networks of the Harmony DRL: gradients against finite differences, Adam descends."""
from __future__ import annotations

import numpy as np
import pytest

from mlopt.families.harmony.nn import MLP, Adam, masked_softmax


@pytest.mark.parametrize("bn", [False, True])
def test_backward_matches_finite_differences(bn):
    rng = np.random.default_rng(0)
    net = MLP([5, 7, 6, 3], rng, batch_norm=bn)
    x = rng.standard_normal((8, 5))
    w = rng.standard_normal((8, 3))

    def loss():
        return float((net.forward(x, train=True) * w).sum())

    loss()
    grads = net.backward(w)
    for name, p in net.params.items():
        for idx in [tuple(rng.integers(s) for s in p.shape) for _ in range(3)]:
            old = p[idx]
            p[idx] = old + 1e-6
            up = loss()
            p[idx] = old - 1e-6
            down = loss()
            p[idx] = old
            assert grads[name][idx] == pytest.approx((up - down) / 2e-6, rel=1e-4, abs=1e-6), name


def test_adam_fits_a_linear_map():
    rng = np.random.default_rng(1)
    net = MLP([3, 16, 1], rng)
    opt = Adam(net.params, lr=0.01)
    x = rng.standard_normal((256, 3))
    y = x @ np.array([[1.0], [-2.0], [0.5]])
    first = None
    for _ in range(300):
        err = net.forward(x) - y
        first = first if first is not None else float((err ** 2).mean())
        opt.step(net.params, net.backward(2 * err / len(x)))
    assert float(((net.forward(x) - y) ** 2).mean()) < 0.05 * first


def test_masked_softmax_never_puts_mass_on_masked_entries():
    p = masked_softmax(np.array([[5.0, 1.0, 9.0]]), np.array([[True, True, False]]))
    assert p[0, 2] == 0 and p.sum() == pytest.approx(1.0)


@pytest.mark.parametrize("bn", [False, True])
def test_predict_is_forward_to_the_last_bit(bn):
    """Inference without the backward cache computes the same bits (float32 inputs too, as the
    policy's features); the gradient path is untouched by it."""
    rng = np.random.default_rng(1)
    net = MLP([6, 9, 4, 1], rng, batch_norm=bn)
    x = rng.standard_normal((50, 6)).astype(np.float32)
    net.forward(rng.standard_normal((32, 6)), train=True)  # non-trivial running statistics
    assert np.array_equal(net.predict(x), net.forward(x))
    assert net.predict(x).dtype == np.float64
