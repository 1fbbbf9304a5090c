"""The entries of a board's history (python-chess's ``Board.move_stack`` is the model).

A :class:`mcgo.Board` keeps every change to its position in order: a :class:`Move` (a colour
playing a point, ``PASS`` included) or a :class:`Setup` (stones added or removed outside the
moves: SGF ``AB``/``AW``/``AE``, handicap stones). ``Board.undo`` takes back the last entry of
either kind; ``Board.moves`` lists only the moves.

>>> from mcgo import Board
>>> board = Board(9)
>>> board.setup(black=["C3", "G7"])
>>> board.play("E5", Board.WHITE)
>>> [type(entry).__name__ for entry in board.history]
['Setup', 'Move']
>>> board.moves == [(Board.WHITE, board.point("E5"))]
True
"""

from dataclasses import dataclass
from typing import NamedTuple

from .kernels import BLACK, WHITE


class Move(NamedTuple):
    """``color`` played ``point`` (an internal index, or ``PASS``). A plain ``(color, point)``
    tuple compares equal to it."""

    color: int
    point: int


@dataclass(frozen=True)
class Setup:
    """Stones added (SGF ``AB``/``AW``) or removed (``AE``) outside the moves.

    Each field is a sorted tuple of internal point indices; a point is in at most one of them.

    >>> from mcgo import from_gtp
    >>> Setup(black=(from_gtp("D4", 19), from_gtp("Q16", 19))).is_empty()
    False
    """

    black: tuple = ()
    white: tuple = ()
    empty: tuple = ()

    def is_empty(self):
        return not (self.black or self.white or self.empty)

    def then(self, other):
        """This setup followed by ``other``: where both name a point, ``other`` wins.

        >>> a, b = Setup(black=(50,)), Setup(white=(50, 60))
        >>> a.then(b)
        Setup(black=(), white=(50, 60), empty=())
        """
        return Setup.of(self.black, self.white, self.empty, other.black, other.white, other.empty)

    @classmethod
    def of(cls, *groups):
        """The setup that applies point lists in order, given as black, white, empty, black,
        white, empty...: where two name a point, the later wins (as :meth:`Board.setup
        <mcgo.board.board.Board.setup>` places them).

        >>> Setup.of([50, 60], [], [60])
        Setup(black=(50,), white=(), empty=(60,))
        """
        state = {}
        for i, points in enumerate(groups):
            color = (BLACK, WHITE, None)[i % 3]
            for p in points:
                state[int(p)] = color
        return cls(black=tuple(sorted(p for p, c in state.items() if c == BLACK)),
                   white=tuple(sorted(p for p, c in state.items() if c == WHITE)),
                   empty=tuple(sorted(p for p, c in state.items() if c is None)))
