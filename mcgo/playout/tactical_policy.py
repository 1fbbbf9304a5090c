"""The tactical playout: the pattern playout (:mod:`.pattern_policy`) reading ladders,
nakade and two-liberty fights too.

Step 1 (capture or escape) does not extend a chain in atari into a ladder that works, and an
atari on the last move's chain that starts a working ladder comes right after it
(:mod:`mcgo.tactics.ladder`); then the vital point of a small eyespace at the last move
(:func:`mcgo.tactics.nakade.nakade_answer`); then the answer to a chain the last move left
with two liberties (:func:`mcgo.tactics.two_liberties.two_liberty_answer`: an own chain is
saved by a capture or by an extension to three liberties; the capture of the last move's
chain it would find is the ladder attack's already). A nakade throw-in is never rejected as
a self-atari (:func:`mcgo.tactics.nakade.makes_nakade`). Each part's A/B is in
benchmarks/journal/.

The reads cost about three fifths of the playout rate: on 19x19, from the empty board, 3,745
playouts per CPU-second against the pattern playout's 9,040 and Pachi's moggy's 3,733 in the
same run (benchmarks/journal/2026-12.md; the ladder reads and the nakade answer take most of
it, the two-liberty answer nothing measurable; before the reads' cheap exact pre-checks and
the ladder steps played in place, 3,137 against moggy's 3,746). On 9x9 its ladder reading alone won 56 of 103
games against the pattern playouts at equal simulations and 99.5 of 200 at equal CPU: and on
19x19 at 1 s a move it lost to the default 4-7 and 12-21 (benchmarks/RESULTS.md): so it is
not the default, and ``auto`` keeps the thesis's choice.
"""

from ..jit import inline_kernel, kernel
from .common import play_moves
from .pattern_policy import choose_move_with


@inline_kernel
def choose_move(pts, info, zob, pat3, work, rng, color):
    """The tactical policy's move for ``color``; PASS when nothing is left to play."""
    return choose_move_with(pts, info, zob, pat3, work, rng, color, True)


@kernel
def play_out(pts, info, zob, pat3, work, rng, owner, record):
    """A tactical playout to the end; see :func:`.common.play_moves`."""
    return play_moves(choose_move, pts, info, zob, pat3, work, rng, owner, record)
