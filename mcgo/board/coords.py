"""Every conversion between the three ways mcgo names a point, in one place.

* internal index: ``(row + 1) * (size + 2) + (col + 1)`` with row 0 at the *bottom* and a
  one-point border; ``PASS`` (0) is the pass move.
* GTP vertex: ``"A1"`` (bottom left) to ``"T19"``, no ``I``, case-insensitive; ``"pass"``.
* SGF point: ``"aa"`` (top left); ``""`` or ``"tt"`` on boards up to 19 mean pass.

>>> from mcgo.board.coords import from_gtp, to_gtp, from_sgf, to_sgf
>>> to_gtp(from_gtp("D4", 19), 19)
'D4'
>>> to_sgf(from_gtp("A19", 19), 19)
'aa'
>>> to_gtp(from_sgf("pd", 19), 19)
'Q16'
"""

from .kernels import PASS

MIN_SIZE = 2
MAX_SIZE = 25
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # no I, as GTP and every Go GUI has it
SGF_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class CoordinateError(ValueError):
    """A vertex or SGF point that does not name a point of the board."""


def check_size(size):
    if not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        raise ValueError(f"board size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {size!r}")


def point(row, col, size):
    """Internal index of (row, col), row 0 at the bottom, col 0 at the left."""
    if not (0 <= row < size and 0 <= col < size):
        raise CoordinateError(f"({row}, {col}) is off a {size}x{size} board")
    return (row + 1) * (size + 2) + col + 1


def row_col(p, size):
    """(row, col) of an internal index, row 0 at the bottom; None for pass."""
    if p == PASS:
        return None
    w = size + 2
    row, col = divmod(p, w)
    if not (1 <= row <= size and 1 <= col <= size):
        raise CoordinateError(f"index {p} is not a point of a {size}x{size} board")
    return row - 1, col - 1


def from_gtp(vertex, size):
    """Internal index of a GTP vertex such as ``"D4"`` or ``"pass"``."""
    text = vertex.strip().upper()
    if text == "PASS":
        return PASS
    if len(text) < 2 or text[0] not in GTP_COLUMNS or not text[1:].isdigit():
        raise CoordinateError(f"invalid vertex {vertex!r}")
    col = GTP_COLUMNS.index(text[0])
    row = int(text[1:]) - 1
    if col >= size or not 0 <= row < size:
        raise CoordinateError(f"vertex {vertex!r} is off a {size}x{size} board")
    return point(row, col, size)


def to_gtp(p, size):
    """GTP vertex of an internal index (``"pass"`` for PASS)."""
    rc = row_col(p, size)
    if rc is None:
        return "pass"
    row, col = rc
    return f"{GTP_COLUMNS[col]}{row + 1}"


def from_sgf(text, size):
    """Internal index of an SGF point such as ``"pd"``; ``""`` and ``"tt"`` (size <= 19) pass."""
    if text == "" or (text == "tt" and size <= 19):
        return PASS
    if len(text) != 2 or text[0] not in SGF_LETTERS or text[1] not in SGF_LETTERS:
        raise CoordinateError(f"invalid SGF point {text!r}")
    col = SGF_LETTERS.index(text[0])
    row = size - 1 - SGF_LETTERS.index(text[1])
    if col >= size or not 0 <= row < size:
        raise CoordinateError(f"SGF point {text!r} is off a {size}x{size} board")
    return point(row, col, size)


def to_sgf(p, size):
    """SGF point of an internal index (``""`` for PASS)."""
    rc = row_col(p, size)
    if rc is None:
        return ""
    row, col = rc
    return SGF_LETTERS[col] + SGF_LETTERS[size - 1 - row]


def from_sgfmill(move, size):
    """Internal index of sgfmill's ``(row, col)`` (row 0 at the bottom) or None (pass)."""
    if move is None:
        return PASS
    return point(move[0], move[1], size)


def to_sgfmill(p, size):
    """sgfmill's ``(row, col)`` of an internal index; None for PASS."""
    return row_col(p, size)


def all_points(size):
    """Internal indices of every point, bottom row first."""
    w = size + 2
    return [(r + 1) * w + c + 1 for r in range(size) for c in range(size)]
