"""The board: Numba kernels on flat arrays (:mod:`.kernels`), the :class:`Board` class for
real games (:mod:`.board`) and point names (:mod:`.coords`)."""

from .board import BLACK, EMPTY, PASS, WHITE, Board, IllegalMove, color_name, opponent, zobrist
from .coords import CoordinateError, from_gtp, from_sgf, to_gtp, to_sgf

__all__ = ["Board", "IllegalMove", "CoordinateError", "BLACK", "WHITE", "EMPTY", "PASS",
           "color_name", "opponent", "zobrist", "from_gtp", "to_gtp", "from_sgf", "to_sgf"]
