"""Eyes: which empty points a side must not fill."""

from ..board.kernels import COLOR, OFFBOARD, neighbour_count
from ..jit import inline_kernel


@inline_kernel
def is_true_eye(pts, w, p, color):
    """True when the empty point ``p`` is a true eye of ``color``: all four neighbours are
    ``color`` or the edge, and at most one diagonal is the opponent's (none on the edge)."""
    if neighbour_count(pts, p, color) + neighbour_count(pts, p, OFFBOARD) != 4:
        return False
    opp = 3 - color
    bad = 0
    edge = False
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        c = pts[COLOR, q]
        if c == opp:
            bad += 1
        elif c == OFFBOARD:
            edge = True
    if edge:
        return bad == 0
    return bad <= 1
