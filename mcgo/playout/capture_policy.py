"""The pattern playout (:mod:`.pattern_policy`) that also takes chains in atari away from the
last move: when neither the answer to the last move nor a shape next to it is found, the
capture of the biggest opponent chain in atari anywhere on the board
(:func:`mcgo.tactics.atari.global_capture`), before the free-area and random steps.

Fuego's playout policy has this step ("Capture", after its atari, two-liberty and pattern
rules); the plain pattern playout leaves a chain in atari far from the last move to the
random step, so a playout often lets a dead-in-atari chain live or a cut stone escape.
"""

from ..board.kernels import LAST_MOVE, NEMPTY, PASS
from ..jit import inline_kernel, kernel
from ..tactics.atari import global_capture
from .common import REJECT_SELF_ATARI, play_moves, random_below, random_move
from .pattern_policy import NAKADE_ROW, free_area_move, pattern_move, urgent_move


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The capture policy's move for ``color``: the pattern policy's answer to the last move
    or shape next to it, else a global capture, else its free-area or random move; PASS
    when nothing is left to play."""
    last = info[LAST_MOVE]
    scratch = work[0][NAKADE_ROW]
    if last > 0:
        move = urgent_move(pts, info, zob, work, last, color, False)
        if move != PASS:
            return move
        move = pattern_move(pts, info, pat3, rng, last, color, REJECT_SELF_ATARI, scratch, -1)
        if move != PASS:
            return move
    move = global_capture(pts, info, color, random_below(rng, info[NEMPTY]))
    if move != PASS:
        return move
    move = free_area_move(pts, info, rng, color)
    if move != PASS:
        return move
    return random_move(pts, info, rng, color, REJECT_SELF_ATARI, scratch)


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record, model):
    """A capture playout to the end (``model`` unused); see :func:`.common.play_moves`."""
    return play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record)
