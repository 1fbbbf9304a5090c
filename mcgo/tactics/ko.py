"""Ko fights: taking a ko back once the ban is over.

After a stone is taken in a simple ko, its owner may not retake at once; one move later
(after a ko threat and its answer) the retake is legal again. A playout that plays that
retake keeps the ko fight going instead of forgetting it, as Pachi's moggy playout does
(with some probability, while the ko is a few moves old).

>>> import mcgo
>>> board = mcgo.Board(9)
>>> for move in ["D5", "E5", "E4", "F4", "E6", "F6", "A1", "G5", "F5"]:
...     board.play(move)                      # black F5 takes white's E5: a ko
>>> board.legality(board.point("E5"))         # white may not retake at once
'ko'
>>> board.play("A9"); board.play("B1")        # white's threat, black answers it
>>> mcgo.to_gtp(ko_retake(board.pts, board.info, board.to_move, 3), 9)
'E5'
"""

from ..board.kernels import (KO_POINT, LAST_KO, LAST_KO_AT, LEGAL, MOVE_COUNT, PASS, WIDTH,
                             legality)
from ..jit import kernel
from .atari import is_capture


@kernel
def ko_retake(pts, info, color, max_age):
    """The retake of the latest simple ko by ``color`` when the ban is over, the ko arose at
    most ``max_age`` moves ago and the retake is legal and captures; PASS otherwise."""
    p = info[LAST_KO]
    if p == PASS or info[KO_POINT] != PASS or info[MOVE_COUNT] - info[LAST_KO_AT] > max_age:
        return PASS
    if legality(pts, info, p, color) != LEGAL or not is_capture(pts, info[WIDTH], p, color):
        return PASS
    return p
