"""What every playout policy shares: the random number generator, the uniform choice of a
move from the list of empty points, and the loop that plays a move policy to the end.
The tactics they read (eyes, self-atari, captures) live in :mod:`mcgo.tactics`.

Random numbers come from xorshift64* held in a one-element uint64 array ``rng``, so a
fixed seed reproduces a playout exactly and each thread owns its own stream.
"""

import numpy as np

from ..jit import allocating_kernel, inline_kernel, kernel

from ..board.kernels import (BOARDSIZE, EMPTIES, LEGAL, NEMPTY, PASS, PASSES, TO_MOVE, WIDTH,
                             legality, owner_map, play_legal_inline)
from ..tactics.atari import is_self_atari
from ..tactics.eyes import is_true_eye

MOVE_CAP_FACTOR = 3          # a playout stops after 3 * size * size moves
SELF_ATARI_KEEP_ONE_IN = 10  # a self-atari of 2+ stones is kept once in 10 tries
# How a policy treats a self-atari of 2+ stones (``self_atari_rule`` below):
ALLOW_SELF_ATARI = 0         # as any move (the random policy)
REJECT_SELF_ATARI = 1        # rejected, bar SELF_ATARI_KEEP_ONE_IN (the pattern policy)
RECORD_COLORS = 4            # a recorded move is point * RECORD_COLORS + colour


@kernel
def record_move(record, i, p, color):
    """Write the ``i``-th move of a playout into ``record`` (an int32 array, possibly empty:
    then nothing is kept) as ``p * RECORD_COLORS + color``; AMAF needs who played where."""
    if i < record.shape[0]:
        record[i] = p * RECORD_COLORS + color


@inline_kernel
def next_random(rng):
    """The next 64-bit value of xorshift64* (as uint64)."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * np.uint64(0x2545F4914F6CDD1D)


@inline_kernel
def random_below(rng, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 (multiply-shift, no division)."""
    return np.int64(((next_random(rng) >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@allocating_kernel
def seed_rng(seed):
    """A generator state from any integer seed (splitmix64 of it, never zero)."""
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    if z == 0:
        z = np.uint64(0x9E3779B97F4A7C15)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = z
    return rng


@kernel
def rejects_self_atari(pts, w, p, color, rng, self_atari_rule):
    """True when the rule ``self_atari_rule`` (``ALLOW_SELF_ATARI`` or
    ``REJECT_SELF_ATARI``) rejects ``color``'s legal move ``p`` as a self-atari: a
    self-atari of 2+ stones is kept once in ``SELF_ATARI_KEEP_ONE_IN`` tries."""
    if self_atari_rule == ALLOW_SELF_ATARI:
        return False
    return is_self_atari(pts, w, p, color) and random_below(rng, SELF_ATARI_KEEP_ONE_IN) != 0


@inline_kernel
def random_move(pts, info, rng, color, self_atari_rule):
    """A uniformly random legal move of ``color`` that does not fill its own true eye and
    that :func:`rejects_self_atari` keeps under ``self_atari_rule``; PASS if none.

    Scans the list of empty points from a random start, so the expected cost is O(1)
    while most empty points are playable."""
    n = info[NEMPTY]
    if n == 0:
        return PASS
    w = info[WIDTH]
    start = random_below(rng, n)
    i = start
    for _ in range(n):
        p = pts[EMPTIES, i]
        if not is_true_eye(pts, w, p, color) and legality(pts, info, p, color) == LEGAL:
            if not rejects_self_atari(pts, w, p, color, rng, self_atari_rule):
                return p
        i += 1
        if i == n:
            i = 0
    return PASS


@inline_kernel
def play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record):
    """Play the moves of a rule-abiding policy's
    ``choose_move(pts, info, zob, pat3, work, rng, color)``
    in place until two passes in a row or the move cap, then write the final owner of every
    point into ``owner``; returns the number of moves, passes included. The moves go into
    ``record`` as far as it is long (see :func:`record_move`).

    Inlined into each policy's ``play_out``, so the call of ``choose_move`` is a plain call
    (a function passed at run time would be a pointer Numba cannot cache)."""
    cap = MOVE_CAP_FACTOR * info[BOARDSIZE] * info[BOARDSIZE]
    moves = 0
    while moves < cap and info[PASSES] < 2:
        color = info[TO_MOVE]
        p = choose_move(pts, info, zob, pat3, work, rng, color)
        play_legal_inline(pts, info, zob, p, color)
        record_move(record, moves, p, color)
        moves += 1
    owner_map(pts, info, owner)
    return moves
