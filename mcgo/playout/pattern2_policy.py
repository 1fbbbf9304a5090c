"""The pattern playout (:mod:`.pattern_policy`) whose shape step also looks next to the
move before the last: a MoGo 3x3 shape on an empty neighbour of either of the last two
moves, chosen uniformly (Pachi's moggy playout does this by default, its ``pattern2``).
The answer to the opponent's last move and the shape next to one's own previous move (the
follow-up of a local exchange, a hane after a hane) both stay local.
"""

from ..jit import inline_kernel, kernel
from .common import play_moves
from .pattern_policy import choose_move_with


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The pattern2 policy's move for ``color``; PASS when nothing is left to play."""
    return choose_move_with(pts, info, zob, pat3, work, rng, color, False, True)


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record, model):
    """A pattern2 playout to the end (``model`` unused); see :func:`.common.play_moves`."""
    return play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record)
