"""The pattern playout (:mod:`.pattern_policy`) that keeps ko fights going: first, in
``KO_RETAKE_PERCENT`` of the moves, the retake of the latest ko once its ban is over, while
the ko is at most ``KO_AGE`` moves old (:func:`mcgo.tactics.ko.ko_retake`; Pachi's moggy
playout retakes 40% of the time within 3 moves). A plain pattern playout retakes a ko only
when the random step happens to land on it, so it misjudges every fight a ko decides.
"""

from ..board.kernels import PASS
from ..jit import inline_kernel, kernel
from ..tactics.ko import ko_retake
from .common import play_moves, random_below
from .pattern_policy import choose_move_with

KO_RETAKE_PERCENT = 40   # the share of moves in which a playable retake is played
KO_AGE = 2               # ... while the ko arose at most this many moves ago (a threat
                         # and its answer)


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The ko policy's move for ``color``; PASS when nothing is left to play."""
    if random_below(rng, 100) < KO_RETAKE_PERCENT:
        move = ko_retake(pts, info, color, KO_AGE)
        if move != PASS:
            return move
    return choose_move_with(pts, info, zob, pat3, work, rng, color, False, False)


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record, model):
    """A ko playout to the end (``model`` unused); see :func:`.common.play_moves`."""
    return play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record)
