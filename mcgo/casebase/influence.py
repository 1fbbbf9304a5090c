"""Flow influence maps (thesis 7.2.1, 8.5, figure 8.2) and their classification.

Influence flows from a stone through empty points only (stones block it), one step at a
time, up to ``FLOW_STEPS`` steps. "Multiple streams in each direction": one flow starts at
each empty neighbour of the stone (at distance 1) and the streams are added up, so a
neighbouring stone that closes off a direction cuts the influence down. A point reached at
flow distance ``d`` by a stream gets ``1/d`` from it.

Sums are kept exactly, as integers in units of ``1/INFLUENCE_UNIT`` (60 = lcm(1..5)), so
two positions that mirror each other get exactly mirrored sums and equal opposing stones
give exactly equal sums (no rounding decides a point).

A point is classified ``BLACK`` if black's summed influence exceeds white's by more than
``threshold`` (in stone units: a threshold of 1.0 means one stone's influence at distance
1), ``WHITE`` likewise, else ``EMPTY`` (also when both are 0). A stone's own point takes
the stone's colour.

>>> import mcgo
>>> from mcgo.casebase.influence import influence_map, influence_sums
>>> board = mcgo.Board(9)
>>> board.play("E5")
>>> black, white = influence_sums(board)
>>> int(black[mcgo.from_gtp("E6", 9)])   # 60/1 (its stream) + 60/3 + 60/3 (sides) + 60/5 (around)
112
>>> classes = influence_map(board)
>>> int(classes[mcgo.from_gtp("E6", 9)]) == mcgo.BLACK, int(classes[mcgo.from_gtp("A1", 9)])
(True, 0)
"""

import numpy as np

from ..board.kernels import BLACK, COLOR, EMPTY, WHITE
from ..jit import kernel
from ..tactics.geometry import STONES_STOP, walk

FLOW_STEPS = 5            # a stream stops after 5 steps (thesis 8.5)
INFLUENCE_UNIT = 60       # lcm(1, 2, 3, 4, 5): 1/d is a whole number of these units
DEFAULT_THRESHOLD = 0.5   # stone units; chosen by benchmarks/casebase/casebase_prediction.py


@kernel
def flow_influence(pts, size, steps, black, white, seen, queue, dist):
    """Summed flow influence of each colour, in units of ``1/INFLUENCE_UNIT``.

    ``black`` and ``white`` (int32/int64, length W*W) receive the sums (the kernel clears
    them); ``seen``, ``queue`` and ``dist`` (int32, length W*W) are scratch.
    """
    w = size + 2
    n = w * w
    for p in range(n):
        black[p] = 0
        white[p] = 0
        seen[p] = 0
    stamp = 0
    for s in range(n):
        c = pts[COLOR, s]
        if c != BLACK and c != WHITE:
            continue
        for start in (s + 1, s - 1, s + w, s - w):
            if pts[COLOR, start] != EMPTY:
                continue
            stamp += 1
            seen[start] = stamp
            dist[start] = 1
            queue[0] = start
            tail = walk(pts, w, queue, 1, steps, STONES_STOP, -1, dist, 0, seen, stamp, dist)
            for i in range(tail):
                p = queue[i]
                if c == BLACK:
                    black[p] += INFLUENCE_UNIT // dist[p]
                else:
                    white[p] += INFLUENCE_UNIT // dist[p]


@kernel
def classify(pts, size, black, white, margin, classes):
    """``classes[i]`` (i = row * size + col, row 0 at the bottom) becomes EMPTY, BLACK or
    WHITE: a stone's colour, else the side whose sum exceeds the other's by more than
    ``margin`` (in influence units), else EMPTY."""
    w = size + 2
    for r in range(size):
        for col in range(size):
            p = (r + 1) * w + col + 1
            i = r * size + col
            c = pts[COLOR, p]
            if c == BLACK or c == WHITE:
                classes[i] = c
            elif black[p] - white[p] > margin:
                classes[i] = BLACK
            elif white[p] - black[p] > margin:
                classes[i] = WHITE
            else:
                classes[i] = EMPTY


def margin_units(threshold):
    """The classification threshold (stone units) as a whole number of influence units."""
    if threshold < 0:
        raise ValueError(f"the influence threshold must be >= 0, got {threshold}")
    return int(round(threshold * INFLUENCE_UNIT))


class InfluenceScratch:
    """Scratch arrays for one board size, reusable between positions (not thread-safe)."""

    def __init__(self, size):
        n = (size + 2) ** 2
        self.size = size
        self.black = np.zeros(n, dtype=np.int32)
        self.white = np.zeros(n, dtype=np.int32)
        self.seen = np.zeros(n, dtype=np.int32)
        self.queue = np.zeros(n, dtype=np.int32)
        self.dist = np.zeros(n, dtype=np.int32)
        self.classes = np.zeros(size * size, dtype=np.int8)

    def run(self, pts, steps=FLOW_STEPS):
        flow_influence(pts, self.size, steps, self.black, self.white, self.seen, self.queue, self.dist)


def influence_sums(board, steps=FLOW_STEPS):
    """(black, white) summed flow influence over internal indices, in ``1/INFLUENCE_UNIT``."""
    scratch = InfluenceScratch(board.size)
    scratch.run(board.pts, steps)
    return scratch.black.copy(), scratch.white.copy()


def influence_map(board, threshold=DEFAULT_THRESHOLD, steps=FLOW_STEPS):
    """EMPTY/BLACK/WHITE class of every point as an int8 array over internal indices (the
    border is 0)."""
    scratch = InfluenceScratch(board.size)
    scratch.run(board.pts, steps)
    classify(board.pts, board.size, scratch.black, scratch.white, margin_units(threshold),
             scratch.classes)
    out = np.zeros(board.pts.shape[1], dtype=np.int8)
    w = board.size + 2
    grid = scratch.classes.reshape(board.size, board.size)
    out.reshape(w, w)[1:-1, 1:-1] = grid
    return out
