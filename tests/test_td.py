"""Seed 004's TD(lambda) rule for multilayer nets against its own identities (Chan 1996,
chapter 3 and 4; Sutton 1988): the gradients against finite differences, lambda = 1 summed
over a sequence against the supervised rule, lambda = 0 against TD(0)."""

import copy

import numpy as np
import pytest

from helpers import central_differences
from mcgo.models.td_net import Mlp
from mcgo.train.td import TdLearner

SIZES = [5, 7, 4, 3]
EPS = 1e-6


def numeric_gradients(net, x):
    """dP/dw and dP/db by central differences of the forward pass alone."""
    def f():
        return net.forward(x)
    return ([central_differences(f, w, EPS) for w in net.w],
            [central_differences(f, b, EPS) for b in net.b])


@pytest.fixture
def sequence():
    rng = np.random.default_rng(7)
    return [rng.normal(size=SIZES[0]) for _ in range(6)], np.array([0.8, -0.5, 0.1])


def test_the_gradients_agree_with_finite_differences():
    net = Mlp(SIZES, seed=3, scale=0.8)
    x = np.random.default_rng(1).normal(size=SIZES[0])
    gw, gb = net.gradients(x)
    nw, nb = numeric_gradients(net, x)
    for a, b in zip(gw + gb, nw + nb):
        assert np.allclose(a, b, atol=1e-7)


def offline_change(net, learner_lam, sequence, target, eta=0.05):
    """The weights' total change of one offline TD(lambda) pass over the sequence."""
    trained = copy.deepcopy(net)
    TdLearner(trained, eta=eta, lam=learner_lam, offline=True).learn(sequence, target)
    return ([a - b for a, b in zip(trained.w, net.w)], [a - b for a, b in zip(trained.b, net.b)])


def test_lambda_1_summed_over_a_sequence_is_the_supervised_rule(sequence):
    xs, target = sequence
    net, eta = Mlp(SIZES, seed=5, scale=0.6), 0.05
    dw, db = offline_change(net, 1.0, xs, target, eta)
    expect_w = [np.zeros_like(w) for w in net.w]
    expect_b = [np.zeros_like(b) for b in net.b]
    for x in xs:                               # sum_t eta (o - P_t) grad P_t
        p = net.forward(x)
        gw, gb = numeric_gradients(net, x)
        for l in range(len(net.w)):
            expect_w[l] += eta * gw[l] @ (target - p)
            expect_b[l] += eta * gb[l] @ (target - p)
    for a, b in zip(dw + db, expect_w + expect_b):
        assert np.allclose(a, b, atol=1e-8)


def test_lambda_0_is_td0(sequence):
    xs, target = sequence
    net, eta = Mlp(SIZES, seed=6, scale=0.6), 0.05
    dw, db = offline_change(net, 0.0, xs, target, eta)
    predictions = [net.forward(x) for x in xs] + [target]
    expect_w = [np.zeros_like(w) for w in net.w]
    expect_b = [np.zeros_like(b) for b in net.b]
    for t, x in enumerate(xs):                 # sum_t eta (P_{t+1} - P_t) grad P_t
        gw, gb = numeric_gradients(net, x)
        for l in range(len(net.w)):
            expect_w[l] += eta * gw[l] @ (predictions[t + 1] - predictions[t])
            expect_b[l] += eta * gb[l] @ (predictions[t + 1] - predictions[t])
    for a, b in zip(dw + db, expect_w + expect_b):
        assert np.allclose(a, b, atol=1e-8)


@pytest.mark.parametrize("lam", [0.0, 0.5, 1.0])
def test_online_learning_moves_every_prediction_towards_the_outcome(lam, sequence):
    xs, target = sequence
    net = Mlp(SIZES, seed=2)
    learner = TdLearner(net, eta=0.05, lam=lam)
    before = max(np.abs(net.forward(x) - target).max() for x in xs)
    for _ in range(400):
        learner.learn(xs, target)
    after = max(np.abs(net.forward(x) - target).max() for x in xs)
    assert after < 0.1 < before


def test_lambda_out_of_range_is_refused():
    with pytest.raises(ValueError, match="lambda"):
        TdLearner(Mlp([2, 1]), eta=0.1, lam=1.5)
