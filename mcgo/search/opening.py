"""Opening knowledge: take the empty corners first.

Professionals open in the corners. In the 596 professional games of the goban collection
(19x19, no handicap; :func:`corner_openings` counts them), while some corner's 7x7 square
was still empty, 100%, 99%, 94%, 88% and 81% of moves 1 to 5 were played inside an empty
one, on the 3-4 point (1140 times, both of them counted), the 4-4 (991), the 3-3 (166), the
3-5 (71) and the 4-5 (12). GNU Go's fuseki module plays the same rule. mcgo's search
cannot find it by itself: on the empty 19x19 board at 30,000 simulations its ten best moves
are all within 0.485-0.496, so noise chooses, and it played sides and centre (issue 12,
RESULTS "Opening knowledge").

The ``corner_prior`` setting V turns this into a root prior (:func:`corner_prior`): each
point of an empty corner gets ``V * share`` virtual visits, all won, ``share`` the
professionals' count of that point over the 4-4 point's (:data:`CORNER_POINT_SHARE`, per
point: a corner has two 3-4 points and one 4-4). Other moves get nothing, so the search
can still answer a fight; the search's own visits outweigh the prior as they grow.

>>> import mcgo
>>> board = mcgo.Board(19)
>>> board.play("Q16")
>>> prior = corner_prior(board, 100.0)
>>> sorted(mcgo.to_gtp(p, 19) for p, v in prior.items() if v == 100.0)
['D16', 'D4', 'Q4']
>>> board.point("R16") in prior or board.point("K10") in prior
False
"""

import collections

from ..board import coords
from ..board.board import Board
from ..board.kernels import COLOR, EMPTY, PASS

CORNER_LINES = 7            # a corner is empty while its 7x7 square holds no stone
# Per point, the professionals' count over the 4-4 point's (991): 3-4 1140 / 2 points,
# 3-3 166, 3-5 71 / 2, 4-5 12 / 2, 4-6 2 / 2 (the goban games, counted by corner_openings
# and point_shares; tests/test_opening.py counts them again).
CORNER_POINT_SHARE = {(4, 4): 1.0, (3, 4): 0.575, (3, 3): 0.168, (3, 5): 0.036, (4, 5): 0.006,
                      (4, 6): 0.001}
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


def corner_prior(board, visits):
    """``{point: virtual visits}`` of the empty corners' points on ``board``: ``visits``
    times the point's :data:`CORNER_POINT_SHARE`; empty on boards under 15x15."""
    if board.size < MIN_BOARD or visits <= 0:
        return {}
    empty = empty_corners(board)
    out = {}
    for p in coords.all_points(board.size):
        lines, corner = corner_lines(p, board.size)
        if corner in empty and lines in CORNER_POINT_SHARE:
            out[p] = visits * CORNER_POINT_SHARE[lines]
    return out


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


def point_shares(points):
    """:data:`CORNER_POINT_SHARE` from the ``points`` counts of :func:`corner_openings`: each
    kind of point's count per point (two points where a != b) over the 4-4 point's."""
    per_point = {lines: n / (1 if lines[0] == lines[1] else 2) for lines, n in points.items()}
    top = per_point.get((4, 4)) or max(per_point.values())
    return {lines: round(v / top, 3) for lines, v in per_point.items()}


__all__ = ["CORNER_LINES", "CORNER_POINT_SHARE", "corner_lines", "corner_openings",
           "corner_prior", "empty_corners", "point_shares"]
