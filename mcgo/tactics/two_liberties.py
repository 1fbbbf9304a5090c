"""Two-liberty fights: the answer when the last move left a chain with two liberties.

After the opponent's move, a chain with two liberties next to it is either the mover's own
(the move took one of its liberties: it may be captured next) or the opponent's own chain
(the move itself ran into two liberties: it may be capturable now). The answers, as the
strong playout policies of 2008-2012 play them (MoGo's and Pachi's "2-liberty" checks; the
rules here are mcgo's own):

* **save** an own chain with two liberties (:func:`save_two_liberties`): capture an opponent
  chain in atari that touches it, else extend at a liberty where the chain then has three
  liberties or more;
* **capture** an opponent chain with two liberties (:func:`capture_two_liberties`): an atari
  at one liberty that is not itself a self-atari, after which the chain cannot get out:
  extending at its other liberty leaves it at most one liberty (it is taken next), and no
  chain of ours around it is in atari for it to take instead.

Chasing a chain that would get two liberties back is a ladder (:mod:`.ladder`), not read
here. :func:`two_liberty_answer` picks among the chains touching the last move, the biggest
first, saving before capturing.

Measured (benchmarks/journal/2026-11.md): as step 2 of the pattern playout on 9x9 it scored
0.505 over 200 games at equal simulations against the playout without it, and cost about a
fifth of the time per simulation, so the pattern playout does not play it. The ``tactical``
playout (:mod:`mcgo.playout.tactical_policy`) plays it after its ladder attack and nakade
answer; there the capture has already been read (it is the ladder attack's first case:
an atari whose extension is left in atari), so what it adds is the save. Its cost on 19x19
is in benchmarks/journal/2026-12.md.

>>> import mcgo
>>> board = mcgo.Board(9)
>>> for move in ["A3", "A2", "B3", "pass", "C2", "B2"]:    # white A2-B2: liberties A1, B1
...     board.play(move)
>>> mcgo.to_gtp(two_liberty_answer(board.pts, board.info, board.point("B2"), mcgo.BLACK), 9)
'B1'
"""

from ..board.kernels import COLOR, LEGAL, PASS, WIDTH, legality
from ..jit import kernel
from .liberties import (capture_touching, chains_near, extension_liberties, liberties_after,
                        touches_atari, two_liberties)

ESCAPE_LIBERTIES = 3    # an extension that reaches this many liberties saves the chain
CAPTURED_LIBERTIES = 1  # an extension left with at most this many is taken next move


@kernel
def save_two_liberties(pts, info, head, color):
    """A move of ``color`` that saves its chain ``head`` (two liberties): capture an
    opponent chain in atari next to it, else extend at a liberty that gives it three
    liberties or more; PASS if there is none."""
    w = info[WIDTH]
    capture = capture_touching(pts, info, head, color)
    if capture != PASS:
        return capture
    first, second = two_liberties(pts, w, head)
    for lib in (first, second):
        if lib != PASS and legality(pts, info, lib, color) == LEGAL \
                and extension_liberties(pts, w, lib, color, PASS) >= ESCAPE_LIBERTIES:
            return lib
    return PASS


@kernel
def capture_two_liberties(pts, info, head, color):
    """An atari of ``color`` on the opponent chain ``head`` (two liberties) after which the
    chain is taken whatever it does: our stone keeps two liberties, the chain's extension at
    its other liberty keeps at most one, and it touches no chain of ours in atari. PASS if
    there is none."""
    w = info[WIDTH]
    opp = 3 - color
    if touches_atari(pts, w, head, color):
        return PASS
    first, second = two_liberties(pts, w, head)
    if second == PASS:
        return PASS
    for atari in (first, second):
        other = second if atari == first else first
        if legality(pts, info, atari, color) != LEGAL:
            continue
        libs, _ = liberties_after(pts, w, atari, color)
        if libs < 2:
            continue
        if extension_liberties(pts, w, other, opp, atari) <= CAPTURED_LIBERTIES:
            return atari
    return PASS


@kernel
def two_liberty_answer(pts, info, last, color):
    """The answer of ``color`` to the last move ``last`` among the chains at or next to it
    with exactly two liberties, the biggest first: save an own chain
    (:func:`save_two_liberties`), or capture the opponent's (:func:`capture_two_liberties`).
    PASS when no such chain has an answer."""
    w = info[WIDTH]
    chains = chains_near(pts, w, last, 2)
    if chains[0] == PASS:
        return PASS                     # the common case: no such chain there
    for h in chains:
        if h == PASS:
            break
        if pts[COLOR, h] == color:
            move = save_two_liberties(pts, info, h, color)
        else:
            move = capture_two_liberties(pts, info, h, color)
        if move != PASS:
            return move
    return PASS
