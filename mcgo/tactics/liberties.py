"""Liberties: of a chain on the board, and of the chain a move would make.

The board keeps every chain's liberty *count* at its head (``pts[LIBS, head]``); the kernels
here find the liberty *points*, and count the liberties a move would leave, without playing it.
"""

from ..board.kernels import (BLACK, COLOR, EMPTY, HEAD, LEGAL, LIBS, NEXT, PASS, SIZE, WHITE,
                             WIDTH, legality, touches_chain)
from ..jit import inline_kernel, kernel


@kernel
def first_liberty(pts, w, head):
    """The first empty neighbour of the chain ``head`` along its stone list: *the* liberty of
    a chain in atari. PASS for a chain without liberties."""
    s = head
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if pts[COLOR, q] == EMPTY:
                return q
        s = pts[NEXT, s]
        if s == head:
            return PASS


@kernel
def touches_atari(pts, w, head, color):
    """True when a stone of the chain ``head`` touches a chain of ``color`` in atari."""
    s = head
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if pts[COLOR, q] == color and pts[LIBS, pts[HEAD, q]] == 1:
                return True
        s = pts[NEXT, s]
        if s == head:
            return False


@inline_kernel
def capture_of(pts, info, head, color):
    """The move of ``color`` that takes the chain ``head`` in atari: its liberty, or PASS when
    that is not a legal move (a ko, or a suicide)."""
    lib = first_liberty(pts, info[WIDTH], head)
    return lib if legality(pts, info, lib, color) == LEGAL else PASS


@kernel
def capture_touching(pts, info, head, color):
    """A legal move of ``color`` that takes a chain in atari touching the chain ``head`` (the
    liberty of the first such chain along ``head``'s stone list whose capture is legal), or
    PASS: the first way to save ``head`` when it is short of liberties."""
    w = info[WIDTH]
    opp = 3 - color
    s = head
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if pts[COLOR, q] == opp and pts[LIBS, pts[HEAD, q]] == 1:
                move = capture_of(pts, info, pts[HEAD, q], color)
                if move != PASS:
                    return move
        s = pts[NEXT, s]
        if s == head:
            return PASS


@inline_kernel
def chains_near(pts, w, centre, liberties):
    """The distinct chains with exactly ``liberties`` liberties that have a stone at or next
    to the point ``centre``, biggest first (among equal sizes in the order ``centre``, west,
    east, south, north): a tuple of 5 heads, PASS after the last one. The order in which the
    answers to the last move try the chains its stone touches."""
    h0 = PASS
    h1 = PASS
    h2 = PASS
    h3 = PASS
    h4 = PASS
    for q in (centre, centre - 1, centre + 1, centre - w, centre + w):
        c = pts[COLOR, q]
        if c != BLACK and c != WHITE:
            continue
        h = pts[HEAD, q]
        if pts[LIBS, h] != liberties or h == h0 or h == h1 or h == h2 or h == h3:
            continue
        # Append h after the chains found so far, then move it up past every smaller one
        # (PASS, the point 0, has size 0: the free slots stay last).
        if h0 == PASS:
            h0 = h
        elif h1 == PASS:
            h1 = h
        elif h2 == PASS:
            h2 = h
        elif h3 == PASS:
            h3 = h
        else:
            h4 = h
        if pts[SIZE, h4] > pts[SIZE, h3]:
            h3, h4 = h4, h3
        if pts[SIZE, h3] > pts[SIZE, h2]:
            h2, h3 = h3, h2
        if pts[SIZE, h2] > pts[SIZE, h1]:
            h1, h2 = h2, h1
        if pts[SIZE, h1] > pts[SIZE, h0]:
            h0, h1 = h1, h0
    return (h0, h1, h2, h3, h4)


@kernel
def extension_liberties(pts, w, p, color, taken):
    """Liberties, counted up to 3, of the chain ``color`` would make by playing at ``p`` if
    the point ``taken`` were also occupied (an opponent's atari there: PASS for none). A
    move that captures counts as 3. The ladder reader's test of whether an extension can
    still be chased."""
    opp = 3 - color
    first = -1
    second = -1
    n = 0
    for q in (p - 1, p + 1, p - w, p + w):
        c = pts[COLOR, q]
        if c == EMPTY:
            if q == taken or q == first or q == second:
                continue
            if n == 2:
                return 3
            if n == 0:
                first = q
            else:
                second = q
            n += 1
        elif c == opp and pts[LIBS, pts[HEAD, q]] == 1:
            return 3
    for q in (p - 1, p + 1, p - w, p + w):
        if pts[COLOR, q] != color:
            continue
        h = pts[HEAD, q]
        # Its liberties other than p (one of them) and taken are three already: no walk.
        shared = 1 if taken != PASS and touches_chain(pts, w, taken, h) else 0
        if pts[LIBS, h] - 1 - shared >= 3:
            return 3
        s = h
        while True:
            for r in (s - 1, s + 1, s - w, s + w):
                if r == p or r == taken or r == first or r == second or pts[COLOR, r] != EMPTY:
                    continue
                if n == 2:
                    return 3
                if n == 0:
                    first = r
                else:
                    second = r
                n += 1
            s = pts[NEXT, s]
            if s == h:
                break
    return n


@kernel
def two_liberties(pts, w, head):
    """The first two distinct liberties of the chain ``head`` along its stone list (PASS
    for each one it lacks): *the* liberties of a chain with two."""
    first = PASS
    s = head
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if pts[COLOR, q] == EMPTY:
                if first == PASS:
                    first = q
                elif q != first:
                    return first, q
        s = pts[NEXT, s]
        if s == head:
            return first, PASS


@kernel
def chain_liberties(pts, w, head, out):
    """Write the distinct liberties of the chain ``head`` into ``out`` (int32, room for
    ``pts[LIBS, head]`` points, in the order met along the stone list); returns how many.
    Reads the position only (no scratch rows), so any thread may call it on a shared one."""
    n = 0
    s = head
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if pts[COLOR, q] != EMPTY:
                continue
            seen = False
            for i in range(n):
                if out[i] == q:
                    seen = True
                    break
            if not seen:
                out[n] = q
                n += 1
        s = pts[NEXT, s]
        if s == head:
            return n


@kernel
def liberties_after(pts, w, p, color):
    """Liberties, counted up to 2, of the chain ``color`` would make by playing the legal
    move ``p``, and a bound of that chain's size (exact up to 2). A capture counts as 2 liberties."""
    opp = 3 - color
    lib1 = -1
    stones = 1
    for q in (p - 1, p + 1, p - w, p + w):
        c = pts[COLOR, q]
        if c == EMPTY:
            if lib1 < 0:
                lib1 = q
            elif q != lib1:
                return 2, stones
        elif c == opp and pts[LIBS, pts[HEAD, q]] == 1:
            return 2, stones
    for q in (p - 1, p + 1, p - w, p + w):
        if pts[COLOR, q] != color:
            continue
        h = pts[HEAD, q]
        libs = pts[LIBS, h]
        if libs >= 3:
            return 2, stones
        stones += pts[SIZE, h]  # a chain touching p twice counts twice: only "2 or more" matters
        if libs == 2:
            # The chain's liberty other than p.
            s = h
            while True:
                for r in (s - 1, s + 1, s - w, s + w):
                    if r != p and pts[COLOR, r] == EMPTY:
                        if lib1 < 0:
                            lib1 = r
                        elif r != lib1:
                            return 2, stones
                s = pts[NEXT, s]
                if s == h:
                    break
    return (1 if lib1 >= 0 else 0), stones
