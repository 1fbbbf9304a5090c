"""Features of a move for the learned move model (Coulom 2007, "Computing Elo Ratings of Move
Patterns in the Game of Go"): each legal move gets one small value per feature *group*; value 0
means "the feature is absent" and has a gamma of 1.

Groups (version :data:`FEATURE_VERSION`), all seen from the side to move:

=================  ========================================================================
``pattern``        the 3x3 neighbourhood: each of the 8 points empty, own stone, own stone in
                   atari, opponent stone, opponent in atari, or off the board (6 states, raw
                   code ``sum state_k * 6**k``); canonical under the 8 symmetries (the
                   smallest raw code of the 8 images, :func:`canonical_table`). Colours are
                   relative to the mover, so the code is the same for either colour.
``capture``        the move captures: 3 kinds (1: a captured chain touches an own chain in
                   atari, the capture saves it; 2: it captures the chain of the last move;
                   3: other) x 3 sizes (1, 2-3, 4+ stones captured), values 1..9.
``escape``         the move extends an own chain in atari to 2+ liberties: (the last move
                   touches the chain, i.e. the last move made the atari: 1-2; else 3-4) x
                   (chain of 1 stone, 2+ stones), plus 4 when it extends to two liberties
                   and the chain is still caught in a ladder (:mod:`mcgo.tactics.ladder`).
``self_atari``     the move leaves its own chain with one liberty and captures nothing:
                   1: a single stone, 2: two or more stones.
``atari``          the move takes an opponent chain to one liberty: 1 + 2*(a ko is open)
                   + (the chain has 2+ stones) + 4*(the atari starts a ladder that captures
                   it), values 1..8.
``last_distance``  distance to the last move, d = dx + dy + max(dx, dy) (Coulom's metric),
                   value min(d, 17) - 1 (1..16; the same point as 1); 0 after a pass or none.
``previous_distance``  the same to the move before the last.
``line``           where the point is seen from the nearest corner: its two lines a <= b
                   (1 for the 1st line), ``b`` capped at 6; 0 when a > 4 (the centre).
                   Values 1..18 in the order (1,1) (1,2) .. (1,6) (2,2) .. (4,6): the 3-4
                   and 4-4 points of the opening differ.
``pass``           1 for a pass, 2 for a pass answering a pass.
=================  ========================================================================

and, outside the key, the *spatial* patterns (:mod:`.spatial`): the shape around the move
at gridcular sizes 4 to 10 (12 to 72 points), canonical under the 8 symmetries and relative to
the mover; the model uses the largest one it knows (see :mod:`.movemodel`).

The features of one move are packed into one int64 *key* (:data:`SHIFTS`), the training
code's unit: moves of a position with equal keys are interchangeable.

>>> import mcgo
>>> board = mcgo.Board(19)
>>> for move in ["D4", "D5", "pass"]:
...     board.play(move)
>>> keys = position_keys(board, previous=board.point("D4"))
>>> values = unpack(keys[board.point("C5")])   # white's C5 (white to move) ataris nothing
>>> values["last_distance"], values["line"]       # C5: lines 3 and 5
(0, 14)
"""

import functools

import numpy as np

from ..board.kernels import (BOARDSIZE, COLOR, EMPTY, HEAD, KO_POINT, LAST_MOVE, LIBS, OFFBOARD,
                             PASS, SIZE, WIDTH, legal_moves, neighbour_chains, touches_chain)
from ..board.symmetry import SYMMETRIES, images
from ..jit import allocating_kernel, inline_kernel, kernel
from ..tactics.ladder import atari_starts_ladder, ladder_captures, new_ladder_space
from ..tactics.liberties import liberties_after, touches_atari

FEATURE_VERSION = 5

GROUPS = ("pattern", "capture", "escape", "self_atari", "atari", "last_distance",
          "previous_distance", "line", "pass")
NGROUPS = len(GROUPS)
PATTERN, CAPTURE, ESCAPE, SELF_ATARI, ATARI, LAST_DISTANCE, PREVIOUS_DISTANCE, LINE, PASS_G = range(NGROUPS)
# Values per group (the pattern group's are the raw codes, counted separately).
NVALUES = (0, 10, 9, 3, 9, 17, 17, 19, 3)
MAXVALUES = 19
# Bit positions of the groups in a key, and their widths.
SHIFTS = (0, 21, 25, 29, 31, 35, 40, 45, 50)
WIDTHS = (21, 4, 4, 2, 4, 5, 5, 5, 2)
LADDER_FLAG = 4     # added to an escape or an atari value when a ladder decides it

# States of a neighbour in the 3x3 code.
N_EMPTY, N_OWN, N_OWN_ATARI, N_OPP, N_OPP_ATARI, N_OFF = range(6)
NSTATES = 6
NCODES = NSTATES ** 8
DISTANCE_CAP = 17
LAST_LINE = 4       # the nearer line of a point beyond it: the centre, no line feature
LINE_CAP = 6        # the farther line is capped here

@functools.lru_cache(maxsize=None)
def canonical_table():
    """int32 array of :data:`NCODES`: the canonical code (smallest of the 8 symmetric images)
    of every raw 3x3 code. Neighbour ``k`` (0..7) is the k-th of the 3x3 grid in row-major
    order without the centre, so the board's symmetries of a 3x3 board move it."""
    grid = [i for i in range(9) if i != 4]        # neighbour k -> 3x3 grid index
    slot = {g: k for k, g in enumerate(grid)}
    codes = np.arange(NCODES, dtype=np.int64)
    digits = [(codes // NSTATES ** k) % NSTATES for k in range(8)]
    best = None
    table = images(3)
    for s in range(SYMMETRIES):
        image = np.zeros(NCODES, dtype=np.int64)
        for k in range(8):
            image += digits[k] * NSTATES ** slot[int(table[s][grid[k]])]
        best = image if best is None else np.minimum(best, image)
    out = best.astype(np.int32)
    out.setflags(write=False)
    return out


@inline_kernel
def _distance(p, q, w):
    """Coulom's distance d = dx + dy + max(dx, dy), as a feature value (0 if q is no point)."""
    if q <= 0:
        return 0
    dx = abs(p % w - q % w)
    dy = abs(p // w - q // w)
    d = max(dx + dy + max(dx, dy), 2)   # 0 when p refills the point q (its stone was taken)
    return min(d, DISTANCE_CAP) - 1


@inline_kernel
def line_value(p, w, size):
    """The ``line`` feature of the point ``p`` (see the module docstring)."""
    row = p // w - 1
    col = p % w - 1
    lr = min(row, size - 1 - row) + 1
    lc = min(col, size - 1 - col) + 1
    a = min(lr, lc)
    b = min(max(lr, lc), LINE_CAP)
    if a > LAST_LINE:
        return 0
    return (a - 1) * (LINE_CAP + 1) - (a - 1) * a // 2 + (b - a) + 1


@kernel
def pattern3_code(pts, w, p, color):
    """The raw 3x3 code of ``color`` playing at ``p``: the state of each of the 8 neighbours
    (empty, edge, own or opponent stone, each stone in atari or not), a digit in base
    ``NSTATES`` each (map it with :func:`canonical_table`)."""
    code = 0
    mult = 1
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy == 0 and dx == 0:
                continue
            q = p + dy * w + dx
            c = pts[COLOR, q]
            if c == EMPTY:
                state = N_EMPTY
            elif c == OFFBOARD:
                state = N_OFF
            else:
                atari = pts[LIBS, pts[HEAD, q]] == 1
                if c == color:
                    state = N_OWN_ATARI if atari else N_OWN
                else:
                    state = N_OPP_ATARI if atari else N_OPP
            code += state * mult
            mult *= NSTATES
    return code


@kernel
def move_values(pts, info, zob, ladder, p, color, last, previous, vals):
    """Write the feature values of ``color`` playing the legal move ``p`` into ``vals``
    (int32, :data:`NGROUPS`); ``vals[PATTERN]`` is the *raw* 3x3 code (map it with
    :func:`canonical_table`). ``last``/``previous``: the last two moves (PASS or -1: none);
    ``zob``, ``ladder``: the board's Zobrist keys and a ladder space for reading ladders
    (:func:`mcgo.tactics.ladder.new_ladder_space`)."""
    for g in range(NGROUPS):
        vals[g] = 0
    if p == PASS:
        vals[PASS_G] = 2 if last == PASS else 1
        return
    w = info[WIDTH]
    size = info[BOARDSIZE]
    opp = 3 - color
    vals[PATTERN] = pattern3_code(pts, w, p, color)
    # Captures, ataris and escapes, over the distinct neighbouring chains.
    captured = 0
    kind = 3
    escape = 0
    escaping = -1
    atari = 0
    ladder_atari = False
    for h in neighbour_chains(pts, w, p, opp):
        if h < 0:
            break
        libs = pts[LIBS, h]
        if libs == 1:
            captured += pts[SIZE, h]
            if touches_atari(pts, w, h, color):
                kind = 1
            elif kind > 2 and last > 0 and pts[HEAD, last] == h and pts[COLOR, last] == opp:
                kind = 2
        elif libs == 2:
            big = 1 if pts[SIZE, h] >= 2 else 0
            atari = max(atari, 1 + big)
            if not ladder_atari and atari_starts_ladder(pts, info, zob, ladder, h, p, color):
                ladder_atari = True
    for h in neighbour_chains(pts, w, p, color):
        if h < 0:
            break
        if pts[LIBS, h] == 1:
            by_last = last > 0 and touches_chain(pts, w, last, h)
            value = (1 if by_last else 3) + (1 if pts[SIZE, h] >= 2 else 0)
            if escape == 0 or value < escape:
                escape = value
                escaping = h
    if captured > 0:
        bucket = 0 if captured == 1 else (1 if captured <= 3 else 2)
        vals[CAPTURE] = (kind - 1) * 3 + bucket + 1
    libs_after, stones = liberties_after(pts, w, p, color)
    if escape > 0 and libs_after >= 2:
        if libs_after == 2 and captured == 0 and ladder_captures(pts, info, zob, ladder, escaping):
            escape += LADDER_FLAG
        vals[ESCAPE] = escape
    if libs_after < 2:
        vals[SELF_ATARI] = 1 if stones == 1 else 2
    if atari > 0:
        vals[ATARI] = atari + (2 if info[KO_POINT] != PASS else 0) + (LADDER_FLAG if ladder_atari else 0)
    vals[LAST_DISTANCE] = _distance(p, last, w)
    vals[PREVIOUS_DISTANCE] = _distance(p, previous, w)
    vals[LINE] = line_value(p, w, size)


@kernel
def pack(vals, canon):
    """The int64 key of the feature values ``vals`` (raw pattern code made canonical)."""
    key = np.int64(0)
    for g in range(NGROUPS):
        v = vals[g]
        if g == PATTERN:
            v = canon[v]
        key |= np.int64(v) << SHIFTS[g]
    return key


@kernel
def candidate_keys(pts, info, zob, ladder, color, previous, canon, moves, keys, vals):
    """Every legal move of ``color`` (pass last) into ``moves`` and its key into ``keys``;
    returns how many. ``vals``: int32 scratch of :data:`NGROUPS`."""
    n = legal_moves(pts, info, color, moves)
    moves[n] = PASS
    last = info[LAST_MOVE]
    for i in range(n + 1):
        move_values(pts, info, zob, ladder, moves[i], color, last, previous, vals)
        keys[i] = pack(vals, canon)
    return n + 1


def unpack(key):
    """The feature values of a key, as ``{group: value}``."""
    key = int(key)
    return {g: (key >> SHIFTS[i]) & ((1 << WIDTHS[i]) - 1) for i, g in enumerate(GROUPS)}


def unpack_column(keys, group):
    """The values of one group for an array of keys."""
    g = GROUPS.index(group) if isinstance(group, str) else group
    return ((keys >> SHIFTS[g]) & ((1 << WIDTHS[g]) - 1)).astype(np.int32)


def position_keys(board, color=None, previous=-1):
    """``{point: key}`` of every legal move (pass included) of a :class:`mcgo.Board`;
    ``previous`` is the move before the last one (-1: none)."""
    color = board.to_move if color is None else color
    n = board.size * board.size + 1
    moves = np.zeros(n, dtype=np.int32)
    keys = np.zeros(n, dtype=np.int64)
    n = candidate_keys(board.pts, board.info, board.zob, new_ladder_space(board.size), color,
                       previous, canonical_table(), moves, keys, np.zeros(NGROUPS, dtype=np.int32))
    return {int(moves[i]): int(keys[i]) for i in range(n)}


@allocating_kernel
def raw_code_of(pts, info, p, color):
    """The raw 3x3 code of ``p`` (for tests)."""
    vals = np.zeros(NGROUPS, dtype=np.int32)
    move_values(pts, info, np.zeros((2, pts.shape[1]), dtype=np.int64),
                new_ladder_space(info[BOARDSIZE]), p, color, -1, -1, vals)
    return vals[PATTERN]
