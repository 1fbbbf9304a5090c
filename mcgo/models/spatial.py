"""Spatial patterns: the shape around a move at several sizes, as Stern, Herbrich and Graepel
(2006) and Pachi's spatial dictionary use them, hashed for the move model.

A pattern of *size* ``d`` is the content of every point at gridcular distance 1..d of the
move, the distance of an offset ``(dy, dx)`` being ``|dx| + |dy| + max(|dx|, |dy|)``
(Coulom's and Pachi's metric; the 3x3 neighbours are at 2 and 3). The sizes are
:data:`DISTANCES` (4 to 10: 12 to 72 points), nested: each is the one before plus a ring.
A point is empty, the mover's stone, the opponent's stone or off the board (:data:`EMPTY`,
:data:`OWN`, :data:`OPP`, :data:`OFF`), so the colours swap with the side to move.

A pattern is known by a 64-bit Zobrist hash: the XOR of a random key for each (point,
content), and a salt for its size. Its *canonical* hash is the smallest of the hashes of its 8
rotations and reflections. Training keeps the patterns played often enough (by canonical
hash) and stores each one's *content* (the 2-bit states of its points, as on the board where
it was seen); the scorer hashes the board as it stands and finds it among the hashes of all 8
orientations of the kept patterns (:func:`orbit_hashes`), so at play it hashes once.

Kept patterns are nested as the sizes are: a pattern played ``n`` times contains a smaller
pattern played at least ``n`` times. So the largest known pattern of a move is found by
growing the size until one is unknown (:func:`largest_known`).

>>> import mcgo
>>> board = mcgo.Board(19)
>>> for move in ["D4", "Q16", "C3"]:
...     board.play(move)
>>> p, white = board.point("D3"), 2
>>> hashes = canonical_hashes(board.pts, board.info, p, white)
>>> other = mcgo.Board(19)                  # the same shape, mirrored to the other corner
>>> for move in ["Q4", "D16", "R3"]:
...     other.play(move)
>>> bool((canonical_hashes(other.pts, other.info, other.point("Q3"), white) == hashes).all())
True
"""

import numpy as np

from ..board.kernels import BOARDSIZE, COLOR, EMPTY as EMPTY_POINT, WIDTH
from ..board.symmetry import SYMMETRIES, images
from ..jit import allocating_kernel, kernel

DISTANCES = (4, 5, 6, 7, 8, 9, 10)      # the pattern sizes (gridcular distance)
NSIZES = len(DISTANCES)
RADIUS = 5                              # the farthest point of the largest size: (5, 0)
EMPTY, OWN, OPP, OFF = range(4)         # a point's content, seen from the side to move
WORDS = 3                               # int64 words of a content (2 bits a point)
POINTS_PER_WORD = 32
ZOBRIST_SEED = 20061101                 # fixed: the hashes are part of the model files
NO_KEY = -1                             # an empty slot of a hash table
HASH_MULTIPLIER = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64 (Fibonacci hashing)


def gridcular(dy, dx):
    """The gridcular distance of an offset."""
    a, b = abs(dy), abs(dx)
    return a + b + max(a, b)


def _offsets():
    """(dy, dx) int64 arrays (8, points) of every point of the largest size under symmetry s
    (rows ordered by distance, so each size is a prefix), the points per size, and PERM[s, k]:
    the index of symmetry s's k-th offset among the identity's."""
    top = DISTANCES[-1]
    base = sorted(((dy, dx) for dy in range(-RADIUS, RADIUS + 1)
                   for dx in range(-RADIUS, RADIUS + 1) if 0 < gridcular(dy, dx) <= top),
                  key=lambda o: (gridcular(*o), o))
    npoints = np.array([sum(gridcular(*o) <= d for o in base) for d in DISTANCES], dtype=np.int64)
    side = 2 * RADIUS + 1
    table = images(side)
    index = {o: k for k, o in enumerate(base)}
    dy = np.zeros((SYMMETRIES, len(base)), dtype=np.int64)
    dx = np.zeros((SYMMETRIES, len(base)), dtype=np.int64)
    perm = np.zeros((SYMMETRIES, len(base)), dtype=np.int64)
    for s in range(SYMMETRIES):
        for k, (a, b) in enumerate(base):
            row, col = divmod(int(table[s][(a + RADIUS) * side + b + RADIUS]), side)
            dy[s, k], dx[s, k] = row - RADIUS, col - RADIUS
            perm[s, k] = index[(int(dy[s, k]), int(dx[s, k]))]
    return dy, dx, npoints, perm


DY, DX, NPOINTS, PERM = _offsets()
MAX_POINTS = int(NPOINTS[-1])


def _zobrist():
    rng = np.random.default_rng(ZOBRIST_SEED)
    keys = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=(MAX_POINTS, 4),
                        dtype=np.int64)
    salts = rng.integers(np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=NSIZES,
                         dtype=np.int64)
    return keys, salts


ZOBRIST, SALT = _zobrist()


# ----------------------------------------------------------------------------- on the board
@kernel
def _content(pts, w, size, row, col, color):
    """The content of the point (row, col) for ``color`` (off the board: OFF)."""
    if row < 1 or row > size or col < 1 or col > size:
        return OFF
    c = pts[COLOR, row * w + col]
    if c == EMPTY_POINT:
        return EMPTY
    return OWN if c == color else OPP


@kernel
def _table_index(keys, code):
    """The slot of ``code`` in an open-addressing table, or -1."""
    mask = keys.shape[0] - 1
    i = ((code * HASH_MULTIPLIER) >> 20) & mask
    while True:
        k = keys[i]
        if k == code:
            return i
        if k == NO_KEY:
            return -1
        i = (i + 1) & mask


@kernel
def largest_known(pts, info, p, color, keys, values):
    """The value (``values`` of the table ``keys``, the hashes of every orientation of the
    kept patterns) of the largest kept pattern around ``color`` playing ``p``, and its size
    index; (0.0, -1) when none is kept. Hashes the board as it stands (symmetry 0)."""
    w = info[WIDTH]
    size = info[BOARDSIZE]
    row = p // w
    col = p % w
    h = np.int64(0)
    k = 0
    best = 0.0
    found = -1
    for j in range(NSIZES):
        while k < NPOINTS[j]:
            h ^= ZOBRIST[k, _content(pts, w, size, row + DY[0, k], col + DX[0, k], color)]
            k += 1
        slot = _table_index(keys, h ^ SALT[j])
        if slot < 0:
            break
        best = values[slot]
        found = j
    return best, found


@kernel
def canonical_into(pts, info, p, color, out, stop_keys, h):
    """The canonical hash of every size of the pattern around ``color`` playing ``p`` into
    ``out`` (int64, :data:`NSIZES`). With a non-empty table ``stop_keys`` (canonical hashes
    of kept patterns), stops after the first size not in it and returns how many sizes were
    kept; else fills every size and returns NSIZES. ``h``: int64 scratch of 8."""
    w = info[WIDTH]
    size = info[BOARDSIZE]
    row = p // w
    col = p % w
    for s in range(SYMMETRIES):
        h[s] = 0
    k = 0
    for j in range(NSIZES):
        while k < NPOINTS[j]:
            for s in range(SYMMETRIES):
                h[s] ^= ZOBRIST[k, _content(pts, w, size, row + DY[s, k], col + DX[s, k], color)]
            k += 1
        best = h[0] ^ SALT[j]
        for s in range(1, SYMMETRIES):
            best = min(best, h[s] ^ SALT[j])
        out[j] = best
        if stop_keys.shape[0] > 1 and _table_index(stop_keys, out[j]) < 0:
            return j
    return NSIZES


@kernel
def content_into(pts, info, p, color, out):
    """The content of the largest pattern around ``color`` playing ``p``, as on the board
    (symmetry 0), into ``out`` (int64, :data:`WORDS`): point k's 2 bits at bit 2 (k mod 32)
    of word k // 32."""
    w = info[WIDTH]
    size = info[BOARDSIZE]
    row = p // w
    col = p % w
    for i in range(WORDS):
        out[i] = 0
    for k in range(MAX_POINTS):
        state = _content(pts, w, size, row + DY[0, k], col + DX[0, k], color)
        out[k // POINTS_PER_WORD] |= np.int64(state) << (2 * (k % POINTS_PER_WORD))


@allocating_kernel
def canonical_hashes(pts, info, p, color):
    """The canonical hash of each size around ``color`` playing ``p`` (int64, NSIZES)."""
    out = np.zeros(NSIZES, dtype=np.int64)
    canonical_into(pts, info, p, color, out, np.full(1, NO_KEY, dtype=np.int64),
                   np.zeros(SYMMETRIES, dtype=np.int64))
    return out


# ----------------------------------------------------------------------------- stored patterns
@allocating_kernel
def orbit_hashes(contents, sizes):
    """int64 (n, 8): the hash of each stored pattern (``contents`` (n, WORDS), ``sizes``: size
    index) in each of the 8 orientations, as :func:`largest_known` meets them on a board."""
    n = contents.shape[0]
    out = np.zeros((n, SYMMETRIES), dtype=np.int64)
    for i in range(n):
        j = sizes[i]
        for s in range(SYMMETRIES):
            h = np.int64(0)
            for k in range(NPOINTS[j]):
                m = PERM[s, k]
                state = (contents[i, m // POINTS_PER_WORD] >> (2 * (m % POINTS_PER_WORD))) & 3
                h ^= ZOBRIST[k, state]
            out[i, s] = h ^ SALT[j]
    return out


@allocating_kernel
def hash_table(codes, values):
    """An open-addressing table (keys, values) of ``codes`` -> ``values`` (a code met twice
    keeps its first value), at most half full. An empty table has one NO_KEY slot."""
    slots = 1
    while slots < 2 * codes.shape[0]:
        slots *= 2
    keys = np.full(max(slots, 1), NO_KEY, dtype=np.int64)
    out = np.zeros(max(slots, 1), dtype=np.float64)
    mask = keys.shape[0] - 1
    for j in range(codes.shape[0]):
        code = codes[j]
        i = ((code * HASH_MULTIPLIER) >> 20) & mask
        while keys[i] != NO_KEY and keys[i] != code:
            i = (i + 1) & mask
        if keys[i] == NO_KEY:
            keys[i] = code
            out[i] = values[j]
    return keys, out


def truncate(content, size_index):
    """A content (WORDS int64) with the points beyond size ``size_index`` cleared."""
    out = np.array(content, dtype=np.int64).copy()
    n = int(NPOINTS[size_index])
    for i in range(WORDS):
        first = i * POINTS_PER_WORD
        keep = min(max(n - first, 0), POINTS_PER_WORD)
        if keep < POINTS_PER_WORD:
            out[i] &= np.int64((1 << (2 * keep)) - 1) if keep else np.int64(0)
    return out


def play_table(contents, sizes, log_gammas):
    """The scorer's table of stored patterns: every orientation's hash -> log-gamma."""
    contents = np.asarray(contents, dtype=np.int64).reshape(-1, WORDS)
    sizes = np.asarray(sizes, dtype=np.int64)
    if len(sizes) == 0:
        return np.full(1, NO_KEY, dtype=np.int64), np.zeros(1)
    orbits = orbit_hashes(contents, sizes)
    values = np.repeat(np.asarray(log_gammas, dtype=np.float64), SYMMETRIES)
    return hash_table(orbits.ravel(), values)


# ----------------------------------------------------------------------------- training rows
@kernel
def candidate_spatial(pts, info, color, moves, n, keys, values, out, hashes, h):
    """For training: ``out[i]`` = the value (``values``, a float that is an index + 1) of the
    largest kept pattern, by canonical hash in the table ``keys``, around each of the ``n``
    candidates ``moves`` (0 for pass or none kept). ``hashes``: int64 scratch of NSIZES,
    ``h``: of 8."""
    for i in range(n):
        out[i] = 0
        p = moves[i]
        if p <= 0 or keys.shape[0] <= 1:
            continue
        kept = canonical_into(pts, info, p, color, hashes, keys, h)
        if kept > 0:
            out[i] = np.int32(values[_table_index(keys, hashes[kept - 1])])
