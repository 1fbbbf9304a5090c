"""Where a point lies: its line, whether its area is empty, whether it touches another.

The free-area rule of the pattern playout and the priors: in an empty area (no stone in the
box of side ``2 * EMPTY_AREA_RADIUS + 1`` around the point), the 3rd and 4th lines are good
moves and the 1st and 2nd are bad ones. Lines are counted from 0 at the edge.

Distance in the *common fate graph* (Graepel et al. 2001; seed 000): every chain of stones
is one node, so a move next to any stone of the last move's chain is at distance 1 from it,
however long the chain. :func:`cfg_distances` measures it from a point.

Whether the board is still open: :func:`has_open_region` looks for an empty region (the
4-connected empty points) that touches stones of both colours, or none; once every region
is walled in by one colour, the borders are drawn and passing is a real move.
"""

from ..board.kernels import BLACK, COLOR, EMPTIES, EMPTY, NEMPTY, NEXT, OFFBOARD, WHITE, WIDTH
from ..jit import inline_kernel, kernel

EMPTY_AREA_RADIUS = 2   # the 5x5 box around a point must be empty
FIRST_GOOD_LINE = 2     # edge distance of the 3rd line ...
LAST_GOOD_LINE = 3      # ... and of the 4th; nearer the edge (1st, 2nd line) is low


@inline_kernel
def edge_distance(p, w, size):
    """The distance of ``p`` to the nearest edge: 0 on the first line."""
    row = p // w - 1
    col = p % w - 1
    return min(min(row, col), min(size - 1 - row, size - 1 - col))


@inline_kernel
def is_good_line(line):
    """True for the 3rd and 4th lines (``line`` from :func:`edge_distance`)."""
    return FIRST_GOOD_LINE <= line <= LAST_GOOD_LINE


@inline_kernel
def in_empty_area(pts, w, size, p):
    """True when no stone stands in the box of side ``2 * EMPTY_AREA_RADIUS + 1`` around ``p``
    (clipped to the board)."""
    row = p // w - 1
    col = p % w - 1
    for y in range(max(0, row - EMPTY_AREA_RADIUS), min(size, row + EMPTY_AREA_RADIUS + 1)):
        for x in range(max(0, col - EMPTY_AREA_RADIUS), min(size, col + EMPTY_AREA_RADIUS + 1)):
            if pts[COLOR, (y + 1) * w + x + 1] != EMPTY:
                return False
    return True


@inline_kernel
def is_next_to(p, q, w):
    """True when ``p`` is one of the 8 points around ``q``."""
    d = p - q
    return d == 1 or d == -1 or d == w or d == -w or d == w + 1 or d == w - 1 \
        or d == -w + 1 or d == -w - 1


@kernel
def cfg_distances(pts, w, source, limit, dist, queue):
    """Write into ``dist`` (int32, one entry per point) the common-fate-graph distance of
    every point from ``source``, up to ``limit``; farther points (and the border) get
    ``limit + 1``. The stones of one chain share a distance; ``queue`` (int32, as long as
    ``dist``) is scratch. Stones of ``source``'s chain are at 0."""
    far = limit + 1
    for p in range(dist.shape[0]):
        dist[p] = far
    n = 0
    if pts[COLOR, source] == EMPTY:
        dist[source] = 0
        queue[0] = source
        n = 1
    else:
        s = source
        while True:
            dist[s] = 0
            queue[n] = s
            n += 1
            s = pts[NEXT, s]
            if s == source:
                break
    i = 0
    while i < n:
        p = queue[i]
        i += 1
        d = dist[p] + 1
        if d > limit:
            continue
        for q in (p - 1, p + 1, p - w, p + w):
            c = pts[COLOR, q]
            if c == OFFBOARD or dist[q] <= d:
                continue
            if c == EMPTY:
                dist[q] = d
                queue[n] = q
                n += 1
            else:
                s = q
                while True:
                    dist[s] = d
                    queue[n] = s
                    n += 1
                    s = pts[NEXT, s]
                    if s == q:
                        break


@kernel
def has_open_region(pts, info, seen, stack):
    """True when some empty region of the position ``(pts, info)`` (4-connected empty
    points) touches stones of both colours, or of neither (an empty board): a border still
    to draw. False once every empty region is walled in by one colour and the edge, however
    large it is (it may still be invaded, but that is for the search to find). ``seen`` and
    ``stack``: int32 scratch, one entry per point."""
    w = info[WIDTH]
    for p in range(seen.shape[0]):
        seen[p] = 0
    for i in range(info[NEMPTY]):
        p = pts[EMPTIES, i]
        if seen[p]:
            continue
        seen[p] = 1
        stack[0] = p
        top = 1
        touches_black = False
        touches_white = False
        while top > 0:
            top -= 1
            s = stack[top]
            for q in (s - 1, s + 1, s - w, s + w):
                c = pts[COLOR, q]
                if c == EMPTY:
                    if not seen[q]:
                        seen[q] = 1
                        stack[top] = q
                        top += 1
                elif c == BLACK:
                    touches_black = True
                elif c == WHITE:
                    touches_white = True
        if touches_black == touches_white:
            return True
    return False
