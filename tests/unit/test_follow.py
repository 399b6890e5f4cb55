"""One point through the trainer's network and back (lib.mlp.follow, backward, point_losses): the
numbers /trainer's "One point, one step" view shows, checked against independent computations."""

from __future__ import annotations

import numpy as np
import pytest

from lib.mlp import follow, init_params, loss_and_grads, point_losses

HEADS = [("sigmoid", 1), ("softmax", 3), ("linear", 1)]


def _case(head: str, n_out: int, seed: int = 0, n: int = 7):
    rng = np.random.default_rng(seed)
    params = init_params([3, 5, 4, n_out], seed, head=head)
    X = rng.normal(size=(n, 3))
    y = rng.integers(0, n_out, n) if head == "softmax" else (
        rng.integers(0, 2, n) if head == "sigmoid" else rng.normal(size=n))
    return params, X, y


@pytest.mark.parametrize("act", ["relu", "tanh"])
@pytest.mark.parametrize(("head", "n_out"), HEADS)
def test_each_points_gradient_is_its_own_loss_by_central_differences(head, n_out, act):
    params, X, y = _case(head, n_out)
    got = follow(params, X[2], y[2], act, head)
    eps = 1e-6
    for k, (W, b) in enumerate(params):
        for arr, g in ((W, got["grads"][k][0]), (b, got["grads"][k][1])):
            num = np.zeros_like(arr)
            for idx in np.ndindex(arr.shape):
                old = arr[idx]
                arr[idx] = old + eps
                up = point_losses(params, X[2:3], y[2:3], act, head)[0]
                arr[idx] = old - eps
                down = point_losses(params, X[2:3], y[2:3], act, head)[0]
                arr[idx] = old
                num[idx] = (up - down) / (2 * eps)
            assert np.allclose(g, num, atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize(("head", "n_out"), HEADS)
def test_per_point_gradients_sum_to_the_batch_gradient_and_losses_to_its_loss(head, n_out):
    params, X, y = _case(head, n_out, seed=3, n=11)
    loss, grads = loss_and_grads(params, X, y, "relu", head=head)
    points = [follow(params, X[i], y[i], "relu", head) for i in range(len(y))]
    for k, (dW, db) in enumerate(grads):
        assert np.allclose(sum(pt["grads"][k][0] for pt in points) / len(y), dW, atol=1e-12)
        assert np.allclose(sum(pt["grads"][k][1] for pt in points) / len(y), db, atol=1e-12)
    assert np.mean([pt["loss"] for pt in points]) == pytest.approx(loss, rel=1e-12)
    assert np.allclose(point_losses(params, X, y, "relu", head), [pt["loss"] for pt in points])


def test_a_relu_unit_at_zero_passes_no_gradient_and_its_weights_get_none():
    params, X, y = _case("sigmoid", 1, seed=5)
    W1, b1 = params[0]
    b1[1] = -100.0                                     # unit 2 of layer 1 is off for every point
    got = follow(params, X[0], y[0], "relu", "sigmoid")
    assert not got["passes"][0][1] and got["z"][0][1] < 0 and got["h"][0][1] == 0
    assert got["delta"][0][1] == 0 and np.all(got["grads"][0][0][:, 1] == 0) and got["grads"][0][1][1] == 0
    # forward by hand: the sums, the outputs, the prediction
    z1 = X[0] @ W1 + b1
    assert np.allclose(got["z"][0], z1) and np.allclose(got["h"][0], np.maximum(z1, 0))
    logit = np.maximum(np.maximum(z1, 0) @ params[1][0] + params[1][1], 0) @ params[2][0] + params[2][1]
    assert got["p"] == pytest.approx(1 / (1 + np.exp(-logit[0])))


def test_step_sizes_are_the_norm_of_one_plain_step_per_layer():
    """lib.mlp.step_sizes: a worked example (a 3-4-5 triangle), then against a step taken by hand."""
    from lib.mlp import step_sizes

    W, b = np.array([[3.0], [4.0]]), np.zeros(1)
    assert step_sizes([(W, b)], [(np.array([[3.0], [4.0]]), np.array([12.0]))], 0.1) == [
        (pytest.approx(1.3), pytest.approx(5.0))]                                  # 0.1 · √(9 + 16 + 144)
    params, X, y = _case("sigmoid", 1)
    got = follow(params, X[0], y[0], "relu", "sigmoid")
    for (W, b), (dW, db), (move, size) in zip(params, got["grads"], step_sizes(params, got["grads"], 0.03),
                                              strict=True):
        stepped = np.concatenate([(W - 0.03 * dW).ravel(), (b - 0.03 * db).ravel()])
        assert move == pytest.approx(np.linalg.norm(stepped - np.concatenate([W.ravel(), b.ravel()])))
        assert size == pytest.approx(np.sqrt((W ** 2).sum()))
