"""The learned move model: the model file and the Numba scorer (training: :mod:`mcgo.train.movemodel`).

``P(move) = gamma(move) / sum over legal moves (and pass) of gamma``, where a move's gamma is
the product of the gammas of its features (:mod:`.move_features`), fitted by MM
(:mod:`mcgo.train.mm`) on the positions of the *train* games (:mod:`mcgo.train.split`),
stopped on the validation games.

The model file is a NumPy ``.npz``: ``pattern_codes`` (the canonical 3x3 codes kept, sorted),
``pattern_log_gamma``, ``group_log_gamma`` (``NGROUPS x MAXVALUES``; row 0 unused),
``spatial_contents`` (``K x 3`` int64: the points of each kept spatial pattern, as seen once
on a board, :mod:`.spatial`), ``spatial_sizes`` (its size index), ``spatial_log_gamma`` (a
move uses the gamma of the largest kept pattern around it, else 1) and ``metadata`` (JSON text: format name and version, feature version, training data,
split, games, positions, commit, date, validation metrics). :func:`load` checks all of it.

Training and measuring (the shipped model: the goban professional games and the KGS 6d+
games, positions of the latter sampled at 0.08; see ``mcgo learn evaluate``)::

    mcgo learn moves GOBAN KGS-6D@0.08 --jobs 2 --iterations 20 -o moves.npz
    mcgo learn evaluate moves.npz GOBAN --moves 80-83
    mcgo gtp --model moves.npz          # the tree's priors from the model

Playing: :func:`score_moves` writes the log-gamma of every legal move of a position (and of
pass, last) from two tables, the 3x3 one indexed by the raw code and the spatial one by the
hashes of every orientation (symmetries folded in at load time), in a few tens of
microseconds on 19x19.

>>> import mcgo
>>> model = MoveModel.uniform()
>>> board = mcgo.Board(9)
>>> probs = model.probabilities(board)
>>> len(probs), round(sum(probs.values()), 6)
(82, 1.0)
"""

import json

import numpy as np

from ..board import kernels as K
from ..board.board import zobrist
from ..board.kernels import LAST_MOVE, PASS, legal_moves
from ..tactics.ladder import new_ladder_space
from ..jit import inline_kernel, kernel
from . import move_features as F
from . import spatial, weights_file
from .move_features import MAXVALUES, NCODES, NGROUPS, PATTERN, move_values
from .spatial import largest_known
from ..resources import package_file

FORMAT = "mcgo-move-model"
FORMAT_VERSION = 2
ARRAYS = ("pattern_codes", "pattern_log_gamma", "group_log_gamma", "spatial_contents",
          "spatial_sizes", "spatial_log_gamma")


class ModelError(ValueError):
    """A model file that cannot be used, with the reason."""


# ----------------------------------------------------------------------------- scoring
@inline_kernel
def move_log_gamma(pts, info, zob, ladder, p, color, last, previous, pattern_lg, group_lg,
                   spatial_keys, spatial_lg, vals):
    """The log-gamma of ``color`` playing the legal move ``p`` (PASS included); ``last``,
    ``previous``: the last two moves (PASS or -1: none); ``zob``, ``ladder``: the board's
    Zobrist keys and a ladder space; ``vals``: int32 scratch of NGROUPS."""
    move_values(pts, info, zob, ladder, p, color, last, previous, vals)
    s = 0.0
    if p != PASS:
        s = pattern_lg[vals[PATTERN]] + largest_known(pts, info, p, color, spatial_keys, spatial_lg)[0]
    for g in range(1, NGROUPS):
        s += group_lg[g, vals[g]]
    return s


@kernel
def score_moves(pts, info, zob, ladder, color, previous, pattern_lg, group_lg, spatial_keys,
                spatial_lg, moves, scores, vals):
    """Every legal move of ``color`` (pass last) into ``moves``, its log-gamma into ``scores``;
    returns how many. ``previous``: the move before the last (-1: none); ``zob``, ``ladder``:
    the board's Zobrist keys and a ladder space; ``vals``: int32 scratch of NGROUPS."""
    n = legal_moves(pts, info, color, moves)
    moves[n] = PASS
    last = info[LAST_MOVE]
    for i in range(n + 1):
        scores[i] = move_log_gamma(pts, info, zob, ladder, moves[i], color, last, previous,
                                   pattern_lg, group_lg, spatial_keys, spatial_lg, vals)
    return n + 1


class MoveModel:
    """Gammas of the move features, and the tables the scorer reads."""

    def __init__(self, pattern_codes, pattern_log_gamma, group_log_gamma, spatial_contents=(),
                 spatial_sizes=(), spatial_log_gamma=(), metadata=None):
        self.pattern_codes = np.asarray(pattern_codes, dtype=np.int32)
        self.pattern_log_gamma = np.asarray(pattern_log_gamma, dtype=np.float64)
        self.group_log_gamma = np.asarray(group_log_gamma, dtype=np.float64)
        self.spatial_contents = np.asarray(spatial_contents, dtype=np.int64).reshape(-1, spatial.WORDS)
        self.spatial_sizes = np.asarray(spatial_sizes, dtype=np.int8)
        self.spatial_log_gamma = np.asarray(spatial_log_gamma, dtype=np.float64)
        # The spatial table: every orientation of every kept pattern -> its log-gamma.
        self.spatial_keys, self.spatial_table = spatial.play_table(
            self.spatial_contents, self.spatial_sizes, self.spatial_log_gamma)
        self.metadata = dict(metadata or {})
        # {board size: MoveModel} whose gammas the tree and the playouts read on that size
        # instead of these (``--model auto``: the 9x9 one, see AUTO_SIZE_MODELS)
        self.size_models = {}
        # The raw-code table: every raw 3x3 code maps to its canonical code's log-gamma.
        canon = F.canonical_table()
        table = np.zeros(NCODES, dtype=np.float64)
        if len(self.pattern_codes):
            i = np.clip(np.searchsorted(self.pattern_codes, canon), 0, len(self.pattern_codes) - 1)
            hit = self.pattern_codes[i] == canon
            table[hit] = self.pattern_log_gamma[i[hit]]
        self.pattern_table = table
        self._vals = np.zeros(NGROUPS, dtype=np.int32)
        self._ladders = {}          # board size -> the scorer's ladder space

    @classmethod
    def uniform(cls):
        """All gammas 1: every legal move (and pass) equally likely."""
        return cls(np.zeros(0, np.int32), np.zeros(0), np.zeros((NGROUPS, MAXVALUES)),
                   metadata={"format": FORMAT, "version": FORMAT_VERSION, "name": "uniform"})

    # ------------------------------------------------------------------ playing
    def for_size(self, size):
        """The model whose gammas a search of a ``size`` board reads (:attr:`size_models`)."""
        return self.size_models.get(size, self)

    def scores(self, pts, info, color, previous=None):
        """(moves, log-gammas) of every legal move (pass last), from the Numba scorer;
        ``previous``: the move before the last (default the position's own, -1: none)."""
        previous = int(info[K.PREVIOUS_MOVE]) if previous is None else previous
        size = int(info[K.BOARDSIZE])
        moves = np.zeros(size * size + 1, dtype=np.int32)
        scores = np.zeros(size * size + 1, dtype=np.float64)
        if size not in self._ladders:
            self._ladders[size] = new_ladder_space(size)
        n = score_moves(pts, info, zobrist(size), self._ladders[size], color, previous,
                        self.pattern_table, self.group_log_gamma, self.spatial_keys,
                        self.spatial_table, moves, scores, self._vals)
        return moves[:n], scores[:n]

    def probabilities(self, board, color=None, previous=None):
        """``{point: probability}`` of every legal move (pass included) of a Board;
        ``previous`` as in :meth:`scores`."""
        color = board.to_move if color is None else color
        moves, scores = self.scores(board.pts, board.info, color, previous)
        p = np.exp(scores - scores.max())
        p /= p.sum()
        return {int(m): float(x) for m, x in zip(moves, p)}

    # ------------------------------------------------------------------ files
    def save(self, path):
        meta = dict(self.metadata, format=FORMAT, version=FORMAT_VERSION,
                    feature_version=F.FEATURE_VERSION)
        with open(path, "wb") as f:
            np.savez_compressed(f, pattern_codes=self.pattern_codes,
                                pattern_log_gamma=self.pattern_log_gamma,
                                group_log_gamma=self.group_log_gamma,
                                spatial_contents=self.spatial_contents,
                                spatial_sizes=self.spatial_sizes,
                                spatial_log_gamma=self.spatial_log_gamma,
                                metadata=np.array(json.dumps(meta, sort_keys=True)))


DEFAULT_MODEL = package_file("mcgo.models", "weights", "moves.npz")
# ``--model auto`` reads these models' gammas on their board sizes. On 9x9 a model of
# mcgo's own 9x9 match records (both sides' moves; 2,872 train games against Pachi and
# against itself, its metadata lists them): at 2,000 simulations its prior beat the goban games'
# model by +102 Elo over 250 games (benchmarks/RESULTS.md, 2026-12-04), and the default
# keeps passing Fuego's 9x9 positions its tests hold it to (tests/test_search.py,
# tests/test_regress.py). On 19x19 the KGS model won 30-10 against the goban one.
AUTO_SIZE_MODELS = {9: package_file("mcgo.models", "weights", "moves-9x9.npz")}
# Board sizes on which the shipped model's tree prior won against the engine without it
# (benchmarks/journal/, issue 12), each with the settings of the prior it won with: the
# sizes and settings ``--model auto`` uses (a setting given with --set wins). On 9x9 the
# sqrt shape (Pachi's form) beat the ratio shape, and at every depth with 100 it beat
# Pachi's 210 within 4 plies at equal time (+76 Elo over 200 games). On 13x13 the 19x19
# settings won 78-22 against no prior at 1 s a move (+220 Elo, benchmarks/RESULTS.md).
AUTO_MODEL_PRIORS = {
    9: dict(model_depth=0, model_prior=100.0, model_prior_shape=1),
    13: dict(model_depth=2, model_prior=20.0, model_prior_shape=0),
    19: dict(model_depth=2, model_prior=20.0, model_prior_shape=0),
}


def open_model(choice):
    """The model a command line names: ``"none"`` (None), ``"default"`` (the shipped model,
    trained on the goban professional games, GPL-2+, and the KGS 6d+ games; see its metadata),
    ``"auto"`` (the shipped model with the gammas of :data:`AUTO_SIZE_MODELS` on their
    sizes; the recipe gives it the tree's priors on the sizes of :data:`AUTO_MODEL_PRIORS`
    only, with their settings: :mod:`mcgo.engine.recipe`) or a file."""
    if choice == "none":
        return None
    model = load(choice if choice not in ("default", "auto") else DEFAULT_MODEL)
    if choice == "auto":
        model.size_models = {size: load(path) for size, path in AUTO_SIZE_MODELS.items()}
    return model


def model_tables(model):
    """The ``model`` tuple the search kernels read of a :class:`MoveModel` for the tree's
    priors: ``(pattern_lg, group_lg, spatial_keys, spatial_lg, vals)``, ``vals`` a scratch
    row of its own (one tuple per thread). ``None`` gives placeholders of the same types
    (all gammas 1), which the kernels never read when the tree has no model."""
    vals = np.zeros(NGROUPS, dtype=np.int32)
    if model is None:
        return (np.zeros(1), np.zeros((NGROUPS, MAXVALUES)), np.full(1, -1, dtype=np.int64),
                np.zeros(1), vals)
    return (model.pattern_table, model.group_log_gamma, model.spatial_keys, model.spatial_table,
            vals)


def load(path):
    """The :class:`MoveModel` of a file; raises :class:`ModelError` saying what is wrong."""
    arrays, meta = weights_file.read(path, FORMAT, "move model", ModelError)
    if meta.get("version") != FORMAT_VERSION or meta.get("feature_version") != F.FEATURE_VERSION:
        raise ModelError(f"{path}: version {meta.get('version')}/features {meta.get('feature_version')}"
                         f", this mcgo reads {FORMAT_VERSION}/{F.FEATURE_VERSION}")
    missing = [a for a in ARRAYS if a not in arrays]
    if missing:
        raise ModelError(f"{path}: not a move model (missing {', '.join(missing)})")
    codes, plg, glg = arrays["pattern_codes"], arrays["pattern_log_gamma"], arrays["group_log_gamma"]
    contents, sizes, slg = arrays["spatial_contents"], arrays["spatial_sizes"], arrays["spatial_log_gamma"]
    if (codes.ndim != 1 or plg.shape != codes.shape or glg.shape != (NGROUPS, MAXVALUES)
            or contents.shape != (len(slg), spatial.WORDS) or contents.dtype != np.int64
            or sizes.shape != slg.shape or slg.ndim != 1
            or (len(sizes) and (sizes.min() < 0 or sizes.max() >= spatial.NSIZES))
            or not all(np.all(np.isfinite(a)) for a in (plg, glg, slg))
            or np.any(np.diff(codes) <= 0)
            or (len(codes) and (codes.min() < 0 or codes.max() >= NCODES))):
        raise ModelError(f"{path}: arrays of the wrong shape or values")
    return MoveModel(codes, plg, glg, contents, sizes, slg, meta)
