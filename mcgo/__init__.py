"""mcgo: a Monte Carlo UCT Go engine with Numba playouts and case-based opening play.

>>> import mcgo
>>> board = mcgo.Board(9)
>>> board.play("E5")
>>> print(board.to_move == mcgo.WHITE)
True
"""

__version__ = "0.1.0"

__all__ = ["Board", "IllegalMove", "CoordinateError", "BLACK", "WHITE", "EMPTY", "PASS",
           "from_gtp", "to_gtp", "from_sgf", "to_sgf", "__version__"]


def __getattr__(name):
    # The board (and with it Numba, about a second) is imported on first use, so that the
    # ``mcgo`` command answers ``--help`` and GTP's first commands without waiting for it.
    if name in __all__:
        from . import board
        return getattr(board, name)
    raise AttributeError(f"module 'mcgo' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
