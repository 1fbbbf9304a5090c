"""The uniform random playout (thesis 9.5, first method): every legal move that does not
fill the mover's own true eye is equally likely; a side with no such move passes."""

from ..board.kernels import BOARDSIZE, PASS, PASSES, TO_MOVE, play_legal
from ..jit import kernel
from .common import MOVE_CAP_FACTOR, random_move, record_move


@kernel
def play_out(pts, info, zob, rng, record):
    """Play uniformly random moves to the end (two passes or the move cap) in place;
    returns the number of moves played, passes included. The moves go into ``record`` as
    far as it is long (see ``common.record_move``)."""
    size = info[BOARDSIZE]
    cap = MOVE_CAP_FACTOR * size * size
    moves = 0
    while moves < cap and info[PASSES] < 2:
        color = info[TO_MOVE]
        p = random_move(pts, info, rng, color, False)
        play_legal(pts, info, zob, p, color)
        record_move(record, moves, p, color)
        moves += 1
    return moves
