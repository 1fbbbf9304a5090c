"""``mcgo solve``, the shipped CFG scorer and Foulds's one-move player, against the problems'
own solutions and the rules."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from helpers import Session, board_from_rows
from mcgo import BLACK, WHITE
from mcgo.board import coords
from mcgo.cli import main
from mcgo.models.cfg_scorer import open_scorer
from mcgo.train.tsumego import ProblemError, load_problems
from mcgo.engine.cfg_player import CfgPlayer, own_one_point_eye
from mcgo.apps.solve import region_points, solve

FIRST_PROBLEM = ("(;SZ[19]AB[qa][qb][qc][pd][pe][pf][og][ng][lf][le][kd][lc][lb]"
                 "AW[pa][pb][pc][nc][mc][od][oe][ne][me]PL[W])")   # the README's problem: W O19


@pytest.fixture(scope="module")
def test_problems(tsumego_problems_file):
    loaded, _ = load_problems(tsumego_problems_file)
    return [p for p in loaded if p.split == "test" and not p.doubtful]


def test_the_shipped_scorer_reproduces_its_recorded_figure(test_problems):
    """The share of test-collection problems whose correct first move the shipped scorer
    rates best in the region, recomputed from the problems' own solutions."""
    scorer = open_scorer("cfg")
    solved = n = 0
    for problem in test_problems:
        try:
            board = problem.board()
        except ProblemError:
            continue
        candidates = problem.candidates(board)
        if not set(problem.solutions) & set(candidates):
            continue
        n += 1
        solved += scorer.best_move(board, candidates, problem.player) in problem.solutions
    assert n == scorer.metadata["test_problems"]
    assert solved / n == pytest.approx(scorer.metadata["test_solved"])
    assert solved / n >= 0.40                  # issue 17's target, on collections not trained on


def test_solve_from_an_sgf_problem(tmp_path):
    path = tmp_path / "problem.sgf"
    path.write_text(FIRST_PROBLEM)
    result = CliRunner().invoke(main, ["solve", str(path), "--with", "cfg", "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["player"] == "white" and answer["move"] in answer["region"]
    result = CliRunner().invoke(main, ["solve", str(path), "--playouts", "300", "--json"])
    answer = json.loads(result.output)
    assert answer["simulations"] == 300 and answer["line"][0] == answer["move"]
    assert answer["move"] in answer["region"] + ["pass"]
    assert 0.0 <= answer["winrate"] <= 1.0


@pytest.mark.parametrize("args, says", [(["--region", "A1"], "two corners"),
                                        (["--region", "A1:Z9"], "two corners"),
                                        (["--scorer", "nowhere.npz", "--with", "cfg"], "no scorer file"),
                                        (["--with", "magic"], "--with")])
def test_solve_errors_are_one_line(tmp_path, args, says):
    path = tmp_path / "problem.sgf"
    path.write_text(FIRST_PROBLEM)
    result = CliRunner().invoke(main, ["solve", str(path), *args])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and says in result.output


def test_the_region_is_the_stones_box_grown_by_two():
    board = board_from_rows(["X........", "O........"] + ["........."] * 7)
    points = region_points(board, None)
    assert {coords.to_gtp(p, 9) for p in points} == {f"{c}{r}" for c in "ABC" for r in (9, 8, 7, 6)}
    assert len(region_points(board, "C3:A1")) == 9


def test_the_one_move_player_never_fills_its_own_eye():
    board = board_from_rows([".X.......",
                             "XX.......",
                             ".........", ".........", ".........", ".........",
                             ".........", ".........", "........."], to_move=BLACK)
    a9 = coords.from_gtp("A9", 9)
    assert own_one_point_eye(board, a9, BLACK) and not own_one_point_eye(board, a9, WHITE)
    player = CfgPlayer(open_scorer("cfg"))
    assert a9 not in player.candidates(board, BLACK)
    move = player.choose(board)
    assert board.is_legal(move) and move != a9


def test_gtp_player_cfg_answers_and_honours_allow():
    session = Session(size=9, playouts=10, move_player=CfgPlayer(open_scorer("cfg")))
    for colour in "bwbw":
        move = session.send(f"genmove {colour}")
        assert move != "resign"
    reply = session.raw("lz-genmove_analyze b 0 allow b J1,J2 1")
    assert reply.rstrip().split()[-1] in ("J1", "J2", "pass")


def test_solve_by_search_stays_in_the_region():
    board = board_from_rows(["XXO......", ".XO......", "XXO......", "OO......."] + ["........."] * 5,
                            to_move=WHITE)
    region = region_points(board, None)
    answer = solve(board, region, "search", playouts=500)
    assert answer.move in region and answer.simulations == 500
    assert np.isfinite(answer.winrate)


def test_the_tsumego_frame_settles_the_outside():
    """The README's problem (white to live in the top right, black around): outside the
    stones' box grown by one there are only black stones and black single-point eyes."""
    from mcgo.board.kernels import COLOR, OFFBOARD
    from mcgo.apps.solve import attacker_of, framed
    board = Session(size=19).engine.game.board
    board.setup(black=[coords.from_sgf(v, 19) for v in "qa qb qc pd pe pf og ng lf le kd lc lb".split()],
                white=[coords.from_sgf(v, 19) for v in "pa pb pc nc mc od oe ne me".split()])
    board.to_move = WHITE
    region = region_points(board, None)
    assert attacker_of(board, region) == BLACK
    frame = framed(board, region)
    box = set(region_points(board, None, 1))
    eyes = 0
    for p in coords.all_points(19):
        if p in box:
            assert frame.color_at(p) == board.color_at(p)
        elif frame.color_at(p) == frame.EMPTY:
            eyes += 1
            for q in (p - 1, p + 1, p - 21, p + 21):
                assert int(frame.pts[COLOR, q]) in (BLACK, OFFBOARD)
        else:
            assert frame.color_at(p) == BLACK
    assert eyes > 20


@pytest.mark.parametrize("rows, lives", [
    # white's corner group with two eyes, walled in by black: it lives
    ([".O.O.X...", "OOOOOX...", "XXXXXX...", "........."] + ["........."] * 5, True),
    # white's corner stones with no room for two eyes, black around: they die
    (["OO...X...", ".X..XX...", "XXXX.....", "........."] + ["........."] * 5, False),
])
def test_in_the_frame_the_win_rate_says_whether_the_defender_lives(rows, lives):
    board = board_from_rows(rows, to_move=WHITE)
    region = region_points(board, None)
    answer = solve(board, region, "search", playouts=2000)
    assert (answer.winrate > 0.6) if lives else (answer.winrate < 0.4), answer.winrate


def test_a_heavy_scorer_prior_makes_the_search_play_the_scorers_move():
    """``--cfg-prior``: the scorer's value is a bonus on the root's moves; weighted far above
    any win rate, the search's move is one of the scorer's best legal moves. (After black's
    E5 the board is symmetric: D4, D6, F4 and F6 score the same, and the search may take any.)"""
    scorer = open_scorer("cfg")
    for seed in (1, 2, 3, 4):
        session = Session(size=9, playouts=200, seed=seed, move_scorer=scorer, cfg_prior=100.0)
        session.send("play b E5")
        board = session.engine.game.board.copy()
        legal = board.legal_moves()
        scores = scorer.score_moves(board, legal, WHITE)
        best = {coords.to_gtp(p, 9) for p, s in zip(legal, scores) if s == scores.max()}
        assert len(best) < len(legal) // 4           # the bonus singles out a few moves
        assert session.send("genmove w") in best, seed
