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

The ``tactical`` policy (:mod:`.tactical_policy`) is this one reading more
(:func:`choose_move_with` with ``tactical``): step 1 does not run out of a working ladder,
and an atari that starts one on the last move's chain comes right after it; then the vital
point of a small eyespace at the last move, for either side
(:func:`mcgo.tactics.nakade.nakade_answer`); then the answer to a chain the last move left
with two liberties (:func:`mcgo.tactics.two_liberties.two_liberty_answer`); and a
self-atari that is the throw-in of a nakade (:func:`mcgo.tactics.nakade.makes_nakade`) is
always kept. At equal simulations on 9x9 against the pattern playout each of these alone
scored within noise of even (ladders 0.544 over 103 games; the nakade answer for the
killing side 0.532 over 156, the throw-ins on top of it 0.520 over 151, the answer for both
sides with the throw-ins 0.45 over 81; the two-liberty answer, as a step of this playout,
0.505 over 200: benchmarks/journal/), so the default stays this plain pattern playout.
"""

from ..board.kernels import (BOARDSIZE, COLOR, EMPTIES, EMPTY, LAST_MOVE, LEGAL,
                             NEMPTY, PASS, WIDTH, legality)
from ..jit import inline_kernel, kernel
from ..tactics.atari import capture_or_escape
from ..tactics.ladder import ladder_attack
from ..tactics.eyes import is_true_eye
from ..tactics.geometry import edge_distance, in_empty_area, is_good_line
from ..tactics.nakade import nakade_answer
from ..tactics.two_liberties import two_liberty_answer
from .common import (KEEP_THROW_INS, REJECT_SELF_ATARI, play_moves, random_below, random_move,
                     rejects_self_atari)

FREE_AREA_TRIES = 2     # random empty points tried per move for step 3
NAKADE_ROW = 0          # the work row the nakade readers' regions use


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
def pattern_move(pts, info, pat3, rng, last, color, self_atari_rule, scratch):
    """Step 2: a uniformly chosen empty neighbour of the last move ``last`` (a point) that
    matches a shape (self-atari by ``self_atari_rule``, see
    :func:`.common.rejects_self_atari`)."""
    w = info[WIDTH]
    chosen = PASS
    found = 0
    for q in (last + w - 1, last + w, last + w + 1, last - 1, last + 1,
              last - w - 1, last - w, last - w + 1):
        if pts[COLOR, q] != EMPTY or pat3[neighbourhood_code(pts, w, q)] == 0:
            continue
        if not playable(pts, info, q, color):
            continue
        if rejects_self_atari(pts, w, q, color, rng, self_atari_rule, scratch):
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
def self_atari_rule_of(tactical):
    """The self-atari rule of the pattern (False) or tactical (True) playout."""
    return KEEP_THROW_INS if tactical else REJECT_SELF_ATARI


@inline_kernel
def urgent_move(pts, info, zob, work, last, color, tactical):
    """Step 1 (and, ``tactical``, after it the ladder attack, the nakade answer and the
    two-liberty answer): the answer to the last move ``last`` (a point, not a pass) that
    cannot wait; PASS if none."""
    ladder = work[1]
    move = capture_or_escape(pts, info, zob, ladder, last, color, tactical)
    if move != PASS or not tactical:
        return move
    move = ladder_attack(pts, info, zob, ladder, last, color)
    if move != PASS:
        return move
    move = nakade_answer(pts, info, last, color, work[0][NAKADE_ROW])
    if move != PASS:
        return move
    return two_liberty_answer(pts, info, last, color)


@inline_kernel
def shape_move(pts, info, pat3, work, rng, last, color, tactical):
    """Steps 2 and 3: a shape next to ``last`` (skipped when it is not a point), else a
    free point in an empty area; PASS if neither is found."""
    if last > 0:
        move = pattern_move(pts, info, pat3, rng, last, color, self_atari_rule_of(tactical),
                            work[0][NAKADE_ROW])
        if move != PASS:
            return move
    return free_area_move(pts, info, rng, color)


@inline_kernel
def shape_or_random_move(pts, info, pat3, work, rng, last, color, tactical):
    """Steps 2 to 4: :func:`shape_move`, else a random move; PASS when nothing is left to
    play."""
    move = shape_move(pts, info, pat3, work, rng, last, color, tactical)
    if move != PASS:
        return move
    return random_move(pts, info, rng, color, self_atari_rule_of(tactical), work[0][NAKADE_ROW])


@inline_kernel
def choose_move_with(pts, info, zob, pat3, work, rng, color, tactical):
    """The pattern policy's move for ``color``, or with ``tactical`` the tactical policy's
    (ladders, nakade, two-liberty fights, throw-ins); PASS when nothing is left to play."""
    last = info[LAST_MOVE]
    if last > 0:
        move = urgent_move(pts, info, zob, work, last, color, tactical)
        if move != PASS:
            return move
    return shape_or_random_move(pts, info, pat3, work, rng, last, color, tactical)


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The pattern policy's move for ``color`` (the tactical playout's reading costs about
    three fifths of the playout rate on 19x19); PASS when nothing is left to play."""
    return choose_move_with(pts, info, zob, pat3, work, rng, color, False)


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record):
    """A pattern playout to the end; see :func:`.common.play_moves`."""
    return play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record)
