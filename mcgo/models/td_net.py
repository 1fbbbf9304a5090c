"""Seed 004's 7x7 evaluation net at play (Chan 1996, chapter 5.2): the thesis's 51-30-1
``tanh`` perceptron (:class:`Mlp`), its inputs (Table 5.1), the move it values best, and its
file. Trained by TD(lambda) in self-play: :mod:`mcgo.train.td_go`.

The board is imported where it is used: ``mcgo learn td``'s options read :data:`SIZE` here
while the command line is built, without Numba.
"""

import numpy as np

from . import weights_file

SIZE = 7
KOMI = 8.5
FORMAT = "mcgo-td-net"


class Mlp:
    """A fully connected ``tanh`` net: ``sizes`` from the inputs to the outputs."""

    def __init__(self, sizes, seed=0, scale=0.1):
        rng = np.random.default_rng(seed)
        self.sizes = list(sizes)
        self.w = [rng.uniform(-scale, scale, (a, b)) for a, b in zip(sizes[:-1], sizes[1:])]
        self.b = [rng.uniform(-scale, scale, b) for b in sizes[1:]]

    def layers(self, x):
        """The outputs of every layer, the input first."""
        ys = [np.asarray(x, dtype=np.float64)]
        for w, b in zip(self.w, self.b):
            ys.append(np.tanh(ys[-1] @ w + b))
        return ys

    def forward(self, x):
        return self.layers(x)[-1]

    def deltas(self, ys):
        """``delta*_l`` for every layer (``s(l) x outputs``): dP / d(net input of layer l)."""
        top = len(self.w)
        out = [None] * top
        out[top - 1] = np.diag(1.0 - ys[top] ** 2)
        for l in range(top - 2, -1, -1):
            out[l] = (1.0 - ys[l + 1] ** 2)[:, None] * (self.w[l + 1] @ out[l + 1])
        return out

    def gradients(self, x):
        """``(dP/dw, dP/db)`` per layer: arrays ``(s(l-1), s(l), outputs)`` and
        ``(s(l), outputs)``."""
        ys = self.layers(x)
        deltas = self.deltas(ys)
        return ([ys[l][:, None, None] * deltas[l][None, :, :] for l in range(len(self.w))],
                [d.copy() for d in deltas])



def inputs(board):
    """Table 5.1's 51 inputs of ``board`` (7x7)."""
    from ..board import BLACK, WHITE, coords
    x = np.zeros(board.size * board.size + 2)
    for i, p in enumerate(coords.all_points(board.size)):
        c = board.color_at(p)
        x[i] = 1.0 if c == BLACK else -1.0 if c == WHITE else 0.0
    x[-2] = 1.0 if board.to_move == BLACK else -1.0
    x[-1] = (board.captures(BLACK) - board.captures(WHITE)) / 10.0
    return x


def candidate_moves(board):
    """The legal moves but the filling of one's own true eye, and pass."""
    from ..board.kernels import PASS
    from ..tactics.eyes import is_true_eye
    w = board.size + 2
    color = board.to_move
    return [p for p in board.legal_moves() if not is_true_eye(board.pts, w, p, color)] + [PASS]


def best_move(net, board, move_filter=None):
    """The move whose position the net values best for the mover (ties: the first)."""
    from ..board import BLACK
    moves = [m for m in candidate_moves(board)
             if move_filter is None or move_filter.allows(board.to_move, m, 1)]
    if not moves:
        from ..board.kernels import PASS
        return PASS
    values = []
    for m in moves:
        board.play(m)
        values.append(net.forward(inputs(board))[0])
        board.undo()
    sign = 1.0 if board.to_move == BLACK else -1.0
    return moves[int(np.argmax(sign * np.array(values)))]


SHIPPED = {"td0": "td-lambda0.npz", "td1": "td-lambda1.npz"}


def shipped_nets():
    """The shipped nets' paths: lambda 0 and lambda 1."""
    from ..resources import package_file
    return [package_file("mcgo.models", "weights", name) for name in SHIPPED.values()]


def load_net(path):
    arrays, meta = weights_file.read(path, FORMAT, "TD net")
    try:
        net = Mlp(meta["sizes"])
        net.w = [arrays[f"w{l}"] for l in range(len(net.w))]
        net.b = [arrays[f"b{l}"] for l in range(len(net.b))]
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"{path}: not a TD net file ({e})") from None
    return net, meta
