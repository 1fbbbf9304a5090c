"""Nakade: the vital point of a small eyespace.

An eyespace of 3 to 6 points with one of the shapes below lives or dies by one point: the
side that owns it makes two eyes by playing there, the opponent kills by playing there
first (a nakade, "placement inside"). Both sides want the point, so the answer serves
either colour. The shapes and their vital points are the killable eyeshapes of Sensei's
Library ("Nakade", https://senseis.xmp.net/?Nakade, and "Killable eyeshapes",
https://senseis.xmp.net/?KillableEyeshapes):

=============== ====================================== ===========================================
shape           points                                 vital point
=============== ====================================== ===========================================
straight three  ``XXX``                                the middle
bent three      ``XX`` over ``X.``                     the bend
pyramid four    ``XXX`` over ``.X.`` (the T)           the centre (3 region neighbours)
bulky five      a 2x2 square and one point beside it   the square's point that touches that one
crossed five    the plus                               the centre (4 region neighbours)
rabbity six     the plus and the point between two     the centre (4 region neighbours)
                of its arms (the "flower six")
=============== ====================================== ===========================================

The other small shapes answer no point: square four is dead whatever is played in it,
straight, bent (L) and Z four make two eyes or a ko and are no nakade; so do the other
five- and six-point shapes.

Every shape is told by invariants that no rotation, reflection or place on the board
changes: its number of points, its number of adjacent pairs of points, and the most
region neighbours one point has (its *degree*). In each shape with a vital point that
point is the one point of highest degree, so the rule is a table of (points, pairs,
highest degree), below. The signature is unique among all polyominoes of 3 to 6 points:

* 3 points: both shapes are paths (2 pairs, degrees 2-1-1);
* 4 points: only the T has a point of degree 3 (the square has 4 pairs, the others 3 pairs
  and degree 2);
* 5 points: a cycle in a 5-point shape is a 2x2 square, so 5 pairs means bulky five (its
  degrees 3, 2, 2, 2, 1); degree 4 means the plus, which has 4 pairs;
* 6 points: degree 4 needs a plus, and the sixth point adds a second pair (6 in all) only
  between two arms: rabbity six (a sixth point beyond an arm's end leaves 5 pairs).

The region is the 4-connected set of empty points: every empty neighbour of a region point
is in it, so a point's degree is its count of empty neighbours.
"""

from ..board.kernels import (BLACK, COLOR, EMPTY, HEAD, LEGAL, LIBS, PASS, SIZE, WHITE, WIDTH,
                             legality, neighbour_count)
from ..jit import inline_kernel, kernel

MIN_EYESPACE = 3   # fewer points: one eye at most, nothing to place inside
OPEN_NEIGHBOURS = 3  # an empty neighbour of the last move with this many empty neighbours
                     # is not read (see nakade_answer)
MAX_EYESPACE = 6   # more points: no killable shape the rule knows; small_region stops at 7

# (points, adjacent pairs, highest degree) of the shapes with a vital point; the vital
# point is the one point of that degree.
STRAIGHT_OR_BENT_THREE = (3, 2, 2)
PYRAMID_FOUR = (4, 3, 3)
BULKY_FIVE = (5, 5, 3)
CROSSED_FIVE = (5, 4, 4)
RABBITY_SIX = (6, 6, 4)


def _key(shape):
    points, pairs, degree = shape
    return (points * 16 + pairs) * 8 + degree


# The table as integers, so the kernel compares one number per shape.
VITAL_SHAPE_KEYS = tuple(_key(s) for s in (STRAIGHT_OR_BENT_THREE, PYRAMID_FOUR, BULKY_FIVE,
                                           CROSSED_FIVE, RABBITY_SIX))


@kernel
def _in_list(scratch, n, q):
    """True when ``q`` is one of the ``n`` first points of ``scratch``."""
    for j in range(n):
        if scratch[j] == q:
            return True
    return False


@kernel
def is_vital_shape(key):
    """True when a region's key (see :func:`shape_key`) is one of the table's shapes."""
    for k in VITAL_SHAPE_KEYS:
        if key == k:
            return True
    return False


@kernel
def shape_key(w, scratch, n):
    """The key (points, adjacent pairs, highest degree; as ``_key``) of the region
    ``scratch[:n]`` (any contents: empty points, or stones to be captured), and its first
    point of highest degree, the vital point where the shape has one."""
    degrees = 0
    best = PASS
    best_degree = 0
    for i in range(n):
        s = scratch[i]
        degree = 0
        for j in range(n):
            d = scratch[j] - s
            if d == 1 or d == -1 or d == w or d == -w:
                degree += 1
        degrees += degree
        if degree > best_degree:
            best = s
            best_degree = degree
    return (n * 16 + degrees // 2) * 8 + best_degree, best


@kernel
def empty_points_near(pts, w, p):
    """A lower bound of the size of the empty region around the empty point ``p``, from
    counts of empty neighbours: ``p`` and the empty neighbours of its empty neighbours
    (which count ``p`` and those at two steps). The points at two steps are distinct but
    for the diagonal point that a horizontal and a vertical neighbour share. It spares the
    fill of most large regions."""
    n = 1
    horizontal = 0
    vertical = 0
    for q in (p - 1, p + 1):
        if pts[COLOR, q] == EMPTY:
            n += neighbour_count(pts, q, EMPTY)
            horizontal += 1
    for q in (p - w, p + w):
        if pts[COLOR, q] == EMPTY:
            n += neighbour_count(pts, q, EMPTY)
            vertical += 1
    return n - horizontal * vertical


@kernel
def nakade_point(pts, w, p, scratch):
    """The vital point of the eyespace holding the empty point ``p``, PASS when there is none.

    The eyespace is the 4-connected region of empty points around ``p``; it must have
    ``MIN_EYESPACE`` to ``MAX_EYESPACE`` points, all the stones touching it one colour
    (edges allowed), and a shape of the table above (:func:`shape_key`). ``scratch`` (int32,
    room for 8 points) holds the region; nothing is allocated. A region that
    :func:`empty_points_near` already counts too large is not filled, and the fill stops at
    the region's 7th point or where it touches both colours, so a large area costs a few
    steps."""
    if pts[COLOR, p] != EMPTY or empty_points_near(pts, w, p) > MAX_EYESPACE:
        return PASS
    n, around = small_region(pts, w, p, EMPTY, EMPTY, True, scratch)
    if n < MIN_EYESPACE or n > MAX_EYESPACE or around == BLACK | WHITE:
        return PASS
    key, vital = shape_key(w, scratch, n)
    return vital if is_vital_shape(key) else PASS


@inline_kernel
def small_region(pts, w, p, through, also_through, mixed_stops, scratch):
    """The small region around the point ``p``: ``p`` and the 4-connected points from it that
    hold ``through`` or ``also_through`` (colours, EMPTY included), in the order a
    breadth-first fill meets them (``scratch``: int32, room for 8 points). Returns the number
    of its points, ``MAX_EYESPACE + 1`` when it is larger (the fill stops there), and the
    colours of the stones around it as bits (BLACK | WHITE when it touches both; with
    ``mixed_stops`` the fill stops there, its count of points then partial). The one fill
    of the eyespaces here: of empty points (:func:`nakade_point`), walled in by one colour
    (:func:`filled_eyespace_point`) or of the stones a throw-in
    gives (:func:`makes_nakade`)."""
    scratch[0] = p
    n = 1
    around = 0
    i = 0
    while i < n:
        s = scratch[i]
        i += 1
        for q in (s - 1, s + 1, s - w, s + w):
            c = pts[COLOR, q]
            if c == through or c == also_through:
                if _in_list(scratch, n, q):
                    continue
                if n == MAX_EYESPACE:
                    return MAX_EYESPACE + 1, around
                scratch[n] = q
                n += 1
            elif c == BLACK or c == WHITE:
                around |= c
                if mixed_stops and around == BLACK | WHITE:
                    return n, around
    return n, around


@kernel
def walled_region(pts, w, p, wall, scratch):
    """The :func:`small_region` around ``p`` walled in by ``wall``'s stones and the edge (its
    points empty or the other colour's); its number of points."""
    n, _ = small_region(pts, w, p, EMPTY, 3 - wall, False, scratch)
    return n


@kernel
def filled_eyespace_point(pts, w, last, scratch):
    """The vital point of the eyespace the stone ``last`` was played into, PASS if none: the
    region of empty points and stones of ``last``'s colour around it, walled in by the
    other colour and the edge, of 3 to 6 points with a shape of the table, whose vital
    point is still empty. The wall's owner plays it to keep two eyes; a placement already
    on the vital point has no such answer. ``scratch`` holds the region (room for 8).

    The region holds ``last``'s chain and its liberties, so a chain whose stones and
    liberties are already too many answers at once, without the fill (most of them)."""
    head = pts[HEAD, last]
    if pts[SIZE, head] + pts[LIBS, head] > MAX_EYESPACE:
        return PASS
    n = walled_region(pts, w, last, 3 - pts[COLOR, last], scratch)
    if n < MIN_EYESPACE or n > MAX_EYESPACE:
        return PASS
    key, vital = shape_key(w, scratch, n)
    if pts[COLOR, vital] != EMPTY or not is_vital_shape(key):
        return PASS
    return vital


@kernel
def open_or_mixed(pts, w, q, other):
    """True when the empty point ``q`` touches a stone of ``other`` or has
    ``OPEN_NEIGHBOURS`` empty neighbours or more: no read from there (see
    :func:`nakade_answer`)."""
    return neighbour_count(pts, q, other) > 0 or neighbour_count(pts, q, EMPTY) >= OPEN_NEIGHBOURS


@kernel
def nakade_answer(pts, info, last, color, scratch):
    """The vital point of a small eyespace at the last move ``last`` (a stone) that
    ``color`` may play, PASS if none. Two cases, and the point serves either side:

    * ``last`` was played into an eyespace walled in by the other colour (a placement, or a
      stone that fills it): its :func:`filled_eyespace_point`, for the wall's owner to live;
    * ``last`` is a wall stone of an eyespace next to it: the eyespace's
      :func:`nakade_point`, read from ``last``'s empty neighbours, for the other side to
      kill (or the owner to live).

    The playouts ask after every move, so most reads are skipped at a glance: from a point
    (the last stone, or an empty neighbour) with ``OPEN_NEIGHBOURS`` empty neighbours or
    more, or an empty neighbour that touches a stone of the other colour than ``last``'s
    (its region would touch both colours). In the open that is every point; in the shapes
    only the centre of a T, a bulky five, a plus or a flower has as many empty neighbours,
    so such a shape is found from another point or missed."""
    w = info[WIDTH]
    other = 3 - pts[COLOR, last]
    empty = neighbour_count(pts, last, EMPTY)
    if 0 < empty < OPEN_NEIGHBOURS:
        v = filled_eyespace_point(pts, w, last, scratch)
        if v != PASS and legality(pts, info, v, color) == LEGAL:
            return v
    west_or_east = PASS         # a neighbour read already, across from the next ones
    for q in (last - 1, last + 1, last - w, last + w):
        if pts[COLOR, q] != EMPTY or open_or_mixed(pts, w, q, other):
            continue
        if q == last - w or q == last + w:
            if west_or_east != PASS and pts[COLOR, q + west_or_east - last] == EMPTY:
                continue        # in the region read already (through the corner): same answer
        v = nakade_point(pts, w, q, scratch)
        if v != PASS and legality(pts, info, v, color) == LEGAL:
            return v
        if q == last - 1 or q == last + 1:
            west_or_east = q
    return PASS


SQUARE_FOUR = (4, 4, 2)   # no vital point, but one eye whatever is played: dead shape too
SQUARE_FOUR_KEY = _key(SQUARE_FOUR)
ONE_EYE_STONES = 3        # a space this small left by a capture is one eye at most, or a
                          # straight or bent three, killed at its vital point


@kernel
def makes_nakade(pts, w, p, color, scratch):
    """True when ``color`` playing the self-atari ``p`` (its chain left with one liberty)
    is a nakade throw-in: the chain and its liberty are walled in by opponent stones and
    the edge, and the space the chain leaves when it is taken cannot make two eyes: up to
    three points, a square four, or a shape of the table above, killed at its vital point
    once more. ``scratch``: int32, room for 8 points."""
    n, _ = small_region(pts, w, p, color, color, False, scratch)
    if n > MAX_EYESPACE:
        return False                    # bigger than the largest killable shape
    liberty = PASS
    for i in range(n):
        s = scratch[i]
        for q in (s - 1, s + 1, s - w, s + w):
            if q == p or q == liberty or pts[COLOR, q] != EMPTY:
                continue
            if liberty != PASS:
                return False            # two liberties: no self-atari to judge
            liberty = q
    if liberty == PASS:
        return False
    for q in (liberty - 1, liberty + 1, liberty - w, liberty + w):
        if q == p:
            continue
        c = pts[COLOR, q]
        if c == EMPTY or (c == color and not _in_list(scratch, n, q)):
            return False                # the space goes on past the liberty
    if n <= ONE_EYE_STONES:
        return True
    key, _ = shape_key(w, scratch, n)
    return key == SQUARE_FOUR_KEY or is_vital_shape(key)
