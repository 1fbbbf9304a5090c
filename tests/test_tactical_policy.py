"""The ``tactical`` playout's answer to a two-liberty fight, against GNU Go 3.8's reading.

White's last move (``L`` in the drawings) leaves a black chain with two liberties. The
capture-or-escape step, the ladder attack and the nakade answer have nothing to say there,
so the tactical playout's first move is the two-liberty answer
(:func:`mcgo.tactics.two_liberties.two_liberty_answer`): every playout must open with the
same move, where the pattern playout, which does not read it, opens elsewhere too. GNU Go
checks the move: an extension saves a chain that GNU Go's ``attack`` captures before it and
not after; a capture of a chain in atari next to ours is GNU Go's ``defend`` answer (GNU Go
counts the chain safe while that capture is open, so ``attack`` fails before it). Each
position is played in its 8 symmetries (the liberty the rule extends at depends on the order
of the chain's stones).

The tactical playout's atari on the last move's own chain when that chain cannot get out
is its ladder attack (tests/test_ladder.py); the two-liberty answer finds no other capture.
"""

import numpy as np
import pytest

import mcgo
from mcgo import playout
from mcgo.board import coords
from mcgo.board import kernels as K
from mcgo.gtp.controller import GtpEngine
from mcgo.tactics import atari, ladder, nakade

import helpers
from test_nakade import symmetries

PLAYOUTS = 20

EXTENSIONS = {
    # black D5-E5 is left with D4 and E4; either extension gives three liberties
    "in the open": [".........",
                    ".........",
                    ".........",
                    "...OO....",
                    "..OXXL...",
                    ".........",
                    ".........",
                    ".........",
                    "........."],
    # on the second line: D1 would be captured, E3 gets out
    "from the edge": [".........",
                      ".........",
                      ".........",
                      ".........",
                      ".........",
                      ".........",
                      "...O.....",
                      "..OXXL...",
                      "....O...."],
    # white's first-line move D1 takes a liberty from below: F2 gets out
    "along the edge": [".........",
                       ".........",
                       ".........",
                       ".........",
                       ".........",
                       ".........",
                       "...OO....",
                       "..OXX....",
                       "...L....."],
}

CAPTURES = {
    # white C5, in atari and not next to the last move, is taken at C6
    "in the open": [".........",
                    ".........",
                    ".........",
                    "...OO....",
                    ".XOXXL...",
                    "..X......",
                    ".........",
                    ".........",
                    "........."],
    # white C2 on the second line is taken at C1
    "on the edge": [".........",
                    ".........",
                    ".........",
                    ".........",
                    ".........",
                    ".........",
                    "..XOO....",
                    ".XOXXL...",
                    "........."],
}


def fight(rows):
    """The drawing's stones set up, white's last move ``L`` played: ``(board, the stones'
    rows, the last move, a stone of the black chain it leaves with two liberties)``."""
    size = len(rows)
    stones = [r.replace("L", ".") for r in rows]
    (last,) = [coords.point(size - 1 - i, c, size) for i, r in enumerate(rows)
               for c, ch in enumerate(r) if ch == "L"]
    board = helpers.board_from_rows(stones, to_move=mcgo.WHITE, superko=False)
    board.play(last)
    w = size + 2
    (chain,) = {board.pts[K.HEAD, q] for q in (last - 1, last + 1, last - w, last + w)
                if board.pts[K.COLOR, q] == mcgo.BLACK
                and board.pts[K.LIBS, board.pts[K.HEAD, q]] == 2}
    return board, stones, last, int(chain)


def earlier_answers(board, last):
    """What the tactical playout's steps before the two-liberty answer say to ``last``."""
    space = ladder.new_ladder_space(board.size)
    return (atari.capture_or_escape(board.pts, board.info, board.zob, space, last, mcgo.BLACK,
                                    True),
            ladder.ladder_attack(board.pts, board.info, board.zob, space, last, mcgo.BLACK),
            nakade.nakade_answer(board.pts, board.info, last, mcgo.BLACK,
                                 np.zeros(8, dtype=np.int32)))


def drawings(rows):
    return ["".join(row) for row in np.asarray(rows)]


def tactical_answers(rows, gnugo):
    """For each of the 8 symmetries of the drawing: check that the earlier steps have no
    answer and that every tactical playout opens with one move, which the pattern playout
    does not always play; set the position up on GNU Go (white's last move played) and yield
    ``(where, the chain's vertex, the move's vertex)``."""
    for turned in symmetries(rows):
        board, stones, last, chain = fight(drawings(turned))
        where = "\n".join(drawings(turned))
        assert earlier_answers(board, last) == (K.PASS, K.PASS, K.PASS), where
        firsts = playout.first_moves(board, playouts=PLAYOUTS, policy="tactical", seed=1)
        assert len(firsts) == 1, (where, firsts)
        (move,) = firsts
        pattern = playout.first_moves(board, playouts=PLAYOUTS, policy="pattern", seed=1)
        assert pattern != {move: PLAYOUTS}, where
        helpers.load_rows(gnugo, stones, 0)
        gnugo.send(f"play white {coords.to_gtp(last, board.size)}")
        yield where, coords.to_gtp(chain, board.size), coords.to_gtp(move, board.size)


@pytest.mark.parametrize("name", sorted(EXTENSIONS))
def test_tactical_playout_extends_a_two_liberty_chain_out_of_gnugos_attack(name, gnugo_command):
    """GNU Go captures the chain before the tactical playout's first move and not after it."""
    with GtpEngine(gnugo_command) as gnugo:
        for where, chain, move in tactical_answers(EXTENSIONS[name], gnugo):
            assert gnugo.send(f"attack {chain}").split()[0] != "0", where
            gnugo.send(f"play black {move}")
            assert gnugo.send(f"attack {chain}").split()[0] == "0", (where, move)


@pytest.mark.parametrize("name", sorted(CAPTURES))
def test_tactical_playout_saves_a_two_liberty_chain_by_gnugos_capture(name, gnugo_command):
    """The tactical playout's first move is GNU Go's defence of the chain, and after it GNU Go
    cannot capture the chain."""
    with GtpEngine(gnugo_command) as gnugo:
        for where, chain, move in tactical_answers(CAPTURES[name], gnugo):
            assert gnugo.send(f"defend {chain}").split() == ["1", move], where
            gnugo.send(f"play black {move}")
            assert gnugo.send(f"attack {chain}").split()[0] == "0", (where, move)
