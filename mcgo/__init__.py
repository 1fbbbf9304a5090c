"""mcgo: a Monte Carlo UCT Go engine with Numba playouts and case-based opening play.

>>> import mcgo
>>> board = mcgo.Board(9)
>>> board.play("E5")
>>> print(board.to_move == mcgo.WHITE)
True
"""

from .board import (BLACK, EMPTY, PASS, WHITE, Board, CoordinateError, IllegalMove, from_gtp,
                    from_sgf, to_gtp, to_sgf)

__version__ = "0.1.0"

__all__ = ["Board", "IllegalMove", "CoordinateError", "BLACK", "WHITE", "EMPTY", "PASS",
           "from_gtp", "to_gtp", "from_sgf", "to_sgf", "__version__"]
