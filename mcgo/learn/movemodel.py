"""The learned move model: training from game records, the model file, and the Numba scorer.

``P(move) = gamma(move) / sum over legal moves (and pass) of gamma``, where a move's gamma is
the product of the gammas of its features (:mod:`.features`), fitted by MM (:mod:`.mm`) on
the positions of the *train* games (:mod:`.split`), stopped on the validation games.

The model file is a NumPy ``.npz``: ``pattern_codes`` (the canonical 3x3 codes kept, sorted),
``pattern_log_gamma``, ``group_log_gamma`` (``NGROUPS x MAXVALUES``; row 0 unused) and
``metadata`` (JSON text: format name and version, feature version, training data, split,
games, positions, commit, date, validation metrics). :func:`load` checks all of it.

Playing: :func:`score_moves` writes the log-gamma of every legal move of a position (and of
pass, last) from two tables, the 3x3 one indexed by the raw code (symmetries folded in at
load time), in a few tens of microseconds on 19x19.

>>> import mcgo
>>> model = MoveModel.uniform()
>>> board = mcgo.Board(9)
>>> probs = model.probabilities(board)
>>> len(probs), round(sum(probs.values()), 6)
(82, 1.0)
"""

import datetime
import json
import pathlib
import subprocess
import zipfile

import numpy as np

from ..board import kernels as K
from ..board.kernels import LAST_MOVE, PASS, legal_moves
from ..jit import kernel
from ..sgf import replay
from . import features as F
from . import mm
from .features import MAXVALUES, NCODES, NGROUPS, PASS_G, PATTERN, candidate_keys, move_values
from .split import TEST, TRAIN, VALIDATION, game_key, split_of

FORMAT = "mcgo-move-model"
FORMAT_VERSION = 1
DEFAULT_MIN_SEEN = 20       # a 3x3 pattern must be a candidate this often in training, else gamma 1
ARRAYS = ("pattern_codes", "pattern_log_gamma", "group_log_gamma", "metadata")


class ModelError(ValueError):
    """A model file that cannot be used, with the reason."""


# ----------------------------------------------------------------------------- scoring
@kernel
def score_moves(pts, info, color, previous, pattern_lg, group_lg, moves, scores, vals):
    """Every legal move of ``color`` (pass last) into ``moves``, its log-gamma into ``scores``;
    returns how many. ``previous``: the move before the last (-1: none); ``vals``: int32
    scratch of NGROUPS."""
    n = legal_moves(pts, info, color, moves)
    moves[n] = PASS
    last = info[LAST_MOVE]
    for i in range(n + 1):
        p = moves[i]
        move_values(pts, info, p, color, last, previous, vals)
        s = 0.0 if p == PASS else pattern_lg[vals[PATTERN]]
        for g in range(1, NGROUPS):
            s += group_lg[g, vals[g]]
        scores[i] = s
    return n + 1


class MoveModel:
    """Gammas of the move features, and the tables the scorer reads."""

    def __init__(self, pattern_codes, pattern_log_gamma, group_log_gamma, metadata=None):
        self.pattern_codes = np.asarray(pattern_codes, dtype=np.int32)
        self.pattern_log_gamma = np.asarray(pattern_log_gamma, dtype=np.float64)
        self.group_log_gamma = np.asarray(group_log_gamma, dtype=np.float64)
        self.metadata = dict(metadata or {})
        # The raw-code table: every raw 3x3 code maps to its canonical code's log-gamma.
        canon = F.canonical_table()
        table = np.zeros(NCODES, dtype=np.float64)
        if len(self.pattern_codes):
            i = np.clip(np.searchsorted(self.pattern_codes, canon), 0, len(self.pattern_codes) - 1)
            hit = self.pattern_codes[i] == canon
            table[hit] = self.pattern_log_gamma[i[hit]]
        self.pattern_table = table
        self._vals = np.zeros(NGROUPS, dtype=np.int32)

    @classmethod
    def uniform(cls):
        """All gammas 1: every legal move (and pass) equally likely."""
        return cls(np.zeros(0, np.int32), np.zeros(0), np.zeros((NGROUPS, MAXVALUES)),
                   {"format": FORMAT, "version": FORMAT_VERSION, "name": "uniform"})

    # ------------------------------------------------------------------ playing
    def scores(self, pts, info, color, previous=-1):
        """(moves, log-gammas) of every legal move (pass last), from the Numba scorer."""
        size = int(info[K.BOARDSIZE])
        moves = np.zeros(size * size + 1, dtype=np.int32)
        scores = np.zeros(size * size + 1, dtype=np.float64)
        n = score_moves(pts, info, color, previous, self.pattern_table, self.group_log_gamma,
                        moves, scores, self._vals)
        return moves[:n], scores[:n]

    def probabilities(self, board, color=None, previous=-1):
        """``{point: probability}`` of every legal move (pass included) of a Board."""
        color = board.to_move if color is None else color
        moves, scores = self.scores(board.pts, board.info, color, previous)
        p = np.exp(scores - scores.max())
        p /= p.sum()
        return {int(m): float(x) for m, x in zip(moves, p)}

    # ------------------------------------------------------------------ training side
    def key_log_gammas(self, keys):
        """The log-gamma of each feature key, in NumPy (the training code's path)."""
        keys = np.asarray(keys, dtype=np.int64)
        out = np.zeros(len(keys))
        codes = F.unpack_column(keys, PATTERN)
        is_pass = F.unpack_column(keys, PASS_G) != 0
        if len(self.pattern_codes):
            i = np.clip(np.searchsorted(self.pattern_codes, codes), 0, len(self.pattern_codes) - 1)
            hit = (self.pattern_codes[i] == codes) & ~is_pass
            out[hit] += self.pattern_log_gamma[i[hit]]
        for g in range(1, NGROUPS):
            out += self.group_log_gamma[g, F.unpack_column(keys, g)]
        return out

    # ------------------------------------------------------------------ files
    def save(self, path):
        meta = dict(self.metadata, format=FORMAT, version=FORMAT_VERSION,
                    feature_version=F.FEATURE_VERSION)
        with open(path, "wb") as f:
            np.savez_compressed(f, pattern_codes=self.pattern_codes,
                                pattern_log_gamma=self.pattern_log_gamma,
                                group_log_gamma=self.group_log_gamma,
                                metadata=np.array(json.dumps(meta, sort_keys=True)))


def load(path):
    """The :class:`MoveModel` of a file; raises :class:`ModelError` saying what is wrong."""
    path = pathlib.Path(path)
    if not path.is_file():
        raise ModelError(f"{path}: no such model file")
    try:
        with np.load(path, allow_pickle=False) as z:
            missing = [a for a in ARRAYS if a not in z.files]
            if missing:
                raise ModelError(f"{path}: not a move model (missing {', '.join(missing)})")
            arrays = {a: z[a] for a in ARRAYS}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as e:
        if isinstance(e, ModelError):
            raise
        raise ModelError(f"{path}: not a readable .npz move model ({e})") from None
    try:
        meta = json.loads(str(arrays["metadata"]))
    except ValueError:
        raise ModelError(f"{path}: metadata is not JSON") from None
    if meta.get("format") != FORMAT:
        raise ModelError(f"{path}: format {meta.get('format')!r}, expected {FORMAT!r}")
    if meta.get("version") != FORMAT_VERSION or meta.get("feature_version") != F.FEATURE_VERSION:
        raise ModelError(f"{path}: version {meta.get('version')}/features {meta.get('feature_version')}"
                         f", this mcgo reads {FORMAT_VERSION}/{F.FEATURE_VERSION}")
    codes, plg, glg = arrays["pattern_codes"], arrays["pattern_log_gamma"], arrays["group_log_gamma"]
    if (codes.ndim != 1 or plg.shape != codes.shape or glg.shape != (NGROUPS, MAXVALUES)
            or not np.all(np.isfinite(plg)) or not np.all(np.isfinite(glg))
            or np.any(np.diff(codes) <= 0) or (len(codes) and (codes.min() < 0 or codes.max() >= NCODES))):
        raise ModelError(f"{path}: arrays of the wrong shape or values")
    return MoveModel(codes, plg, glg, meta)


# ----------------------------------------------------------------------------- training data
def game_states(record):
    """Yield ``(move_number, pts, info, color, point, previous)`` just before every move of a
    game (1-based numbers, passes included; ``previous``: the move before the last, -1: none).
    The arrays are the live position: read them before asking for the next move. Stops at the
    first move the board refuses (simple ko, no superko) or at a mid-game set-up."""
    if any(n > 0 for n in record.setups):
        return
    board = replay(record, max_moves=0)
    pts, info, zob = board.pts.copy(), board.info.copy(), board.zob
    previous = -1
    for number, (color, point) in enumerate(record.moves, 1):
        if K.legality(pts, info, point, color) != K.LEGAL:
            return
        yield number, pts, info, color, point, previous
        previous = int(info[LAST_MOVE])
        K.play_legal(pts, info, zob, point, color)


def game_positions(record, canon=None):
    """Yield ``(move_number, keys, index of the move played)`` for every move of a game
    (see :func:`game_states`)."""
    canon = F.canonical_table() if canon is None else canon
    cells = record.size * record.size + 1
    moves = np.zeros(cells, dtype=np.int32)
    keys = np.zeros(cells, dtype=np.int64)
    vals = np.zeros(NGROUPS, dtype=np.int32)
    for number, pts, info, color, point, previous in game_states(record):
        n = candidate_keys(pts, info, color, previous, canon, moves, keys, vals)
        where = np.flatnonzero(moves[:n] == point)
        if len(where) == 0:
            return
        yield number, keys[:n].copy(), int(where[0])


def split_records(records, size=19):
    """Yield ``(record, split)`` for the games of ``size`` (others skipped)."""
    for record in records:
        if record.size != size:
            continue
        yield record, split_of(game_key(record))


class Samples:
    """The positions of some games as de-duplicated feature keys: the rows of MM."""

    def __init__(self):
        self._keys, self._counts, self._winners = [], [], []
        self.games = 0
        self.positions = 0

    def add_game(self, record, canon=None, moves=None):
        """Add the positions of a game (``moves``: (first, last) move numbers to keep)."""
        added = 0
        for number, keys, played in game_positions(record, canon):
            if moves is not None and not moves[0] <= number <= moves[1]:
                continue
            unique, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
            self._keys.append(unique)
            self._counts.append(counts.astype(np.int32))
            self._winners.append(int(inverse[played]))
            added += 1
        self.games += added > 0
        self.positions += added

    def arrays(self):
        """(keys, counts, positions, winner rows) over all positions."""
        if not self._keys:
            return (np.zeros(0, np.int64), np.zeros(0, np.int32), np.zeros(0, np.int64),
                    np.zeros(0, np.int64))
        lengths = np.array([len(k) for k in self._keys])
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        positions = np.repeat(np.arange(len(lengths)), lengths)
        return (np.concatenate(self._keys), np.concatenate(self._counts), positions,
                starts + np.array(self._winners))


def _rows(samples, pattern_codes):
    """The MM rows of ``samples``, patterns numbered 1..K by ``pattern_codes`` (0: dropped)."""
    keys, counts, positions, winners = samples.arrays()
    values = np.zeros((len(keys), NGROUPS), dtype=np.int32)
    codes = F.unpack_column(keys, PATTERN)
    i = np.clip(np.searchsorted(pattern_codes, codes), 0, max(len(pattern_codes) - 1, 0))
    hit = (pattern_codes[i] == codes) & (F.unpack_column(keys, PASS_G) == 0) if len(pattern_codes) \
        else np.zeros(len(keys), bool)
    values[hit, PATTERN] = i[hit] + 1
    for g in range(1, NGROUPS):
        values[:, g] = F.unpack_column(keys, g)
    return mm.Rows(values, counts.astype(np.float64), positions, winners)


def train(records, size=19, max_games=None, min_seen=DEFAULT_MIN_SEEN, prior=mm.DEFAULT_PRIOR,
          iterations=mm.DEFAULT_ITERATIONS, source="", log=None):
    """A :class:`MoveModel` trained on the train games of ``records`` (GameRecords of
    ``size``), stopped on the validation games. ``max_games`` caps the train games read."""
    canon = F.canonical_table()
    train_set, valid_set = Samples(), Samples()
    skipped = 0
    for record, part in split_records(records, size):
        if part == TEST:
            continue
        if part == TRAIN and max_games is not None and train_set.games >= max_games:
            continue
        try:
            (train_set if part == TRAIN else valid_set).add_game(record, canon)
        except Exception as e:   # a record the board refuses at its set-up
            skipped += 1
            if log:
                log(f"skipped {record.source or '<record>'}: {e}")
        if max_games is not None and train_set.games >= max_games and valid_set.games >= max(1, max_games // 8):
            break
    if train_set.positions == 0:
        raise ValueError("no training positions (no train-split games of this size?)")
    keys, counts, _, _ = train_set.arrays()
    codes = F.unpack_column(keys, PATTERN)
    boards = F.unpack_column(keys, PASS_G) == 0
    seen = np.bincount(codes[boards], weights=counts[boards], minlength=NCODES)
    pattern_codes = np.flatnonzero(seen >= min_seen).astype(np.int32)
    data = _rows(train_set, pattern_codes)
    validation = _rows(valid_set, pattern_codes) if valid_set.positions else None
    sizes = [len(pattern_codes) + 1] + [F.NVALUES[g] for g in range(1, NGROUPS)]
    history = []

    def progress(it, tll, vll):
        history.append((it, tll, vll))
        if log:
            log(f"MM iteration {it}: train log-likelihood {tll:.4f}"
                + ("" if vll is None else f", validation {vll:.4f}"))

    gammas = mm.fit(data, sizes, validation, prior=prior, iterations=iterations, log=progress)
    group_lg = np.zeros((NGROUPS, MAXVALUES))
    for g in range(1, NGROUPS):
        group_lg[g, :sizes[g]] = np.log(gammas[g])
    meta = {
        "training_data": source, "split": "train (stopped on validation), mcgo.learn.split",
        "board_size": size, "train_games": train_set.games, "train_positions": train_set.positions,
        "validation_games": valid_set.games, "validation_positions": valid_set.positions,
        "skipped_games": skipped, "min_seen": min_seen, "prior": prior,
        "patterns": int(len(pattern_codes)), "iterations": len(history),
        "train_log_likelihood": history[-1][1] if history else None,
        "validation_log_likelihood": max((h[2] for h in history if h[2] is not None), default=None),
        "commit": _commit(), "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "feature_groups": list(F.GROUPS),
    }
    return MoveModel(pattern_codes, np.log(gammas[0][1:]), group_lg, meta)


def _commit():
    try:
        return subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                              cwd=pathlib.Path(__file__).parent, timeout=5).stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def read_records(paths, skipped=None):
    """Yield the GameRecords of SGF files, folders and ``.tar.gz`` archives (as
    ``mcgo build-casebase`` reads them); what cannot be read is appended to ``skipped`` as
    ``(name, reason)``."""
    from ..casebase.build import input_files, iter_inputs
    from ..sgf import SgfError, read_games
    files, _ = input_files(paths)
    for name, data, error, _ in iter_inputs(files):
        if name is None:
            continue
        if data is None:
            if skipped is not None:
                skipped.append((name, error))
            continue
        for item in read_games(data, errors="yield"):
            if isinstance(item, SgfError):
                if skipped is not None:
                    skipped.append((name, item.reason if hasattr(item, "reason") else str(item)))
                continue
            item.source = item.source or name
            yield item
