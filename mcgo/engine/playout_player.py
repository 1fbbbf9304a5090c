"""The playout policy as a player, without search: the move its playouts play first most often
(``mcgo gtp --player playout``; Fuego's ``uct_param_player search_mode playout_policy``,
with which Fuego's ``playout_*.tst`` regression files test a playout policy; Pachi's replay
engine). It shows what the playouts believe about a position: which capture, escape or
shape their rules pick.

The playout policy is the engine's (``--policy``).
A fixed seed gives the same move. Moves the GUIs' ``allow``/``avoid`` exclude at the root
(:class:`mcgo.search.movefilter.MoveFilter`) are skipped; with none left it passes.
"""

from ..board.kernels import PASS
from ..playout import first_moves

PLAYOUT_PLAYER_RUNS = 200        # playouts whose first moves are counted (Pachi's replay: runs)


class PlayoutPlayer:
    """Chooses the most frequent first move of the playouts of ``policy`` (a name of
    :data:`mcgo.options.PLAYOUT_POLICIES`)."""

    def __init__(self, policy="auto", seed=0, runs=PLAYOUT_PLAYER_RUNS):
        self.policy = policy
        self.seed = seed
        self.runs = runs

    def plays(self, board):
        return True

    def choose(self, board, move_filter=None):
        """The most frequent first move of ``board.to_move``'s playouts that the filter
        allows, or ``PASS``."""
        counts = first_moves(board, self.runs, self.policy, self.seed)
        for move in counts:          # most frequent first; a pass leads only when no move is left
            if move == PASS or move_filter is None or move_filter.allows(board.to_move, move, 1):
                return move
        return PASS
