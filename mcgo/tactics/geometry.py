"""Where a point lies: its line, whether its area is empty, whether it touches another.

The free-area rule of the pattern playout and the priors: in an empty area (no stone in the
box of side ``2 * EMPTY_AREA_RADIUS + 1`` around the point), the 3rd and 4th lines are good
moves and the 1st and 2nd are bad ones. Lines are counted from 0 at the edge.

Distance in the *common fate graph* (Graepel et al. 2001; seed 000): every chain of stones
is one node, so a move next to any stone of the last move's chain is at distance 1 from it,
however long the chain. :func:`cfg_distances` measures it from a point.

Whether the board is still open: :func:`has_open_region` looks for an empty region (the
4-connected empty points) that touches stones of both colours; once every region is walled
in by one colour, the borders are drawn and passing is a real move. A region of more than
half the board is walled in by nobody (the start of a game, handicap stones and all). A
region still counts as walled in when at most ``INVADER_STONES`` stones of the other colour
touch it and the wall has ``WALL_RATIO`` times as many: those are invaders, whose fate is for
the search to read (the Yamato example in Fuego's ``cleanup_japanese_rules.tst``, where the
stones played into the other's territory are dead and both sides must pass).
"""

from ..board.kernels import (BLACK, BOARDSIZE, COLOR, EMPTIES, EMPTY, NEMPTY, NEXT, OFFBOARD,
                             WHITE, WIDTH, empty_region)
from ..jit import inline_kernel, kernel

EMPTY_AREA_RADIUS = 2   # the 5x5 box around a point must be empty
OPEN_REGION_SHARE = 2   # a region of more than 1/2 of the board's points is open
INVADER_STONES = 2      # at most this many stones of one colour touching a region...
WALL_RATIO = 4          # ... and this many times more of the other: a walled-in region
STONES_STOP = 0         # a walk (see walk) goes round stones,
STONES_ONE = 1          # reaches them one by one,
STONES_CHAIN = 2        # or a whole chain at once, as a node of the common fate graph
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
def walk(pts, w, queue, n, limit, stones, blocker, strength, own, seen, stamp, dist):
    """A breadth-first walk out to distance ``limit`` from the points ``queue[:n]`` (marked
    with ``stamp`` in ``seen``, their distance in ``dist``): every point it reaches, at its
    distance, is marked, given its distance and appended to ``queue``; returns how many
    points ``queue`` then holds. The one distance-limited search of the board, for the
    order-k liberties and the influence of the DAG-RNN's inputs
    (:mod:`mcgo.models.ownership.features`, :mod:`mcgo.models.ownership.influence`), the case base's flow
    influence (:mod:`mcgo.casebase.influence`) and :func:`cfg_distances`.

    It steps through empty points; stones, by ``stones``: ``STONES_STOP`` never reached,
    ``STONES_ONE`` reached one by one, ``STONES_CHAIN`` reached a whole chain at once (all at
    the distance of the first). A reached stone of the colour ``blocker`` whose
    ``strength`` is above ``own`` passes nothing on (``blocker`` -1: none; ``strength`` is
    read at such stones only)."""
    i = 0
    tail = n
    while i < tail:
        p = queue[i]
        i += 1
        if pts[COLOR, p] == blocker and strength[p] > own:
            continue
        d = dist[p] + 1
        if d > limit:
            continue
        for q in (p - 1, p + 1, p - w, p + w):
            if seen[q] == stamp:
                continue
            c = pts[COLOR, q]
            if c == OFFBOARD:
                continue
            if c == EMPTY or stones == STONES_ONE:
                seen[q] = stamp
                dist[q] = d
                queue[tail] = q
                tail += 1
            elif stones == STONES_CHAIN:
                s = q
                while True:
                    seen[s] = stamp
                    dist[s] = d
                    queue[tail] = s
                    tail += 1
                    s = pts[NEXT, s]
                    if s == q:
                        break
    return tail


@kernel
def cfg_distances(pts, w, source, limit, dist, queue, seen):
    """Write into ``dist`` (int32, one entry per point) the common-fate-graph distance of
    every point from ``source``, up to ``limit``; farther points (and the border) get
    ``limit + 1``. The stones of one chain share a distance; ``queue`` and ``seen`` (int32,
    as long as ``dist``) are scratch. Stones of ``source``'s chain are at 0."""
    far = limit + 1
    for p in range(dist.shape[0]):
        dist[p] = far
        seen[p] = 0
    n = 0
    s = source
    while True:
        seen[s] = 1
        dist[s] = 0
        queue[n] = s
        n += 1
        if pts[COLOR, source] == EMPTY:
            break
        s = pts[NEXT, s]
        if s == source:
            break
    walk(pts, w, queue, n, limit, STONES_CHAIN, -1, dist, 0, seen, 1, dist)


@kernel
def has_open_region(pts, info, seen, stack):
    """True when some empty region of the position ``(pts, info)`` (4-connected empty
    points) covers more than half the board (``OPEN_REGION_SHARE``), or touches stones of
    both colours, unless one colour's are invaders: at most ``INVADER_STONES`` of them, and
    ``WALL_RATIO`` times as many of the other. False once every empty region is walled in
    by one colour and the edge, however large it is (it may still be invaded, but that is
    for the search to find).
    ``seen`` and ``stack``: int32 scratch, one entry per point."""
    w = info[WIDTH]
    board_points = info[BOARDSIZE] * info[BOARDSIZE]
    for p in range(seen.shape[0]):
        seen[p] = 0
    region = 0
    for i in range(info[NEMPTY]):
        p = pts[EMPTIES, i]
        if seen[p]:
            continue
        region += 1             # marks this region's points (and the stones it touches)
        points, around = empty_region(pts, w, p, seen, region, stack)
        if points * OPEN_REGION_SHARE > board_points:
            return True
        if around != BLACK | WHITE:
            continue            # walled in by one colour and the edge: no invaders to count
        black = 0
        white = 0
        for j in range(points):
            s = stack[j]
            for q in (s - 1, s + 1, s - w, s + w):
                c = pts[COLOR, q]
                if (c == BLACK or c == WHITE) and seen[q] != region:
                    seen[q] = region
                    if c == BLACK:
                        black += 1
                    else:
                        white += 1
        fewer = min(black, white)
        more = max(black, white)
        if fewer > INVADER_STONES or more < WALL_RATIO * fewer:
            return True
    return False
