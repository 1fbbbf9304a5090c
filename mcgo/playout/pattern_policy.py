"""The pattern playout (thesis 8.4.4 and 9.5, second method), in this order of preference:

1. capture an opponent chain in atari, or save an own chain in atari by capturing or by
   extending when that gives it at least two liberties: the chains touching the last move,
   bigger chains first;
2. a MoGo 3x3 shape (``patterns.py``) on an empty point next to the last move;
3. a free point on the 3rd or 4th line in an empty area (the 5x5 box around it empty);
4. a uniformly random move, as in the random policy.

Self-atari of two or more stones is rejected in steps 2 and 4, except once in
``SELF_ATARI_KEEP_ONE_IN`` tries (nakade needs it). No step fills the mover's own true eye.
"""

from ..board.kernels import (BLACK, BOARDSIZE, COLOR, EMPTIES, EMPTY, HEAD, LAST_MOVE, LEGAL,
                             LIBS, NEMPTY, NEXT, PASS, SIZE, WHITE, WIDTH, legality)
from ..jit import kernel
from .common import (SELF_ATARI_KEEP_ONE_IN, is_self_atari, is_true_eye, liberties_after,
                     random_below, random_move)

FREE_AREA_TRIES = 2     # random empty points tried per move for step 3
FREE_AREA_RADIUS = 2    # the box of side 2r+1 around a free point must be empty
FREE_LINES_LOW = 2      # 0-based distance to the nearest edge: the 3rd line ...
FREE_LINES_HIGH = 3     # ... and the 4th


@kernel
def playable(pts, info, p, color):
    """Legal under simple ko and not a fill of the mover's own true eye."""
    return legality(pts, info, p, color) == LEGAL and not is_true_eye(pts, info[WIDTH], p, color)


@kernel
def liberty_of(pts, w, head):
    """The liberty of a chain in atari (its first empty neighbour)."""
    s = head
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if pts[COLOR, q] == EMPTY:
                return q
        s = pts[NEXT, s]
        if s == head:
            return PASS


@kernel
def save_move(pts, info, head, color):
    """A move that saves the own chain ``head`` (in atari): capture a neighbouring chain in
    atari, else extend at the liberty if that leaves two or more liberties; PASS if none."""
    w = info[WIDTH]
    opp = 3 - color
    s = head
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if pts[COLOR, q] == opp:
                h = pts[HEAD, q]
                if pts[LIBS, h] == 1:
                    lib = liberty_of(pts, w, h)
                    if legality(pts, info, lib, color) == LEGAL:
                        return lib
        s = pts[NEXT, s]
        if s == head:
            break
    lib = liberty_of(pts, w, head)
    if legality(pts, info, lib, color) == LEGAL:
        libs, _ = liberties_after(pts, w, lib, color)
        if libs >= 2:
            return lib
    return PASS


@kernel
def atari_move(pts, info, last, color):
    """Step 1: capture or save among the chains touching the last move, biggest first."""
    w = info[WIDTH]
    opp = 3 - color
    best = PASS
    best_size = 0
    for q in (last, last - 1, last + 1, last - w, last + w):
        c = pts[COLOR, q]
        if c != BLACK and c != WHITE:
            continue
        h = pts[HEAD, q]
        size = pts[SIZE, h]
        if pts[LIBS, h] != 1 or size <= best_size:
            continue
        if c == opp:
            move = liberty_of(pts, w, h)
            if legality(pts, info, move, color) != LEGAL:
                move = PASS
        else:
            move = save_move(pts, info, h, color)
        if move != PASS:
            best = move
            best_size = size
    return best


@kernel
def neighbourhood_code(pts, w, p):
    """The 16-bit code of the 8 neighbours of ``p`` (order of ``patterns.CODE_CELLS``)."""
    return (pts[COLOR, p + w - 1] | (pts[COLOR, p + w] << 2) | (pts[COLOR, p + w + 1] << 4)
            | (pts[COLOR, p - 1] << 6) | (pts[COLOR, p + 1] << 8)
            | (pts[COLOR, p - w - 1] << 10) | (pts[COLOR, p - w] << 12)
            | (pts[COLOR, p - w + 1] << 14))


@kernel
def pattern_move(pts, info, pat3, rng, last, color):
    """Step 2: a uniformly chosen empty neighbour of the last move that matches a shape."""
    w = info[WIDTH]
    chosen = PASS
    found = 0
    for q in (last + w - 1, last + w, last + w + 1, last - 1, last + 1,
              last - w - 1, last - w, last - w + 1):
        if pts[COLOR, q] != EMPTY or pat3[neighbourhood_code(pts, w, q)] == 0:
            continue
        if not playable(pts, info, q, color):
            continue
        if is_self_atari(pts, w, q, color) and random_below(rng, SELF_ATARI_KEEP_ONE_IN) != 0:
            continue
        found += 1
        if random_below(rng, found) == 0:
            chosen = q
    return chosen


@kernel
def free_area_move(pts, info, rng, color):
    """Step 3: a random empty point on the 3rd or 4th line whose surrounding box is empty."""
    n = info[NEMPTY]
    if n == 0:
        return PASS
    w = info[WIDTH]
    size = info[BOARDSIZE]
    for _ in range(FREE_AREA_TRIES):
        p = pts[EMPTIES, random_below(rng, n)]
        row = p // w - 1
        col = p % w - 1
        edge = min(min(row, col), min(size - 1 - row, size - 1 - col))
        if edge < FREE_LINES_LOW or edge > FREE_LINES_HIGH:
            continue
        free = True
        for dy in range(-FREE_AREA_RADIUS, FREE_AREA_RADIUS + 1):
            for dx in range(-FREE_AREA_RADIUS, FREE_AREA_RADIUS + 1):
                if pts[COLOR, p + dy * w + dx] != EMPTY:
                    free = False
                    break
            if not free:
                break
        if free and legality(pts, info, p, color) == LEGAL:
            return p
    return PASS


@kernel
def choose_move(pts, info, pat3, rng, color):
    """The pattern policy's move for ``color``; PASS when nothing is left to play."""
    last = info[LAST_MOVE]
    if last > 0:
        move = atari_move(pts, info, last, color)
        if move != PASS:
            return move
        move = pattern_move(pts, info, pat3, rng, last, color)
        if move != PASS:
            return move
    move = free_area_move(pts, info, rng, color)
    if move != PASS:
        return move
    return random_move(pts, info, rng, color, True)
