"""A small convolutional policy network (issue 46, item 6; Pachi's DCNN route, Clark and
Storkey 2015): the forward pass the engine runs (NumPy only) and the weights file.

Input: :data:`NPLANES` planes of the ``N x N`` board, seen from the side to move
(:func:`planes`), from a compact form of the position (:func:`compact`: the colour of each
point and the liberties of its chain, the last two moves and the ko point) that the
training data stores as it is. The net: a ``FIRST_KERNEL x FIRST_KERNEL`` convolution to
``C`` channels, ``L - 2`` convolutions ``3 x 3`` of ``C`` channels, each followed by a ReLU,
and a ``1 x 1`` convolution to one logit per point plus a bias per point (the edges differ).
Zero padding keeps the board's size; the plane of ones tells the net where the board ends.
The move's probability is the softmax of the logits over the legal points (no pass: the
professionals' games almost never pass before the end).

The file is a ``.npz`` of the arrays ``conv0_w``, ``conv0_b``, ... (``HWIO`` kernels, as JAX's
``conv_general_dilated`` takes them), ``out_w``, ``out_b`` (``N x N``) and a JSON
``metadata`` (``format``, ``version``, ``size``, ``layers``, ``channels``, and what the
trainer adds: data, split, commit, metrics).

>>> import mcgo
>>> board = mcgo.Board(9)
>>> board.play("E5")
>>> net = PolicyNet.random(size=9, layers=3, channels=8, seed=1)
>>> p = net.probabilities(board)
>>> round(sum(p.values()), 6), board.point("E5") in p
(1.0, False)
"""

import functools
import json
import weakref

import numpy as np

from ..board import coords
from ..board import kernels as K
from ..resources import package_file
from . import weights_file

FORMAT = "mcgo-policy-net"
VERSION = 2             # 1: the policy alone; 2: with the value heads (:data:`HEADS`)
VERSIONS = (1, 2)
FIRST_KERNEL = 5
KERNEL = 3
LIBERTY_CAP = 3

# Planes (the compact form's values: OWN / OPPONENT stones, liberties capped at 3).
OWN, OPPONENT = 1, 2
(P_OWN, P_OPPONENT, P_EMPTY, P_OWN_1, P_OWN_2, P_OWN_3, P_OPP_1, P_OPP_2, P_OPP_3, P_LAST,
 P_PREVIOUS, P_KO, P_ONES) = range(13)
NPLANES = 13
# The value heads (version 2): the trunk's features (after its first ``value_tap``
# convolutions: metadata, default all), through the value's own ``3 x 3`` convolutions where
# the net has them (``vconv0_w``, ...: metadata ``value_layers``; a frozen policy trunk's
# features say little of who is winning until such a layer combines them),
# pooled over the board (mean and max of each channel) with the komi, through a hidden layer
# to the win's logit and the score; a 1 x 1 convolution to each point's owner. Inputs and
# outputs are scaled to about 1.
HEADS = ("value_w1", "value_b1", "value_w2", "value_b2", "own_w", "own_b")
KOMI_SCALE = 10.0
SCORE_SCALE = 10.0
VALUE_HIDDEN = 32


class PolicyNetError(ValueError):
    """A file that is not a policy net of this version; the message says what is wrong."""


@functools.lru_cache(maxsize=None)
def _layout(size):
    """``(points, index)``: the internal point of each row-major index (row 0 the first
    line, as :func:`mcgo.board.coords.point` counts) and the row-major index of each internal
    point (-1 off the board and for PASS)."""
    points = np.array([coords.point(r, c, size) for r in range(size) for c in range(size)],
                      dtype=np.int64)
    index = np.full((size + 2) ** 2, -1, dtype=np.int64)
    index[points] = np.arange(size * size)
    points.setflags(write=False)
    index.setflags(write=False)
    return points, index


def row_major_points(size):
    """The internal point of each row-major index (read-only), the nets' board order."""
    return _layout(size)[0]


def row_major_index(size):
    """The row-major index of each internal point (read-only; -1 off the board)."""
    return _layout(size)[1]


def point_index(p, size):
    """Row-major index (0..N*N-1) of the internal point ``p``; -1 for a pass or none (-1)."""
    return -1 if p < 0 else int(_layout(size)[1][p])


def compact(pts, info, color=None):
    """The compact form of a position for ``color`` (default the side to move):
    ``(stones, liberties, moves)``, ``stones`` int8 ``N x N`` (0 empty, :data:`OWN`,
    :data:`OPPONENT`), ``liberties`` int8 ``N x N`` (each stone's chain's, capped at
    :data:`LIBERTY_CAP`; 0 on empty points), ``moves`` int16 ``(last, previous, ko)`` as
    row-major indices, -1 for none (a pass, the start of the game, no ko)."""
    size = int(info[K.BOARDSIZE])
    color = int(info[K.TO_MOVE]) if color is None else int(color)
    idx = _layout(size)[0]
    col = pts[K.COLOR, idx]
    stones = np.where(col == color, OWN, np.where(col == 3 - color, OPPONENT, 0)).astype(np.int8)
    libs = np.minimum(pts[K.LIBS, pts[K.HEAD, idx]], LIBERTY_CAP)
    liberties = np.where(stones > 0, libs, 0).astype(np.int8)
    ko = int(info[K.KO_POINT]) if int(info[K.KO_COLOR]) == color else -1
    moves = np.array([point_index(int(info[K.LAST_MOVE]), size),
                      point_index(int(info[K.PREVIOUS_MOVE]), size), point_index(ko, size)],
                     dtype=np.int16)
    return stones.reshape(size, size), liberties.reshape(size, size), moves


def planes(stones, liberties, moves):
    """Float32 input planes ``(B, N, N, NPLANES)`` of a batch of compact positions
    (``stones`` and ``liberties`` ``(B, N, N)``, ``moves`` ``(B, 3)``); also takes one
    position without the batch axis (and returns ``(N, N, NPLANES)``)."""
    single = stones.ndim == 2
    if single:
        stones, liberties, moves = stones[None], liberties[None], moves[None]
    b, n = stones.shape[0], stones.shape[1]
    out = np.zeros((b, n, n, NPLANES), dtype=np.float32)
    own, opp = stones == OWN, stones == OPPONENT
    out[..., P_OWN] = own
    out[..., P_OPPONENT] = opp
    out[..., P_EMPTY] = stones == 0
    for k in range(LIBERTY_CAP):
        out[..., P_OWN_1 + k] = own & (liberties == k + 1)
        out[..., P_OPP_1 + k] = opp & (liberties == k + 1)
    flat = out.reshape(b, n * n, NPLANES)
    rows = np.arange(b)
    for column, plane in ((0, P_LAST), (1, P_PREVIOUS), (2, P_KO)):
        where = moves[:, column] >= 0
        flat[rows[where], moves[where, column].astype(np.int64), plane] = 1.0
    out[..., P_ONES] = 1.0
    return out[0] if single else out


def _conv_same(x, w, b):
    """``x`` ``(B, N, N, Cin)`` convolved with ``w`` ``(k, k, Cin, Cout)`` (cross-correlation,
    as JAX's convolution), zero padding to the same size, plus ``b``."""
    k, bsz, n, cin = w.shape[0], x.shape[0], x.shape[1], x.shape[3]
    if k == 1:
        return (x.reshape(-1, cin) @ w.reshape(cin, -1)).reshape(bsz, n, n, -1) + b
    pad = k // 2
    padded = np.pad(x, ((0, 0), (pad, pad), (pad, pad), (0, 0)))
    # im2col: one row per point, its k x k window's channels in w's (dy, dx, Cin) order, so
    # that the whole layer is one matrix product.
    columns = np.empty((bsz, n, n, k, k, cin), dtype=x.dtype)
    for dy in range(k):
        for dx in range(k):
            columns[:, :, :, dy, dx, :] = padded[:, dy:dy + n, dx:dx + n, :]
    out = columns.reshape(bsz * n * n, k * k * cin) @ w.reshape(k * k * cin, -1)
    return out.reshape(bsz, n, n, -1) + b


class PolicyNet:
    """The weights of a policy net and its NumPy forward pass."""

    def __init__(self, arrays, metadata=None):
        self.arrays = {k: np.asarray(v, dtype=np.float32) for k, v in arrays.items()}
        self.metadata = dict(metadata or {})
        self.layers = sum(1 for k in self.arrays if k.startswith("conv") and k.endswith("_w")) + 1
        self.size = int(self.arrays["out_b"].shape[0])
        # {board size: PolicyNet} read on that size instead of this one (``default``: the
        # shipped nets of :data:`SIZE_NETS`)
        self.size_nets = {}
        self._same = weakref.WeakKeyDictionary()      # {net: same_policy(net)}

    def for_size(self, size):
        """The net a search of a ``size`` board reads: this one, or its :attr:`size_nets`
        entry (a net for another size is used nowhere: see :attr:`size`)."""
        return self.size_nets.get(size, self)

    @classmethod
    def random(cls, size=19, layers=6, channels=32, seed=0):
        """A net of random weights (He's initialisation, as the trainer starts from)."""
        rng = np.random.default_rng(seed)
        arrays = {}
        cin = NPLANES
        for i in range(layers - 1):
            k = FIRST_KERNEL if i == 0 else KERNEL
            arrays[f"conv{i}_w"] = rng.normal(0, np.sqrt(2.0 / (k * k * cin)), (k, k, cin, channels))
            arrays[f"conv{i}_b"] = np.zeros(channels)
            cin = channels
        arrays["out_w"] = rng.normal(0, np.sqrt(1.0 / cin), (1, 1, cin, 1))
        arrays["out_b"] = np.zeros((size, size))
        meta = {"format": FORMAT, "version": 1, "size": size, "layers": layers,
                "channels": channels, "name": "random"}
        return cls(arrays, meta)

    def on_size(self, size):
        """This net on a ``size`` board: the same convolutions (they read a board of any size;
        the plane of ones shows where it ends) and each point's bias taken from the point of
        this net's board as far from the nearer edges, so the corners, edges and their
        neighbourhoods keep theirs (past its middle line a larger board repeats it); the
        value heads are left behind (they were trained on this size's positions).

        >>> net = PolicyNet.random(size=19, layers=3, channels=4, seed=1)
        >>> small = net.on_size(13)
        >>> small.size, bool((small.arrays["out_b"][:7, :7] == net.arrays["out_b"][:7, :7]).all())
        (13, True)
        >>> bool((small.arrays["out_b"][12, 12] == net.arrays["out_b"][18, 18]))
        True
        """
        if size == self.size:
            return self
        middle = (self.size - 1) // 2
        rows = np.array([min(r, middle) if r <= size - 1 - r
                         else self.size - 1 - min(size - 1 - r, middle) for r in range(size)])
        arrays = {k: v for k, v in self.arrays.items() if k not in HEADS
                  and not k.startswith("vconv")}
        arrays["out_b"] = self.arrays["out_b"][np.ix_(rows, rows)]
        meta = {k: v for k, v in self.metadata.items() if not k.startswith("value")}
        meta.update(size=size, version=1, trained_size=self.size)
        return PolicyNet(arrays, meta)

    def same_policy(self, other):
        """True when ``other`` has this net's trunk and policy (equal arrays: the shipped
        policy net and a value file of heads on its trunk), so that one trunk pass gives a
        position this net's priors and ``other``'s value."""
        if other is self:
            return True
        if other not in self._same:
            names = [k for k in self.arrays if k.startswith("conv") or k.startswith("out_")]
            self._same[other] = other.layers == self.layers and all(
                k in other.arrays and np.array_equal(self.arrays[k], other.arrays[k])
                for k in names)
        return self._same[other]

    @property
    def has_value(self):
        """True when the net has the value, score and ownership heads (:data:`HEADS`)."""
        return all(k in self.arrays for k in HEADS)

    def trunk(self, x, start=0, stop=None):
        """The features ``(B, N, N, C)`` after the trunk's convolutions ``start`` to ``stop``
        (default: to the last, whose features the policy reads) of ``x``: planes ``(B, N, N,
        NPLANES)``, or the features after convolution ``start``."""
        for i in range(start, self.layers - 1 if stop is None else stop):
            x = np.maximum(_conv_same(x, self.arrays[f"conv{i}_w"], self.arrays[f"conv{i}_b"]), 0.0)
        return x

    def value_tap(self):
        """How many of the trunk's convolutions the value heads read after (metadata
        ``value_tap``; the policy reads after them all): a policy trunk's last layer keeps
        little beyond where to play (most of its channels are never positive)."""
        return int(self.metadata.get("value_tap", self.layers - 1))

    def logits(self, x):
        """The ``N x N`` logits of one position's planes ``x`` ``(N, N, NPLANES)``, or the
        ``(B, N, N)`` logits of a batch ``(B, N, N, NPLANES)``."""
        single = x.ndim == 3
        out = self.policy_logits(self.trunk(x[None] if single else x))
        return out[0] if single else out

    def policy_logits(self, f):
        """The ``(B, N, N)`` move logits of the trunk's features ``f`` (:meth:`trunk`)."""
        return _conv_same(f, self.arrays["out_w"], np.float32(0.0))[..., 0] + self.arrays["out_b"]

    def values(self, x, komi):
        """``(win, score, ownership)`` of a batch of planes ``x`` ``(B, N, N, NPLANES)``,
        each from the side to move's view, ``komi`` ``(B,)`` the points the side to move
        gets (minus the komi for Black): the probability of winning, the expected final
        margin and each point's expected owner (+1 the side to move's, -1 the opponent's;
        ``(B, N, N)``). Needs :attr:`has_value`."""
        return self.heads(self.trunk(x, stop=self.value_tap()), komi)

    def value_layers(self):
        """How many ``3 x 3`` convolutions of its own the value reads the trunk through."""
        return int(self.metadata.get("value_layers", 0))

    def heads(self, f, komi):
        """:meth:`values` of the trunk's features ``f`` after :meth:`value_tap` convolutions,
        so that one trunk pass gives a position its move logits and its value."""
        a = self.arrays
        b = f.shape[0]
        for i in range(self.value_layers()):
            f = np.maximum(_conv_same(f, a[f"vconv{i}_w"], a[f"vconv{i}_b"]), 0.0)
        pooled = np.concatenate([f.mean(axis=(1, 2)), f.max(axis=(1, 2)),
                                 np.asarray(komi, np.float32).reshape(b, 1) / KOMI_SCALE], axis=1)
        hidden = np.maximum(pooled @ a["value_w1"] + a["value_b1"], 0.0)
        out = hidden @ a["value_w2"] + a["value_b2"]
        win = 1.0 / (1.0 + np.exp(-out[:, 0]))
        owner = np.tanh(_conv_same(f, a["own_w"], np.float32(0.0))[..., 0] + a["own_b"])
        return win, out[:, 1] * SCORE_SCALE, owner

    def move_logits(self, pts, info, color=None):
        """Row-major ``N * N`` logits of a position (internal arrays) for ``color``."""
        size = int(info[K.BOARDSIZE])
        if size != self.size:
            raise PolicyNetError(f"the net is for {self.size}x{self.size}, not {size}x{size}")
        return self.logits(planes(*compact(pts, info, color))).reshape(size * size)

    def scores(self, pts, info, color, logits=None):
        """(moves, logits) of every legal move, pass last with no chance (-inf): the
        move model's interface, for the prediction tables. ``logits``: the position's
        row-major logits when a batch already computed them (:meth:`policy_logits`)."""
        size = int(info[K.BOARDSIZE])
        moves = np.zeros(size * size + 1, dtype=np.int32)
        n = K.legal_moves(pts, info, color, moves)
        moves[n] = K.PASS
        moves = moves[:n + 1]
        if logits is None:
            logits = self.move_logits(pts, info, color)
        logits = np.asarray(logits).reshape(-1).astype(np.float64)
        out = np.full(n + 1, -np.inf)
        out[:n] = logits[_layout(size)[1][moves[:n]]]
        return moves, out

    def probabilities(self, board, color=None):
        """``{point: probability}`` over the legal moves of a Board (no pass)."""
        color = board.to_move if color is None else color
        moves, scores = self.scores(board.pts, board.info, color)
        moves, scores = moves[:-1], scores[:-1]             # the pass has no chance
        if not len(moves):
            return {}
        e = np.exp(scores - scores.max())
        e /= e.sum()
        return {int(m): float(x) for m, x in zip(moves, e)}

    def save(self, path):
        meta = dict(self.metadata, format=FORMAT, version=2 if self.has_value else 1,
                    size=self.size, layers=self.layers)
        with open(path, "wb") as f:
            np.savez_compressed(f, metadata=np.array(json.dumps(meta, sort_keys=True)),
                                **self.arrays)


def is_policy_net_file(path):
    """True when ``path`` is a policy net file (by its metadata's format)."""
    return weights_file.is_format(path, FORMAT)


def load(path):
    """The :class:`PolicyNet` of a file; raises :class:`PolicyNetError` saying what is wrong."""
    arrays, meta = weights_file.read(path, FORMAT, "policy net", PolicyNetError)
    if meta.get("version") not in VERSIONS:
        raise PolicyNetError(f"{path}: version {meta.get('version')!r}, expected one of "
                             f"{', '.join(map(str, VERSIONS))}")
    layers = int(meta.get("layers", 0))
    needed = [f"conv{i}_{s}" for i in range(layers - 1) for s in "wb"] + ["out_w", "out_b"]
    if meta["version"] >= 2:
        needed += list(HEADS) + [f"vconv{i}_{s}" for i in range(int(meta.get("value_layers", 0)))
                                 for s in "wb"]
    missing = [n for n in needed if n not in arrays]
    if layers < 2 or missing:
        raise PolicyNetError(f"{path}: missing arrays {missing or ['conv*']}")
    return PolicyNet({n: arrays[n] for n in needed}, meta)


SHIPPED = package_file("mcgo.models", "weights", "policy-net.npz")
# ``default`` reads these nets on their board sizes (the shipped one is 19x19's): {size:
# (file, the settings it won its A/B with)} (benchmarks/RESULTS.md).
# On 9x9 a 6 x 32 net of mcgo's own 9x9 match records (3,506 train games; 46% top-1 on its
# test games against the move model's 41%), its prior on the root's moves alone: +58 Elo
# [+9, +108] at 0.25 s a move, an SPRT [0, 50] accepting H1 after 192 games. Below the
# root too (policy_net_after 50) it halved the simulations a move and lost (-40 over 96).
# On 13x13 the 19x19 net itself (:meth:`PolicyNet.on_size`), with 19x19's settings (30
# virtual visits, below the root from 50 visits): against the move model's prior alone at
# 1 s a move 45-2, +541 Elo, an SPRT [0, 50] accepting the gain after 47 games.
SIZE_NETS = {9: (package_file("mcgo.models", "weights", "policy-net-9x9.npz"),
                 {"policy_net_after": 0}),
             13: (SHIPPED, {})}


# The shipped value net (``--value-net default``): the 6 x 32 19x19 net of f22af9c trained
# whole with value, score and ownership heads on the KGS 6d+ games (see its metadata), with
# the settings it won its A/B with: its value on each node that gets the policy net's prior
# (policy_net_after) as 50 virtual visits (benchmarks/RESULTS.md, "The value net").
# {size: (file, settings)}, as SIZE_NETS.
VALUE_NETS = {19: (package_file("mcgo.models", "weights", "value-net.npz"), {"value_prior": 50.0})}


def open_value_net(choice):
    """The value net a command line names: ``"none"`` (None), ``"default"`` (the shipped
    19x19 one, :data:`VALUE_NETS`) or a file of a net with value heads (``mcgo learn
    value-net``)."""
    if choice == "none":
        return None
    net = load(VALUE_NETS[19][0] if choice == "default" else choice)
    if not net.has_value:
        raise PolicyNetError(f"{choice}: a net without value heads (mcgo learn value-net "
                             "makes them)")
    return net


def open_policy_net(choice):
    """The net a command line names: ``"none"`` (None), ``"default"`` (the shipped 19x19
    net, trained on the KGS 6d+ and goban games, with the nets of :data:`SIZE_NETS` on
    their sizes; see their metadata) or a file."""
    if choice == "none":
        return None
    if choice != "default":
        return load(choice)
    net = load(SHIPPED)
    for size, (path, _) in SIZE_NETS.items():
        net.size_nets[size] = (net if path == SHIPPED else load(path)).on_size(size)
    return net


__all__ = ["FORMAT", "HEADS", "NPLANES", "PolicyNet", "PolicyNetError", "SHIPPED", "SIZE_NETS",
           "VALUE_NETS", "VERSION", "VERSIONS", "compact", "row_major_points", "is_policy_net_file", "load",
           "open_policy_net", "open_value_net", "planes",
           "point_index", "row_major_index"]
