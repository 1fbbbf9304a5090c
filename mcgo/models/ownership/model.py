"""The ownership model the engine and the commands use: a DAG-RNN (:mod:`.network`) with the
propensity statistics that feed it (:class:`mcgo.models.seedstats.SeedStats`) and its input
radius, and seed 003's 1-ply move ranker by expected area (section 3.4).

A model is two files side by side: ``NAME.npz`` (the network, whose metadata names the
statistics file and the radius) and ``NAME-propensity.npz``. ``open_ownership("dagrnn")``
loads the shipped one (``mcgo/models/weights/``).

The ranker scores each legal move (and pass) by the expected area of the mover after it,
``E = sum_ij O_ij`` for black (``sum_ij (1 - O_ij)`` for white), and gives it the probability
``exp(E / T) / Z`` (the paper's Gibbs choice); the temperature ``T`` is fitted on validation
positions (:func:`mcgo.train.ownership_fit.fit_temperature`). It plugs into :func:`mcgo.train.evaluate.evaluate`
like a move model (``scores(pts, info, color, previous)``).
"""

import pathlib

import numpy as np

from ...board import BLACK
from ...board import kernels as K
from ...board.board import zobrist
from ...resources import package_file
from ..seedstats import COUNT_TABLES, SeedStats
from .features import features_of_arrays
from .network import Network, NetworkError

MODELS = package_file("mcgo.models", "weights")
SHIPPED = "dagrnn"
PROPENSITY_SUFFIX = "-propensity.npz"
# ``--ownership-prior auto``: the ranker's virtual visits on the root's moves, by board size,
# where a match at equal time favoured it (19x19, 5 s a move, 20 games, not yet significant:
# RESULTS, "The engine with the net"). On 9x9 it was level with the default over 100 games:
# none there. Off by default until a match shows a gain.
AUTO_PRIOR_VISITS = {19: 10.0}


class OwnershipModel:
    """A network, its propensity statistics and its input radius."""

    def __init__(self, network, stats, radius, temperature=1.0, path=None):
        self.network = network
        self.stats = stats
        self.radius = radius
        self.temperature = temperature
        self.path = path

    @classmethod
    def load(cls, path):
        """Load ``path`` (the network's .npz) and the statistics file its metadata names
        (beside it)."""
        path = pathlib.Path(path)
        network = Network.load(path)
        meta = network.metadata
        name = meta.get("propensity_file")
        if not name:
            raise NetworkError(f"{path}: the metadata names no propensity_file")
        stats_path = path.parent / name
        if not stats_path.exists():
            raise NetworkError(f"{path}: its propensity file {stats_path} is missing")
        stats = SeedStats.load(stats_path)
        return cls(network, stats, int(meta.get("feature_radius")),
                   float(meta.get("temperature", 1.0)), path)

    # ------------------------------------------------------------------ evaluation
    def inputs(self, pts, info):
        """The network's inputs for the position ``(pts, info)``."""
        size = int(info[K.BOARDSIZE])
        w = size + 2
        colors = np.ascontiguousarray(pts[K.COLOR].reshape(w, w)[1:-1, 1:-1], dtype=np.int8)
        return features_of_arrays(pts, info, self.propensity(colors), self.radius)

    def propensity(self, colors):
        """The propensity plane of a ``(size, size)`` colour array, from the statistics even
        when they were gathered on another board size (see :func:`stats_for_size`)."""
        return stats_for_size(self.stats, colors.shape[0]).propensity(colors)

    def ownership_of_arrays(self, pts, info):
        """P(black owns the point at the end), ``(size, size)`` ``[row, col]``."""
        return self.network.forward(self.inputs(pts, info))

    def ownership(self, board):
        """:meth:`ownership_of_arrays` of a :class:`mcgo.Board`."""
        return self.ownership_of_arrays(board.pts, board.info)

    def black_area(self, pts, info):
        """The expected area of black at the end, ``sum_ij O_ij``."""
        return float(self.ownership_of_arrays(pts, info).sum())

    # ------------------------------------------------------------------ 1-ply ranking
    def move_areas(self, pts, info, color):
        """(moves, areas): every legal move of ``color``, pass last, and the expected area of
        ``color`` after it."""
        size = int(info[K.BOARDSIZE])
        moves = np.zeros(size * size + 1, dtype=np.int32)
        n = K.legal_moves(pts, info, color, moves)
        moves[n] = K.PASS
        moves = moves[:n + 1]
        zob = zobrist(size)
        areas = np.empty(len(moves))
        child_pts = np.empty_like(pts)
        child_info = np.empty_like(info)
        cells = size * size
        for i, p in enumerate(moves):
            K.copy_position(pts, info, child_pts, child_info)
            K.play_legal(child_pts, child_info, zob, int(p), color)
            black = self.black_area(child_pts, child_info)
            areas[i] = black if color == BLACK else cells - black
        return moves, areas

    def scores(self, pts, info, color):
        """(moves, log-probabilities up to a constant): ``E / T`` of every legal move."""
        moves, areas = self.move_areas(pts, info, color)
        return moves, areas / self.temperature


def stats_for_size(stats, size):
    """``stats`` for a ``size`` board: itself when it was gathered on that size, else a copy
    of its tables under the other size's location classes (the same classes when the cap of
    the distance to the edge is reached on both sizes, which is what lets a 9x9 net run on
    19x19, the paper's transfer)."""
    if stats.size == size:
        return stats
    cache = stats.__dict__.setdefault("_other_sizes", {})
    if size not in cache:
        other = SeedStats(size, cap=stats.cap, to_move_view=stats.to_move_view,
                          territory=stats.territory, metadata=dict(stats.metadata))
        if other.nb.shape != stats.nb.shape:
            raise ValueError(f"propensity statistics of {stats.size}x{stats.size} (cap "
                             f"{stats.cap}) do not carry over to {size}x{size}")
        for name in COUNT_TABLES:
            getattr(other, name)[...] = getattr(stats, name)
        cache[size] = other
    return cache[size]


def open_ownership(name):
    """The model ``name``: ``"dagrnn"`` (the shipped one) or a path to a network file."""
    path = MODELS / f"{SHIPPED}.npz" if name == SHIPPED else pathlib.Path(name)
    if not path.exists():
        raise NetworkError(f"no ownership network {path}" + (
            " (the shipped one is missing: reinstall mcgo)" if name == SHIPPED else ""))
    return OwnershipModel.load(path)
