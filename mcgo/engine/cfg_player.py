"""Foulds's one-move player (seed 000, section 6): the legal move seed 000's scorer rates
best, without search. ``mcgo gtp --player cfg``.

It never plays a suicide (illegal here anyway) nor fills one of its own one-point eyes (an
empty point whose neighbours on the board are all its stones), and honours the GUIs'
``allow``/``avoid`` at the root (:class:`mcgo.search.movefilter.MoveFilter`). With no move
left it passes.
"""

from ..board import coords
from ..board.kernels import COLOR, OFFBOARD, PASS


def own_one_point_eye(board, point, color):
    w = board.size + 2
    for q in (point - 1, point + 1, point - w, point + w):
        c = int(board.pts[COLOR, q])
        if c != color and c != OFFBOARD:
            return False
    return True


class CfgPlayer:
    """Chooses by a :class:`mcgo.models.cfg_scorer.Scorer` alone."""

    def __init__(self, scorer):
        self.scorer = scorer

    def plays(self, board):
        return True

    def candidates(self, board, color, move_filter=None):
        return [p for p in board.legal_moves(color)
                if not own_one_point_eye(board, p, color)
                and (move_filter is None or move_filter.allows(color, p, 1))]

    def choose(self, board, move_filter=None):
        """The best-scored move of ``board.to_move``, or ``PASS``."""
        color = board.to_move
        moves = self.candidates(board, color, move_filter)
        if not moves:
            return PASS
        return self.scorer.best_move(board, moves, color)

    def describe(self, board, move):
        return f"cfg player: {coords.to_gtp(move, board.size)}"
