"""The thesis's choice of playout per position (9.5): random fill on 19x19 for the first
``AUTO_FILL_MOVES`` moves of the game, pattern playouts after that and on smaller boards."""

from ..board.kernels import BOARDSIZE, MOVE_COUNT
from ..jit import kernel
from . import fill_policy, pattern_policy

AUTO_FILL_MOVES = 40      # auto on 19x19: random-fill for the first 40 moves of the game ...
AUTO_FILL_MIN_SIZE = 19   # ... and pattern playouts on smaller boards throughout


@kernel
def uses_fill(info):
    """True when ``auto`` stands for the fill policy in this position (else pattern)."""
    return info[BOARDSIZE] >= AUTO_FILL_MIN_SIZE and info[MOVE_COUNT] < AUTO_FILL_MOVES


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record):
    """A fill or a pattern playout, as :func:`uses_fill` says."""
    if uses_fill(info):
        return fill_policy.play_out(pts, info, zob, pat3, work, rng, owner, record)
    return pattern_policy.play_out(pts, info, zob, pat3, work, rng, owner, record)
