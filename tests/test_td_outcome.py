"""Seed 004's experiment 2 (``mcgo learn td-outcome``, Chan 1996 Table 5.3) against references
it did not write:

* the 8 symmetries against sgfmill's board (Matthew Woodcraft's, not this project's) filled
  by hand-rotated coordinates: the thesis's R (clockwise quarter turn) and F (reflection over
  the horizontal edge), B, F(B), R(B), F(R(B)), ... as its section 5.3.3 lists them;
* the last k positions of a real record of ours against the record replayed on sgfmill's
  board (stones, side to move, prisoners counted from the stones that left the board);
* k = 1 training against the supervised rule ``eta (o - P) grad P``, the gradient by finite
  differences of the forward pass;
* the command's JSON and its one-line errors (click's CliRunner on tiny games written here).
"""

import json

import numpy as np
import pytest
import sgfmill.boards
import sgfmill.sgf
import sgfmill.sgf_moves
from click.testing import CliRunner

from helpers import central_differences
from mcgo.cli import main
from mcgo.models.td_net import Mlp
from mcgo.train.td_outcome import (HIDDEN, INIT_SCALE, last_positions, parse_ks,
                                   symmetric_inputs, train)
from mcgo.sgf import read_game

SIZE = 9

# The first game of an A/B match of ours (pattern against guided), comments left out:
# 38 moves, black resigns; five stones captured by each side.
RECORD = (b"(;FF[4]CA[UTF-8]GM[1]KM[7]PB[pattern]PW[guided]RE[W+R]SZ[9]"
          b";B[gc];W[fe];B[eh];W[cd];B[dd];W[de];B[ce];W[cf];B[ee];W[be];B[ef];W[ed];B[dc]"
          b";W[ec];B[db];W[gd];B[eb];W[ff];B[fd];W[fc];B[fb];W[eg];B[fd];W[df];B[fh];W[ed]"
          b";B[hd];W[dh];B[gg];W[gf];B[hf];W[he];B[ge];W[hg];B[ie];W[gh];B[hh];W[fg])")


def sgfmill_inputs(board, to_move, prisoners):
    """The thesis's 83 inputs of an sgfmill board: the points row by row from the bottom
    (sgfmill's row 0), +1 black, -1 white; the side to move; the prisoner difference / 10."""
    value = {"b": 1.0, "w": -1.0, None: 0.0}
    points = [value[board.get(r, c)] for r in range(board.side) for c in range(board.side)]
    return np.array(points + [1.0 if to_move == "b" else -1.0, prisoners / 10.0])


def sgfmill_positions(data):
    """The inputs after every move of the record, replayed on sgfmill's board."""
    game = sgfmill.sgf.Sgf_game.from_bytes(data)
    board, plays = sgfmill.sgf_moves.get_setup_and_moves(game)
    played = {"b": 0, "w": 0}
    out = []
    for colour, move in plays:
        if move is not None:
            board.play(move[0], move[1], colour)
            played[colour] += 1
        on_board = {"b": 0, "w": 0}
        for c, _ in board.list_occupied_points():
            on_board[c] += 1
        # black's captures: white stones played and gone; white's: black stones gone.
        prisoners = (played["w"] - on_board["w"]) - (played["b"] - on_board["b"])
        out.append(sgfmill_inputs(board, "w" if colour == "b" else "b", prisoners))
    return out


# ----------------------------------------------------------------------------- symmetries
def hand_variants(board):
    """The thesis's 8 variations of an sgfmill board, by rotating coordinates by hand."""
    n = board.side

    def rotate(rc):                      # clockwise quarter turn, row 0 at the bottom
        r, c = rc
        return n - 1 - c, r

    def flip(rc):                        # reflection over the horizontal edge
        r, c = rc
        return n - 1 - r, c

    stones = board.list_occupied_points()
    out = []
    turned = stones
    for _ in range(4):
        for transform in (lambda rc: rc, flip):
            b = sgfmill.boards.Board(n)
            for colour, rc in turned:
                r, c = transform(rc)
                b.board[r][c] = colour
            out.append(b)
        turned = [(colour, rotate(rc)) for colour, rc in turned]
    return out


def test_the_8_symmetries_are_the_hand_rotated_boards():
    game = sgfmill.sgf.Sgf_game.from_bytes(RECORD)
    board, plays = sgfmill.sgf_moves.get_setup_and_moves(game)
    for colour, (r, c) in plays[:15]:
        board.play(r, c, colour)
    x = sgfmill_inputs(board, "w", 0.3 * 10)
    ours = symmetric_inputs(x, SIZE)
    assert ours.shape == (8, 83)
    theirs = [sgfmill_inputs(b, "w", 3) for b in hand_variants(board)]
    # the same 8 boards (in some order), all different for this position
    assert sorted(map(tuple, ours)) == sorted(map(tuple, theirs))
    assert len(set(map(tuple, ours))) == 8
    assert np.array_equal(ours[0], x)                        # symmetry 0 is the identity
    assert (ours[:, 81:] == x[81:]).all()                    # side to move and prisoners stay


def test_symmetries_move_every_position_of_a_sequence_alike():
    seq = last_positions(read_game(RECORD), 3)
    sym = symmetric_inputs(seq, SIZE)
    for s in range(8):
        for t in range(3):
            assert np.array_equal(sym[s, t], symmetric_inputs(seq[t], SIZE)[s])


# ----------------------------------------------------------------------------- last k
@pytest.mark.parametrize("k", [1, 2, 6])
def test_last_positions_are_sgfmills_replay(k):
    reference = sgfmill_positions(RECORD)
    assert len(reference) == 38
    ours = last_positions(read_game(RECORD), k)
    assert ours.shape == (k, 83)
    assert np.array_equal(ours, np.array(reference[-k:]))
    assert ours[-1][81] == 1.0            # white played the last move: black (who resigned) to move
    assert ours[-1][82] == 0.0            # five stones taken each


# ----------------------------------------------------------------------------- k = 1
def test_k1_training_is_the_supervised_rule():
    rng = np.random.default_rng(3)
    x = rng.choice([-1.0, 0.0, 1.0], size=(1, 1, 1, 83))
    x[..., 82] = 0.2
    outcome = np.array([-1.0])
    eta, seed = 0.05, 11
    before = Mlp([83, *HIDDEN, 1], seed=seed, scale=INIT_SCALE)
    p = before.forward(x[0, 0, 0])[0]
    def f():
        return before.forward(x[0, 0, 0])[0]
    step = eta * (outcome[0] - p)
    expected_w = [w + step * central_differences(f, w) for w in before.w]
    expected_b = [b + step * central_differences(f, b) for b in before.b]
    for lam in (0.0, 0.5, 1.0):           # one position: lambda makes no difference
        net, epoch, _ = train(x, outcome, 1, lam, eta, 1, seed)
        assert epoch == 1
        for got, want in zip(net.w + net.b, expected_w + expected_b):
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-8)
        assert abs(net.forward(x[0, 0, 0])[0] - outcome[0]) < abs(p - outcome[0])


# ----------------------------------------------------------------------------- command
def tiny_games(folder, count=30, moves=8):
    """``count`` different games of ``moves`` random moves on 9x9, ending by resignation."""
    rng = np.random.default_rng(0)
    letters = "abcdefghi"
    for g in range(count):
        points = rng.choice(81, size=moves, replace=False)   # no captures possible this early
        body = "".join(f";{'BW'[i % 2]}[{letters[p % 9]}{letters[p // 9]}]"
                       for i, p in enumerate(points))
        result = "B+R" if g % 3 else "W+R"
        (folder / f"g{g:02d}.sgf").write_text(f"(;GM[1]SZ[9]KM[7]RE[{result}]{body})")
    (folder / "scored.sgf").write_text("(;GM[1]SZ[9]KM[7]RE[B+3.5];B[ee];W[cc])")
    (folder / "big.sgf").write_text("(;GM[1]SZ[13]RE[B+R];B[gg];W[cc])")


def test_the_command_prints_the_table_as_json(tmp_path):
    tiny_games(tmp_path)
    out = tmp_path / "table.json"
    result = CliRunner().invoke(main, ["learn", "td-outcome", str(tmp_path), "--moves", "any",
                                       "--k", "1-2", "--lambdas", "0,1", "--epochs", "2",
                                       "--json", "--output-table", str(out)])
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert document == json.loads(out.read_text())
    games = document["games"]
    assert games["train"] + games["validation"] + games["test"] == 30
    assert games["test"] > 0 and games["train"] > 0
    assert games["skipped"] == {"not ended by resignation": 1, "not 9x9": 1}
    assert games["source"] == [str(tmp_path)]
    assert document["settings"]["moves_window"] == [None, None]
    assert document["settings"]["scored_positions"] == games["test"] * 8
    assert [(r["k"], r["lambda"]) for r in document["table"]] == [(1, 0.0), (1, 1.0), (2, 0.0),
                                                                  (2, 1.0)]
    for row in document["table"]:
        assert 0 <= row["mse"] <= 4 and 0 <= row["incorrect"] <= 1
        assert {"incorrect_se", "best_epoch", "thesis_sse", "thesis_incorrect"} <= set(row)
    k1 = document["table"][:2]                 # k = 1: lambda makes no difference
    assert k1[0]["mse"] == k1[1]["mse"] and k1[0]["incorrect"] == k1[1]["incorrect"]
    # the moves window leaves these 8-move games out
    result = CliRunner().invoke(main, ["learn", "td-outcome", str(tmp_path), "--epochs", "1"])
    assert result.exit_code == 2 and result.output.startswith("Error: no training games")


def one_line_error(args, says):
    result = CliRunner().invoke(main, ["learn", "td-outcome", *args])
    assert result.exit_code == 2, result.output
    lines = result.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and says in lines[0], result.output


def test_errors_are_one_line(tmp_path):
    (tmp_path / "notes.txt").write_text("no games here")
    one_line_error([str(tmp_path)], "no SGF files")
    one_line_error([str(tmp_path / "missing")], "does not exist")
    tiny_games(tmp_path, count=2)
    for bad in ("0", "3-1", "x", "1-99"):
        one_line_error([str(tmp_path), "--k", bad], "--k")
    one_line_error([str(tmp_path), "--lambdas", "0,2"], "--lambdas")
    one_line_error([str(tmp_path), "--moves", "50-20"], "--moves")
    one_line_error([str(tmp_path), "--learning-rate", "nan"], "--learning-rate")


def test_parse_ks():
    assert parse_ks("1-6") == [1, 2, 3, 4, 5, 6]
    assert parse_ks("4,1,2-3") == [1, 2, 3, 4]
