"""The player (how a move is chosen) and the chain status of a position.

References: Fuego's ``uct_basics.tst`` 10 (black's only good move in ``vital-1.sgf`` is B1,
the vital point of a straight three: every point looks settled, so mcgo's pass rule asks
its pass check, which must fail there) and GNU Go 3.8's ``final_score`` and
``final_status_list`` on finished games.
"""


import random

import pytest

import mcgo
from helpers import Session, load_rows
from mcgo.board import coords
from mcgo.gtp.controller import GtpEngine
from mcgo.engine import player as player_module
from mcgo.judge import status as status_module

VITAL = "sgf/uct/vital-1.sgf"


def test_a_failed_pass_check_keeps_the_main_tree(fuego_regression_dir, monkeypatch):
    """``uct_basics.tst`` 10: genmove answers B1 after a pass check that failed; the main
    search's last result is still the genmove's search (black to move, B1 best), so
    ``mcgo-tree`` shows it, and the check ran on a search of its own (after black's pass)."""
    checks = []
    real = player_module.Player.pass_holds

    def spy(self, board, result, received_at=None):
        checks.append(bool(real(self, board, result, received_at)))
        return checks[-1]

    monkeypatch.setattr(player_module.Player, "pass_holds", spy)
    engine = Session(size=9, playouts=1000, seed=1)
    engine.send(f"loadsgf {fuego_regression_dir / VITAL}")
    before = list(engine.engine.game.board.history)
    assert engine.send("genmove b") == "B1"
    assert checks == [False]
    main = engine.engine.game.search
    assert main.last_board.history == before and main.last_board.to_move == mcgo.BLACK
    assert main.last_result.best_move == coords.from_gtp("B1", 9)
    assert main.last_result.simulations >= 1000
    check = engine.engine.game.player.pass_search
    assert check is not main and check.last_board.history[-1] == (mcgo.BLACK, mcgo.PASS)
    tree = engine.send("mcgo-tree 3").split("\n")
    assert tree[0].startswith("B1: "), tree


def test_the_pass_check_search_is_seeded_from_the_engine_seed(fuego_regression_dir):
    """Two engines with one seed make the same pass check: same simulations, same result."""
    results = []
    for _ in range(2):
        engine = Session(size=9, playouts=1000, seed=5)
        engine.send(f"loadsgf {fuego_regression_dir / VITAL}")
        engine.send("genmove b")
        r = engine.engine.game.player.pass_search.last_result
        results.append([(m.move, m.visits, m.wins) for m in r.moves])
    assert results[0] == results[1] and results[0]


def score_value(text):
    """``B+8.0`` -> 8.0, ``W+3`` -> -3.0, ``0`` -> 0.0."""
    if text in ("0", "0.0"):
        return 0.0
    return float(text[2:]) * (1 if text[0] == "B" else -1)


# A finished 9x9 game: a dead black stone at C7 in white's area (GNU Go: B+8, C7 dead).
FINISHED = [
    ". . O . O X . X .",
    "O O O O O X X . X",
    ". . X O . O X X .",
    "O O O O O O X . X",
    "X X X X X O X X .",
    ". X . . X O O X X",
    "X . X . X O . O X",
    ". X X X X X O O O",
    ". . . . . X X O .",
]


@pytest.mark.gnugo
def test_final_score_and_status_lists_estimate_once(gnugo_command, monkeypatch):
    """``final_score`` then ``final_status_list`` dead, alive and seki run the playouts once
    (one ownership estimate for the position), give GNU Go's score and dead stones, and a
    move makes a new estimate."""
    calls = []
    real = status_module.ownership

    def counting(*args, **kwargs):
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(status_module, "ownership", counting)
    ours = Session(size=9, komi=7.0, seed=1)
    load_rows(ours, FINISHED, komi=7.0)
    with GtpEngine(gnugo_command) as gnugo:
        gnugo.send("boardsize 9")
        gnugo.send("komi 7")
        gnugo.send("clear_board")
        for color, point in ours.engine.game.board.moves:
            gnugo.send(f"play {'b' if color == mcgo.BLACK else 'w'} {coords.to_gtp(point, 9)}")
        expected_score = gnugo.send("final_score")
        expected_dead = sorted(gnugo.send("final_status_list dead").split())
    assert score_value(ours.send("final_score")) == score_value(expected_score)
    assert sorted(ours.send("final_status_list dead").split()) == expected_dead
    alive = ours.send("final_status_list alive").split()
    ours.send("final_status_list seki")
    assert len(calls) == 1
    assert set(alive).isdisjoint(expected_dead)
    ours.send("play b pass")
    ours.send("final_status_list dead")
    assert len(calls) == 2


def test_resigns_only_after_three_own_moves_found_the_game_lost():
    """With komi 200 black cannot win a 9x9 game (area scoring: at most 81 points): the search
    finds it lost at every move, and the player resigns at its third move in a row, not
    before; asking again at the same move (reg_genmove) does not count twice."""
    from mcgo.engine.player import RESIGN_STREAK, Player
    board = mcgo.Board(9, komi=200.0)
    rng = random.Random(3)
    while len(board.moves) < 30:          # past the opening, where nobody resigns
        board.play(rng.choice([p for p in board.legal_moves() if p != mcgo.PASS]))
    if board.to_move != mcgo.BLACK:
        board.play("pass")
    player = Player(playouts=800, seed=2, verbose=False)
    answers = []
    for _ in range(RESIGN_STREAK):
        answers.append(player.choose(board))
        assert (player.choose(board) is None) == (answers[-1] is None)   # asked twice, counted once
        if answers[-1] is None:
            break
        board.play(answers[-1])
        board.play("pass")
    assert answers[:-1] == [a for a in answers[:-1] if a is not None] and len(answers) == RESIGN_STREAK
    assert answers[-1] is None and answers[0] is not None and RESIGN_STREAK > 1


def test_fills_a_spare_eye_rather_than_pass_into_a_loss(fuego_regression_dir):
    """Fuego's ``final_moves.tst`` 20 (CGOS rules): black loses if it passes, and its only
    other moves are its own eyes; any of them keeps its Benson-safe chains alive."""
    session = Session(size=9, komi=7.5, playouts=3000, resign=0, seed=1)
    session.send("go_rules cgos")
    session.send(f"loadsgf {fuego_regression_dir / 'sgf/final_moves/play-in-benson-safe.1.sgf'}")
    assert session.send("reg_genmove b") in {"B1", "E1", "J1", "D2", "F2", "F5", "F8"}


def test_a_chain_with_two_eyes_has_no_spare_eye():
    """Filling either eye of an enclosed two-eyed chain lets the other side capture it
    (checked with sgfmill's rules): no spare eye there; with a third eye, there is one."""
    from sgfmill import boards
    black = ["A9", "B9", "C9", "D9", "E9", "A8", "C8", "E8", "A7", "B7", "C7", "D7", "E7"]
    white = ["F9", "F8", "F7", "A6", "B6", "C6", "D6", "E6", "F6"]
    board = mcgo.Board(9)
    board.setup(black=black, white=white)
    assert player_module.spare_eye(board) is None
    reference = boards.Board(9)
    for color, points in (("b", black), ("w", white)):
        for vertex in points:
            reference.play(*coords.row_col(board.point(vertex), 9), color)
    reference.play(*coords.row_col(board.point("B8"), 9), "b")      # black fills an eye
    reference.play(*coords.row_col(board.point("D8"), 9), "w")      # white takes the chain
    assert reference.get(*coords.row_col(board.point("A9"), 9)) is None
    board = mcgo.Board(9)
    board.setup(black=black + ["G9", "G8", "G7", "F6", "F5", "E5", "D5", "C5", "B5", "A5",
                               "F9", "F7", "A6", "B6", "C6", "D6", "E6"])     # a third eye, F8
    assert player_module.spare_eye(board) is not None
