"""The pattern playout (thesis 8.4.4 and 9.5, second method), in this order of preference:

1. capture an opponent chain in atari, or save an own chain in atari by capturing or by
   extending when that gives it at least two liberties: the chains touching the last move,
   bigger chains first (:func:`mcgo.tactics.atari.capture_or_escape`);
2. a MoGo 3x3 shape (``patterns.py``) on an empty point next to the last move;
3. a free point on the 3rd or 4th line in an empty area (the 5x5 box around it empty; the
   rule of :mod:`mcgo.tactics.geometry`);
4. a uniformly random move, as in the random policy.

Self-atari of two or more stones is rejected in steps 2 and 4, except once in
``SELF_ATARI_KEEP_ONE_IN`` tries. No step fills the mover's own true eye.

A tactical version of this playout (ladders read in step 1 and an atari that starts one,
the nakade answer, the two-liberty answer, nakade throw-ins kept) won within noise at equal
simulations and lost at equal time on 19x19 (4-7 and 12-21 at 1 s a move), so it left the
package; git history and benchmarks/journal/ keep it.
"""

from ..board.kernels import (BOARDSIZE, COLOR, EMPTIES, EMPTY, LAST_MOVE, LEGAL,
                             NEMPTY, PASS, WIDTH, legality)
from ..jit import inline_kernel, kernel
from ..tactics.atari import capture_or_escape
from ..tactics.eyes import is_true_eye
from ..tactics.geometry import edge_distance, in_empty_area, is_good_line
from .common import REJECT_SELF_ATARI, play_moves, random_below, random_move, rejects_self_atari

FREE_AREA_TRIES = 2     # random empty points tried per move for step 3
# Step 1 extends out of atari without reading whether the chain then dies in a ladder: the
# reads cost more simulations than they win at equal time (the tactical playout's A/Bs);
# the tree's priors read them (:mod:`mcgo.search.priors`).
READ_LADDERS = False


@kernel
def playable(pts, info, p, color):
    """Legal under simple ko and not a fill of the mover's own true eye."""
    return legality(pts, info, p, color) == LEGAL and not is_true_eye(pts, info[WIDTH], p, color)


@kernel
def neighbourhood_code(pts, w, p):
    """The 16-bit code of the 8 neighbours of ``p`` (order of ``patterns.CODE_CELLS``)."""
    return (pts[COLOR, p + w - 1] | (pts[COLOR, p + w] << 2) | (pts[COLOR, p + w + 1] << 4)
            | (pts[COLOR, p - 1] << 6) | (pts[COLOR, p + 1] << 8)
            | (pts[COLOR, p - w - 1] << 10) | (pts[COLOR, p - w] << 12)
            | (pts[COLOR, p - w + 1] << 14))


@kernel
def pattern_move(pts, info, pat3, rng, last, color):
    """Step 2: a uniformly chosen empty neighbour of the last move ``last`` (a point) that
    matches a shape and is not a self-atari :func:`.common.rejects_self_atari` rejects."""
    w = info[WIDTH]
    chosen = PASS
    found = 0
    for q in (last + w - 1, last + w, last + w + 1, last - 1, last + 1,
              last - w - 1, last - w, last - w + 1):
        if pts[COLOR, q] != EMPTY or pat3[neighbourhood_code(pts, w, q)] == 0:
            continue
        if not playable(pts, info, q, color):
            continue
        if rejects_self_atari(pts, w, q, color, rng, REJECT_SELF_ATARI):
            continue
        found += 1
        if random_below(rng, found) == 0:
            chosen = q
    return chosen


@kernel
def free_area_move(pts, info, rng, color):
    """Step 3: a random empty point on the 3rd or 4th line whose surrounding box is empty."""
    n = info[NEMPTY]
    if n == 0:
        return PASS
    w = info[WIDTH]
    size = info[BOARDSIZE]
    for _ in range(FREE_AREA_TRIES):
        p = pts[EMPTIES, random_below(rng, n)]
        if not is_good_line(edge_distance(p, w, size)):
            continue
        if in_empty_area(pts, w, size, p) and legality(pts, info, p, color) == LEGAL:
            return p
    return PASS


@inline_kernel
def shape_move(pts, info, pat3, rng, last, color):
    """Steps 2 and 3: a shape next to ``last`` (skipped when it is not a point), else a
    free point in an empty area; PASS if neither is found."""
    if last > 0:
        move = pattern_move(pts, info, pat3, rng, last, color)
        if move != PASS:
            return move
    return free_area_move(pts, info, rng, color)


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The pattern policy's move for ``color``: step 1, else steps 2 and 3
    (:func:`shape_move`), else a random move; PASS when nothing is left to play."""
    last = info[LAST_MOVE]
    if last > 0:
        move = capture_or_escape(pts, info, zob, work[1], last, color, READ_LADDERS)
        if move != PASS:
            return move
    move = shape_move(pts, info, pat3, rng, last, color)
    if move != PASS:
        return move
    return random_move(pts, info, rng, color, REJECT_SELF_ATARI)


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record):
    """A pattern playout to the end; see :func:`.common.play_moves`."""
    return play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record)
