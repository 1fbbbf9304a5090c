"""One-liberty fights: captures, escapes and self-atari.

The rules the pattern playout follows move by move (its first step, and its rejection of
self-atari) and that the priors reward or punish in the tree.
"""

from ..board.kernels import COLOR, HEAD, LEGAL, LIBS, PASS, WIDTH, legality
from ..jit import kernel
from .ladder import ladder_captures
from .liberties import capture_of, capture_touching, chains_near, first_liberty, liberties_after


@kernel
def is_capture(pts, w, p, color):
    """True when ``color`` playing at ``p`` takes an opponent chain in atari."""
    opp = 3 - color
    for q in (p - 1, p + 1, p - w, p + w):
        if pts[COLOR, q] == opp and pts[LIBS, pts[HEAD, q]] == 1:
            return True
    return False


@kernel
def is_self_atari(pts, w, p, color):
    """True when ``color`` playing the legal move ``p`` leaves a chain of two or more stones
    with a single liberty. A move that captures is never a self-atari."""
    libs, stones = liberties_after(pts, w, p, color)
    return libs < 2 and stones >= 2


@kernel
def escape_atari(pts, info, zob, ladder, head, color, read_ladders):
    """A move that saves the own chain ``head`` (in atari): capture a neighbouring chain in
    atari, else extend at the liberty if that leaves two or more liberties and (with
    ``read_ladders``) the chain does not then die in a ladder (read with
    :func:`mcgo.tactics.ladder.ladder_captures` in the ladder space ``ladder``); PASS if none."""
    w = info[WIDTH]
    capture = capture_touching(pts, info, head, color)
    if capture != PASS:
        return capture
    lib = first_liberty(pts, w, head)
    if legality(pts, info, lib, color) == LEGAL:
        libs, _ = liberties_after(pts, w, lib, color)
        if libs >= 2 and not (read_ladders and ladder_captures(pts, info, zob, ladder, head)):
            return lib
    return PASS


@kernel
def capture_or_escape(pts, info, zob, ladder, last, color, read_ladders):
    """The answer to the last move ``last`` among the chains at or next to it that are in
    atari, the biggest first: capture an opponent chain, or save an own one by
    :func:`escape_atari` (``read_ladders``: see there). PASS if there is none."""
    w = info[WIDTH]
    opp = 3 - color
    chains = chains_near(pts, w, last, 1)
    if chains[0] == PASS:
        return PASS                     # the common case: no chain in atari there
    for h in chains:
        if h == PASS:
            break
        if pts[COLOR, h] == opp:
            move = capture_of(pts, info, h, color)
        else:
            move = escape_atari(pts, info, zob, ladder, h, color, read_ladders)
        if move != PASS:
            return move
    return PASS
