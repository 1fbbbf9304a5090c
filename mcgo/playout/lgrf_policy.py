"""The last-good-reply playout with forgetting, LGRF-2 (Baier and Drake, "The Power of
Forgetting: Improving the Last-Good-Reply Policy in Monte Carlo Go", IEEE TCIAIG 2010),
in front of the pattern playout (:mod:`.pattern_policy`).

Each thread keeps two tables of replies (in its work tuple, :func:`new_reply_tables`):
``reply1[c - 1, m1]``, colour ``c``'s reply to the previous move ``m1``, and
``reply2[c - 1, m2, m1]``, its reply to the two previous moves ``m2, m1`` (PASS: none).
After every simulation (:func:`learn_reply`, called by the search's kernels and
:func:`mcgo.playout.dispatch.run_batch`) each move ``m`` of it, tree moves and playout
moves alike, becomes the reply of its player to the moves before it if that player won;
if the player lost, the stored replies to those moves are forgotten, but only where they are
``m`` itself. Passes are never stored, and a pass as the previous move has no reply.

A move of the policy, in this order:

1. the LGR-2 reply to the last two moves, then the LGR-1 reply to the last move, if it is
   legal, does not fill the mover's own true eye and is no self-atari of two or more
   stones;
2. the pattern playout (capture or escape on the last move, shape, free area, random).

The reply comes first, as in Baier and Drake's Orego. The other order (the pattern
playout's capture or escape first, then the reply) was measured too, 9x9, 2000 simulations
against the pattern playouts, 100 games each: reply first 0.555 [0.457, 0.649], tactics
first 0.430 [0.337, 0.528] (benchmarks/RESULTS.md).

The move before the last is not in the position (``info`` keeps only the last): the slots
array ``work[4]`` carries it. ``PLAYOUT_BEFORE_LAST`` is set by whoever starts a playout
(the search: the tree move before the leaf), ``BEFORE_LAST`` follows the playout move by
move, and ``ROOT_BEFORE_LAST`` is the move before the search root's last move (set from
the game's history by :class:`mcgo.search.Search`; -1: unknown).
"""

import numpy as np

from ..board.kernels import BLACK, LAST_MOVE, LEGAL, PASS, WIDTH, legality
from ..jit import allocating_kernel, inline_kernel, kernel
from ..tactics.atari import is_self_atari
from ..tactics.eyes import is_true_eye
from .common import RECORD_COLORS, play_moves
from .pattern_policy import shape_or_random_move, urgent_move

REPLY1 = 2              # work[REPLY1]: reply1[colour - 1, previous move]
REPLY2 = 3              # work[REPLY2]: reply2[colour - 1, move before, previous move]
SLOTS = 4               # work[SLOTS]: the move slots below
BEFORE_LAST = 0         # the move before info[LAST_MOVE] during a playout
PLAYOUT_BEFORE_LAST = 1  # the same at the start of the next playout
ROOT_BEFORE_LAST = 2    # the same at the search's root
NO_MOVE = -1            # a slot's value when there is no such move (or it is unknown)


@allocating_kernel
def new_reply_tables(size):
    """Empty reply tables for a ``size`` board, ``(reply1, reply2, slots)``: int32,
    ``2 x W*W``, ``2 x W*W x W*W`` and 3 move slots (all ``NO_MOVE``); 1.6 MB on 19x19."""
    n = (size + 2) * (size + 2)
    slots = np.empty(3, dtype=np.int32)
    slots[:] = NO_MOVE
    return (np.zeros((2, n), dtype=np.int32), np.zeros((2, n, n), dtype=np.int32), slots)


@kernel
def learn_reply(reply1, reply2, before, previous, move, color, black_result):
    """The update rule for one move: ``color`` played ``move`` after ``before, previous``
    in a simulation that black won by ``black_result`` (1, 0; a jigo's 0.5 teaches
    nothing). A winner's move becomes its reply; a loser's reply that is this move is
    forgotten. Passes are no replies; a pass or no move before gives no key."""
    if move <= PASS or previous <= PASS or black_result == 0.5:
        return
    c = color - 1
    won = (black_result > 0.5) == (color == BLACK)
    if won:
        reply1[c, previous] = move
        if before > PASS:
            reply2[c, before, previous] = move
    else:
        if reply1[c, previous] == move:
            reply1[c, previous] = PASS
        if before > PASS and reply2[c, before, previous] == move:
            reply2[c, before, previous] = PASS


@kernel
def learn_record(reply1, reply2, before, previous, record, n, black_result):
    """:func:`learn_reply` for the first ``n`` moves of a playout ``record``
    (``point * RECORD_COLORS + colour``) played after ``before, previous``."""
    for i in range(n):
        move = record[i] // RECORD_COLORS
        learn_reply(reply1, reply2, before, previous, move, record[i] % RECORD_COLORS,
                    black_result)
        before = previous
        previous = move


@kernel
def good_reply(pts, info, p, color):
    """A stored reply ``p`` is played only if legal, not a fill of the mover's own true eye
    and not a self-atari of two or more stones."""
    w = info[WIDTH]
    return (p > PASS and legality(pts, info, p, color) == LEGAL and not is_true_eye(pts, w, p, color)
            and not is_self_atari(pts, w, p, color))


@inline_kernel
def reply_move(pts, info, work, before, last, color):
    """The LGR-2 reply to ``before, last``, else the LGR-1 reply to ``last`` (a point), if
    good (:func:`good_reply`); PASS if neither."""
    c = color - 1
    if before > PASS:
        p = work[REPLY2][c, before, last]
        if p != PASS and good_reply(pts, info, p, color):
            return p
    p = work[REPLY1][c, last]
    if p != PASS and good_reply(pts, info, p, color):
        return p
    return PASS


@inline_kernel
def choose_move_after(pts, info, zob, pat3, work, rng, color, before):
    """The policy's move for ``color`` when ``before`` was played before the last move
    (``NO_MOVE``: unknown); PASS when nothing is left to play."""
    last = info[LAST_MOVE]
    if last > 0:
        move = reply_move(pts, info, work, before, last, color)
        if move != PASS:
            return move
        move = urgent_move(pts, info, zob, work, last, color, False)
        if move != PASS:
            return move
    return shape_or_random_move(pts, info, pat3, work, rng, last, color, False, False)


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The policy's move for ``color`` in a playout: reads the move before the last from the
    ``BEFORE_LAST`` slot and moves the last one into it (called once per move)."""
    slots = work[SLOTS]
    before = slots[BEFORE_LAST]
    slots[BEFORE_LAST] = info[LAST_MOVE]
    return choose_move_after(pts, info, zob, pat3, work, rng, color, before)


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record, model):
    """An LGRF-2 playout to the end (``model`` unused), after the move in the
    ``PLAYOUT_BEFORE_LAST`` slot; see :func:`.common.play_moves`."""
    slots = work[SLOTS]
    slots[BEFORE_LAST] = slots[PLAYOUT_BEFORE_LAST]
    return play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record)
