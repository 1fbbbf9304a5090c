"""Seed 004's 7x7 player: the move whose position the TD-trained net values best for the
mover, without search (``mcgo gtp --player td --size 7``)."""

from ..models.td_net import SIZE, best_move


class TdPlayer:
    """Chooses by a net of :mod:`mcgo.models.td_net` alone (on its board size only)."""

    def __init__(self, net):
        self.net = net

    def plays(self, board):
        """Only on the net's board size; the search answers on the others."""
        return board.size == SIZE

    def choose(self, board, move_filter=None):
        return best_move(self.net, board, move_filter)
