"""Training the learned move model (:mod:`mcgo.models.movemodel`) from game records: the
positions of the games as feature rows, and MM (:mod:`.mm`) on the *train* games
(:mod:`.split`), stopped on the validation games (``mcgo learn moves``)."""

import datetime

import numpy as np

from ..board import kernels as K
from ..board.kernels import LAST_MOVE
from ..models import move_features as F
from ..models.move_features import MAXVALUES, NGROUPS, PASS_G, PATTERN, candidate_keys
from ..models.movemodel import MoveModel
from ..sgf import SgfError, read_games, replay
from ..sgf.sources import input_files, iter_inputs
from . import mm
from .provenance import git_commit
from .split import TEST, TRAIN, game_key, split_of

DEFAULT_MIN_SEEN = 20       # a 3x3 pattern must be a candidate this often in training, else gamma 1
DEFAULT_DIAMOND_MIN_SEEN = 100  # the same for a diamond (20 overfits: validation -3.064 against -3.054)
DEFAULT_DIAMOND_PRIOR = 1.0     # virtual wins (and losses) of each diamond against a gamma of 1
DIAMOND = NGROUPS           # the diamonds' column in the MM rows, after the key's groups


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
    """Yield ``(move_number, features, index of the move played)`` for every move of a game
    (see :func:`game_states`); ``features``: int64 (n, 3), the key and the canonical small
    and large diamonds of each candidate."""
    canon = F.canonical_table() if canon is None else canon
    cells = record.size * record.size + 1
    moves = np.zeros(cells, dtype=np.int32)
    out = np.zeros((3, cells), dtype=np.int64)
    vals = np.zeros(NGROUPS, dtype=np.int32)
    for number, pts, info, color, point, previous in game_states(record):
        n = candidate_keys(pts, info, color, previous, canon, moves, out[0], out[1], out[2], vals)
        where = np.flatnonzero(moves[:n] == point)
        if len(where) == 0:
            return
        yield number, out[:, :n].T.copy(), int(where[0])


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
        for number, rows, played in game_positions(record, canon):
            if moves is not None and not moves[0] <= number <= moves[1]:
                continue
            unique, inverse, counts = np.unique(rows, axis=0, return_inverse=True, return_counts=True)
            inverse = inverse.reshape(-1)
            self._keys.append(unique)
            self._counts.append(counts.astype(np.int32))
            self._winners.append(int(inverse[played]))
            added += 1
        self.games += added > 0
        self.positions += added

    def arrays(self):
        """(features (R, 3), counts, positions, winner rows) over all positions."""
        if not self._keys:
            return (np.zeros((0, 3), np.int64), np.zeros(0, np.int32), np.zeros(0, np.int64),
                    np.zeros(0, np.int64))
        lengths = np.array([len(k) for k in self._keys])
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        positions = np.repeat(np.arange(len(lengths)), lengths)
        return (np.concatenate(self._keys), np.concatenate(self._counts), positions,
                starts + np.array(self._winners))


def _rows(samples, pattern_codes, diamond_codes):
    """The MM rows of ``samples``: patterns numbered 1..K by ``pattern_codes``, diamonds by
    ``diamond_codes`` (the large one if kept, else the small one; 0: none)."""
    rows, counts, positions, winners = samples.arrays()
    keys = rows[:, 0]
    boards = F.unpack_column(keys, PASS_G) == 0
    values = np.zeros((len(keys), NGROUPS + 1), dtype=np.int32)
    values[:, PATTERN] = _index_of(pattern_codes, F.unpack_column(keys, PATTERN), boards)
    for g in range(1, NGROUPS):
        values[:, g] = F.unpack_column(keys, g)
    large = _index_of(diamond_codes, rows[:, 2], boards)
    small = _index_of(diamond_codes, rows[:, 1], boards)
    values[:, DIAMOND] = np.where(large > 0, large, small)
    return mm.Rows(values, counts.astype(np.float64), positions, winners)


def _index_of(kept, codes, where):
    """1 + the index of each code in the sorted array ``kept`` (0: not kept or not ``where``)."""
    if len(kept) == 0:
        return np.zeros(len(codes), dtype=np.int32)
    i = np.clip(np.searchsorted(kept, codes), 0, len(kept) - 1)
    return np.where((kept[i] == codes) & where, i + 1, 0).astype(np.int32)


def _frequent(codes, counts, min_seen):
    """The sorted distinct codes whose counts add up to ``min_seen`` or more."""
    unique, inverse = np.unique(codes, return_inverse=True)
    seen = np.bincount(inverse.reshape(-1), weights=counts)
    return unique[seen >= min_seen]


def train(records, size=19, max_games=None, min_seen=DEFAULT_MIN_SEEN, prior=mm.DEFAULT_PRIOR,
          iterations=mm.DEFAULT_ITERATIONS, diamonds=True, diamond_min_seen=DEFAULT_DIAMOND_MIN_SEEN,
          diamond_prior=DEFAULT_DIAMOND_PRIOR, source="", log=None):
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
        if max_games is not None and train_set.games >= max_games \
                and valid_set.games >= max(1, max_games // 8):
            break
    if train_set.positions == 0:
        raise ValueError("no training positions (no train-split games of this size?)")
    rows, counts, _, _ = train_set.arrays()
    boards = F.unpack_column(rows[:, 0], PASS_G) == 0
    pattern_codes = _frequent(F.unpack_column(rows[boards, 0], PATTERN), counts[boards], min_seen)
    diamond_codes = np.union1d(_frequent(rows[boards, 1], counts[boards], diamond_min_seen),
                               _frequent(rows[boards, 2], counts[boards], diamond_min_seen)) if diamonds \
        else np.zeros(0, np.int64)
    del rows, counts, boards
    data = _rows(train_set, pattern_codes, diamond_codes)
    validation = _rows(valid_set, pattern_codes, diamond_codes) if valid_set.positions else None
    sizes = [len(pattern_codes) + 1] + [F.NVALUES[g] for g in range(1, NGROUPS)] \
        + [len(diamond_codes) + 1]
    history = []

    def progress(it, tll, vll):
        history.append((it, tll, vll))
        if log:
            log(f"MM iteration {it}: train log-likelihood {tll:.4f}"
                + ("" if vll is None else f", validation {vll:.4f}"))

    priors = [prior] * NGROUPS + [diamond_prior]
    gammas = mm.fit(data, sizes, validation, prior=priors, iterations=iterations, log=progress)
    group_lg = np.zeros((NGROUPS, MAXVALUES))
    for g in range(1, NGROUPS):
        group_lg[g, :sizes[g]] = np.log(gammas[g])
    meta = {
        "training_data": source, "split": "train (stopped on validation), mcgo.train.split",
        "board_size": size, "train_games": train_set.games, "train_positions": train_set.positions,
        "validation_games": valid_set.games, "validation_positions": valid_set.positions,
        "skipped_games": skipped, "min_seen": min_seen, "prior": prior,
        "diamond_min_seen": diamond_min_seen, "diamond_prior": diamond_prior,
        "patterns": int(len(pattern_codes)), "diamonds": int(len(diamond_codes)),
        "iterations_run": len(history),
        "train_log_likelihood": history[-1][1] if history else None,
        "validation_log_likelihood": max((h[2] for h in history if h[2] is not None), default=None),
        "commit": git_commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "feature_groups": list(F.GROUPS),
    }
    return MoveModel(pattern_codes, np.log(gammas[0][1:]), group_lg, diamond_codes,
                     np.log(gammas[DIAMOND][1:]), meta)


def read_records(paths, skipped=None):
    """Yield the GameRecords of SGF files, folders and ``.tar.gz`` archives (as
    ``mcgo build-casebase`` reads them); what cannot be read is appended to ``skipped`` as
    ``(name, reason)``."""
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
