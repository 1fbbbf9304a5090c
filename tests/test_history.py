"""The board's history of moves and set-ups, and the game record made from it.

References: sgfmill reads the files (the originals from Fuego's regression suites and what
``printsgf`` writes) and replays them on its own board; GNU Go's handicap placement is
checked in ``test_gtp.py``; the expected move of ``uct_basics.tst`` 10 is Fuego's.
"""

import random

import numpy as np
import pytest
from sgfmill import boards, sgf, sgf_moves

import mcgo
from helpers import Session, fails
from mcgo.board import Move, Setup, coords
from mcgo.sgf import ReplayError, read_game, replay


def sgfmill_story(data):
    """What sgfmill makes of an SGF file: size, komi, handicap, the moves in order, the
    position after each move (set-ups applied where they stand) and at the end."""
    game = sgf.Sgf_game.from_bytes(data)
    board = boards.Board(game.get_size())
    moves, positions = [], []
    for node in game.get_main_sequence():
        black, white, empty = node.get_setup_stones()
        if black or white or empty:
            board.apply_setup(black, white, empty)
        colour, move = node.get_move()
        if colour is not None:
            if move is not None:
                board.play(move[0], move[1], colour)
            moves.append((colour, move))
            positions.append(sorted(board.list_occupied_points()))
    root = game.get_root()
    handicap = root.get("HA") if root.has_property("HA") else 0
    komi = game.get_komi() if root.has_property("KM") else None
    return (game.get_size(), komi, handicap, moves, positions,
            sorted(board.list_occupied_points()))


def setup_files(fuego_regression_dir):
    """The suites' SGF files with AB/AW stones, in name order."""
    return sorted(p for p in (fuego_regression_dir / "sgf").rglob("*.sgf")
                  if b"AB[" in p.read_bytes() or b"AW[" in p.read_bytes())


def test_loadsgf_then_printsgf_keeps_set_ups_and_moves(fuego_regression_dir, tmp_path):
    """Every file of Fuego's suites with set-up stones (331 with them at the root only, 21
    GNU Go seki games with handicap stones and set-ups later in the game): what ``printsgf``
    writes after ``loadsgf`` is, for sgfmill, the same game: size, komi, handicap, moves and
    the position after every move."""
    files = setup_files(fuego_regression_dir)
    assert len(files) > 300
    engine = Session(size=9)
    later, refused = 0, []
    for path in files:
        original = path.read_bytes()
        try:
            replay(read_game(original))
        except ReplayError as e:         # an illegal move (superko): loadsgf refuses it
            assert e.move is not None and fails(engine, f"loadsgf {path}"), path
            refused.append(path.name)
            continue
        engine.send(f"loadsgf {path}")
        out = tmp_path / "out.sgf"
        engine.send(f"printsgf {out}")
        size, komi, handicap, moves, positions, final = sgfmill_story(original)
        again = sgfmill_story(out.read_bytes())
        assert again[0] == size and again[2] == handicap, path
        assert komi is None or again[1] == komi, path
        assert again[3] == moves, path
        assert again[4] == positions, path
        assert again[5] == final, path
        game = sgf.Sgf_game.from_bytes(original)
        later += any(node.has_setup_stones() for node in game.get_main_sequence()[1:])
    assert later >= 20 and len(refused) <= 5, refused


def test_a_game_with_set_up_stones_and_three_moves_round_trips(tmp_path):
    """The case of the issue: a 9x9 game with AB/AW stones and three moves, made by sgfmill,
    loaded and printed: sgfmill reads back the same set-up and the same moves."""
    game = sgf.Sgf_game(9)
    root = game.get_root()
    root.set("KM", 6.5)
    root.set_setup_stones({(2, 2), (6, 6), (4, 3)}, {(2, 6), (6, 2)})
    for colour, move in (("b", (4, 4)), ("w", (3, 4)), ("b", (5, 4))):
        game.extend_main_sequence().set_move(colour, move)
    path = tmp_path / "setup.sgf"
    path.write_bytes(game.serialise())
    engine = Session(size=19)
    engine.send(f"loadsgf {path}")
    written = engine.send("printsgf").encode()
    board, plays = sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(written))
    expected_board, expected_plays = sgf_moves.get_setup_and_moves(
        sgf.Sgf_game.from_bytes(path.read_bytes()))
    assert plays == expected_plays == [("b", (4, 4)), ("w", (3, 4)), ("b", (5, 4))]
    assert sorted(board.list_occupied_points()) == sorted(expected_board.list_occupied_points())
    assert sorted(board.list_occupied_points()) == sorted(
        [("b", p) for p in [(2, 2), (6, 6), (4, 3)]] + [("w", p) for p in [(2, 6), (6, 2)]])
    # The board's history says the same: one set-up, then the moves.
    history = engine.engine.game.board.history
    assert isinstance(history[0], Setup) and all(isinstance(e, Move) for e in history[1:])
    assert engine.engine.game.board.last_move == coords.from_gtp("E6", 9)


@pytest.mark.parametrize("stones", [2, 5, 9])
def test_fixed_handicap_then_printsgf_has_the_stones_and_ha(stones, tmp_path):
    """The AB stones sgfmill reads are the vertices the engine answered, HA is their number,
    and loading the file gives the position back with white to move."""
    engine = Session(size=9)
    vertices = engine.send(f"fixed_handicap {stones}").split()
    assert len(vertices) == stones
    written = engine.send("printsgf").encode()
    game = sgf.Sgf_game.from_bytes(written)
    black, white, _ = game.get_root().get_setup_stones()
    assert {coords.to_gtp(coords.from_sgfmill(p, 9), 9) for p in black} == set(vertices)
    assert not white and game.get_root().get("HA") == stones
    path = tmp_path / "handicap.sgf"
    path.write_bytes(written)
    other = Session(size=19)
    assert other.send(f"loadsgf {path}") == "white"
    assert set(other.send("list_stones black").split()) == set(vertices)
    # and after a move, the set-up stays at the root, before white's move
    engine.send("play w E5" if "E5" not in vertices else "play w D5")
    written = engine.send("printsgf").encode()
    board, plays = sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(written))
    assert len(plays) == 1 and plays[0][0] == "w"
    assert len(board.list_occupied_points()) == stones


def test_undo_across_a_set_up():
    """Moves, a set-up, moves: undo walks back through all of them, and after each undo the
    arrays, the hash, the moves and the last move are as they were (the position as sgfmill
    sees it)."""
    rng = random.Random(3)
    board = mcgo.Board(9)
    snapshots = []

    def snapshot():
        snapshots.append((board.pts.copy(), board.info.copy(), board.hash, list(board.moves),
                          board.last_move, list(board.history)))

    for _ in range(12):
        snapshot()
        board.play(rng.choice(board.legal_moves()))
    last = board.last_move
    snapshot()
    empty = [p for p in coords.all_points(9) if board.color_at(p) == mcgo.EMPTY]
    board.setup(black=empty[:2], white=empty[2:4], empty=[board.stones(mcgo.WHITE)[0]])
    assert board.last_move == last            # a set-up is no move
    assert isinstance(board.history[-1], Setup) and len(board.moves) == 12
    ref = boards.Board(9)
    for color in (mcgo.BLACK, mcgo.WHITE):
        for p in board.stones(color):
            ref.play(*coords.to_sgfmill(p, 9), "b" if color == mcgo.BLACK else "w")
    for _ in range(6):
        snapshot()
        board.play(rng.choice(board.legal_moves()))
    while snapshots:
        pts, info, h, moves, last_move, history = snapshots.pop()
        board.undo()
        assert np.array_equal(board.pts, pts) and np.array_equal(board.info, info)
        assert board.hash == h and board.moves == moves and board.last_move == last_move
        assert board.history == history
    assert board.history == [] and board.last_move is None


def test_the_search_starts_afresh_after_a_set_up():
    """A set-up between two searches is no move of the tree: the second search starts from
    a fresh root (its root has only its own simulations), while a move between them keeps
    the tree (the root has more)."""
    from mcgo.search import Search
    board = mcgo.Board(9, komi=7.0)
    board.play("E5")
    search = Search(seed=4)
    first = search.run(board, playouts=400)
    board.setup(black=["C3"])
    again = search.run(board, playouts=100)
    assert again.root_visits <= again.simulations
    board.undo()
    third = search.run(board, playouts=400)
    board.play(third.best_move)
    kept = search.run(board, playouts=100)
    assert kept.root_visits > kept.simulations


def test_mcgo_play_saves_the_game(tmp_path):
    """``save FILE`` in ``mcgo play`` writes the game so far; sgfmill reads the human's move
    and the engine's answer from it."""
    from click.testing import CliRunner
    from mcgo.cli import main
    path = tmp_path / "game.sgf"
    result = CliRunner().invoke(main, ["play", "--size", "9", "--playouts", "50", "--seed", "1"],
                                input=f"E5\nsave {path}\nquit\n")
    assert result.exit_code == 0, result.output
    assert f"saved {path}" in result.output
    answer = result.output.split("mcgo plays ")[1].split()[0]
    _, plays = sgf_moves.get_setup_and_moves(sgf.Sgf_game.from_bytes(path.read_bytes()))
    assert [(c, coords.to_gtp(coords.from_sgfmill(m, 9), 9)) for c, m in plays] == \
        [("b", "E5"), ("w", answer)]
