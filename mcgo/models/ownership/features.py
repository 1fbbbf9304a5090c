"""The inputs of seed 003's DAG-RNN (Wu & Baldi 2006, section 3.3, Table 1), one vector a point.

``features(board, propensity)`` is a float32 array ``(size, size, feature_count(radius))``,
``[row, col, feature]`` with row 0 at the bottom; colours are absolute (black features, white
features), as the paper's output is P(black owns). In the order of :func:`feature_names`:

* ``black``, ``white``, ``empty``: the stone type (one-hot).
* ``influence_{black,white}_{exact,stringent}``: Chen's influence of each colour under the
  paper's two propagation rules, squashed to [0, 1) (:mod:`.influence`).
* ``propensity``: the caller's plane (seed 003's 3x3 statistics,
  :meth:`mcgo.models.seedstats.SeedStats.propensity`, in [-1, 1]), copied.
* ``chain_eyes``, ``chain_liberties_1`` .. ``_4`` (Table 1's Neye, N1st .. N4th): of the
  point's chain, all 0 on an empty point. Eyes: the distinct empty points next to the chain
  that are true eyes of its colour (:func:`mcgo.tactics.eyes.is_true_eye`). Order-``k``
  liberties (van der Werf): the empty points at distance exactly ``k`` from the chain, walking
  through empty points only; so order 1 is the usual liberties and order ``k`` "the liberties
  of the order ``k - 1`` liberties" that are not already of a lower order.
* ``opponent{1,2}_{black,white,liberties,eyes}`` (O1st, O2nd): the weakest and second weakest
  chains next to the point's chain of the other colour (weaker: fewer true eyes, then fewer
  liberties; the same chain is never counted twice, two chains as weak fill both slots). On an
  empty point: the chains of either colour next to the point. The colour flags of a slot are
  the fractions of black and of white among the candidate chains exactly as weak as the slot's,
  so a tie between colours is broken the same way on every rotated or colour-swapped board
  (0.5 / 0.5); absent slots are all 0.
* for each ring of the neighbourhood, ``ring_A_B_{black,white,empty,offboard}`` (fractions of
  the ring's points) and ``ring_A_B_{propensity,influence_...}`` (means over its points on the
  board): the paper's "fixed number of surrounding locations" as summaries that stay
  equivariant under the 8 symmetries of the board. The neighbourhood is the points at Manhattan
  distance 1 to ``radius``; ring ``(A, B)`` (``A >= B``) is the orbit of the offset ``(A, B)``
  under the symmetries: ``(1, 0)`` the 4 orthogonal neighbours, ``(1, 1)`` the 4 diagonal ones,
  ``(2, 0)`` the 4 points two steps straight away, ``(2, 1)`` 8 knight's moves, ...; rings are
  ordered by distance (:func:`rings`).

Counts become features in [0, 1): liberties of order ``k`` as ``n / (n + LIBERTY_SCALE * k)``
(a lone stone on an open board: 0.5 at every order, its order-``k`` set having ``4k`` points),
eyes as ``min(n, EYE_CAP) / EYE_CAP`` (2 eyes: alive).

An empty point has no chain (Table 1's ``G_ij`` is "the maximal set of *stones* of the same
color that are connected to it"), hence its zeros; its surroundings are in the rings and its
O1st/O2nd.

Equivariance is exact: every count and influence sum is computed exactly, and the values are
rounded to float32 before they are summed in float64 for the ring means, where a sum of a few
float32 values is exact (unless they differ by more than 2**26 in magnitude), so a rotated
board visiting the points in another order gets the same bits.

The engine calls the kernel :func:`fill_features` with a :func:`workspace` it keeps (no
allocation, no Python); :func:`features` and :func:`features_of_arrays` wrap it.

>>> import numpy as np
>>> import mcgo
>>> board = mcgo.Board(9)
>>> for move in ("E5", "E6", "D5"):
...     board.play(move)
>>> x = features(board, np.zeros((9, 9)))
>>> x.shape == (9, 9, feature_count(DEFAULT_RADIUS)) == (9, 9, 48)
True
>>> names = feature_names(DEFAULT_RADIUS)
>>> e5 = {name: round(float(v), 4) for name, v in zip(names, x[4, 4])}
>>> e5["black"], e5["chain_liberties_1"]          # 5 liberties: 5 / (5 + 4)
(1.0, 0.5556)
>>> e5["opponent1_white"], e5["opponent1_liberties"]  # E6: 3 liberties, 3 / (3 + 4)
(1.0, 0.4286)
>>> e5["ring_1_0_black"], e5["ring_1_0_white"]    # D5 and E6 among the 4 neighbours
(0.25, 0.25)
"""

import numpy as np

from ...board.kernels import BLACK, BOARDSIZE, COLOR, EMPTY, HEAD, NEXT, WHITE
from ...jit import inline_kernel, kernel
from ...tactics.geometry import STONES_STOP, walk
from . import influence as I

DEFAULT_RADIUS = 2
LIBERTY_ORDERS = 4       # Table 1's N1st .. N4th
LIBERTY_SCALE = 4.0      # order-k liberties n -> n / (n + 4k)
EYE_CAP = 2              # eyes n -> min(n, 2) / 2

# Feature indices before the rings.
F_BLACK = 0
F_WHITE = 1
F_EMPTY = 2
F_INFLUENCE = 3          # 4 values, in influence.EXACT_BLACK .. STRINGENT_WHITE order
F_PROPENSITY = 7
F_EYES = 8
F_LIBERTIES = 9          # LIBERTY_ORDERS values
F_OPPONENTS = 13         # 2 slots of OPPONENT_FIELDS
OPPONENT_FIELDS = 4      # black, white, liberties, eyes
NBASE = 21
RING_FIELDS = 9          # black, white, empty, offboard, propensity, 4 influences

BASE_NAMES = (
    ["black", "white", "empty",
     "influence_black_exact", "influence_white_exact",
     "influence_black_stringent", "influence_white_stringent",
     "propensity", "chain_eyes"]
    + [f"chain_liberties_{k}" for k in range(1, LIBERTY_ORDERS + 1)]
    + [f"opponent{i}_{f}" for i in (1, 2) for f in ("black", "white", "liberties", "eyes")])
RING_FIELD_NAMES = ("black", "white", "empty", "offboard", "propensity",
                    "influence_black_exact", "influence_white_exact",
                    "influence_black_stringent", "influence_white_stringent")

# Rows of the int32 workspace (each W*W long at least; per-chain values at the chain's head).
W_SEEN = 0
W_QUEUE = 1
W_DIST = 2
W_STRENGTH = 3           # influence.strength_key of the chain, at every stone
W_EYES = 4
W_LIBERTIES = 5          # LIBERTY_ORDERS rows
W_OPP1 = 9               # strength keys of the two weakest opponent chains (-1: none)
W_OPP2 = 10
W_RING_DR = 11           # the neighbourhood's offsets and their rings
W_RING_DC = 12
W_RING_ID = 13
W_CAND = 14              # candidate chains' keys and colours
W_CAND_COLOR = 15
W_CAND_HEAD = 16
NWORK = 17
# Rows of the float64 workspace.
FW_INFLUENCE = 0         # influence.NMAPS rows, squashed in place
FW_ACC = I.NMAPS         # the rings' sums
NFWORK = I.NMAPS + 1


def rings(radius):
    """The rings of the neighbourhood as ``(A, B)``, ``A >= B >= 0``, ``1 <= A + B <= radius``,
    nearest first (then larger ``A`` first)."""
    out = [(a, b) for a in range(1, radius + 1) for b in range(0, a + 1) if a + b <= radius]
    return sorted(out, key=lambda ab: (ab[0] ** 2 + ab[1] ** 2, -ab[0]))


def feature_count(radius=DEFAULT_RADIUS):
    """Number of features a point at neighbourhood ``radius``."""
    return NBASE + RING_FIELDS * len(rings(radius))


def feature_names(radius=DEFAULT_RADIUS):
    """The features' names, in order."""
    names = list(BASE_NAMES)
    for a, b in rings(radius):
        names += [f"ring_{a}_{b}_{f}" for f in RING_FIELD_NAMES]
    return names


def workspace(size, radius=DEFAULT_RADIUS):
    """Scratch for :func:`fill_features` on a ``size`` board: ``(work int32, fwork float64)``.
    Reusable from call to call (one per thread)."""
    w = size + 2
    length = max(w * w, 2 * radius * (radius + 1), RING_FIELDS * len(rings(radius)))
    return (np.zeros((NWORK, length), dtype=np.int32),
            np.zeros((NFWORK, length), dtype=np.float64))


# ---------------------------------------------------------------------------- kernels
@inline_kernel
def _liberty_feature(n, order):
    return n / (n + LIBERTY_SCALE * order)


@inline_kernel
def _eye_feature(n):
    return min(n, EYE_CAP) / EYE_CAP


@kernel
def _two_weakest(keys, n):
    """The smallest two of ``keys[:n]`` as a multiset (-1 for each one missing)."""
    m1 = -1
    for i in range(n):
        if m1 < 0 or keys[i] < m1:
            m1 = keys[i]
    m2 = -1
    ties = 0
    for i in range(n):
        k = keys[i]
        if k == m1:
            ties += 1
        elif m2 < 0 or k < m2:
            m2 = k
    if ties >= 2:
        m2 = m1
    return m1, m2


@kernel
def _chain_pass(pts, size, work):
    """Per chain, at its head: true eyes, order-1..4 liberty counts, strength (at every stone)
    and the keys of the two weakest neighbouring opponent chains."""
    w = size + 2
    seen = work[W_SEEN]
    queue = work[W_QUEUE]
    dist = work[W_DIST]
    for p in range(w * w):
        seen[p] = 0
        work[W_STRENGTH, p] = -1
    stamp = 0
    for h in range(w * w):
        c = pts[COLOR, h]
        if (c != BLACK and c != WHITE) or pts[HEAD, h] != h:
            continue
        stamp += 1
        eyes = I.chain_eyes(pts, w, h, seen, stamp)
        work[W_EYES, h] = eyes
        # Breadth-first from all the chain's stones at once, through empty points only.
        stamp += 1
        tail = 0
        s = h
        while True:
            seen[s] = stamp
            dist[s] = 0
            queue[tail] = s
            tail += 1
            s = pts[NEXT, s]
            if s == h:
                break
        for k in range(LIBERTY_ORDERS):
            work[W_LIBERTIES + k, h] = 0
        stones = tail
        tail = walk(pts, w, queue, stones, LIBERTY_ORDERS, STONES_STOP, -1, dist, 0, seen,
                    stamp, dist)
        for i in range(stones, tail):
            work[W_LIBERTIES + dist[queue[i]] - 1, h] += 1
        key = I.strength_key(eyes, work[W_LIBERTIES, h])
        s = h
        while True:
            work[W_STRENGTH, s] = key
            s = pts[NEXT, s]
            if s == h:
                break
    # Second pass: the neighbours' strengths are all known now.
    cand = work[W_CAND]
    for h in range(w * w):
        c = pts[COLOR, h]
        if (c != BLACK and c != WHITE) or pts[HEAD, h] != h:
            continue
        opp = 3 - c
        stamp += 1
        n = 0
        s = h
        while True:
            for q in (s - 1, s + 1, s - w, s + w):
                if pts[COLOR, q] == opp:
                    g = pts[HEAD, q]
                    if seen[g] != stamp:
                        seen[g] = stamp
                        cand[n] = work[W_STRENGTH, g]
                        n += 1
            s = pts[NEXT, s]
            if s == h:
                break
        m1, m2 = _two_weakest(cand, n)
        work[W_OPP1, h] = m1
        work[W_OPP2, h] = m2


@kernel
def _ring_offsets(radius, work):
    """Write the neighbourhood's offsets (rows W_RING_DR, W_RING_DC) and their ring numbers
    (W_RING_ID) in :func:`rings` order; returns (offsets, rings)."""
    n = 0
    nrings = 0
    for d2 in range(1, 2 * radius * radius + 1):
        for a in range(radius, 0, -1):
            for b in range(a + 1):
                if a + b > radius or a * a + b * b != d2:
                    continue
                start = n
                for t in range(8):
                    x = a if t < 4 else b
                    y = b if t < 4 else a
                    if t & 1:
                        x = -x
                    if t & 2:
                        y = -y
                    dup = False
                    for i in range(start, n):
                        if work[W_RING_DR, i] == x and work[W_RING_DC, i] == y:
                            dup = True
                    if not dup:
                        work[W_RING_DR, n] = x
                        work[W_RING_DC, n] = y
                        work[W_RING_ID, n] = nrings
                        n += 1
                nrings += 1
    return n, nrings


@kernel
def _opponent_slot(out, r, c, base, key, black, white):
    """Write one O1st/O2nd slot: colour fractions, then liberties and eyes of ``key``."""
    if key < 0:
        for j in range(OPPONENT_FIELDS):
            out[r, c, base + j] = 0.0
        return
    out[r, c, base] = black
    out[r, c, base + 1] = white
    out[r, c, base + 2] = _liberty_feature(key % I.EYE_WEIGHT, 1)
    out[r, c, base + 3] = _eye_feature(key // I.EYE_WEIGHT)


@kernel
def _empty_point_opponents(pts, w, p, work, out, r, c):
    """O1st and O2nd of an empty point: the chains of either colour next to it."""
    cand = work[W_CAND]
    color = work[W_CAND_COLOR]
    heads = work[W_CAND_HEAD]
    n = 0
    for q in (p - 1, p + 1, p - w, p + w):
        k = pts[COLOR, q]
        if k != BLACK and k != WHITE:
            continue
        g = pts[HEAD, q]
        dup = False
        for i in range(n):
            if heads[i] == g:
                dup = True
        if dup:
            continue
        cand[n] = work[W_STRENGTH, g]
        heads[n] = g
        color[n] = k
        n += 1
    m1, m2 = _two_weakest(cand, n)
    for slot in range(2):
        key = m1 if slot == 0 else m2
        black = 0
        white = 0
        for i in range(n):
            if cand[i] == key:
                if color[i] == BLACK:
                    black += 1
                else:
                    white += 1
        total = max(black + white, 1)
        _opponent_slot(out, r, c, F_OPPONENTS + slot * OPPONENT_FIELDS, key,
                       black / total, white / total)


@kernel
def fill_features(pts, info, propensity, radius, out, work, fwork):
    """The features of the position ``(pts, info)`` into ``out`` (float32, ``(size, size,
    feature_count(radius))``). ``propensity``: float ``(size, size)``; ``work``, ``fwork``:
    :func:`workspace` ``(size, radius)``. Reads the position only."""
    size = info[BOARDSIZE]
    w = size + 2
    _chain_pass(pts, size, work)
    for m in range(2):
        I.spread(pts, size, work[W_STRENGTH], m == 1, fwork[FW_INFLUENCE + 2 * m],
                 fwork[FW_INFLUENCE + 2 * m + 1], work[W_SEEN], work[W_QUEUE], work[W_DIST])
    # Squashed once, and rounded to float32 so that ring means sum exactly.
    for m in range(I.NMAPS):
        row = fwork[FW_INFLUENCE + m]
        for p in range(w * w):
            row[p] = np.float32(I.squash(row[p]))
    noffsets, nrings = _ring_offsets(radius, work)
    acc = fwork[FW_ACC]
    for r in range(size):
        for c in range(size):
            p = (r + 1) * w + c + 1
            color = pts[COLOR, p]
            out[r, c, F_BLACK] = 1.0 if color == BLACK else 0.0
            out[r, c, F_WHITE] = 1.0 if color == WHITE else 0.0
            out[r, c, F_EMPTY] = 1.0 if color == EMPTY else 0.0
            for m in range(I.NMAPS):
                out[r, c, F_INFLUENCE + m] = fwork[FW_INFLUENCE + m, p]
            out[r, c, F_PROPENSITY] = propensity[r, c]
            if color == EMPTY:
                out[r, c, F_EYES] = 0.0
                for k in range(LIBERTY_ORDERS):
                    out[r, c, F_LIBERTIES + k] = 0.0
                _empty_point_opponents(pts, w, p, work, out, r, c)
            else:
                h = pts[HEAD, p]
                out[r, c, F_EYES] = _eye_feature(work[W_EYES, h])
                for k in range(LIBERTY_ORDERS):
                    out[r, c, F_LIBERTIES + k] = _liberty_feature(work[W_LIBERTIES + k, h], k + 1)
                opp = 3 - color
                for slot in range(2):
                    key = work[W_OPP1 + slot, h]
                    _opponent_slot(out, r, c, F_OPPONENTS + slot * OPPONENT_FIELDS, key,
                                   1.0 if opp == BLACK else 0.0, 1.0 if opp == WHITE else 0.0)
            # The rings: counts and sums in float64, then fractions and means.
            for j in range(RING_FIELDS * nrings):
                acc[j] = 0.0
            for i in range(noffsets):
                rr = r + work[W_RING_DR, i]
                cc = c + work[W_RING_DC, i]
                j = RING_FIELDS * work[W_RING_ID, i]
                if rr < 0 or rr >= size or cc < 0 or cc >= size:
                    acc[j + 3] += 1.0
                    continue
                q = (rr + 1) * w + cc + 1
                k = pts[COLOR, q]
                if k == BLACK:
                    acc[j] += 1.0
                elif k == WHITE:
                    acc[j + 1] += 1.0
                else:
                    acc[j + 2] += 1.0
                acc[j + 4] += np.float32(propensity[rr, cc])
                for m in range(I.NMAPS):
                    acc[j + 5 + m] += fwork[FW_INFLUENCE + m, q]
            for g in range(nrings):
                j = RING_FIELDS * g
                base = NBASE + j
                on = acc[j] + acc[j + 1] + acc[j + 2]
                total = on + acc[j + 3]
                for f in range(4):
                    out[r, c, base + f] = acc[j + f] / total
                for f in range(4, RING_FIELDS):
                    out[r, c, base + f] = acc[j + f] / on if on > 0 else 0.0


# ---------------------------------------------------------------------------- wrappers
def features_of_arrays(pts, info, propensity, radius=DEFAULT_RADIUS):
    """:func:`features` of the position ``(pts, info)``."""
    if radius < 0:
        raise ValueError(f"the neighbourhood radius must be >= 0, got {radius}")
    size = int(info[BOARDSIZE])
    propensity = np.ascontiguousarray(propensity, dtype=np.float64)
    if propensity.shape != (size, size):
        raise ValueError(f"a propensity plane of shape {propensity.shape} "
                         f"for a {size}x{size} board")
    out = np.empty((size, size, feature_count(radius)), dtype=np.float32)
    work, fwork = workspace(size, radius)
    fill_features(pts, info, propensity, int(radius), out, work, fwork)
    return out


def features(board, propensity, radius=DEFAULT_RADIUS):
    """The inputs of every point of a :class:`mcgo.Board`: float32 ``(size, size,
    feature_count(radius))``, ``[row, col]`` with row 0 at the bottom. ``propensity``: the
    (size, size) plane of :meth:`mcgo.models.seedstats.SeedStats.propensity`."""
    return features_of_arrays(board.pts, board.info, propensity, radius)
