"""Did a player take the empty corners first? A measure of game records' openings.

Professionals open in the corners. In the 596 professional games of the goban collection
(19x19, no handicap), while some corner's 7x7 square was still empty, 100%, 99%, 94%, 88%
and 81% of moves 1 to 5 were played inside an empty one, most often on the 3-4 point, then
the 4-4 and the 3-3 (:func:`corner_openings` counts them; ``tests/test_opening.py`` counts
them again). ``benchmarks/strength/opening_estimate.py`` asks the same of an engine's games.

The rule was also tried as a root prior of the search (``corner_prior``, virtual won visits
on the empty corners' points): 0-6 against Pachi at 5 s a move on 19x19, and since the
19x19 move model puts its own prior on the corners; it was removed (benchmarks/RESULTS.md).

>>> import mcgo
>>> board = mcgo.Board(19)
>>> board.play("Q16")
>>> sorted(empty_corners(board))
[(0, 0), (0, 1), (1, 0)]
"""

import collections

from ..board import coords
from ..board.board import Board
from ..board.kernels import COLOR, EMPTY, PASS

CORNER_LINES = 7            # a corner is empty while its 7x7 square holds no stone
MIN_BOARD = 2 * CORNER_LINES + 1    # smaller boards have no separate corners


def corner_lines(p, size):
    """``(a, b)``, a <= b, the lines of point ``p`` counted from its nearest corner's edges,
    and that corner as ``(row side, column side)``, each 0 (low) or 1 (high); the corner is
    None when ``p`` lies outside every corner's square.

    >>> import mcgo
    >>> corner_lines(mcgo.Board(19).point("R16"), 19)
    ((3, 4), (1, 1))
    """
    row, col = coords.row_col(p, size)
    rows, cols = min(row, size - 1 - row) + 1, min(col, size - 1 - col) + 1
    lines = (min(rows, cols), max(rows, cols))
    if rows > CORNER_LINES or cols > CORNER_LINES:
        return lines, None
    return lines, (int(row >= size - CORNER_LINES), int(col >= size - CORNER_LINES))


def empty_corners(board):
    """The corners ``(row side, column side)`` whose 7x7 squares hold no stone."""
    corners = {(0, 0), (0, 1), (1, 0), (1, 1)}
    for p in coords.all_points(board.size):
        if board.pts[COLOR, p] != EMPTY:
            corners.discard(corner_lines(p, board.size)[1])
    return corners


def corner_openings(records, moves=40, color=None):
    """What the players (only ``color``'s moves, when given) play while an empty corner is
    left, over game records of 15x15 or more without handicap (others are skipped):
    ``(by_move, points)``, where ``by_move[n]`` is ``[positions, played in an empty corner]``
    at move ``n`` (0-based) of the first ``moves`` and ``points`` counts the ``(a, b)``
    lines of those moves."""
    by_move = collections.defaultdict(lambda: [0, 0])
    points = collections.Counter()
    for record in records:
        if record.size < MIN_BOARD or record.handicap or record.setups:
            continue
        board = Board(record.size)
        for n, (mover, p) in enumerate(record.moves[:moves]):
            if p == PASS:
                break
            empty = empty_corners(board)
            if empty and color in (None, mover):
                lines, corner = corner_lines(p, board.size)
                by_move[n][0] += 1
                if corner in empty:
                    by_move[n][1] += 1
                    points[lines] += 1
            if board.legality(p, mover) is not None:
                break
            board.play(p, mover)
    return dict(by_move), points


__all__ = ["CORNER_LINES", "MIN_BOARD", "corner_lines", "corner_openings", "empty_corners"]
