"""The learned playout: each move drawn with probability proportional to the learned move
model's gamma (:mod:`mcgo.models.movemodel`, Coulom 2007 section 4: playouts that sample the
Bradley-Terry model).

Scoring all points of the board with the model on every move costs about the same as the
search's prior on every node: far too slow for a playout. So, as Coulom's playouts do, only
the points where the model's strongest features live are scored exactly, and the rest of
the board shares one cheap weight:

* **near points**: the empty points at Manhattan distance 1 or 2 of the last move and of
  the move before it (the distance features are the model's largest; at most 24 points).
  Each legal one that does not fill the mover's own true eye gets its full gamma,
  ``exp(move_log_gamma)``: 3x3 pattern with atari states, diamond, capture, escape,
  self-atari, atari, distances, line. Self-ataris are *not* filtered here: the model's
  ``self_atari`` gamma (small) decides, so a useful nakade self-atari keeps its chance.
* **far points**: every other empty point gets the base weight :func:`far_log_gamma`: the
  gamma of a move in an empty 3x3 area far from both last moves (pattern of the empty
  3x3 code, both distance features at their cap); line, diamond and tactics are ignored
  there. Their total is that weight times the number of other empty points (occupied
  points are not counted; an illegal or eye-filling far point is only found when drawn).
  A far move is then a uniformly random empty point outside the near set that is legal, does
  not fill an own true eye, and is not a self-atari of 2+ stones (kept once in
  ``SELF_ATARI_KEEP_ONE_IN``), as the pattern policy's random step. After ``FAR_TRIES``
  misses the near choice stands, or, with no playable near point,
  :func:`.common.random_move` over the whole board.

The draw is one pass over the near points with a running total (weighted reservoir
sampling: point ``i`` replaces the choice with probability ``gamma_i / total so far``),
so nothing is stored per move and nothing allocates. Among near points the choice follows
the model's probabilities exactly (the tests check it against
:meth:`MoveModel.probabilities`); the far share is the approximation. There is no
incremental weight array: a move rescores at most 24 points, cheaper than keeping a
board-sized array of gammas up to date when captures and atari states change them.

With no last move (the start of a game, or passes) every point is far: the move is uniform
with the pattern policy's self-atari rejection. The move before the last is unknown at the
first move of a playout (the search does not pass it down) and its distance feature is then
absent. Nothing about which policy ``auto`` picks changed: ``auto`` could stand for
``learned`` where its playouts pay for their cost (about 9 times the pattern policy's per
move, ``mcgo bench``), once a match at equal time says so.

No pass while a playable move is left (a playout ends by passes only when no move is left,
as the other policies). The model's arrays come as the ``model`` tuple of
:func:`model_tables` (the one the search builds for its priors); a playout without a model
uses the shipped default model (:func:`mcgo.models.movemodel.open_model`).

>>> import mcgo
>>> from mcgo import playout
>>> stats = playout.simulate(mcgo.Board(9), playouts=20, policy="learned", seed=1)
>>> stats.playouts, stats.moves_per_playout > 40
(20, True)
"""

import functools

import numpy as np

from ..board.kernels import (BOARDSIZE, COLOR, EMPTIES, EMPTY, LAST_MOVE, LEGAL, NEMPTY, PASS,
                             PASSES, PREVIOUS_MOVE, TO_MOVE, WIDTH, legality, owner_map,
                             play_legal)
from ..jit import allocating_kernel, inline_kernel, kernel
from ..models.move_features import DISTANCE_CAP, LAST_DISTANCE, MAXVALUES, NGROUPS, PREVIOUS_DISTANCE
from ..models.movemodel import move_log_gamma, open_model
from ..tactics.atari import is_self_atari
from ..tactics.eyes import is_true_eye
from ..tactics.ladder import new_ladder_space
from .common import (MOVE_CAP_FACTOR, REJECT_SELF_ATARI, SELF_ATARI_KEEP_ONE_IN, next_random,
                     random_below, random_move, record_move, seed_rng)

READS_MODEL = True     # its playouts read the learned move model (the shipped one unless given)
NEAR_RADIUS = 2        # near points: Manhattan distance 1..2 of the last two moves
FAR_TRIES = 8          # random empty points tried for a far move (then the near choice)
MARK_ROW = 0           # the row of ``scratch`` that marks the near points (cleared again)
SELF_ATARI_ROW = 1     # the row the random step's self-atari test uses
UNIT = 1.0 / 9007199254740992.0   # 2**-53: a 53-bit random integer to a float in [0, 1)
NEAR_DY = np.array([dy for dy in range(-NEAR_RADIUS, NEAR_RADIUS + 1)
                    for dx in range(-NEAR_RADIUS, NEAR_RADIUS + 1)
                    if 0 < abs(dy) + abs(dx) <= NEAR_RADIUS], dtype=np.int64)
NEAR_DX = np.array([dx for dy in range(-NEAR_RADIUS, NEAR_RADIUS + 1)
                    for dx in range(-NEAR_RADIUS, NEAR_RADIUS + 1)
                    if 0 < abs(dy) + abs(dx) <= NEAR_RADIUS], dtype=np.int64)


def model_tables(model):
    """The ``model`` tuple the kernels read of a :class:`mcgo.models.movemodel.MoveModel`:
    ``(pattern_lg, group_lg, spatial_keys, spatial_lg, vals)``, ``vals`` a scratch row of
    its own (one tuple per thread). ``None`` gives placeholders of the same types (all
    gammas 1), which the policies that ignore the model never read."""
    vals = np.zeros(NGROUPS, dtype=np.int32)
    if model is None:
        return (np.zeros(1), np.zeros((NGROUPS, MAXVALUES)), np.full(1, -1, dtype=np.int64),
                np.zeros(1), vals)
    return (model.pattern_table, model.group_log_gamma, model.spatial_keys, model.spatial_table,
            vals)


@functools.lru_cache(maxsize=1)
def default_model():
    """The shipped default move model, loaded once."""
    return open_model("default")


@inline_kernel
def random_unit(rng):
    """A uniform float in [0, 1)."""
    return np.float64(next_random(rng) >> np.uint64(11)) * UNIT


@inline_kernel
def far_log_gamma(group_lg, pattern_lg):
    """The log-gamma of every far point: an empty 3x3 (raw code 0) far from both last moves."""
    return pattern_lg[0] + group_lg[LAST_DISTANCE, DISTANCE_CAP - 1] \
        + group_lg[PREVIOUS_DISTANCE, DISTANCE_CAP - 1]


@kernel
def near_pass(pts, info, zob, ladder, color, last, previous, centre, mark, rng, model, total,
              count, chosen):
    """Visit the near points of ``centre`` not yet marked: mark them, count the empty ones,
    and add the playable ones to the running draw; returns the updated ``(total weight,
    count of empty near points, chosen point)``."""
    if centre <= 0:
        return total, count, chosen
    pattern_lg, group_lg, spatial_keys, spatial_lg, vals = model
    w = info[WIDTH]
    size = info[BOARDSIZE]
    row = centre // w
    col = centre % w
    for k in range(NEAR_DY.shape[0]):
        r = row + NEAR_DY[k]
        c = col + NEAR_DX[k]
        if r < 1 or r > size or c < 1 or c > size:
            continue
        p = r * w + c
        if mark[p] != 0 or pts[COLOR, p] != EMPTY:
            continue
        mark[p] = 1
        count += 1
        if legality(pts, info, p, color) != LEGAL or is_true_eye(pts, w, p, color):
            continue
        g = np.exp(move_log_gamma(pts, info, zob, ladder, p, color, last, previous, pattern_lg,
                                  group_lg, spatial_keys, spatial_lg, vals))
        total += g
        if random_unit(rng) * total < g:
            chosen = p
    return total, count, chosen


@kernel
def unmark(info, centre, mark):
    """Clear the marks :func:`near_pass` left around ``centre``."""
    if centre <= 0:
        return
    w = info[WIDTH]
    size = info[BOARDSIZE]
    row = centre // w
    col = centre % w
    for k in range(NEAR_DY.shape[0]):
        r = row + NEAR_DY[k]
        c = col + NEAR_DX[k]
        if 1 <= r <= size and 1 <= c <= size:
            mark[r * w + c] = 0


@kernel
def far_move(pts, info, rng, color, mark):
    """A uniformly random playable empty point outside the near set (see the docstring)."""
    n = info[NEMPTY]
    w = info[WIDTH]
    for _ in range(FAR_TRIES):
        p = pts[EMPTIES, random_below(rng, n)]
        if mark[p] != 0 or is_true_eye(pts, w, p, color) or legality(pts, info, p, color) != LEGAL:
            continue
        if is_self_atari(pts, w, p, color) and random_below(rng, SELF_ATARI_KEEP_ONE_IN) != 0:
            continue
        return p
    return PASS


@kernel
def choose_move(pts, info, zob, ladder, rng, color, previous, mark, model, scratch):
    """The learned policy's move for ``color``; ``previous``: the move before the last (-1:
    none); ``mark``: an int32 row of zeros (left as found); ``scratch``: an int32 row for
    the random step (:func:`.common.random_move`); ``zob``, ``ladder``: for the model's
    ladder features. PASS when nothing is left to play."""
    n = info[NEMPTY]
    if n == 0:
        return PASS
    last = info[LAST_MOVE]
    total, count, chosen = near_pass(pts, info, zob, ladder, color, last, previous, last, mark,
                                     rng, model, 0.0, 0, PASS)
    total, count, chosen = near_pass(pts, info, zob, ladder, color, last, previous, previous,
                                     mark, rng, model, total, count, chosen)
    far_total = np.exp(far_log_gamma(model[1], model[0])) * (n - count)
    if total > 0.0 and random_unit(rng) * (total + far_total) < total:
        move = chosen
    else:
        move = far_move(pts, info, rng, color, mark)
        if move == PASS:
            move = chosen if total > 0.0 else random_move(pts, info, rng, color,
                                                          REJECT_SELF_ATARI, scratch)
    unmark(info, last, mark)
    unmark(info, previous, mark)
    return move


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record, model):
    """A learned playout to the end (``pat3`` unused; the first work row marks the
    near points); as :func:`.common.play_moves`."""
    mark = work[0][MARK_ROW]
    for i in range(mark.shape[0]):
        mark[i] = 0
    cap = MOVE_CAP_FACTOR * info[BOARDSIZE] * info[BOARDSIZE]
    moves = 0
    while moves < cap and info[PASSES] < 2:
        color = info[TO_MOVE]
        p = choose_move(pts, info, zob, work[1], rng, color, info[PREVIOUS_MOVE], mark, model,
                        work[0][SELF_ATARI_ROW])
        play_legal(pts, info, zob, p, color)
        record_move(record, moves, p, color)
        moves += 1
    owner_map(pts, info, owner)
    return moves


@allocating_kernel
def sample_moves(pts, info, zob, model, previous, seed, n, counts):
    """Draw the learned policy's move for the side to move ``n`` times from one position
    (not played), adding 1 to ``counts[move]`` each time: for tests and diagnostics."""
    rng = seed_rng(seed)
    ladder = new_ladder_space(info[BOARDSIZE])
    mark = np.zeros(pts.shape[1], dtype=np.int32)
    scratch = np.zeros(pts.shape[1], dtype=np.int32)
    color = info[TO_MOVE]
    for _ in range(n):
        counts[choose_move(pts, info, zob, ladder, rng, color, previous, mark, model, scratch)] += 1
