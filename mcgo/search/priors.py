"""Prior knowledge for a new node, as virtual playouts (Gelly and Silver 2007).

A new child starts with ``PRIOR_EVEN`` virtual visits at an even win rate; the same rules
the pattern playout follows then add virtual wins (a capture, an escape from atari, a MoGo
3x3 shape next to the last move, a free 3rd or 4th line point in an empty area) or virtual
losses (a self-atari, the 1st or 2nd line in an empty area, an early pass). The real
playouts soon outweigh them; they only decide which moves the search looks at first. The
rules themselves live in :mod:`mcgo.tactics`, shared with the playouts.
"""

from ..board.kernels import BOARDSIZE, LAST_MOVE, NEMPTY, PASS, WIDTH
from ..jit import kernel
from ..playout.pattern_policy import neighbourhood_code
from ..tactics.atari import capture_or_escape, is_capture, is_self_atari
from ..tactics.geometry import FIRST_GOOD_LINE, edge_distance, in_empty_area, is_good_line, is_next_to
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


@kernel
def add_prior(floats, node, visits, wins):
    floats[PRIOR_VISITS, node] += visits
    floats[PRIOR_WINS, node] += wins


@kernel
def set_priors(ints_moves, floats, first, count, pts, info, pat3, color):
    """Give the ``count`` children starting at column ``first`` (moves in ``ints_moves``)
    their prior virtual visits and wins in the position ``(pts, info)``."""
    w = info[WIDTH]
    size = info[BOARDSIZE]
    last = info[LAST_MOVE]
    escape = PASS
    if last > 0:
        escape = capture_or_escape(pts, info, last, color)
    board_open = info[NEMPTY] * OPEN_BOARD_FRACTION > size * size
    for c in range(first, first + count):
        p = ints_moves[c]
        add_prior(floats, c, PRIOR_EVEN, PRIOR_EVEN / 2)
        if p == PASS:
            if board_open:
                add_prior(floats, c, PRIOR_PASS, 0.0)
            continue
        if is_capture(pts, w, p, color):
            add_prior(floats, c, PRIOR_CAPTURE, PRIOR_CAPTURE)
        if p == escape:
            add_prior(floats, c, PRIOR_ESCAPE, PRIOR_ESCAPE)
        if is_self_atari(pts, w, p, color):
            add_prior(floats, c, PRIOR_SELF_ATARI, 0.0)
        if last > 0 and is_next_to(p, last, w) and pat3[neighbourhood_code(pts, w, p)] != 0:
            add_prior(floats, c, PRIOR_SHAPE, PRIOR_SHAPE)
        if in_empty_area(pts, w, size, p):
            line = edge_distance(p, w, size)
            if line < FIRST_GOOD_LINE:
                add_prior(floats, c, PRIOR_BAD_LINE, 0.0)
            elif is_good_line(line):
                add_prior(floats, c, PRIOR_GOOD_LINE, PRIOR_GOOD_LINE)
