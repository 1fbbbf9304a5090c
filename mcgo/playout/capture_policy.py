"""The pattern playout (:mod:`.pattern_policy`) that also takes what its own atari caught:
when neither the answer to the last move nor a shape next to it is found, the capture of an
opponent chain in atari at or next to the mover's own previous move
(:func:`mcgo.tactics.atari.capture_near`), before the free-area and random steps.

The plain pattern playout leaves a chain that the opponent did not save from an atari to
its random step, so a playout often lets a caught stone escape later. Fuego's playout
policy takes the biggest chain in atari anywhere at this step ("Capture", after its atari,
two-liberty and pattern rules); a scan of the whole board there cost about 40% of the
9x9 playout rate (75% on 19x19), so this policy looks where an atari of its own was played.
At equal simulations it scored 93-98-9 against the pattern playout (benchmarks/RESULTS.md),
so it is not the default.
"""

from ..board.kernels import LAST_MOVE, LAST_MOVE2, PASS
from ..jit import inline_kernel, kernel
from ..tactics.atari import capture_near
from .common import REJECT_SELF_ATARI, play_moves, random_move
from .pattern_policy import NAKADE_ROW, free_area_move, pattern_move, urgent_move


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The capture policy's move for ``color``: the pattern policy's answer to the last move
    or shape next to it, else a capture next to the mover's previous move, else the pattern
    policy's free-area or random move; PASS when nothing is left to play."""
    last = info[LAST_MOVE]
    scratch = work[0][NAKADE_ROW]
    if last > 0:
        move = urgent_move(pts, info, zob, work, last, color, False)
        if move != PASS:
            return move
        move = pattern_move(pts, info, pat3, rng, last, color, REJECT_SELF_ATARI, scratch, -1)
        if move != PASS:
            return move
    previous = info[LAST_MOVE2]
    if previous > 0:
        move = capture_near(pts, info, previous, color)
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
