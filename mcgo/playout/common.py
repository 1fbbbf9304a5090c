"""What every playout policy shares: the random number generator, the eye test, the
self-atari test and the uniform choice of a move from the list of empty points.

Random numbers come from xorshift64* held in a one-element uint64 array ``rng``, so a
fixed seed reproduces a playout exactly and each thread owns its own stream.
"""

import numpy as np

from ..jit import allocating_kernel, inline_kernel, kernel

from ..board.kernels import (COLOR, EMPTIES, EMPTY, HEAD, LEGAL, LIBS, NEMPTY, NEXT, OFFBOARD,
                             PASS, SIZE, WIDTH, area_of, legality, owner_map)

MOVE_CAP_FACTOR = 3          # a playout stops after 3 * size * size moves
SELF_ATARI_KEEP_ONE_IN = 10  # a self-atari of 2+ stones is kept once in 10 tries (nakade)
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


@inline_kernel
def is_true_eye(pts, w, p, color):
    """True when the empty point ``p`` is a true eye of ``color``: all four neighbours are
    ``color`` or the edge, and at most one diagonal is the opponent's (none on the edge)."""
    for q in (p - 1, p + 1, p - w, p + w):
        c = pts[COLOR, q]
        if c != color and c != OFFBOARD:
            return False
    opp = 3 - color
    bad = 0
    edge = False
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        c = pts[COLOR, q]
        if c == opp:
            bad += 1
        elif c == OFFBOARD:
            edge = True
    if edge:
        return bad == 0
    return bad <= 1


@kernel
def liberties_after(pts, w, p, color):
    """Liberties, counted up to 2, of the chain ``color`` would make by playing the legal
    move ``p``, and a bound of that chain's size (exact up to 2). A capture counts as 2 liberties."""
    opp = 3 - color
    lib1 = -1
    stones = 1
    for q in (p - 1, p + 1, p - w, p + w):
        c = pts[COLOR, q]
        if c == EMPTY:
            if lib1 < 0:
                lib1 = q
            elif q != lib1:
                return 2, stones
        elif c == opp and pts[LIBS, pts[HEAD, q]] == 1:
            return 2, stones
    for q in (p - 1, p + 1, p - w, p + w):
        if pts[COLOR, q] != color:
            continue
        h = pts[HEAD, q]
        libs = pts[LIBS, h]
        if libs >= 3:
            return 2, stones
        stones += pts[SIZE, h]  # a chain touching p twice counts twice: only "2 or more" matters
        if libs == 2:
            # The chain's liberty other than p.
            s = h
            while True:
                for r in (s - 1, s + 1, s - w, s + w):
                    if r != p and pts[COLOR, r] == EMPTY:
                        if lib1 < 0:
                            lib1 = r
                        elif r != lib1:
                            return 2, stones
                s = pts[NEXT, s]
                if s == h:
                    break
    return (1 if lib1 >= 0 else 0), stones


@kernel
def is_self_atari(pts, w, p, color):
    """True when ``color`` playing the legal move ``p`` leaves a chain of two or more stones
    with a single liberty. A move that captures is never a self-atari."""
    libs, stones = liberties_after(pts, w, p, color)
    return libs < 2 and stones >= 2


@kernel
def random_move(pts, info, rng, color, avoid_self_atari):
    """A uniformly random legal move of ``color`` that does not fill its own true eye
    (and, if asked, is not a self-atari of 2+ stones, bar a small chance); PASS if none.

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
            if not avoid_self_atari or not is_self_atari(pts, w, p, color) \
                    or random_below(rng, SELF_ATARI_KEEP_ONE_IN) == 0:
                return p
        i += 1
        if i == n:
            i = 0
    return PASS


@kernel
def score_and_owner(pts, info, owner):
    """Area score (black minus white, no komi) of a finished playout; fills ``owner``."""
    owner_map(pts, info, owner)
    return area_of(owner)
