"""The board: Numba kernels on flat arrays (:mod:`.kernels`), the :class:`Board` class for
real games (:mod:`.board`) with its history of moves and set-ups (:mod:`.history`), point
names (:mod:`.coords`) and handicap placement (:mod:`.handicap`)."""

from .board import (AREA, BLACK, EMPTY, PASS, TERRITORY, WHITE, Board, IllegalMove, color_name,
                    opponent, zobrist)
from .coords import CoordinateError, from_gtp, from_sgf, to_gtp, to_sgf
from .history import Move, Setup

__all__ = ["Board", "IllegalMove", "CoordinateError", "Move", "Setup", "BLACK", "WHITE", "EMPTY",
           "PASS", "AREA", "TERRITORY", "color_name", "opponent", "zobrist", "from_gtp", "to_gtp",
           "from_sgf", "to_sgf"]
