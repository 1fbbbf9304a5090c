"""The guided playout: the pattern playout (:mod:`.pattern_policy`) whose last resort, the
uniformly random move, is drawn by the learned move model instead (issue 12: "the learned
move model's weights as the last fallback before random").

Steps 1 to 3 are the pattern policy's (capture or escape, a shape next to the last move, a
free point in an empty area). When none of them gives a move, ``FALLBACK_CANDIDATES``
random playable points (legal, not filling the mover's own true eye, not a self-atari of 2+
stones, bar the pattern policy's small chance) are weighed by the model's gamma of their
3x3 pattern with atari states (:func:`mcgo.models.move_features.pattern3_code`; the model's
largest feature, and a table lookup) and one is drawn in proportion to it: a small
tournament that leans towards the model's shapes at a fixed cost per move. With no
playable candidate found it is the pattern policy's random move.

Measured on 9x9 (benchmarks/journal/): with the whole model's gamma (diamonds, tactics,
distances, line too) the fallback won 0.73 at equal simulations but cost 2.7 times the CPU
per simulation and lost at equal CPU (0.29); with the pattern gamma alone, 0.58 at equal
simulations and 0.49 at equal CPU (0.72 of the rate). Not the default.

The model is the ``model`` tuple of :func:`.learned_policy.model_tables`; without one given,
the shipped default model (:data:`READS_MODEL`, :func:`.dispatch.playout_tables`).
"""

import numpy as np

from ..board.kernels import (BOARDSIZE, EMPTIES, LAST_MOVE, LEGAL, NEMPTY, PASS, PASSES,
                             TO_MOVE, WIDTH, legality, owner_map, play_legal)
from ..jit import inline_kernel, kernel
from ..models.move_features import pattern3_code
from ..tactics.eyes import is_true_eye
from .common import (MOVE_CAP_FACTOR, REJECT_SELF_ATARI, random_below, random_move,
                     record_move, rejects_self_atari)
from .learned_policy import random_unit
from .pattern_policy import NAKADE_ROW, shape_move, urgent_move

READS_MODEL = True     # its playouts read the learned move model (the shipped one unless given)
FALLBACK_CANDIDATES = 4   # playable points the model chooses among
FALLBACK_TRIES = 8        # random empty points drawn to find them


@kernel
def model_weighted_move(pts, info, rng, color, model, scratch):
    """One of up to ``FALLBACK_CANDIDATES`` random playable points, drawn in proportion to
    the model's gamma; the pattern policy's random move when none is found."""
    n = info[NEMPTY]
    if n == 0:
        return PASS
    pattern_lg = model[0]
    w = info[WIDTH]
    total = 0.0
    chosen = PASS
    found = 0
    for _ in range(FALLBACK_TRIES):
        p = pts[EMPTIES, random_below(rng, n)]
        if legality(pts, info, p, color) != LEGAL or is_true_eye(pts, w, p, color):
            continue
        if rejects_self_atari(pts, w, p, color, rng, REJECT_SELF_ATARI, scratch):
            continue
        g = np.exp(pattern_lg[pattern3_code(pts, w, p, color)])
        total += g
        if random_unit(rng) * total < g:
            chosen = p
        found += 1
        if found == FALLBACK_CANDIDATES:
            break
    if chosen != PASS:
        return chosen
    return random_move(pts, info, rng, color, REJECT_SELF_ATARI, scratch)


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color, model):
    """The guided policy's move for ``color``; PASS when nothing is left to play."""
    last = info[LAST_MOVE]
    if last > 0:
        move = urgent_move(pts, info, zob, work, last, color, False)
        if move != PASS:
            return move
    move = shape_move(pts, info, pat3, work, rng, last, color, False)
    if move != PASS:
        return move
    return model_weighted_move(pts, info, rng, color, model, work[0][NAKADE_ROW])


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record, model):
    """A guided playout to the end; as :func:`.common.play_moves` (whose policies take no
    model), with the model handed to every move."""
    cap = MOVE_CAP_FACTOR * info[BOARDSIZE] * info[BOARDSIZE]
    moves = 0
    while moves < cap and info[PASSES] < 2:
        color = info[TO_MOVE]
        p = choose_move(pts, info, zob, pat3, work, rng, color, model)
        play_legal(pts, info, zob, p, color)
        record_move(record, moves, p, color)
        moves += 1
    owner_map(pts, info, owner)
    return moves
