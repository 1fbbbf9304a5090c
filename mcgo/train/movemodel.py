"""Training the learned move model (:mod:`mcgo.models.movemodel`) from game records: the
positions of the games as feature rows, and MM (:mod:`.mm`) on the *train* games
(:mod:`.split`), stopped on the validation games (``mcgo learn moves``).

Two passes over the games. The first *harvests* the spatial patterns (:mod:`mcgo.models.spatial`)
of the moves played and keeps, at each size, those played at least ``spatial_min_played``
times; the second writes every candidate move of every position as a row (its feature key
and its largest kept spatial pattern) for MM. A large collection is *sampled*: a source given
as ``PATH@RATE`` gives each position of its games that chance to be used (the same positions
in both passes, chosen by a hash of the game and the move number, so a run is repeatable), so
that the positions of many games fit in memory. Both passes run on ``jobs`` processes.
"""

import datetime
import hashlib
import multiprocessing

import numpy as np

from ..board import kernels as K
from ..board.board import zobrist
from ..models import move_features as F
from ..models import spatial as S
from ..models.move_features import MAXVALUES, NGROUPS, PASS_G, PATTERN, candidate_keys
from ..models.movemodel import MoveModel
from ..sgf import SgfError, read_games, replay
from ..sgf.sources import input_files, iter_inputs
from ..tactics.ladder import new_ladder_space
from . import mm
from .provenance import git_commit
from .split import TEST, TRAIN, VALIDATION, game_key, split_of

DEFAULT_MIN_SEEN = 20       # a 3x3 pattern must be a candidate this often in training, else gamma 1
DEFAULT_SPATIAL_MIN_PLAYED = 10  # a spatial pattern must be played this often in training
DEFAULT_SPATIAL_PRIOR = 1.0      # virtual wins (and losses) of each spatial pattern against 1
SPATIAL = NGROUPS           # the spatial patterns' column in the MM rows, after the key's groups
CHUNK = 8                   # games handed to a worker process at a time


# ----------------------------------------------------------------------------- positions
def game_states(record):
    """Yield ``(move_number, pts, info, color, point)`` just before every move of a game
    (1-based numbers, passes included; ``info`` has the last two moves, -1: none). The arrays are the live position: read them before asking for the next move. Stops at the
    first move the board refuses (simple ko, no superko) or at a mid-game set-up."""
    if any(n > 0 for n in record.setups):
        return
    board = replay(record, max_moves=0)
    pts, info, zob = board.pts.copy(), board.info.copy(), board.zob
    for number, (color, point) in enumerate(record.moves, 1):
        if K.legality(pts, info, point, color) != K.LEGAL:
            return
        yield number, pts, info, color, point
        K.play_legal(pts, info, zob, point, color)


def sampled(key, number, rate):
    """True when move ``number`` of the game ``key`` is in a sample of ``rate`` (repeatable)."""
    if rate >= 1.0:
        return True
    digest = hashlib.blake2b(f"{key}:{number}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little") < rate * 2 ** 64


def _sample_states(record, rate, moves=None):
    key = game_key(record) if rate < 1.0 else None
    for state in game_states(record):
        number = state[0]
        if moves is not None and not moves[0] <= number <= moves[1]:
            continue
        if rate >= 1.0 or sampled(key, number, rate):
            yield state


def harvest_game(record, rate=1.0):
    """The spatial patterns of the moves played at the sampled positions of a game:
    (canonical hashes (m, NSIZES), contents (m, WORDS)), passes left out."""
    hashes, contents = [], []
    scratch = np.zeros(S.SYMMETRIES, dtype=np.int64)
    none = np.full(1, S.NO_KEY, dtype=np.int64)
    for _, pts, info, color, point in _sample_states(record, rate):
        if point == K.PASS:
            continue
        h = np.zeros(S.NSIZES, dtype=np.int64)
        S.canonical_into(pts, info, point, color, h, none, scratch)
        c = np.zeros(S.WORDS, dtype=np.int64)
        S.content_into(pts, info, point, color, c)
        hashes.append(h)
        contents.append(c)
    if not hashes:
        return np.zeros((0, S.NSIZES), np.int64), np.zeros((0, S.WORDS), np.int64)
    return np.array(hashes), np.array(contents)


class SpatialDictionary:
    """The kept spatial patterns: canonical hash, size index and content of each, and the
    table that numbers them (value i + 1 for pattern i) for :func:`S.candidate_spatial`."""

    def __init__(self, hashes, sizes, contents):
        self.hashes = np.asarray(hashes, dtype=np.int64)
        self.sizes = np.asarray(sizes, dtype=np.int8)
        self.contents = np.asarray(contents, dtype=np.int64).reshape(-1, S.WORDS)
        self.keys, self.values = S.hash_table(self.hashes, np.arange(1, len(self.hashes) + 1,
                                                                     dtype=np.float64))

    def __len__(self):
        return len(self.hashes)

    @classmethod
    def empty(cls):
        return cls(np.zeros(0, np.int64), np.zeros(0, np.int8), np.zeros((0, S.WORDS), np.int64))

    @classmethod
    def of_model(cls, model):
        """The dictionary of a trained model's spatial patterns (in the model's order)."""
        hashes = S.orbit_hashes(model.spatial_contents, model.spatial_sizes.astype(np.int64))
        return cls(hashes.min(axis=1) if len(hashes) else np.zeros(0, np.int64),
                   model.spatial_sizes, model.spatial_contents)

    @classmethod
    def from_harvest(cls, hashes, contents, min_played):
        """The patterns played ``min_played`` times or more, at every size."""
        kept_hashes, kept_sizes, kept_contents = [], [], []
        for j in range(S.NSIZES):
            if len(hashes) == 0:
                break
            unique, first, counts = np.unique(hashes[:, j], return_index=True, return_counts=True)
            keep = counts >= min_played
            kept_hashes.append(unique[keep])
            kept_sizes.append(np.full(int(keep.sum()), j, dtype=np.int8))
            kept_contents.extend(S.truncate(contents[i], j) for i in first[keep])
        if not kept_hashes:
            return cls.empty()
        return cls(np.concatenate(kept_hashes), np.concatenate(kept_sizes),
                   np.array(kept_contents).reshape(-1, S.WORDS))


def game_rows(record, spatial, rate=1.0, moves=None, canon=None):
    """The MM rows of the sampled positions of a game: (features (R, 2): key and spatial
    value, counts (R,), rows per position (P,), winner row within each position (P,))."""
    canon = F.canonical_table() if canon is None else canon
    cells = record.size * record.size + 1
    cand = np.zeros(cells, dtype=np.int32)
    keys = np.zeros(cells, dtype=np.int64)
    values = np.zeros(cells, dtype=np.int32)
    vals = np.zeros(NGROUPS, dtype=np.int32)
    hashes = np.zeros(S.NSIZES, dtype=np.int64)
    scratch = np.zeros(S.SYMMETRIES, dtype=np.int64)
    zob, ladder = zobrist(record.size), new_ladder_space(record.size)
    rows, counts, lengths, winners = [], [], [], []
    for _, pts, info, color, point in _sample_states(record, rate, moves):
        n = candidate_keys(pts, info, zob, ladder, color, int(info[K.PREVIOUS_MOVE]), canon, cand, keys, vals)
        where = np.flatnonzero(cand[:n] == point)
        if len(where) == 0:
            break
        S.candidate_spatial(pts, info, color, cand, n, spatial.keys, spatial.values, values,
                            hashes, scratch)
        features = np.stack([keys[:n], values[:n].astype(np.int64)], axis=1)
        unique, inverse, count = np.unique(features, axis=0, return_inverse=True, return_counts=True)
        rows.append(unique)
        counts.append(count.astype(np.int32))
        lengths.append(len(unique))
        winners.append(int(inverse.reshape(-1)[where[0]]))
    if not rows:
        return (np.zeros((0, 2), np.int64), np.zeros(0, np.int32), np.zeros(0, np.int64),
                np.zeros(0, np.int64))
    return np.concatenate(rows), np.concatenate(counts), np.array(lengths), np.array(winners)


class Samples:
    """The positions of some games as de-duplicated feature rows: the rows of MM."""

    def __init__(self):
        self._rows, self._counts, self._lengths, self._winners = [], [], [], []
        self.games = 0
        self.positions = 0

    def add(self, rows, counts, lengths, winners):
        """Add the rows of one game (:func:`game_rows`)."""
        if len(lengths) == 0:
            return
        self._rows.append(rows)
        self._counts.append(counts)
        self._lengths.append(lengths)
        self._winners.append(winners)
        self.games += 1
        self.positions += len(lengths)

    @classmethod
    def merged(cls, parts):
        """One Samples of the positions of ``parts``."""
        out = cls()
        for part in parts:
            out._rows += part._rows
            out._counts += part._counts
            out._lengths += part._lengths
            out._winners += part._winners
            out.games += part.games
            out.positions += part.positions
        return out

    def add_game(self, record, spatial=None, rate=1.0, moves=None, canon=None):
        """Add the sampled positions of a game (``moves``: (first, last) move numbers)."""
        self.add(*game_rows(record, spatial or SpatialDictionary.empty(), rate, moves, canon))

    def arrays(self):
        """(features (R, 2), counts, positions, winner rows) over all positions."""
        if not self._rows:
            return (np.zeros((0, 2), np.int64), np.zeros(0, np.int32), np.zeros(0, np.int64),
                    np.zeros(0, np.int64))
        lengths = np.concatenate(self._lengths)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        positions = np.repeat(np.arange(len(lengths)), lengths)
        return (np.concatenate(self._rows), np.concatenate(self._counts), positions,
                starts + np.concatenate(self._winners))


def _rows(samples, pattern_codes):
    """The MM rows of ``samples``: patterns numbered 1..K by ``pattern_codes``, the spatial
    patterns by their dictionary's numbers (0: none)."""
    rows, counts, positions, winners = samples.arrays()
    keys = rows[:, 0]
    boards = F.unpack_column(keys, PASS_G) == 0
    values = np.zeros((len(keys), NGROUPS + 1), dtype=np.int32)
    values[:, PATTERN] = _index_of(pattern_codes, F.unpack_column(keys, PATTERN), boards)
    for g in range(1, NGROUPS):
        values[:, g] = F.unpack_column(keys, g)
    values[:, SPATIAL] = rows[:, 1]
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


# ----------------------------------------------------------------------------- the two passes
_WORKER = {}


def _init_worker(spatial):
    _WORKER["spatial"] = spatial
    _WORKER["canon"] = F.canonical_table()


def _harvest_job(item):
    record, part, rate, _ = item
    try:
        return part, harvest_game(record, rate), None
    except Exception as e:      # noqa: BLE001 - a record the board refuses costs that game only
        return part, None, f"skipped {record.source or '<record>'}: {e}"


def _rows_job(item):
    record, part, rate, source = item
    try:
        return (part, source), game_rows(record, _WORKER["spatial"], rate, canon=_WORKER["canon"]), None
    except Exception as e:      # noqa: BLE001
        return (part, source), None, f"skipped {record.source or '<record>'}: {e}"


def _pool_map(job, items, jobs, spatial):
    if jobs <= 1:
        _init_worker(spatial)
        yield from map(job, items)
        return
    with multiprocessing.get_context("fork").Pool(jobs, _init_worker, (spatial,)) as pool:
        yield from pool.imap(job, items, chunksize=CHUNK)


def training_games(sources, size=19, max_games=None):
    """The train and validation games of ``sources`` (``(records, rate)`` pairs), as a list of
    ``(record, split, rate, source index)``; ``max_games`` caps the train games of each source."""
    out = []
    for index, (records, rate) in enumerate(sources):
        train_count = 0
        for record in records:
            if record.size != size:
                continue
            part = split_of(game_key(record))
            if part == TEST:
                continue
            if part == TRAIN:
                if max_games is not None and train_count >= max_games:
                    continue
                train_count += 1
            out.append((record, part, rate, index))
    return out


def train(sources, size=19, max_games=None, min_seen=DEFAULT_MIN_SEEN, prior=mm.DEFAULT_PRIOR,
          iterations=mm.DEFAULT_ITERATIONS, spatial_min_played=DEFAULT_SPATIAL_MIN_PLAYED,
          spatial_prior=DEFAULT_SPATIAL_PRIOR, jobs=1, source="", labels=None, log=None):
    """A :class:`MoveModel` trained on the train games of ``sources`` (GameRecords of ``size``;
    an iterable of records, or ``(records, rate)`` pairs to sample positions), stopped on the
    validation games. ``max_games`` caps the train games of each source; ``labels`` name the
    sources in the metadata (default: their numbers)."""
    if not isinstance(sources, (list, tuple)) or not sources or not isinstance(sources[0], tuple):
        sources = [(sources, 1.0)]
    games = training_games(sources, size, max_games)
    say = log or (lambda text: None)
    # Pass 1: the spatial patterns of the moves played, kept where played often enough.
    hashes, contents, skipped = [], [], 0
    for part, result, error in _pool_map(_harvest_job, [g for g in games if g[1] == TRAIN],
                                         jobs, None):
        if error:
            skipped += 1
            say(error)
        elif len(result[0]):
            hashes.append(result[0])
            contents.append(result[1])
    hashes = np.concatenate(hashes) if hashes else np.zeros((0, S.NSIZES), np.int64)
    contents = np.concatenate(contents) if contents else np.zeros((0, S.WORDS), np.int64)
    spatial = SpatialDictionary.from_harvest(hashes, contents, spatial_min_played)
    by_size = np.bincount(spatial.sizes, minlength=S.NSIZES).tolist()
    say(f"harvest: {len(hashes)} moves played, {len(spatial)} spatial patterns kept {by_size}")
    del hashes, contents
    # Pass 2: the candidates of every sampled position.
    train_set, valid_sets = Samples(), [Samples() for _ in sources]
    for (part, index), result, error in _pool_map(_rows_job, games, jobs, spatial):
        if error:
            skipped += part == VALIDATION
            say(error)
            continue
        (train_set if part == TRAIN else valid_sets[index]).add(*result)
    valid_set = Samples.merged(valid_sets)
    if train_set.positions == 0:
        raise ValueError("no training positions (no train-split games of this size?)")
    say(f"rows: {train_set.games} train games, {train_set.positions} positions; "
        f"{valid_set.games} validation games, {valid_set.positions} positions")
    rows, counts, _, _ = train_set.arrays()
    boards = F.unpack_column(rows[:, 0], PASS_G) == 0
    pattern_codes = _frequent(F.unpack_column(rows[boards, 0], PATTERN), counts[boards], min_seen)
    del rows, counts, boards
    data = _rows(train_set, pattern_codes)
    del train_set._rows
    validation = _rows(valid_set, pattern_codes) if valid_set.positions else None
    sizes = [len(pattern_codes) + 1] + [F.NVALUES[g] for g in range(1, NGROUPS)] + [len(spatial) + 1]
    history = []

    def progress(it, tll, vll):
        history.append((it, tll, vll))
        say(f"MM iteration {it}: train log-likelihood {tll:.4f}"
            + ("" if vll is None else f", validation {vll:.4f}"))

    priors = [prior] * NGROUPS + [spatial_prior]
    gammas = mm.fit(data, sizes, validation, prior=priors, iterations=iterations, log=progress)
    group_lg = np.zeros((NGROUPS, MAXVALUES))
    for g in range(1, NGROUPS):
        group_lg[g, :sizes[g]] = np.log(gammas[g])
    by_source = {}
    for index, part in enumerate(valid_sets):
        if part.positions:
            ll = mm.log_likelihood(_rows(part, pattern_codes), [np.log(g) for g in gammas])
            label = labels[index] if labels else str(index)
            by_source[label] = {"positions": part.positions, "log_likelihood": ll}
    meta = {
        "training_data": source, "split": "train (stopped on validation), mcgo.train.split",
        "sampling": {(labels[i] if labels else str(i)): rate for i, (_, rate) in enumerate(sources)},
        "board_size": size, "train_games": train_set.games, "train_positions": train_set.positions,
        "validation_games": valid_set.games, "validation_positions": valid_set.positions,
        "skipped_games": skipped, "min_seen": min_seen, "prior": prior,
        "spatial_min_played": spatial_min_played, "spatial_prior": spatial_prior,
        "patterns": int(len(pattern_codes)), "spatial_patterns": int(len(spatial)),
        "spatial_patterns_by_size": dict(zip(map(str, S.DISTANCES), by_size)),
        "iterations_run": len(history),
        "train_log_likelihood": history[-1][1] if history else None,
        "validation_log_likelihood": max((h[2] for h in history if h[2] is not None), default=None),
        "validation_by_source": by_source,
        "commit": git_commit(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "feature_groups": list(F.GROUPS) + ["spatial"],
    }
    return MoveModel(pattern_codes, np.log(gammas[0][1:]), group_lg, spatial.contents,
                     spatial.sizes, np.log(gammas[SPATIAL][1:]), meta)


def model_log_gammas(model):
    """A model's log-gammas in the order of the MM rows' groups (:func:`_rows`)."""
    return ([np.concatenate([[0.0], model.pattern_log_gamma])]
            + [model.group_log_gamma[g, :F.NVALUES[g]] for g in range(1, NGROUPS)]
            + [np.concatenate([[0.0], model.spatial_log_gamma])])


def split_log_likelihood(model, records, rate=1.0, part=VALIDATION, size=19):
    """(positions, mean log-probability of the moves played) of ``model`` over the sampled
    positions of the ``part`` games of ``records``, by the training path (MM rows)."""
    samples = Samples()
    spatial = SpatialDictionary.of_model(model)
    canon = F.canonical_table()
    for record, split in split_records(records, size):
        if split == part:
            samples.add_game(record, spatial, rate, canon=canon)
    if samples.positions == 0:
        return 0, None
    return samples.positions, mm.log_likelihood(_rows(samples, model.pattern_codes),
                                                model_log_gammas(model))


def read_records(paths, skipped=None, shard=None):
    """Yield the GameRecords of SGF files, folders and ``.tar.gz`` archives (as
    ``mcgo build-casebase`` reads them); what cannot be read is appended to ``skipped`` as
    ``(name, reason)``. ``shard=(k, n)``: only the games of every ``n``-th SGF file from the
    ``k``-th on, the others passed over unparsed (a share for one of ``n`` processes)."""
    files, _ = input_files(paths)
    count = -1
    for name, data, error, _ in iter_inputs(files):
        if name is None:
            continue
        count += 1
        if shard is not None and count % shard[1] != shard[0]:
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


def split_records(records, size=19):
    """Yield ``(record, split)`` for the games of ``size`` (others skipped)."""
    for record in records:
        if record.size != size:
            continue
        yield record, split_of(game_key(record))
