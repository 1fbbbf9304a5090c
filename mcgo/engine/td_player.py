"""Seed 004's 7x7 player: the move whose position the TD-trained net values best for the
mover, without search (``mcgo gtp --player td --size 7``)."""


class TdPlayer:
    """Chooses by a net of :mod:`mcgo.learn.td_go` alone (on its board size only)."""

    def __init__(self, net):
        self.net = net

    def plays(self, board):
        """Only on the net's board size; the search answers on the others."""
        from ..learn.td_go import SIZE
        return board.size == SIZE

    def choose(self, board, move_filter=None):
        from ..learn.td_go import best_move
        return best_move(self.net, board, move_filter)
