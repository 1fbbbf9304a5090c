"""One playout of any policy, and batches of them: the narrow door between the policies
(one file each) and their users (the search, ``mcgo bench``, ownership maps)."""

import numpy as np

from ..board.kernels import (BLACK, BOARDSIZE, MOVE_COUNT, PASSES, TO_MOVE, WHITE, area_of,
                             copy_position, owner_map, play_legal)
from ..jit import allocating_kernel, kernel
from . import fill_policy, pattern_policy, random_policy
from .common import MOVE_CAP_FACTOR, RECORD_COLORS, record_move, seed_rng  # noqa: F401

NO_RECORD = np.zeros(0, dtype=np.int32)  # keep no moves

RANDOM = 0
PATTERN = 1
FILL = 2
AUTO = 3
POLICY_NAMES = {"random": RANDOM, "pattern": PATTERN, "fill": FILL, "auto": AUTO}

AUTO_FILL_MOVES = 40      # auto on 19x19: random-fill for the first 40 moves of the game ...
AUTO_FILL_MIN_SIZE = 19   # ... and pattern playouts on smaller boards throughout (thesis 9.5)


@kernel
def concrete_policy(policy, info):
    """The policy ``auto`` stands for in this position; other policies stand for themselves."""
    if policy != AUTO:
        return policy
    if info[BOARDSIZE] >= AUTO_FILL_MIN_SIZE and info[MOVE_COUNT] < AUTO_FILL_MOVES:
        return FILL
    return PATTERN


@kernel
def play_to_end(kind, pts, info, zob, pat3, rng, record):
    """Play the moves of the rule-abiding policy ``kind`` (RANDOM or PATTERN) in place until
    two passes in a row or the move cap; returns the number of moves, passes included. The
    moves go into ``record`` as far as it is long (see ``common.record_move``)."""
    cap = MOVE_CAP_FACTOR * info[BOARDSIZE] * info[BOARDSIZE]
    moves = 0
    while moves < cap and info[PASSES] < 2:
        color = info[TO_MOVE]
        if kind == PATTERN:
            p = pattern_policy.choose_move(pts, info, pat3, rng, color)
        else:
            p = random_policy.choose_move(pts, info, pat3, rng, color)
        play_legal(pts, info, zob, p, color)
        record_move(record, moves, p, color)
        moves += 1
    return moves


@kernel
def run_playout(policy, pts, info, zob, pat3, scratch, rng, owner, record):
    """Play one playout in place and write the final owner of every point into ``owner``;
    returns the number of moves (for fill: points filled). The score is ``area_of(owner)``.

    ``record`` (int32) receives the moves, ``point * RECORD_COLORS + colour``, as far as it
    is long: the search's AMAF statistics need them; pass ``NO_RECORD`` to keep none."""
    kind = concrete_policy(policy, info)
    if kind == FILL:
        return fill_policy.play_out(pts, info, rng, scratch, owner, record)
    moves = play_to_end(kind, pts, info, zob, pat3, rng, record)
    owner_map(pts, info, owner)
    return moves


@allocating_kernel
def run_batch(policy, pts0, info0, zob, pat3, seed, n, komi, owner_sum):
    """``n`` playouts from the position ``(pts0, info0)``, seeded by ``seed``.

    Returns ``(black_wins, moves)``: wins count a jigo as half. When ``owner_sum`` is not
    empty, adds +1 for every point black owns at the end and -1 for every white point."""
    pts = np.empty_like(pts0)
    info = np.empty_like(info0)
    scratch = np.empty((fill_policy.SCRATCH_ROWS, pts0.shape[1]), dtype=np.int32)
    owner = np.zeros(pts0.shape[1], dtype=np.int8)
    record = np.zeros(0, dtype=np.int32)
    rng = seed_rng(seed)
    accumulate = owner_sum.shape[0] == pts0.shape[1]
    black_wins = 0.0
    moves = 0
    for _ in range(n):
        copy_position(pts0, info0, pts, info)
        moves += run_playout(policy, pts, info, zob, pat3, scratch, rng, owner, record)
        result = area_of(owner) - komi
        if result > 0:
            black_wins += 1.0
        elif result == 0:
            black_wins += 0.5
        if accumulate:
            for p in range(owner.shape[0]):
                if owner[p] == BLACK:
                    owner_sum[p] += 1
                elif owner[p] == WHITE:
                    owner_sum[p] -= 1
    return black_wins, moves
