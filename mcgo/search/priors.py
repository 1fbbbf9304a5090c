"""Prior knowledge for a new node, as virtual playouts (Gelly and Silver 2007).

A new child starts with ``PRIOR_EVEN`` virtual visits at an even win rate; the same rules
the pattern playout follows then add virtual wins (a capture, an escape from atari, an atari
that starts a working ladder or a move that gets a chain out of one before it starts, a
MoGo 3x3 shape next to the last move, a free 3rd or 4th line point in an empty area) or
virtual losses (a self-atari, running out of a working ladder, the 1st or 2nd line in an
empty area, a pass while a border is still open by
:func:`~mcgo.tactics.geometry.has_open_region`; under territory scoring, virtual wins of a
pass once none is). The real playouts soon outweigh them; they only decide which moves the search looks at first. The rules themselves live in
:mod:`mcgo.tactics`, shared with the playouts.

With a learned move model (:mod:`mcgo.models.movemodel`, ``mcgo gtp --model FILE``), each new
child first gets ``strength`` virtual visits (:data:`MODEL_PRIOR_VISITS` by default) with
``strength * P(move) / P(best move)`` virtual wins, the progressive-bias idea as virtual
playouts: the model's favourite looks like a sure win at first, a move it finds a hundred
times less likely like a loss; the hand-written priors come on top.
"""

import math

from ..board.kernels import BOARDSIZE, COLOR, HEAD, LAST_MOVE, LIBS, PASS, PREVIOUS_MOVE, WIDTH
from ..jit import kernel
from ..models.movemodel import move_log_gamma
from ..playout.pattern_policy import neighbourhood_code
from ..tactics.atari import capture_or_escape, is_capture, is_self_atari
from ..tactics.ladder import ladder_attack, ladder_captures, ladder_threat
from ..tactics.liberties import extension_liberties
from ..tactics.geometry import (FIRST_GOOD_LINE, edge_distance, has_open_region, in_empty_area,
                                is_good_line, is_next_to)
from .tree import PRIOR_VISITS, PRIOR_WINS

PRIOR_EVEN = 10.0           # virtual visits of every move, at a 50% win rate
PRIOR_CAPTURE = 20.0        # virtual wins of a move that captures
PRIOR_ESCAPE = 20.0         # the playout's capture-or-escape answer to the last move
PRIOR_SHAPE = 10.0          # a 3x3 shape next to the last move
PRIOR_SELF_ATARI = 20.0     # virtual losses of a self-atari of 2+ stones
PRIOR_LADDER = 20.0         # virtual wins of an atari that starts a working ladder, and
                            # virtual losses of an extension that runs into one
PRIOR_GOOD_LINE = 10.0      # 3rd/4th line point in an empty area
PRIOR_BAD_LINE = 10.0       # 1st/2nd line point in an empty area (losses)
PRIOR_PASS = 20.0           # virtual losses of a pass while a border is still open
PRIOR_CLOSED_PASS = 20.0    # virtual wins of a pass once every border is drawn (territory)
MODEL_PRIOR_VISITS = 20.0   # virtual visits of the model's prior (mcgo gtp --model)
PRIOR_SHAPE_RATIO = 0       # model_prior_shape: see set_model_priors
PRIOR_SHAPE_SQRT = 1


@kernel
def add_prior(floats, node, visits, wins):
    floats[PRIOR_VISITS, node] += visits
    floats[PRIOR_WINS, node] += wins


@kernel
def runs_into_ladder(pts, info, zob, ladder, p, color):
    """True when ``p`` is the liberty of an own chain in atari and that chain, extending
    there, dies in a ladder (unless ``p`` captures: then it is not an extension)."""
    w = info[WIDTH]
    for q in (p - 1, p + 1, p - w, p + w):
        if pts[COLOR, q] == 3 - color and pts[LIBS, pts[HEAD, q]] == 1:
            return False
    for q in (p - 1, p + 1, p - w, p + w):
        if pts[COLOR, q] == color and pts[LIBS, pts[HEAD, q]] == 1 \
                and ladder_captures(pts, info, zob, ladder, q):
            return True
    return False


@kernel
def leaves_the_ladder(pts, w, p, head, color):
    """True when ``color`` at ``p``, a liberty of its own chain ``head`` (two liberties,
    threatened by a ladder), gives that chain three liberties or more."""
    touches = False
    for q in (p - 1, p + 1, p - w, p + w):
        if pts[HEAD, q] == head and pts[COLOR, q] == color:
            touches = True
    return touches and extension_liberties(pts, w, p, color, PASS) >= 3


@kernel
def set_priors(ints_moves, floats, first, count, pts, info, zob, pat3, ladder, color,
               closed_pass, rows):
    """Give the ``count`` children starting at column ``first`` (moves in ``ints_moves``)
    their prior virtual visits and wins in the position ``(pts, info)`` (``ladder``: the
    thread's ladder space, :mod:`mcgo.tactics.ladder`). ``closed_pass``: virtual wins of
    a pass once no border is open (:data:`PRIOR_CLOSED_PASS` under territory scoring, 0
    under area scoring). ``rows``: int32 scratch rows, one entry per point (the playout's
    work rows): the pass's open-region test uses rows 1 and 2."""
    w = info[WIDTH]
    size = info[BOARDSIZE]
    last = info[LAST_MOVE]
    escape = PASS
    attack = PASS
    threat = PASS
    if last > 0:
        escape = capture_or_escape(pts, info, zob, ladder, last, color, True)
        attack = ladder_attack(pts, info, zob, ladder, last, color)
        threat = ladder_threat(pts, info, zob, ladder, last, color)
    for c in range(first, first + count):
        p = ints_moves[c]
        add_prior(floats, c, PRIOR_EVEN, PRIOR_EVEN / 2)
        if p == PASS:
            # Not while a border is open; once every empty region is one side's, passing
            # is a real candidate, and under territory scoring often the best one (Fuego's
            # cleanup_japanese_rules.tst, the Yamato and Aja Huang positions). There it
            # starts as a good move: the learned model rates a pass as the rarest move
            # (records pass only at the very end), and at an even prior one lost first
            # playout shut it out whenever an invasion the playouts misread looked even
            # (Aja's move 22). Not under area scoring, where a pass and a move inside one's
            # own area are worth the same, and two passes in the tree end a simulation with
            # every stone alive: more of them blur the ownership that the dead stones are
            # judged by before the engine passes (cleanup_japanese_rules.tst 190 without
            # its rules: B1 instead of a pass).
            if has_open_region(pts, info, rows[1], rows[2]):
                add_prior(floats, c, PRIOR_PASS, 0.0)
            elif closed_pass != 0.0:
                add_prior(floats, c, closed_pass, closed_pass)
            continue
        if is_capture(pts, w, p, color):
            add_prior(floats, c, PRIOR_CAPTURE, PRIOR_CAPTURE)
        if p == escape:
            add_prior(floats, c, PRIOR_ESCAPE, PRIOR_ESCAPE)
        if is_self_atari(pts, w, p, color):
            add_prior(floats, c, PRIOR_SELF_ATARI, 0.0)
        if p == attack or (threat != PASS and leaves_the_ladder(pts, w, p, threat, color)):
            add_prior(floats, c, PRIOR_LADDER, PRIOR_LADDER)
        elif runs_into_ladder(pts, info, zob, ladder, p, color):
            add_prior(floats, c, PRIOR_LADDER, 0.0)
        if last > 0 and is_next_to(p, last, w) and pat3[neighbourhood_code(pts, w, p)] != 0:
            add_prior(floats, c, PRIOR_SHAPE, PRIOR_SHAPE)
        if in_empty_area(pts, w, size, p):
            line = edge_distance(p, w, size)
            if line < FIRST_GOOD_LINE:
                add_prior(floats, c, PRIOR_BAD_LINE, 0.0)
            elif is_good_line(line):
                add_prior(floats, c, PRIOR_GOOD_LINE, PRIOR_GOOD_LINE)


@kernel
def set_model_priors(ints_moves, floats, first, count, pts, info, zob, ladder, color, strength,
                     shape, pattern_lg, group_lg, spatial_keys, spatial_lg, vals):
    """The learned model's prior of the ``count`` new children from column ``first``, in one
    of two shapes (``shape``, the ``model_prior_shape`` setting):

    * ``PRIOR_SHAPE_RATIO``: ``strength`` virtual visits with ``strength * P(move) / P(best)``
      virtual wins (the model's favourite looks like a sure win, a rare move like a loss);
    * ``PRIOR_SHAPE_SQRT``: ``strength * sqrt(P(move))`` virtual visits, all of them wins,
      ``P`` the model's probability among these moves (Pachi's pattern prior: every move the
      model likes looks good at first, the more so the likelier; none looks bad).

    The model reads the position's last two moves (``info``), as it was trained. Call it
    before :func:`set_priors` (it uses the children's PRIOR_WINS as scratch)."""
    last = info[LAST_MOVE]
    previous = info[PREVIOUS_MOVE]
    best = -1e300
    for c in range(first, first + count):
        lg = move_log_gamma(pts, info, zob, ladder, ints_moves[c], color, last, previous,
                            pattern_lg, group_lg, spatial_keys, spatial_lg, vals)
        floats[PRIOR_WINS, c] = lg
        if lg > best:
            best = lg
    total = 0.0
    for c in range(first, first + count):
        floats[PRIOR_WINS, c] = math.exp(floats[PRIOR_WINS, c] - best)
        total += floats[PRIOR_WINS, c]
    for c in range(first, first + count):
        ratio = floats[PRIOR_WINS, c]
        floats[PRIOR_WINS, c] = 0.0
        if shape == PRIOR_SHAPE_SQRT:
            bonus = strength * math.sqrt(ratio / total)
            add_prior(floats, c, bonus, bonus)
        else:
            add_prior(floats, c, strength, strength * ratio)
