"""The random-fill playout (thesis 8.4.2, 8.4.3 and 9.5, third method).

Fill every empty point with a random black or white stone, ignoring the rules; remove every
chain of ``SMALL_CHAIN`` stones or fewer; then judge each chain by the empty regions
(eyespaces) it touches:

* two or more eyespaces, or one of more than ``BIG_EYESPACE`` points: alive;
* no eyespace: dead;
* one small eyespace: dead, unless an opposing chain that is not alive by the first rule
  touches the same eyespace; then both live in seki.

Dead chains are removed and the board is scored by area with the board's own scorer.

The kernel works on a throwaway copy of the position: afterwards only the COLOR row of
``pts`` is meaningful. It uses the first ``SCRATCH_ROWS`` rows of the playout's work rows
(``work[0]``, int32, shape ``(rows, W*W)``).
"""

import numpy as np

from ..board.kernels import (BLACK, COLOR, EMPTIES, EMPTY, MOVE_COUNT, NEMPTY, OFFBOARD, WHITE,
                             WIDTH, owner_map)
from ..jit import inline_kernel, kernel
from .common import next_random, record_move

SMALL_CHAIN = 3     # chains of this many stones or fewer are removed after the fill
BIG_EYESPACE = 5    # one eyespace larger than this makes a chain alive

# Rows of ``scratch``.
PARENT = 0          # union-find parent; after labelling, the root of every point's set
COUNT = 1           # size of a set, at its root
EYE = 2             # at a chain's root: the root of the first eyespace it touches, -1 none
FLAGS = 3           # bits below, at a chain's or an eyespace's root
SCRATCH_ROWS = 4

TWO_EYESPACES = 1
BIG_EYE = 2
WEAK_BLACK = 4      # an eyespace touched by a black chain that is not alive on its own
WEAK_WHITE = 8


@inline_kernel
def _find(parent, p):
    while parent[p] != p:
        parent[p] = parent[parent[p]]
        p = parent[p]
    return p


@kernel
def _label(col, parent, count, w, stones):
    """Union-find of the stone points (``stones``) or of the empty points (not ``stones``)
    with their same-coloured neighbours; leaves each point's root in ``parent`` and each
    set's size in ``count`` at its root."""
    n = w * w
    for p in range(w + 1, n - w - 1):
        c = col[p]
        if c == OFFBOARD or (c == EMPTY) == stones:
            continue
        parent[p] = p
        count[p] = 0
        for q in (p - 1, p - w):
            if col[q] == c:
                a = _find(parent, p)
                b = _find(parent, q)
                if a != b:
                    parent[a] = b
    for p in range(w + 1, n - w - 1):
        c = col[p]
        if c == OFFBOARD or (c == EMPTY) == stones:
            continue
        r = _find(parent, p)
        parent[p] = r
        count[r] += 1


@kernel
def judge_and_remove_dead(col, scratch, w):
    """Apply the eyespace life rules to the filled colours ``col`` (in place)."""
    n = w * w
    parent = scratch[PARENT]
    count = scratch[COUNT]
    eye = scratch[EYE]
    flags = scratch[FLAGS]

    _label(col, parent, count, w, True)
    for p in range(w + 1, n - w - 1):
        c = col[p]
        if (c == BLACK or c == WHITE) and count[parent[p]] <= SMALL_CHAIN:
            col[p] = EMPTY
    for p in range(w + 1, n - w - 1):
        c = col[p]
        if c != EMPTY and c != OFFBOARD and parent[p] == p:
            eye[p] = -1
            flags[p] = 0
        elif c == EMPTY:
            flags[p] = 0
    _label(col, parent, count, w, False)

    # Which eyespaces each chain touches: the first one, whether there is a second, a big one.
    for p in range(w + 1, n - w - 1):
        if col[p] != EMPTY:
            continue
        region = parent[p]
        big = count[region] > BIG_EYESPACE
        for q in (p - 1, p + 1, p - w, p + w):
            c = col[q]
            if c == EMPTY or c == OFFBOARD:
                continue
            chain = parent[q]
            if eye[chain] < 0:
                eye[chain] = region
            elif eye[chain] != region:
                flags[chain] |= TWO_EYESPACES
            if big:
                flags[chain] |= BIG_EYE

    # Mark the eyespaces touched by chains that are not alive on their own.
    for p in range(w + 1, n - w - 1):
        if col[p] != EMPTY:
            continue
        region = parent[p]
        for q in (p - 1, p + 1, p - w, p + w):
            c = col[q]
            if c == EMPTY or c == OFFBOARD:
                continue
            if flags[parent[q]] & (TWO_EYESPACES | BIG_EYE) == 0:
                flags[region] |= WEAK_BLACK if c == BLACK else WEAK_WHITE

    for p in range(w + 1, n - w - 1):
        c = col[p]
        if c == EMPTY or c == OFFBOARD:
            continue
        chain = parent[p]
        if flags[chain] & (TWO_EYESPACES | BIG_EYE):
            continue
        region = eye[chain]
        opponent_weak = WEAK_WHITE if c == BLACK else WEAK_BLACK
        if region < 0 or flags[region] & opponent_weak == 0:
            col[p] = EMPTY


@kernel
def fill_randomly(pts, info, rng, record):
    """Give every empty point a random colour, ignoring the rules; returns how many. Each
    filled point goes into ``record`` as a move of its colour (for AMAF)."""
    col = pts[COLOR]
    n = info[NEMPTY]
    bits = next_random(rng)
    for i in range(n):
        if i & 63 == 0 and i:
            bits = next_random(rng)
        p = pts[EMPTIES, i]
        col[p] = BLACK + np.int32((bits >> np.uint64(i & 63)) & np.uint64(1))
        record_move(record, i, p, col[p])
    info[NEMPTY] = 0
    info[MOVE_COUNT] += n
    return n


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record):
    """Fill, judge life by eyespaces and write the final owners into ``owner``; returns
    the number of points filled (recorded into ``record`` as far as it is long). ``zob``
    and ``pat3`` are unused: every policy's ``play_out`` takes the same arguments."""
    filled = fill_randomly(pts, info, rng, record)
    judge_and_remove_dead(pts[COLOR], work[0], info[WIDTH])
    owner_map(pts, info, owner)
    return filled
