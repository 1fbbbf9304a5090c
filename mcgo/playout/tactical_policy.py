"""The tactical playout: the pattern playout (:mod:`.pattern_policy`) reading ladders and
nakade too.

Step 1 (capture or escape) does not extend a chain in atari into a ladder that works, and an
atari on the last move's chain that starts a working ladder comes right after it
(:mod:`mcgo.tactics.ladder`); then the vital point of a small eyespace at the last move
(:func:`mcgo.tactics.nakade.nakade_answer`), and a nakade throw-in is never rejected as a
self-atari (:func:`mcgo.tactics.nakade.makes_nakade`). The nakade reading costs no
measurable speed; each part's A/B is in benchmarks/journal/. The reads cost about a third of the playout rate (9x9: 310
against 490 ns of CPU a playout move; 19x19: 293 against 565); at equal simulations it won
56 of 103 games against the pattern playouts (benchmarks/journal/), at equal time it lost:
so it is not the default, and ``auto`` keeps the thesis's choice.
"""

from ..jit import inline_kernel, kernel
from .common import play_moves
from .pattern_policy import choose_move_with


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The tactical policy's move for ``color``; PASS when nothing is left to play."""
    return choose_move_with(pts, info, zob, pat3, work, rng, color, True)


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record, model):
    """A tactical playout to the end (``model`` unused); see :func:`.common.play_moves`."""
    return play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record)
