"""Located 3x3 patterns of seeds 002 and 003: window locations, their classes, canonical codes.

Both papers (seed 002 fig. 1, seed 003 section 3.3) take the 3x3 windows that lie wholly on the
board, so a window never holds an off-board point: its closeness to the edge is carried by its
*location class* instead. On 9x9 there are 7 x 7 = 49 windows and, "considering rotation and
mirror symmetries, 10 unique locations".

**Location class.** A window is named by its centre ``(row, col)``, ``1 <= row, col <= size - 2``.
Its distance to the edge along an axis is the number of lines between the window and the
nearer edge: ``d = min(row - 1, size - 2 - row)`` (0: the window touches the edge). With
``a = min(d_row, cap)`` and ``b = min(d_col, cap)`` sorted so that ``a <= b``, the class is
``b * (b + 1) // 2 + a``: ``(cap + 1) * (cap + 2) // 2`` classes. On 9x9 the distances are 0..3,
so ``cap = 3`` gives exactly the paper's 10 classes, one per orbit of the 49 windows under the
8 symmetries. On 19x19 (distances 0..8) the classes are the distance-to-edge classes with the
distance capped at :data:`DEFAULT_CAP` (3): a window whose centre is on the 5th line or further
from an edge is "far" from that edge; ``cap = 8`` keeps all 45 orbits apart (measured as the
alternative, see benchmarks).

The classes with the default cap, on every size (a window at distance ``d`` covers lines
``d + 1`` to ``d + 3`` from that edge; ``3+``: the 5th line or further, 19x19 only beyond 3)::

    class  0      1      2      3      4      5      6       7       8       9
    (a, b) (0,0)  (0,1)  (1,1)  (0,2)  (1,2)  (2,2)  (0,3+)  (1,3+)  (2,3+)  (3+,3+)

**Canonical frame.** Counts are kept in the frame of the class's canonical window: the nearer
edges at row 0 and column 0 and the axis nearer the edge as the row axis. The board symmetries
``s`` (:mod:`mcgo.board.symmetry`) that carry a window's centre to such a canonical place are
its *frames*: one for a window off the diagonals and middles, two or eight where the window
is symmetric (on the diagonal, on the middle line, at the centre, or far from both edges
once capped). An occurrence is split evenly over its frames (weight ``1 / frames``), so the
tables are exactly invariant under the 8 symmetries and every occurrence counts once in all.
Within a frame, window cell ``i`` (``i = 3 * (dr + 1) + (dc + 1)``, ``dr`` along rows) lands on
canonical cell ``images(3)[s, i]``: the board symmetry acts on a window like on a 3x3 board.

**Pattern code.** ``sum(colour[cell] * 3 ** canonical_cell)`` with colours 0 empty, 1 black,
2 white (mcgo's ``EMPTY``, ``BLACK``, ``WHITE``): ``3 ** 9 = 19683`` codes.

>>> classes, nframes, frames = window_tables(9, 3)
>>> len(set(classes.tolist())), int(nframes.sum())   # 10 classes; frames of all 49 windows
(10, 80)
"""

import functools

import numpy as np

from ..board.kernels import BLACK, EMPTY, WHITE
from ..board.symmetry import SYMMETRIES, images
from ..jit import allocating_kernel, kernel

CELLS = 9
CODES = 3 ** CELLS
DEFAULT_CAP = 3

assert (EMPTY, BLACK, WHITE) == (0, 1, 2)   # the pattern code counts colours in base 3


def edge_distance(x, size):
    """Lines between the window centred on line ``x`` (0-based) and the nearer edge."""
    return min(x - 1, size - 2 - x)


def location_class(row, col, size, cap=DEFAULT_CAP):
    """The class of the window centred on ``(row, col)`` (see the module docstring).

    >>> [location_class(1, c, 9) for c in range(1, 8)]     # the bottom windows of 9x9
    [0, 1, 3, 6, 3, 1, 0]
    >>> location_class(4, 4, 9), location_class(9, 9, 19), location_class(9, 9, 19, cap=8)
    (9, 9, 44)
    """
    a = min(edge_distance(row, size), cap)
    b = min(edge_distance(col, size), cap)
    a, b = min(a, b), max(a, b)
    return b * (b + 1) // 2 + a


def class_count(cap=DEFAULT_CAP):
    return (cap + 1) * (cap + 2) // 2


def _canonical(row, col, size, cap):
    """True when a window centred on ``(row, col)`` is in its class's canonical frame."""
    dr, dc = edge_distance(row, size), edge_distance(col, size)
    near_rows = dr >= cap or row - 1 <= size - 2 - row     # nearer edge is row 0 (or far)
    near_cols = dc >= cap or col - 1 <= size - 2 - col
    return near_rows and near_cols and min(dr, cap) <= min(dc, cap)


@functools.lru_cache(maxsize=None)
def window_tables(size, cap=DEFAULT_CAP):
    """``(classes, nframes, frames)`` of the ``(size - 2) ** 2`` windows, window ``w`` centred
    on ``(1 + w // (size - 2), 1 + w % (size - 2))``: its class, its number of frames and the
    symmetries that are its frames (``frames[w, :nframes[w]]``)."""
    if size < 3:
        raise ValueError(f"a {size}x{size} board has no 3x3 window")
    n = size - 2
    classes = np.empty(n * n, dtype=np.int32)
    nframes = np.zeros(n * n, dtype=np.int32)
    frames = np.full((n * n, SYMMETRIES), -1, dtype=np.int32)
    table = images(size)
    for w in range(n * n):
        row, col = 1 + w // n, 1 + w % n
        classes[w] = location_class(row, col, size, cap)
        for s in range(SYMMETRIES):
            if _canonical(*divmod(int(table[s, row * size + col]), size), size, cap):
                frames[w, nframes[w]] = s
                nframes[w] += 1
    for table in (classes, nframes, frames):
        table.setflags(write=False)
    return classes, nframes, frames


@functools.lru_cache(maxsize=None)
def cell_maps():
    """int32 (8, 9): ``cell_maps()[s, i]``, the canonical cell of window cell ``i`` in frame ``s``."""
    out = np.ascontiguousarray(images(3), dtype=np.int32)
    out.setflags(write=False)
    return out


POW3 = 3 ** np.arange(CELLS, dtype=np.int32)
POW3.setflags(write=False)


def pattern_code(cells, frame=0):
    """The code of window cells ``cells`` (9 colours, cell ``3 * (dr + 1) + (dc + 1)``) seen
    in ``frame``.

    >>> pattern_code([1, 0, 0, 0, 0, 0, 0, 0, 0]), pattern_code([1, 0, 0, 0, 0, 0, 0, 0, 0], 1)
    (1, 9)
    """
    perm = cell_maps()[frame]
    return int(sum(int(c) * 3 ** int(perm[i]) for i, c in enumerate(cells)))


def decode(code):
    """The 9 colours of a canonical code (the inverse of :func:`pattern_code` in frame 0)."""
    return [(code // 3 ** k) % 3 for k in range(CELLS)]


# ------------------------------------------------------------------------------------ kernels
@kernel
def window_code(colors, row, col, perm, pow3):
    """Code of the window centred on ``(row, col)`` of ``colors`` ((size, size) int8) with the
    cell map ``perm`` (one row of :func:`cell_maps`)."""
    code = 0
    for dr in range(3):
        for dc in range(3):
            code += colors[row - 1 + dr, col - 1 + dc] * pow3[perm[3 * dr + dc]]
    return code


@kernel
def accumulate_position(colors, owner, swap, centre_only, classes, nframes, frames, perm, pow3,
                        nb, nw, occ, bedge, wedge, outcome, won, lost):
    """Add one position to the tables.

    ``colors`` (size, size) int8 (0/1/2), ``owner`` (size, size) int8, the final owner of each
    point (+1 black, -1 white, 0 neither), ``outcome`` +1 / -1 / 0 (black won / lost / draw).
    Seed 003: ``nb[class, code, cell]`` (``nw``) gets the weight of each occurrence whose cell
    ends black (white). Seed 002: ``occ[class, code]`` gets the weight, ``bedge`` (``wedge``)
    when black (white) owns more of the window's 9 points at the end (with ``centre_only``:
    owns the window's centre), ``won`` (``lost``) when
    black won (lost). With ``swap`` the seed 002 tables see the position with the colours of
    the stones, of the owner and of the outcome exchanged (seed 002 shows every position with
    the side to move as black); the seed 003 tables never swap.
    """
    n = colors.shape[0] - 2
    sign = -1 if swap else 1
    for w in range(n * n):
        row = 1 + w // n
        col = 1 + w % n
        cls = classes[w]
        k = nframes[w]
        weight = 1.0 / k
        balance = 0
        if centre_only:
            balance = owner[row, col]
        else:
            for dr in range(3):
                for dc in range(3):
                    balance += owner[row - 1 + dr, col - 1 + dc]
        balance *= sign
        for f in range(k):
            s = frames[w, f]
            code = 0
            swapped = 0
            for dr in range(3):
                for dc in range(3):
                    c = colors[row - 1 + dr, col - 1 + dc]
                    cell = perm[s, 3 * dr + dc]
                    code += c * pow3[cell]
                    swapped += (3 - c if c != 0 else 0) * pow3[cell]
            # The seed 003 counts need the whole code first: a second pass over the cells.
            for dr in range(3):
                for dc in range(3):
                    o = owner[row - 1 + dr, col - 1 + dc]
                    cell = perm[s, 3 * dr + dc]
                    if o > 0:
                        nb[cls, code, cell] += weight
                    elif o < 0:
                        nw[cls, code, cell] += weight
            located = swapped if swap else code
            occ[cls, located] += weight
            if balance > 0:
                bedge[cls, located] += weight
            elif balance < 0:
                wedge[cls, located] += weight
            if outcome * sign > 0:
                won[cls, located] += weight
            elif outcome * sign < 0:
                lost[cls, located] += weight


@allocating_kernel
def propensity_plane(colors, s_table, classes, nframes, frames, perm, pow3):
    """Seed 003's S_ij of every point: the mean over the windows covering the point of
    ``s_table[class, code, cell]`` (each window's value the mean over its frames, which the
    symmetric tables make equal). (size, size) float64; every point is covered by 1 to 9
    windows."""
    size = colors.shape[0]
    n = size - 2
    total = np.zeros((size, size))
    count = np.zeros((size, size))
    for w in range(n * n):
        row = 1 + w // n
        col = 1 + w % n
        cls = classes[w]
        k = nframes[w]
        for f in range(k):
            s = frames[w, f]
            code = window_code(colors, row, col, perm[s], pow3)
            for dr in range(3):
                for dc in range(3):
                    total[row - 1 + dr, col - 1 + dc] += s_table[cls, code, perm[s, 3 * dr + dc]] / k
        for dr in range(3):
            for dc in range(3):
                count[row - 1 + dr, col - 1 + dc] += 1.0
    return total / count


@allocating_kernel
def centre_plane(colors, value, classes, nframes, frames, perm, pow3):
    """A per-pattern value (``value[class, code]``, seed 002's stab or imp) put on the centre
    of every window, the mean over its frames: seed 002's weight of each point not on the
    edge ((size, size) float64, 0 on the edge)."""
    size = colors.shape[0]
    n = size - 2
    out = np.zeros((size, size))
    for w in range(n * n):
        row = 1 + w // n
        col = 1 + w % n
        k = nframes[w]
        for f in range(k):
            code = window_code(colors, row, col, perm[frames[w, f]], pow3)
            out[row, col] += value[classes[w], code] / k
    return out
