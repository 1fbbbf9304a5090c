"""Numba kernels of the Go board.

A position is two arrays, so that kernels can be called from anywhere (Python, playouts,
the search) and a copy is two ``memcpy``s:

``pts``  int32, shape ``(NFIELDS, W*W)`` with ``W = size + 2``: one row per field below,
         one column per point of the board with a one-point border around it.
``info`` int64, shape ``(NINFO,)``: the scalars of the position (side to move, ko, hash...).

Each chain of stones is a circular linked list (``NEXT``) whose stones all point at one
representative stone (``HEAD``); the head holds the chain's size and its exact liberty
count, which every move keeps up to date incrementally, as it keeps each point's count of
neighbours of every colour (``NEIGHBOURS``: one word answers "has it an empty neighbour?"
and the first half of the true-eye test).  The Zobrist hash of the stones is
kept in ``info[HASH]``; the table ``zob`` (int64, shape ``(2, W*W)``) is made once per size.

Every kernel is compiled with ``cache=True`` and ``nogil=True``: the first import on a
machine compiles (a few seconds), later ones load from Numba's cache.
"""

import numpy as np

from ..jit import allocating_kernel, inline_kernel, kernel

# Point colours. OFFBOARD marks the border.
EMPTY = 0
BLACK = 1
WHITE = 2
OFFBOARD = 3

# The border corner is never a legal point, so it doubles as the pass move.
PASS = 0

# Rows of ``pts``.
COLOR = 0     # EMPTY / BLACK / WHITE / OFFBOARD
HEAD = 1      # representative stone of the point's chain
NEXT = 2      # next stone of the chain (circular list)
LIBS = 3      # liberty count, valid at the head
SIZE = 4      # number of stones, valid at the head
EPOS = 5      # index of an empty point in EMPTIES, -1 for stones
EMPTIES = 6   # the empty points, first info[NEMPTY] entries valid, in no order
MARK = 7      # scratch stamps for counting distinct liberties
STACK = 8     # scratch stack for flood fills
NEIGHBOURS = 9  # on the board: neighbours of each colour, 4 bits a colour (neighbour_count)
NFIELDS = 10

# Slots of ``info``.
BOARDSIZE = 0
WIDTH = 1
TO_MOVE = 2
KO_POINT = 3      # point the side KO_COLOR may not play next, PASS if none
KO_COLOR = 4
NEMPTY = 5
CAPTURES = 6      # CAPTURES + colour - 1: stones captured BY that colour
HASH = 8          # Zobrist hash of the stones
STAMP = 9         # last stamp written into MARK
PASSES = 10       # consecutive passes
LAST_MOVE = 11
MOVE_COUNT = 12
PREVIOUS_MOVE = 13  # the move before the last (-1: none), as the move model reads it
NINFO = 14

# Answers of ``legality``.
LEGAL = 0
OCCUPIED = 1
KO = 2
SUICIDE = 3

STAMP_LIMIT = 1 << 30


@inline_kernel
def _colour_unit(color):
    """One neighbour of ``color`` in the NEIGHBOURS row: 4 bits per colour."""
    return np.int32(1) << np.int32(4 * color)


@inline_kernel
def neighbour_count(pts, p, color):
    """How many of the four neighbours of ``p`` are ``color`` (EMPTY, BLACK, WHITE or
    OFFBOARD), from the NEIGHBOURS row that every move keeps up to date."""
    return (pts[NEIGHBOURS, p] >> np.int32(4 * color)) & np.int32(15)


@inline_kernel
def _count_neighbour_change(pts, w, p, old, new):
    """The point ``p`` changed from ``old`` to ``new``: its neighbours' counts follow."""
    d = _colour_unit(new) - _colour_unit(old)
    pts[NEIGHBOURS, p - 1] += d
    pts[NEIGHBOURS, p + 1] += d
    pts[NEIGHBOURS, p - w] += d
    pts[NEIGHBOURS, p + w] += d


@allocating_kernel
def new_position(size):
    """An empty board of ``size`` x ``size`` as ``(pts, info)``; black to move."""
    w = size + 2
    n = w * w
    pts = np.zeros((NFIELDS, n), dtype=np.int32)
    info = np.zeros(NINFO, dtype=np.int64)
    info[BOARDSIZE] = size
    info[WIDTH] = w
    info[TO_MOVE] = BLACK
    info[KO_POINT] = PASS
    info[LAST_MOVE] = -1
    info[PREVIOUS_MOVE] = -1
    ne = 0
    for p in range(n):
        x = p % w
        y = p // w
        pts[HEAD, p] = 0
        pts[NEXT, p] = 0
        if x == 0 or y == 0 or x == w - 1 or y == w - 1:
            pts[COLOR, p] = OFFBOARD
            pts[EPOS, p] = -1
        else:
            pts[COLOR, p] = EMPTY
            pts[EPOS, p] = ne
            pts[EMPTIES, ne] = p
            ne += 1
    info[NEMPTY] = ne
    for p in range(n):
        if pts[COLOR, p] != OFFBOARD:
            for q in (p - 1, p + 1, p - w, p + w):
                pts[NEIGHBOURS, p] += _colour_unit(pts[COLOR, q])
    return pts, info


@allocating_kernel
def zobrist_table(size, seed):
    """Random 64-bit keys, one per (colour, point), from a splitmix64 stream."""
    w = size + 2
    zob = np.zeros((2, w * w), dtype=np.int64)
    state = np.uint64(seed)
    for c in range(2):
        for p in range(w * w):
            state += np.uint64(0x9E3779B97F4A7C15)
            z = state
            z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
            z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
            z = z ^ (z >> np.uint64(31))
            zob[c, p] = np.int64(z)
    return zob


@inline_kernel
def _new_stamp(pts, info):
    s = info[STAMP] + 1
    if s >= STAMP_LIMIT:
        pts[MARK, :] = 0
        s = 1
    info[STAMP] = s
    return s


@inline_kernel
def copy_position(src_pts, src_info, pts, info):
    """Overwrite the position ``(pts, info)`` with ``(src_pts, src_info)`` of the same size.
    An element loop: Numba's slice assignment measured twelve times slower here."""
    flat = pts.reshape(pts.size)
    src = src_pts.reshape(src_pts.size)
    for i in range(flat.shape[0]):
        flat[i] = src[i]
    for i in range(info.shape[0]):
        info[i] = src_info[i]


@inline_kernel
def legality(pts, info, p, color):
    """LEGAL, OCCUPIED, KO or SUICIDE for ``color`` playing at ``p`` (simple ko only)."""
    if p == PASS:
        return LEGAL
    if pts[COLOR, p] != EMPTY:
        return OCCUPIED
    if p == info[KO_POINT] and color == info[KO_COLOR]:
        return KO
    if neighbour_count(pts, p, EMPTY) > 0:
        return LEGAL
    w = info[WIDTH]
    for q in (p - 1, p + 1, p - w, p + w):
        c = pts[COLOR, q]
        if c == EMPTY:
            return LEGAL
        if c == OFFBOARD:
            continue
        libs = pts[LIBS, pts[HEAD, q]]
        if c == color:
            if libs > 1:
                return LEGAL
        elif libs == 1:
            return LEGAL
    return SUICIDE


@inline_kernel
def _remove_empty(pts, info, p):
    i = pts[EPOS, p]
    last = info[NEMPTY] - 1
    q = pts[EMPTIES, last]
    pts[EMPTIES, i] = q
    pts[EPOS, q] = i
    pts[EPOS, p] = -1
    info[NEMPTY] = last


@inline_kernel
def _add_empty(pts, info, p):
    n = info[NEMPTY]
    pts[EMPTIES, n] = p
    pts[EPOS, p] = n
    info[NEMPTY] = n + 1


@inline_kernel
def neighbour_chains(pts, w, p, color):
    """The distinct chains of ``color`` with a stone next to the point ``p``: a tuple of 4
    heads in the order west, east, south, north of their first stone, -1 in the slots after
    the last one."""
    h1 = -1
    h2 = -1
    h3 = -1
    h4 = -1
    for q in (p - 1, p + 1, p - w, p + w):
        if pts[COLOR, q] != color:
            continue
        h = pts[HEAD, q]
        if h == h1 or h == h2 or h == h3:
            continue
        if h1 < 0:
            h1 = h
        elif h2 < 0:
            h2 = h
        elif h3 < 0:
            h3 = h
        else:
            h4 = h
    return h1, h2, h3, h4


@kernel
def _capture_chain(pts, info, zob, head):
    """Remove the chain ``head``; every chain touching it gains the freed points."""
    w = info[WIDTH]
    color = pts[COLOR, head]
    opp = 3 - color
    key_row = color - 1
    n = 0
    s = head
    while True:
        nxt = pts[NEXT, s]
        pts[COLOR, s] = EMPTY
        _count_neighbour_change(pts, w, s, color, EMPTY)
        pts[HEAD, s] = 0
        pts[NEXT, s] = 0
        info[HASH] ^= zob[key_row, s]
        _add_empty(pts, info, s)
        # Each distinct neighbouring chain gains s as one liberty.
        h1, h2, h3, h4 = neighbour_chains(pts, w, s, opp)
        for h in (h1, h2, h3, h4):
            if h >= 0:
                pts[LIBS, h] += 1
        n += 1
        s = nxt
        if s == head:
            break
    return n


@inline_kernel
def touches_chain(pts, w, q, head):
    """True when the point ``q`` has a stone of the chain ``head`` next to it (the head of a
    chain is a stone, and an empty point's HEAD is 0, no stone)."""
    return (pts[HEAD, q - 1] == head or pts[HEAD, q + 1] == head
            or pts[HEAD, q - w] == head or pts[HEAD, q + w] == head)


@inline_kernel
def _splice_chains(pts, big, small):
    """Splice the stone list of ``small``, whose stones already name ``big`` as their head,
    into the list of ``big``."""
    nb = pts[NEXT, big]
    pts[NEXT, big] = pts[NEXT, small]
    pts[NEXT, small] = nb
    pts[SIZE, big] += pts[SIZE, small]


@kernel
def play_legal(pts, info, zob, p, color):
    """Play ``color`` at ``p``, which the caller knows to be legal; returns stones captured."""
    info[MOVE_COUNT] += 1
    info[PREVIOUS_MOVE] = info[LAST_MOVE]
    info[LAST_MOVE] = p
    info[TO_MOVE] = 3 - color
    info[KO_POINT] = PASS
    if p == PASS:
        info[PASSES] += 1
        return 0
    info[PASSES] = 0
    w = info[WIDTH]
    opp = 3 - color

    _remove_empty(pts, info, p)
    pts[COLOR, p] = color
    _count_neighbour_change(pts, w, p, EMPTY, color)
    pts[HEAD, p] = p
    pts[NEXT, p] = p
    pts[SIZE, p] = 1
    info[HASH] ^= zob[color - 1, p]

    libs = neighbour_count(pts, p, EMPTY)
    # Distinct neighbouring chains: friends to merge, enemies that lose a liberty (the
    # counts of neighbours spare the look where there are none).
    f1 = f2 = f3 = f4 = e1 = e2 = e3 = e4 = -1
    if neighbour_count(pts, p, color) > 0:
        f1, f2, f3, f4 = neighbour_chains(pts, w, p, color)
    if neighbour_count(pts, p, opp) > 0:
        e1, e2, e3, e4 = neighbour_chains(pts, w, p, opp)
    nfriends = 0
    for h in (f1, f2, f3, f4):
        if h >= 0:
            pts[LIBS, h] -= 1
            nfriends += 1
    for h in (e1, e2, e3, e4):
        if h >= 0:
            pts[LIBS, h] -= 1
    pts[LIBS, p] = libs

    captured = 0
    ko_candidate = PASS
    for h in (e1, e2, e3, e4):
        if h >= 0 and pts[COLOR, h] == opp and pts[LIBS, h] == 0:
            if pts[SIZE, h] == 1:
                ko_candidate = h
            captured += _capture_chain(pts, info, zob, h)
    info[CAPTURES + color - 1] += captured

    head = p
    if nfriends == 1:
        # The commonest merge: the new stone joins one chain. Its liberties that the chain
        # lacks are its empty neighbours that touch no stone of the chain; four distinct
        # points, so no marks are needed.
        head = f1
        libs = pts[LIBS, head]
        for q in (p - 1, p + 1, p - w, p + w):
            if pts[COLOR, q] == EMPTY and not touches_chain(pts, w, q, head):
                libs += 1
        pts[HEAD, p] = head
        _splice_chains(pts, head, p)
        pts[LIBS, head] = libs
    elif nfriends > 1:
        head = f1
        for h in (f2, f3, f4):
            if h >= 0 and pts[SIZE, h] > pts[SIZE, head]:
                head = h
        # The merged chain's liberties: the biggest chain's, plus those of the new stone and
        # of the smaller chains that the biggest does not already touch. This costs the
        # size of the smaller chains only, in one pass that also relabels their stones: once
        # a stone is relabelled its empty neighbours are all marked, so the unmarked points
        # met later touch no relabelled stone, and touches_chain still sees only the stones
        # of the biggest chain.
        libs = pts[LIBS, head]
        stamp = _new_stamp(pts, info)
        for small in (np.int64(p), f1, f2, f3, f4):
            if small < 0 or small == head:
                continue
            s = small
            while True:
                for q in (s - 1, s + 1, s - w, s + w):
                    if pts[COLOR, q] == EMPTY and pts[MARK, q] != stamp:
                        pts[MARK, q] = stamp
                        if not touches_chain(pts, w, q, head):
                            libs += 1
                pts[HEAD, s] = head
                s = pts[NEXT, s]
                if s == small:
                    break
            _splice_chains(pts, head, small)
        pts[LIBS, head] = libs

    if captured == 1 and ko_candidate != PASS and pts[SIZE, head] == 1 and pts[LIBS, head] == 1:
        info[KO_POINT] = ko_candidate
        info[KO_COLOR] = opp
    return captured


# The same move inlined into its caller, for the playouts' move loop: a call passes each
# array as a struct of about eight words (see mcgo.jit), which measured 4% of a 19x19
# random playout. One body: Numba inlines play_legal's own source.
play_legal_inline = inline_kernel(play_legal.py_func)


@kernel
def play(pts, info, zob, p, color):
    """Play if legal under simple ko; returns ``legality``'s answer (LEGAL when played)."""
    r = legality(pts, info, p, color)
    if r == LEGAL:
        play_legal(pts, info, zob, p, color)
    return r


@inline_kernel
def empty_region(pts, w, p, mark, stamp, stack):
    """Flood the empty region of the empty point ``p`` (the 4-connected empty points around
    it): its points into ``stack[:n]`` (``p`` first, then breadth first), each marked with
    ``stamp`` in ``mark``, which must hold no ``stamp`` on them yet. Returns ``n`` and the
    colours of the stones around the region as bits (BLACK | WHITE when it touches both, 0
    when none). The one flood fill of whole regions, for the score (:func:`owner_map`) and
    whether the borders are drawn (:func:`mcgo.tactics.geometry.has_open_region`)."""
    stack[0] = p
    top = 1
    mark[p] = stamp
    around = 0
    i = 0
    while i < top:
        s = stack[i]
        i += 1
        for q in (s - 1, s + 1, s - w, s + w):
            c = pts[COLOR, q]
            if c == EMPTY:
                if mark[q] != stamp:
                    mark[q] = stamp
                    stack[top] = q
                    top += 1
            elif c != OFFBOARD:
                around |= c
    return top, around


@kernel
def owner_map(pts, info, owner):
    """Tromp-Taylor ownership: each stone owns its point; an empty region is owned by the
    colour that alone borders it (EMPTY when it borders both or none). Writes ``owner``."""
    w = info[WIDTH]
    n = w * w
    stack = pts[STACK]
    stamp = _new_stamp(pts, info)
    for p in range(n):
        c = pts[COLOR, p]
        if c != EMPTY:
            owner[p] = c if c != OFFBOARD else EMPTY
    for p in range(n):
        if pts[COLOR, p] != EMPTY or pts[MARK, p] == stamp:
            continue
        top, around = empty_region(pts, w, p, pts[MARK], stamp, stack)
        region_owner = around if around == BLACK or around == WHITE else EMPTY
        for j in range(top):
            owner[stack[j]] = region_owner


@allocating_kernel
def area_score(pts, info):
    """Black's area minus white's area (Tromp-Taylor), without komi."""
    owner = np.empty(pts.shape[1], dtype=np.int8)
    owner_map(pts, info, owner)
    return area_of(owner)


@kernel
def area_of(owner):
    """Black's points minus white's in an owner map."""
    score = 0
    for p in range(owner.shape[0]):
        if owner[p] == BLACK:
            score += 1
        elif owner[p] == WHITE:
            score -= 1
    return score


@kernel
def legal_moves(pts, info, color, out):
    """Write the points ``color`` may play (simple ko) into ``out``; returns how many."""
    n = 0
    for i in range(info[NEMPTY]):
        p = pts[EMPTIES, i]
        if legality(pts, info, p, color) == LEGAL:
            out[n] = p
            n += 1
    return n


@allocating_kernel
def check_consistency(pts, info, zob):
    """Recompute chains, liberties, empties and hash from the stones alone and compare with
    the incremental bookkeeping. Returns 0 when all agree, else a code naming the first
    mismatch. A test oracle: never called in play."""
    w = info[WIDTH]
    n = w * w
    h = np.int64(0)
    ne = 0
    for p in range(n):
        c = pts[COLOR, p]
        if c == BLACK or c == WHITE:
            h ^= zob[c - 1, p]
            head = pts[HEAD, p]
            if pts[COLOR, head] != c:
                return 1
        elif c == EMPTY:
            ne += 1
            i = pts[EPOS, p]
            if i < 0 or i >= info[NEMPTY] or pts[EMPTIES, i] != p:
                return 2
    if h != info[HASH]:
        return 3
    for p in range(n):
        if pts[COLOR, p] == OFFBOARD:
            continue
        counts = 0
        for q in (p - 1, p + 1, p - w, p + w):
            counts += _colour_unit(pts[COLOR, q])
        if pts[NEIGHBOURS, p] != counts:
            return 9
    if ne != info[NEMPTY]:
        return 4
    # Flood each chain from scratch and compare membership, size and liberties.
    stack = np.empty(n, dtype=np.int32)
    seen = np.zeros(n, dtype=np.uint8)
    libmark = np.zeros(n, dtype=np.int32)
    for p in range(n):
        c = pts[COLOR, p]
        if (c != BLACK and c != WHITE) or seen[p]:
            continue
        top = 1
        stack[0] = p
        seen[p] = 1
        i = 0
        libs = 0
        head = pts[HEAD, p]
        while i < top:
            s = stack[i]
            i += 1
            if pts[HEAD, s] != head:
                return 5
            for q in (s - 1, s + 1, s - w, s + w):
                if pts[COLOR, q] == c and not seen[q]:
                    seen[q] = 1
                    stack[top] = q
                    top += 1
                elif pts[COLOR, q] == EMPTY and libmark[q] != p + 1:
                    libmark[q] = p + 1
                    libs += 1
        if pts[SIZE, head] != top:
            return 6
        if pts[LIBS, head] != libs:
            return 7
        # The circular list must hold exactly the flooded stones.
        count = 0
        s = head
        while True:
            count += 1
            if count > top or pts[COLOR, s] != c or pts[HEAD, s] != head:
                return 8
            s = pts[NEXT, s]
            if s == head:
                break
        if count != top:
            return 8
    return 0


@kernel
def hash_after(pts, info, zob, p, color):
    """The stones' hash after ``color`` plays the legal move ``p``, leaving the position as
    it is: the new stone's key and the keys of every chain it captures."""
    h = info[HASH]
    if p == PASS:
        return h
    h ^= zob[color - 1, p]
    w = info[WIDTH]
    opp = 3 - color
    key_row = opp - 1
    for head in neighbour_chains(pts, w, p, opp):
        if head < 0 or pts[LIBS, head] != 1:
            continue
        s = head
        while True:
            h ^= zob[key_row, s]
            s = pts[NEXT, s]
            if s == head:
                break
    return h
