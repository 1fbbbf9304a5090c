"""The uniform random playout (thesis 9.5, first method): every legal move that does not
fill the mover's own true eye is equally likely; a side with no such move passes."""

from ..jit import inline_kernel, kernel
from .common import ALLOW_SELF_ATARI, play_moves, random_move


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The random policy's move for ``color`` (``zob``, ``pat3`` and ``work`` unused: every
    rule-abiding policy takes the same arguments); PASS when nothing is left to play."""
    return random_move(pts, info, rng, color, ALLOW_SELF_ATARI)


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record):
    """A random playout to the end; see :func:`.common.play_moves`."""
    return play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record)
