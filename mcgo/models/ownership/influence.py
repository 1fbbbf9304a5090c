"""Chen's influence, the two ways seed 003 (Wu & Baldi 2006, section 3.3) computes it.

The paper: "Both algorithms are based on Chen's method [Zhixing Chen, Semi-empirical
quantitative theory of Go part 1: Estimation of the influence of a wall, ICGA Journal 25(4),
2002]. One is an exact implementation of Chen's method. The other uses a stringent influence
propagation rule. In Chen's exact method, any opponent stone can block the propagation of
influence. With a stringent influence propagation rule, an opponent stone can block the
propagation of influence if and only if it is stronger than the stone emitting the influence.
Strength is again defined in alphabetical order with respect to the number of eyes first,
followed by the number of liberties."

**Sources, and what they leave open.** Chen's paper itself could not be read here. What could:
Chen Zhixing's own note "Programming Technics in Handtalk"
(http://maznaga.my.coocan.jp/IGO/handtalk/ht_genbun.htm): every stone radiates influence, the
influences of the stones on a point add up, and his function "is obviously different from that
proposed by Ken Chen" (its table did not survive in the copy read); the GNU Go manual
(section "Influence", gnu.org/software/gnugo/gnugo_13.html): "the strength of the influence
declines exponentially with the distance from the source" and stones act as barriers to it.
The substitute below keeps exactly those properties (additive, exponential decay, blocked by
stones as the paper's two rules say) with the classic halving per step:

* a stone ``s`` sends ``2**-d`` to every point ``p`` at **path distance** ``d <= RADIUS`` from it:
  the fewest orthogonal steps from ``s`` to ``p`` whose intermediate points are all passable;
  ``s`` itself gets ``2**0 = 1``;
* passable: empty points and stones of the emitter's colour; a **blocking** stone receives the
  influence that reaches it but passes none on;
* *exact* rule: every opponent stone blocks; *stringent* rule: an opponent stone blocks iff its
  chain is strictly stronger than the emitter's chain, strength being ``(true eyes, liberties)``
  compared lexicographically (:func:`strength_key`); an equally strong stone lets it through;
* the influence of a colour at a point is the sum over that colour's stones.

The sums are multiples of ``2**-RADIUS`` and small, so float64 holds them exactly: the maps of a
rotated or mirrored board are exactly the rotated maps. :func:`squash` turns a sum into a
feature in [0, 1): ``1 - exp(-sum / SCALE)`` (a lone stone's own point: 0.63; next to it: 0.39).

>>> import mcgo
>>> board = mcgo.Board(9)
>>> board.play("E5")
>>> maps = influence_maps(board)          # (4, 9, 9): exact b, exact w, stringent b, stringent w
>>> [float(maps[EXACT_BLACK, 4, c]) for c in range(4, 9)]     # E5 .. J5
[1.0, 0.5, 0.25, 0.125, 0.0625]
>>> board.play("E6")                      # white: blocks the exact rule's way up
>>> maps = influence_maps(board)
>>> float(maps[EXACT_BLACK, 6, 4])        # E7: round the stone, 4 steps
0.0625
>>> float(maps[STRINGENT_BLACK, 6, 4])    # E6 (3 liberties) is no stronger than E5 (3)
0.25
"""

import math

import numpy as np

from ...board.kernels import BLACK, COLOR, EMPTY, HEAD, LIBS, NEXT, WHITE
from ...jit import inline_kernel, kernel
from ...tactics.eyes import is_true_eye
from ...tactics.geometry import STONES_ONE, walk

RADIUS = 4            # influence travels at most 4 steps (2**-4 = 1/16 there)
SCALE = 1.0           # squash(sum) = 1 - exp(-sum / SCALE)
EYE_WEIGHT = 1024     # strength key = eyes * EYE_WEIGHT + liberties (liberties < 625 <= 1024)

# Rows of the (4, ...) influence arrays.
EXACT_BLACK = 0
EXACT_WHITE = 1
STRINGENT_BLACK = 2
STRINGENT_WHITE = 3
NMAPS = 4


@inline_kernel
def strength_key(eyes, liberties):
    """An integer that orders chains by (true eyes, liberties), the paper's "alphabetical
    order"; a larger key is a stronger chain."""
    return eyes * EYE_WEIGHT + liberties


@kernel
def chain_eyes(pts, w, head, seen, stamp):
    """Number of distinct empty points next to the chain ``head`` that are true eyes of its
    colour (:func:`mcgo.tactics.eyes.is_true_eye`). Marks the empty points it looks at with
    ``stamp`` in ``seen`` (so each counts once); the caller gives a fresh stamp."""
    color = pts[COLOR, head]
    n = 0
    s = head
    while True:
        for q in (s - 1, s + 1, s - w, s + w):
            if pts[COLOR, q] == EMPTY and seen[q] != stamp:
                seen[q] = stamp
                if is_true_eye(pts, w, q, color):
                    n += 1
        s = pts[NEXT, s]
        if s == head:
            return n


@kernel
def chain_strengths(pts, size, strength, seen):
    """Write the :func:`strength_key` of its chain at every stone of ``strength`` (int32,
    W*W; -1 elsewhere). ``seen``: int32 W*W scratch (cleared here)."""
    w = size + 2
    for p in range(w * w):
        strength[p] = -1
        seen[p] = 0
    stamp = 0
    for p in range(w * w):
        c = pts[COLOR, p]
        if (c != BLACK and c != WHITE) or pts[HEAD, p] != p:
            continue
        stamp += 1
        key = strength_key(chain_eyes(pts, w, p, seen, stamp), pts[LIBS, p])
        s = p
        while True:
            strength[s] = key
            s = pts[NEXT, s]
            if s == p:
                break


@kernel
def spread(pts, size, strength, stringent, black, white, seen, queue, dist):
    """The influence sums of each colour (float64, W*W, cleared here) under the exact rule,
    or under the stringent one when ``stringent`` (``strength`` from :func:`chain_strengths`).
    ``seen``, ``queue``, ``dist``: int32 W*W scratch.

    One breadth-first walk per stone (:func:`mcgo.tactics.geometry.walk`), cut at ``RADIUS``
    steps; a blocking stone is reached but passes nothing on."""
    w = size + 2
    for p in range(w * w):
        black[p] = 0.0
        white[p] = 0.0
        seen[p] = 0
    stamp = 0
    for s in range(w * w):
        color = pts[COLOR, s]
        if color != BLACK and color != WHITE:
            continue
        acc = black if color == BLACK else white
        stamp += 1
        seen[s] = stamp
        dist[s] = 0
        queue[0] = s
        # An opponent's stone blocks (reached, passes nothing on): every one under the exact
        # rule, one stronger than the emitter's chain under the stringent one.
        own = strength[s] if stringent else -1
        tail = walk(pts, w, queue, 1, RADIUS, STONES_ONE, 3 - color, strength, own, seen, stamp,
                    dist)
        for i in range(tail):
            q = queue[i]
            acc[q] += 1.0 / (1 << dist[q])   # exact: a power of two


@kernel
def influence_arrays(pts, size, out, strength, seen, queue, dist):
    """Both rules' sums for both colours into ``out`` (float64, (NMAPS, W*W)), rows
    ``EXACT_BLACK`` .. ``STRINGENT_WHITE``. The rest: int32 W*W scratch."""
    chain_strengths(pts, size, strength, seen)
    spread(pts, size, strength, False, out[EXACT_BLACK], out[EXACT_WHITE], seen, queue, dist)
    spread(pts, size, strength, True, out[STRINGENT_BLACK], out[STRINGENT_WHITE], seen, queue,
           dist)


@inline_kernel
def squash(total):
    """A sum of influence as a feature in [0, 1)."""
    return 1.0 - math.exp(-total / SCALE)


def influence_maps(board):
    """The four raw influence sums of a :class:`mcgo.Board` as float64 ``(NMAPS, size,
    size)``, ``[map, row, col]``, row 0 at the bottom."""
    size = board.size
    w = size + 2
    out = np.zeros((NMAPS, w * w))
    scratch = np.zeros((4, w * w), dtype=np.int32)
    influence_arrays(board.pts, size, out, scratch[0], scratch[1], scratch[2], scratch[3])
    return out.reshape(NMAPS, w, w)[:, 1:-1, 1:-1].copy()
