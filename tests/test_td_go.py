"""Seed 004's experiment 1: Table 5.1's inputs, the self-play moves, the training and round
robin commands."""

import json

import numpy as np
from click.testing import CliRunner

from helpers import board_from_rows
from mcgo import BLACK, WHITE
from mcgo.board import coords
from mcgo.board.kernels import PASS
from mcgo.cli import main
from mcgo.train.td_go import candidate_moves, inputs, load_net, play_game
from mcgo.models.td_net import Mlp

ROWS = [".X.....",
        "XX.....",
        "...O...",
        ".......",
        ".......",
        ".......",
        "......."]


def test_inputs_are_table_5_1():
    board = board_from_rows(ROWS, to_move=WHITE)
    x = inputs(board)
    assert x.shape == (51,)
    for i, p in enumerate(coords.all_points(7)):      # 49 points, +1 black, -1 white
        expected = {BLACK: 1.0, WHITE: -1.0}.get(board.color_at(p), 0.0)
        assert x[i] == expected
    assert x[49] == -1.0                               # white to move
    assert x[50] == 0.0                                # no prisoners yet


def test_black_does_not_fill_its_own_eye_and_may_pass():
    board = board_from_rows(ROWS, to_move=BLACK)
    moves = candidate_moves(board)
    assert coords.from_gtp("A7", 7) not in moves and PASS in moves
    assert coords.from_gtp("A7", 7) in board.legal_moves()


def test_a_self_play_game_ends_and_is_scored():
    rng = np.random.default_rng(0)
    net = Mlp([51, 30, 1], seed=0)
    positions, outcome = play_game(net, net, 1.0, rng)
    assert outcome in (1.0, -1.0) and 2 <= len(positions) <= 98
    assert all(p.shape == (51,) for p in positions)


def test_td_and_roundrobin_commands(tmp_path):
    paths = []
    for lam in (0, 1):
        out = tmp_path / f"td{lam}.npz"
        result = CliRunner().invoke(main, ["learn", "td", "--lambda", str(lam), "--games", "3",
                                           "--seed", "1", "-o", str(out)])
        assert result.exit_code == 0, result.output
        net, meta = load_net(out)
        assert meta["lambda"] == lam and meta["komi"] == 8.5 and net.sizes == [51, 30, 1]
        paths.append(str(out))
    result = CliRunner().invoke(main, ["learn", "roundrobin", *paths, "--games", "4", "--json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)
    assert table["lambdas"] == [0, 1]
    assert table["win"][0][1] + table["win"][1][0] == 1.0 and table["win"][0][0] is None
    bad = CliRunner().invoke(main, ["learn", "td", "--lambda", "1.5", "--games", "3", "-o", str(tmp_path / "x")])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1
    one = CliRunner().invoke(main, ["learn", "roundrobin", paths[0]])
    assert one.exit_code == 2


def test_gtp_player_td_plays_7x7_and_searches_elsewhere(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "net.npz"
    assert CliRunner().invoke(main, ["learn", "td", "--lambda", "0.5", "--games", "2", "-o", str(out)]).exit_code == 0
    session = "boardsize 7\ngenmove b\ngenmove w\nboardsize 9\ngenmove b\nquit\n"
    done = subprocess.run([sys.executable, "-m", "mcgo", "gtp", "--player", "td", "--td-net", str(out),
                           "--quiet", "--casebase", "none", "--playouts", "50"],
                          input=session, capture_output=True, text=True, timeout=120)
    answers = [a[2:] for a in done.stdout.split("\n\n") if a.startswith("= ") or a == "="]
    moves = [a for a in answers if a]
    assert len(moves) == 3, done.stdout
    net, _ = load_net(out)
    from mcgo import Board
    from mcgo.models.td_net import best_move
    board = Board(7, komi=8.5)
    assert moves[0] == coords.to_gtp(best_move(net, board), 7)      # the net's own choice


def test_the_shipped_nets_play_each_other():
    result = CliRunner().invoke(main, ["learn", "roundrobin", "--shipped", "--games", "2", "--json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)
    assert table["lambdas"] == [0.0, 1.0] and len(table["wilson95"]) == 2
    from mcgo.models.td_net import shipped_nets
    for path in shipped_nets():
        net, meta = load_net(path)
        assert meta["games"] >= 1000 and net.sizes == [51, 30, 1]
