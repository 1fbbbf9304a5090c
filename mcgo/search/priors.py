"""Prior knowledge for a new node, as virtual playouts (Gelly and Silver 2007).

A new child starts with ``PRIOR_EVEN`` virtual visits at an even win rate; the same rules
the pattern playout follows then add virtual wins (a capture, an escape from atari, a MoGo
3x3 shape next to the last move, a free 3rd or 4th line point in an empty area) or virtual
losses (a self-atari, the 1st or 2nd line in an empty area, an early pass). The real
playouts soon outweigh them; they only decide which moves the search looks at first.
"""

from ..board.kernels import COLOR, EMPTY, HEAD, LAST_MOVE, LIBS, NEMPTY, PASS, WIDTH, BOARDSIZE
from ..jit import kernel
from ..playout.common import is_self_atari
from ..playout.pattern_policy import atari_move, neighbourhood_code
from .tree import PRIOR_VISITS, PRIOR_WINS

PRIOR_EVEN = 10.0           # virtual visits of every move, at a 50% win rate
PRIOR_CAPTURE = 20.0        # virtual wins of a move that captures
PRIOR_ESCAPE = 20.0         # the playout's capture-or-escape answer to the last move
PRIOR_SHAPE = 10.0          # a 3x3 shape next to the last move
PRIOR_SELF_ATARI = 20.0     # virtual losses of a self-atari of 2+ stones
PRIOR_GOOD_LINE = 10.0      # 3rd/4th line point in an empty area
PRIOR_BAD_LINE = 10.0       # 1st/2nd line point in an empty area (losses)
PRIOR_PASS = 20.0           # virtual losses of a pass while the board is still open
OPEN_BOARD_FRACTION = 4     # "open": more than a quarter of the points empty
EMPTY_AREA_RADIUS = 2       # the 5x5 box around a point must be empty for the line rules


@kernel
def add_prior(floats, node, visits, wins):
    floats[PRIOR_VISITS, node] += visits
    floats[PRIOR_WINS, node] += wins


@kernel
def captures_something(pts, w, p, color):
    """True when ``color`` playing at ``p`` takes an opponent chain in atari."""
    opp = 3 - color
    for q in (p - 1, p + 1, p - w, p + w):
        if pts[COLOR, q] == opp and pts[LIBS, pts[HEAD, q]] == 1:
            return True
    return False


@kernel
def edge_distance(p, w, size):
    row = p // w - 1
    col = p % w - 1
    return min(min(row, col), min(size - 1 - row, size - 1 - col))


@kernel
def in_empty_area(pts, w, size, p):
    """True when no stone stands in the box of side ``2r+1`` around ``p`` (clipped to the
    board)."""
    row = p // w - 1
    col = p % w - 1
    for y in range(max(0, row - EMPTY_AREA_RADIUS), min(size, row + EMPTY_AREA_RADIUS + 1)):
        for x in range(max(0, col - EMPTY_AREA_RADIUS), min(size, col + EMPTY_AREA_RADIUS + 1)):
            if pts[COLOR, (y + 1) * w + x + 1] != EMPTY:
                return False
    return True


@kernel
def is_next_to(p, last, w):
    d = p - last
    return d == 1 or d == -1 or d == w or d == -w or d == w + 1 or d == w - 1 \
        or d == -w + 1 or d == -w - 1


@kernel
def set_priors(ints_moves, floats, first, count, pts, info, pat3, color):
    """Give the ``count`` children starting at column ``first`` (moves in ``ints_moves``)
    their prior virtual visits and wins in the position ``(pts, info)``."""
    w = info[WIDTH]
    size = info[BOARDSIZE]
    last = info[LAST_MOVE]
    escape = PASS
    if last > 0:
        escape = atari_move(pts, info, last, color)
    board_open = info[NEMPTY] * OPEN_BOARD_FRACTION > size * size
    for c in range(first, first + count):
        p = ints_moves[c]
        add_prior(floats, c, PRIOR_EVEN, PRIOR_EVEN / 2)
        if p == PASS:
            if board_open:
                add_prior(floats, c, PRIOR_PASS, 0.0)
            continue
        if captures_something(pts, w, p, color):
            add_prior(floats, c, PRIOR_CAPTURE, PRIOR_CAPTURE)
        if p == escape:
            add_prior(floats, c, PRIOR_ESCAPE, PRIOR_ESCAPE)
        if is_self_atari(pts, w, p, color):
            add_prior(floats, c, PRIOR_SELF_ATARI, 0.0)
        if last > 0 and is_next_to(p, last, w) and pat3[neighbourhood_code(pts, w, p)] != 0:
            add_prior(floats, c, PRIOR_SHAPE, PRIOR_SHAPE)
        if in_empty_area(pts, w, size, p):
            line = edge_distance(p, w, size)
            if line <= 1:
                add_prior(floats, c, PRIOR_BAD_LINE, 0.0)
            elif line <= 3:
                add_prior(floats, c, PRIOR_GOOD_LINE, PRIOR_GOOD_LINE)
