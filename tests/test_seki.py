"""``final_status_list seki|dead|alive`` against GNU Go 3.8 on finished positions: classic
sekis (no eyes and two shared liberties, a ring without eyes around an eyeless group, eye
against eye in the corner and on a 6x6 board, eye against no eye, whole 9x9 and 19x19 games
ending in seki), and positions without seki (dame between living groups, dead stones, a
capturing race that one side wins). GNU Go is the reference: every answer is compared as a
set of points, none is written down here.

Positions come as text rows (played in, then both sides pass) or as SGF files of the Fuego
regression suites (``loadsgf``). The engine runs in-process with its fixed status playouts.
"""


import dataclasses

import numpy as np
import pytest

import mcgo
from mcgo.board import coords
from helpers import Session, load_rows, stones_of_rows
from mcgo.gtp.controller import GtpEngine
from mcgo import sgf
from mcgo.judge.status import dame_left, estimate, judge

STATUSES = ("seki", "dead", "alive")

ROWS = {
    # Black C9-E7 and white E9-E8 share D9 and D8 and have no eyes; both are surrounded
    # by living groups, and no living group touches the shared liberties.
    "seki without eyes": (True, [". O X . O X . X .",
                           "O O X . O X X X X",
                           ". O X X X O O O O",
                           "O O O O O O O O O",
                           "X X X X X X X X X",
                           ". X . X . X . X .",
                           "X X X X X X X X X",
                           ". . . . . . . . .",
                           ". . . . . . . . ."], 7.0),
    # A white ring without eyes around black stones; they share the space C7-D7.
    "ring seki": (True, ["X X X X X X X X X",
                   "X O O O O O O O X",
                   "X O . . X X X O X",
                   "X O X X X X X O X",
                   "X O O O O O O O X",
                   "X X X X X X X X X",
                   "X . X X X X X X X",
                   "X X X X X X X . X",
                   "X X X X X X X X X"], 7.0),
    # Corner: black B9-B8 with the eye A9, white D9-F8 with the eye E9, sharing C9.
    "corner seki, eye against eye": (True, [". X . O . O X . X",
                                "X X O O O O X X X",
                                "O O X X X X X . X",
                                ". O X . X X X X X",
                                "O O X X X . X . X",
                                ". O X X X X X X X",
                                "O O X . X . X . X",
                                ". O X X X X X X X",
                                "O O X . X . X . X"], 7.0),
    # Finished, with the dame E6, E4 and E2 between two living groups: no seki.
    "dame": (False, [". O . O X . X . .",
              "O O O O X X X X X",
              ". O . O X . X . X",
              "O O O O . X X X X",
              ". O . O O X . X .",
              "O O O O . X X X X",
              ". O . O X X . X .",
              "O O O O . X X X X",
              ". O . O O X . X ."], 7.0),
}

SGF = {
    # 6x6, from Sensei's Library: eye against eye, and eye against no eye.
    "eye against eye 6x6": (True, "seki/seki-eye-vs-eye.1.sgf"),
    "eye against no eye 6x6": (True, "seki/seki-eye-vs-no-eye.1.sgf"),
    # 9x9: a big white group without eyes in seki with a black corner (and a dame black fills).
    "big group without eyes": (True, "seki/static-safety-seki-bug.sgf"),
    # 9x9: seki next to dead stones of both colours.
    "seki and dead stones": (True, "seki/sheppard-seki.sgf"),
    # 9x9: dead stones, no seki.
    "dead stones": (False, "seki/sheppard-seki-3.sgf"),
    # 9x9 game that ends in a seki.
    "9x9 game ending in seki": (True, "games/2008/KGS/7/26/Newou-Fuego9.sgf"),
    # 9x9 pro game: a capturing race black wins (an eye against none), not a seki.
    "capturing race": (False, "games/pro-9x9/zhou9a.sgf"),
    # 19x19 finished games of the Fuego scoring suite, with shapes that look like seki and
    # are not: a white group whose only liberties surround a black stone (a pyramid four
    # black kills by sacrifice), which decides the race that looked like seki next to it;
    # a white group without eyes against black stones with an eye in the corner.
    "19x19 nakade and races": (False, "scoring/FX178-27.sgf"),
    "19x19 race in the corner": (False, "scoring/FX175-29-variation.sgf"),
    # 19x19: a white group whose eye space holds a black stone at the vital point.
    "19x19 nakade": (False, "safetytest-whole-board/q15.sgf"),
    # 19x19 game ending in a seki of several groups.
    "19x19 game ending in seki": (True, "games/2012/Blubbel-AyaBot4-2.sgf"),
    # 19x19 whole-board positions with seki and dead stones, and dead stones only.
    "19x19 seki and dead stones": (True, "safetytest-whole-board/k05.sgf"),
    "19x19 seki and dead stones 2": (True, "safetytest-whole-board/q1.sgf"),
    "19x19 dead stones": (False, "safetytest-whole-board/k01.sgf"),
}


def session(size=9, komi=7.0):
    return Session(size=size, komi=komi, seed=1, playouts=100)


@pytest.fixture(scope="module")
def gnugo(gnugo_command):
    with GtpEngine(gnugo_command) as engine:
        yield engine


def statuses(engine):
    return {status: set(engine.send(f"final_status_list {status}").split())
            for status in STATUSES}


def assert_agree(ours, theirs):
    for status in STATUSES:
        assert ours[status] == theirs[status], (
            f"{status}: GNU Go only {sorted(theirs[status] - ours[status])}, "
            f"mcgo only {sorted(ours[status] - theirs[status])}")


@pytest.mark.parametrize("name", ROWS)
def test_constructed_positions_agree_with_gnugo(gnugo, name):
    seki, rows, komi = ROWS[name]
    ours = session(len(rows), komi)
    for engine in (ours, gnugo):
        load_rows(engine, rows, komi, passes=2)
    theirs = statuses(gnugo)
    assert bool(theirs["seki"]) == seki         # the position is what it says, to GNU Go
    assert_agree(statuses(ours), theirs)


@pytest.mark.parametrize("name", SGF)
def test_regression_positions_agree_with_gnugo(gnugo, fuego_regression_dir, name):
    seki, path = SGF[name]
    ours = session()
    for engine in (ours, gnugo):
        engine.send(f"loadsgf {fuego_regression_dir / 'sgf' / path}")
    theirs = statuses(gnugo)
    assert bool(theirs["seki"]) == seki
    assert_agree(statuses(ours), theirs)


@pytest.mark.parametrize("vertex", ["E9", "C9"])
@pytest.mark.parametrize("value", [-0.85, -0.6, -0.2, 0.4, 0.9])
def test_seki_whatever_the_playouts_say(gnugo, vertex, value):
    """Playouts break sekis (a self-atari into the shared liberties is rejected only most of
    the time), so a seki chain's ownership can be anything from nearly always captured to
    nearly never: the answer stays GNU Go's. One side of the seki gets ``value`` (own view)."""
    _, rows, komi = ROWS["seki without eyes"]
    load_rows(gnugo, rows, komi, passes=2)
    theirs = statuses(gnugo)
    board = mcgo.Board(len(rows), komi=komi)
    for color, p in stones_of_rows(rows):
        board.play(p, color)
    owner = estimate(board, seed=1).owner.copy()
    sign = 1 if board.color_at(vertex) == mcgo.BLACK else -1
    for p in board.chain(vertex):
        owner[coords.row_col(p, board.size)] = sign * value
    verdict = judge(board, owner)
    ours = {status: {coords.to_gtp(p, board.size) for p in getattr(verdict, status)}
            for status in STATUSES}
    assert_agree(ours, theirs)


# Positions without seki (GNU Go counts a seki's shared liberties as dame; mcgo's pass rule
# leaves them aside), some with neutral points and some without: at move 80 of vim-5, G3
# is a neutral point that only black can fill, and filling it puts G4-G5 in atari, so
# white must connect at G6 (the playouts, which always see black fill it, give it to black).
DAME = [("games/2011/Fuego-1.1-vim-5-variation.sgf", 80),
        ("games/2011/Fuego-1.1-vim-5-variation.sgf", 82),
        ("games/2011/Fuego-1.1-vim-5-variation.sgf", 88),
        ("seki/sheppard-seki-3.sgf", None),
        ("games/pro-9x9/zhou9a.sgf", None)]


@pytest.mark.parametrize("path, move", DAME)
def test_neutral_points_left_agree_with_gnugo(gnugo, fuego_regression_dir, path, move):
    """``dame_left`` (one of the conditions of passing instead of filling one's own
    territory) is True exactly where GNU Go's ``final_status_list dame`` lists a point:
    with the playouts' ownership, and with an ownership that gives every point to one side
    (as the playouts do when only one side can fill a neutral point), where the structure
    alone must find them."""
    file = fuego_regression_dir / "sgf" / path
    gnugo.send(f"loadsgf {file}" + ("" if move is None else f" {move}"))
    theirs = gnugo.send("final_status_list dame").split()
    board = sgf.replay(sgf.read_game(file), max_moves=None if move is None else move - 1)
    verdict = estimate(board, seed=1)
    assert dame_left(board, verdict) == bool(theirs), theirs
    every_point_owned = dataclasses.replace(verdict, owner=np.where(verdict.owner >= 0, 1.0, -1.0))
    assert dame_left(board, every_point_owned) == bool(theirs), theirs
