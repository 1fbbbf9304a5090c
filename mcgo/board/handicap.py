"""Handicap placement: GTP's fixed points and a spread of free stones.

>>> from mcgo.board import to_gtp
>>> [to_gtp(p, 9) for p in fixed_points(9, 4)]
['C3', 'G7', 'C7', 'G3']
>>> fixed_points(9, 10)
Traceback (most recent call last):
...
ValueError: no fixed placement of 10 handicap stones on 9x9
"""

from . import coords

MIN_SIZE = 7              # no fixed handicap on smaller boards (GTP 2, section 4.1.1)
MAX_ODD = 9               # at most this many fixed stones on odd boards from 9x9
MAX_OTHER = 4             # and this many on even boards and on 7x7
SECOND_LINE = 2           # free stones keep off the first two lines where they can


def max_fixed(size):
    """The most stones :func:`fixed_points` places on a ``size`` board (0 below MIN_SIZE)."""
    if size < MIN_SIZE:
        return 0
    return MAX_ODD if size % 2 == 1 and size >= 9 else MAX_OTHER


def fixed_points(size, stones):
    """Fixed handicap placement (GTP 2 section 4.1.1): corners on the 3-3 points below 13x13
    and the 4-4 points from 13x13, then the centre and the side midpoints; at most 9 stones on
    odd boards from 9x9, 4 on even boards and on 7x7. Raises ValueError for any other number
    of stones or a board below 7x7."""
    if stones < 2 or stones > max_fixed(size):
        raise ValueError(f"no fixed placement of {stones} handicap stones on {size}x{size}")
    low = 2 if size < 13 else 3
    high = size - 1 - low
    mid = size // 2

    def at(row, col):
        return coords.point(row, col, size)

    corners = [at(low, low), at(high, high), at(high, low), at(low, high)]
    points = corners[:min(stones, 4)]
    if stones in (5, 7, 9):
        points.append(at(mid, mid))
    if stones >= 6:
        points += [at(mid, low), at(mid, high)]
    if stones >= 8:
        points += [at(low, mid), at(high, mid)]
    return points


def free_points(size, stones):
    """A free handicap placement (GTP's ``place_free_handicap``): the fixed points as far as
    they go, then :func:`spread_stones`. Raises ValueError unless 2 <= stones < size^2."""
    if stones < 2 or stones >= size * size:
        raise ValueError(f"cannot place {stones} free handicap stones on {size}x{size}")
    try:
        points = fixed_points(size, min(stones, max_fixed(size)))
    except ValueError:
        points = []
    return spread_stones(points, stones, size)


def spread_stones(points, stones, size):
    """``points`` plus further stones up to ``stones``, each as far (Manhattan) from the
    stones already placed as possible, off the first two lines where it can, the lowest
    index among equals. Keeps every free point's distance to the nearest stone, so the cost
    is O(points x stones)."""
    points = list(points)
    rc = {p: coords.row_col(p, size) for p in coords.all_points(size)}
    nearest = {p: 2 * size for p in rc if p not in points}
    for q in points:
        _closer(nearest, rc, q)

    def key(p):
        r, c = rc[p]
        return (nearest[p], min(r, c, size - 1 - r, size - 1 - c) >= SECOND_LINE, -p)

    while len(points) < stones and nearest:
        best = max(nearest, key=key)
        points.append(best)
        del nearest[best]
        _closer(nearest, rc, best)
    return points


def _closer(nearest, rc, q):
    qr, qc = rc[q]
    for p in nearest:
        r, c = rc[p]
        d = abs(r - qr) + abs(c - qc)
        if d < nearest[p]:
            nearest[p] = d


def black_first_moves(moves):
    """Black's moves (passes not counted) before White's first of ``(color, point)`` moves.

    >>> from mcgo.board.kernels import BLACK, WHITE, PASS
    >>> black_first_moves([(BLACK, 40), (BLACK, 50), (WHITE, 60), (BLACK, 70)])
    2
    """
    from .kernels import BLACK, PASS          # the kernels' constants, loaded with the board
    count = 0
    for color, point in moves:
        if color != BLACK:
            break
        count += point != PASS
    return count


def stones_given(black, white, black_first_moves=0):
    """The handicap of a game that starts with ``black`` and ``white`` stones set up (counts)
    and ``black_first_moves`` moves of Black's before White's first: Black's stones and moves,
    when White has no stone and they are more than one; else 0 (an even game, or a position
    set up). KataGo counts a handicap the same way, and White's compensation from it.

    >>> stones_given(4, 0), stones_given(1, 0), stones_given(0, 0, black_first_moves=3)
    (4, 0, 3)
    >>> stones_given(4, 1)                      # a problem or a position: no handicap
    0
    """
    given = black + black_first_moves
    return given if white == 0 and given > 1 else 0
