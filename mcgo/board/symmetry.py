"""The 8 symmetries of the square board, as permutations of point numbers.

Symmetry ``s`` (0..7) is: transpose (swap row and column) if ``s & 4``, then mirror the
columns if ``s & 1``, then mirror the rows if ``s & 2``. Symmetry 0 is the identity.
``images(size)[s, i]`` is where point ``i = row * size + col`` goes; ``inverse(s)`` undoes
``s``.

>>> import mcgo
>>> size = 19
>>> r16 = mcgo.from_gtp("R16", size)
>>> [mcgo.to_gtp(map_point(r16, s, size), size) for s in range(8)]
['R16', 'C16', 'R4', 'C4', 'Q17', 'D17', 'Q3', 'D3']
>>> all(map_point(map_point(r16, s, size), inverse(s), size) == r16 for s in range(8))
True
"""

import functools

import numpy as np

from . import coords
from .kernels import COLOR

SYMMETRIES = 8
IDENTITY = 0


def _apply(s, row, col, size):
    if s & 4:
        row, col = col, row
    if s & 1:
        col = size - 1 - col
    if s & 2:
        row = size - 1 - row
    return row, col


@functools.lru_cache(maxsize=None)
def images(size):
    """int32 array (8, size*size): ``images(size)[s, i]`` is the image of point ``i``."""
    out = np.empty((SYMMETRIES, size * size), dtype=np.int32)
    for s in range(SYMMETRIES):
        for row in range(size):
            for col in range(size):
                r, c = _apply(s, row, col, size)
                out[s, row * size + col] = r * size + c
    out.setflags(write=False)
    return out


@functools.lru_cache(maxsize=None)
def _inverses():
    table = images(3)
    identity = np.arange(9)
    return tuple(next(t for t in range(SYMMETRIES) if np.array_equal(table[t][table[s]], identity))
                 for s in range(SYMMETRIES))


def inverse(s):
    """The symmetry that undoes ``s``."""
    return _inverses()[s]


def map_point(p, s, size):
    """Internal index ``p`` moved by symmetry ``s`` (PASS stays PASS)."""
    rc = coords.row_col(p, size)
    if rc is None:
        return p
    r, c = _apply(s, rc[0], rc[1], size)
    return coords.point(r, c, size)


@functools.lru_cache(maxsize=None)
def point_images(size):
    """int64 array (8, (size+2)**2) over internal indices: ``point_images(size)[s, p]`` is
    the image of point ``p`` under symmetry ``s``; the pass and the border stay where they
    are."""
    w = size + 2
    out = np.tile(np.arange(w * w, dtype=np.int64), (SYMMETRIES, 1))
    for s in range(SYMMETRIES):
        for p in coords.all_points(size):
            out[s, p] = map_point(p, s, size)
    out.setflags(write=False)
    return out


def position_symmetries(board):
    """The symmetries (identity first) that map ``board``'s position onto itself: every
    stone onto a stone of its colour, and the ko point, if any, onto itself. The empty board
    has all 8; a first stone on a diagonal leaves 2, one on the centre point 8.

    >>> from mcgo.board import Board
    >>> b = Board(19)
    >>> len(position_symmetries(b))
    8
    >>> _ = b.play("Q16"); position_symmetries(b)
    (0, 4)
    >>> _ = b.play("D16"); position_symmetries(b)
    (0,)
    """
    maps = point_images(board.size)
    color = board.pts[COLOR]
    ko = board.ko_point
    return tuple(s for s in range(SYMMETRIES)
                 if np.array_equal(color[maps[s]], color) and (ko is None or maps[s, ko] == ko))


def equivalent_points(board, point, symmetries=None):
    """``point`` and its images under the symmetries that map ``board``'s position onto
    itself (``symmetries``: those, when the caller has them already): the moves that are
    one move there. The pass is only itself.

    >>> from mcgo.board import Board, to_gtp
    >>> b = Board(19)
    >>> _ = b.play("Q16")
    >>> sorted(to_gtp(p, 19) for p in equivalent_points(b, b.point("Q4")))
    ['D16', 'Q4']
    """
    if symmetries is None:
        symmetries = position_symmetries(board)
    return frozenset(map_point(point, s, board.size) for s in symmetries)
