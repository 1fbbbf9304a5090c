"""Seed 004's learning rule: online TD(lambda) for a multilayer perceptron with a vector
output (:class:`mcgo.models.td_net.Mlp`) (Chan 1996, chapter 4).

The net: fully connected layers with ``tanh`` units (outputs in -1..1, as the thesis's
evaluation). For each weight and each output the learner keeps a *history vector* (an
eligibility trace), ``h = delta* y + lambda h`` (eq. 4.3), where ``delta*`` is the thesis's
new delta: the partial derivatives of every output with respect to a layer's net inputs,
back-propagated as a matrix (section 4.2.2). Each step of a sequence (section 4.3.2):

1. feed the observation forward: the prediction ``P_t``;
2. change every weight by ``eta (P_t - P_prev) . h``;
3. back-propagate ``delta*`` (through the changed weights) and update the histories;
4. ``P_prev = P_t``.

After the last observation the target ``o`` gives the terminal change ``eta (o - P_prev) . h``.
``offline=True`` adds the changes up and applies them at the end of the sequence (the weights
stay fixed meanwhile): then lambda = 1 is the supervised rule ``sum_t eta (o - P_t) grad P_t``
and lambda = 0 is TD(0), ``sum_t eta (P_{t+1} - P_t) grad P_t`` (the tests check both).

>>> from mcgo.models.td_net import Mlp
>>> net = Mlp([3, 4, 2], seed=1)
>>> learner = TdLearner(net, eta=0.1, lam=0.7)
>>> learner.start()
>>> for x in np.eye(3):
...     _ = learner.step(x)
>>> learner.finish(np.array([1.0, -1.0]))
>>> net.forward(np.eye(3)[0]).shape
(2,)
"""

import numpy as np


class TdLearner:
    """Online (or ``offline``) TD(lambda) on an :class:`Mlp`, one sequence at a time."""

    def __init__(self, net, eta, lam, offline=False):
        if not 0.0 <= lam <= 1.0:
            raise ValueError(f"lambda must be in [0, 1], got {lam}")
        self.net, self.eta, self.lam, self.offline = net, eta, lam, offline

    def start(self):
        """A new sequence: histories and the previous prediction at zero."""
        n_out = self.net.sizes[-1]
        self.hw = [np.zeros(w.shape + (n_out,)) for w in self.net.w]
        self.hb = [np.zeros(b.shape + (n_out,)) for b in self.net.b]
        self.p_prev = np.zeros(n_out)
        self.pending_w = [np.zeros_like(w) for w in self.net.w]
        self.pending_b = [np.zeros_like(b) for b in self.net.b]

    def _change(self, error):
        for l in range(len(self.net.w)):
            dw = self.eta * self.hw[l] @ error
            db = self.eta * self.hb[l] @ error
            if self.offline:
                self.pending_w[l] += dw
                self.pending_b[l] += db
            else:
                self.net.w[l] += dw
                self.net.b[l] += db

    def step(self, x):
        """Observe ``x``: returns the prediction ``P_t``."""
        ys = self.net.layers(x)
        p = ys[-1]
        self._change(p - self.p_prev)
        deltas = self.net.deltas(ys)          # through the weights just changed
        for l in range(len(self.net.w)):
            self.hw[l] = ys[l][:, None, None] * deltas[l][None, :, :] + self.lam * self.hw[l]
            self.hb[l] = deltas[l] + self.lam * self.hb[l]
        self.p_prev = p
        return p

    def finish(self, target):
        """The terminal change towards the outcome ``target``; offline, apply the sum."""
        self._change(np.asarray(target, dtype=np.float64) - self.p_prev)
        if self.offline:
            for l in range(len(self.net.w)):
                self.net.w[l] += self.pending_w[l]
                self.net.b[l] += self.pending_b[l]

    def learn(self, sequence, target):
        """One whole sequence of observations and its outcome."""
        self.start()
        for x in sequence:
            self.step(x)
        self.finish(target)
