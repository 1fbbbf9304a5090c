"""Positions with the targets of a value net (issue 74): who won, by how much, and who owns
each point at the end, each from the side to move's view, for the heads on the policy net's
trunk (:mod:`mcgo.models.policy_net`).

Per game (any komi, handicap and rules: the komi is an input, and the result is the one the
game was decided by, handicap compensation included):

* **outcome**: +1 when the side to move won, -1 when it lost, 0 for a jigo; from ``RE``.
  Resignations count; games lost on time or forfeit, void ones and those without a
  readable result are skipped (their result says nothing of the position).
* **score**: the winner's margin from ``RE`` (``B+3.5``), the side to move's view; NaN when
  the game was not counted (a resignation).
* **ownership**: the final owner of each point (+1 the side to move's, -1 the opponent's, 0
  neither: dame, seki), seed 003's target, read from the final position of a counted game
  once the engine's judge (:func:`mcgo.judge.status.estimate`, what ``final_status_list``
  answers) has taken the dead stones off, by the area rules, where the judge's count agrees
  with the result (the same winner once the komi is counted; a resigned game too); otherwise
  none (``has_ownership`` False).

The positions are sampled (``rate``) as the policy net's are, every move including passes,
and kept with the policy net's compact form (:func:`mcgo.models.policy_net.compact`) and the
move played (-1 for a pass). Split by game (:mod:`.split`).
"""

import multiprocessing

import numpy as np

from ..board import BLACK, WHITE
from ..judge.status import estimate
from ..models.policy_net import compact, point_index, row_major_points
from ..sgf import replay
from ..sgf.replaying import ReplayError
from . import policy_net_train
from .movemodel import game_states, read_records, sampled
from .policy_net_train import concatenate, save_positions
from .results import COUNT, RESIGN, parse_result
from .split import SPLITS, game_key, split_of

OWNERSHIP_PLAYOUTS = 1000     # the judge's playouts on a final position
ARRAYS = ("stones", "liberties", "moves", "targets", "outcome", "score", "komi", "ownership",
          "has_ownership", "games")
_TYPES = {"stones": np.int8, "liberties": np.int8, "moves": np.int16, "targets": np.int16,
          "outcome": np.int8, "score": np.float32, "komi": np.float32, "ownership": np.int8,
          "has_ownership": np.bool_, "games": np.int32}


def game_targets(record, playouts=OWNERSHIP_PLAYOUTS, seed=0):
    """``(winner or None, black's margin or NaN, black's ownership (N x N int8) or None)`` of
    a game, or a reason (str) to skip it."""
    winner, margin, how = parse_result(record.result)
    if how not in (COUNT, RESIGN):
        return f"result {record.result!r} ({how})"
    if record.komi is None:
        return "no komi"
    try:
        final = replay(record)
    except ReplayError as e:
        return f"cannot replay: {e}"
    owned, black_area = final_ownership(final, playouts, seed)
    if how == RESIGN:
        black_margin = float("nan")
        agrees = (black_area - record.komi > 0) == (winner == BLACK)
    else:
        black_margin = 0.0 if winner is None else (margin if winner == BLACK else -margin)
        agrees = np.sign(black_area - record.komi) == np.sign(black_margin)
    # Where the judge's count agrees with the result (the same winner once the komi is
    # counted), the final position is decided and its owners are known. Where it does not,
    # the game ended in a fight the two read differently (a capturing race both left, which
    # the referee gave to one side): the result stands, the owners are unknown.
    return winner, black_margin, owned if agrees else None


def final_ownership(board, playouts=OWNERSHIP_PLAYOUTS, seed=0):
    """``(owner, area)``: Black's view of who owns each point of a final position (``N x N``
    int8, row 0 at the bottom as :func:`mcgo.models.policy_net.compact` lays it out: +1
    Black, -1 White, 0 neither) once the judge's dead stones are off the board
    (:func:`mcgo.judge.status.estimate`, the engine's ``final_status_list``), and Black's
    area minus White's, no komi."""
    verdict = estimate(board, playouts=playouts, seed=seed)
    cleaned = board.copy()
    if verdict.dead:
        cleaned.setup(empty=verdict.dead)
    owner = cleaned.owner()[row_major_points(board.size)]
    black = np.where(owner == BLACK, 1, np.where(owner == WHITE, -1, 0)).astype(np.int8)
    return black.reshape(board.size, board.size), int(black.sum())


def game_positions(record, rate, targets):
    """The sampled positions of one game, each a dict of :data:`ARRAYS` but ``games``."""
    winner, black_margin, black_owner = targets
    key = game_key(record)
    size = record.size
    for number, pts, info, color, point in game_states(record):
        if rate < 1.0 and not sampled(key, number, rate):
            continue
        stones, liberties, moves = compact(pts, info, color)
        sign = 1 if color == BLACK else -1
        yield {"stones": stones, "liberties": liberties, "moves": moves,
               "targets": point_index(int(point), size),
               "outcome": 0 if winner is None else (1 if winner == color else -1),
               "score": sign * black_margin,
               "komi": -sign * record.komi,            # the points the side to move gets
               "ownership": (np.zeros((size, size), np.int8) if black_owner is None
                             else (sign * black_owner).astype(np.int8)),
               "has_ownership": black_owner is not None}


def positions(records, rate=0.25, size=9, skipped=None, log=None, playouts=OWNERSHIP_PLAYOUTS):
    """``({split: {array: ...}}, {split: games})`` of the ``size`` x ``size`` ``records``'
    sampled positions (:data:`ARRAYS`; ``games`` numbers each position's game in its split).
    ``skipped`` gets ``(game, reason)`` of the games left out. A game seen before (by its
    key, :mod:`.split`) is left out: in one process (``jobs=1``) over all the games."""
    rows = {s: {a: [] for a in ARRAYS} for s in SPLITS}
    games = {s: 0 for s in SPLITS}
    seen = set()
    for n, record in enumerate(records, 1):
        if record.size != size:
            continue
        key = game_key(record)
        if key in seen:                     # a game played twice (fixed seeds) counts once
            if skipped is not None:
                skipped.append((f"{record.source}#{record.game_index}", "a repeat"))
            continue
        seen.add(key)
        targets = game_targets(record, playouts, seed=n)
        if isinstance(targets, str):
            if skipped is not None:
                skipped.append((f"{record.source}#{record.game_index}", targets))
            continue
        split = split_of(key)
        out = rows[split]
        for row in game_positions(record, rate, targets):
            for a, v in row.items():
                out[a].append(v)
            out["games"].append(games[split])
        games[split] += 1
        if log is not None and n % 500 == 0:
            log(f"{n} games read")
    shapes = {"stones": (size, size), "liberties": (size, size), "moves": (3,),
              "ownership": (size, size)}
    arrays = {s: {a: np.array(v, dtype=_TYPES[a]).reshape((-1,) + shapes.get(a, ()))
                  for a, v in rows[s].items()} for s in SPLITS}
    return arrays, games


def load_positions(path):
    """``(arrays, metadata)`` of a file of :func:`save_positions`."""
    return policy_net_train.load_positions(path, ARRAYS)


def merge_positions(parts):
    """One ``{split: {array: ...}}`` of several, the games of each split numbered on."""
    return concatenate([(part, {split: int(part[split]["games"].max()) + 1
                                if len(part[split]["games"]) else 0 for split in SPLITS})
                        for part in parts], ARRAYS)[0]


def _read_shard(job):
    paths, rate, shard, size, playouts = job
    skipped = []
    arrays, games = positions(read_records(paths, skipped, shard), rate, size, skipped,
                              playouts=playouts)
    return arrays, games, skipped


def read_positions(paths, rate=0.25, jobs=1, size=9, skipped=None, log=None,
                   playouts=OWNERSHIP_PLAYOUTS):
    """:func:`positions` of the games in ``paths`` (SGF files, folders, archives), read by
    ``jobs`` processes (each every ``jobs``-th file)."""
    paths = list(map(str, paths))
    shards = [(paths, rate, None if jobs <= 1 else (k, jobs), size, playouts)
              for k in range(max(jobs, 1))]
    if jobs <= 1:
        parts = [_read_shard(shards[0])]
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = []
            for part in pool.imap(_read_shard, shards):
                parts.append(part)
                if log is not None:
                    log(f"{len(parts)} of {jobs} shares read")
    arrays, games = concatenate([(part, counts) for part, counts, _ in parts], ARRAYS)
    if skipped is not None:
        for _, _, reasons in parts:
            skipped.extend(reasons)
    return arrays, games


def held_out_positions(paths, size, moves, split, limit):
    """``(board, black won)`` at each of ``moves`` of the ``split`` games of ``size`` among
    the records of ``paths`` that were decided by a count or a resignation, at most ``limit``
    (0: all), in the records' order: the held-out positions of the outcome benchmarks
    (``benchmarks/value/outcome_prediction.py``)."""
    out, seen = [], set()
    for record in read_records(paths):
        if record.size != size or record.komi is None:
            continue
        key = game_key(record)
        if key in seen or split_of(key) != split:
            continue
        seen.add(key)
        winner, _, how = parse_result(record.result)
        if how not in (COUNT, RESIGN) or winner is None:
            continue
        for n in moves:
            if len(record.moves) > n:
                try:
                    out.append((replay(record, max_moves=n), winner == BLACK))
                except (ReplayError, ValueError):   # a record the board refuses: its earlier
                    break                           # positions stand
        if limit and len(out) >= limit:
            break
    return out[:limit] if limit else out
