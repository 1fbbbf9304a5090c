"""Board behaviours: undo, copy, point names, refusals and board sizes.

Point names are checked against sgfmill (``sgfmill.common`` for GTP vertices,
``sgfmill.sgf_properties`` for SGF points); undo against snapshots of the arrays; board
sizes against sgfmill's board and area count.
"""

import random

import numpy as np
import pytest
import sgfmill.boards
from hypothesis import given, settings
from hypothesis import strategies as st
from sgfmill import ascii_boards, common, sgf_properties

import mcgo
from mcgo.board import coords, opponent
from mcgo.board import kernels as K


def random_legal_move(board, rng, pass_rate=0.02, color=None):
    moves = board.legal_moves(color)
    if not moves or rng.random() < pass_rate:
        return mcgo.PASS
    return rng.choice(moves)


# ------------------------------------------------------------------------ undo
@pytest.mark.parametrize("size", [5, 9, 19])
def test_undo_restores_every_array(size):
    """Play long random games (captures, kos, passes, moves out of turn, a setup), keeping a
    snapshot before each move; undo them all and compare every snapshot exactly."""
    rng = random.Random(size)
    board = mcgo.Board(size)
    snapshots = []
    for i in range(6 * size * size):
        snapshots.append((board.pts.copy(), board.info.copy(), board.hash,
                          list(board.moves), sorted(board.legal_moves())))
        if i == 10:
            # Removing a stone never leaves a chain without liberties.
            board.setup(empty=[board.stones(mcgo.BLACK)[0]])
            continue
        color = board.to_move if rng.random() > 0.05 else opponent(board.to_move)
        board.play(random_legal_move(board, rng, color=color), color)
    assert sum(board.captures(c) for c in (mcgo.BLACK, mcgo.WHITE)) > size * size
    while snapshots:
        pts, info, h, moves, legal = snapshots.pop()
        board.undo()
        assert np.array_equal(board.pts, pts)
        assert np.array_equal(board.info, info)
        assert board.hash == h and board.moves == moves
        assert sorted(board.legal_moves()) == legal
        assert K.check_consistency(board.pts, board.info, board.zob) == 0
    with pytest.raises(IndexError):
        board.undo()
    # Superko memory is back to the empty board: every point is legal again.
    assert len(board.legal_moves()) == size * size


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(size=st.sampled_from([3, 4, 5, 7]), picks=st.lists(st.integers(0, 1000), max_size=80),
       undo_at=st.lists(st.integers(0, 80), max_size=10))
def test_undo_then_replay_gives_the_same_position(size, picks, undo_at):
    """Undoing a move and playing it again lands on identical arrays; the superko memory
    forgets the undone positions (so a move refused before undo is judged afresh)."""
    board = mcgo.Board(size)
    for i, pick in enumerate(picks):
        moves = board.legal_moves() + [mcgo.PASS]
        move = moves[pick % len(moves)]
        board.play(move)
        if i in undo_at:
            pts, info = board.pts.copy(), board.info.copy()
            board.undo()
            assert board.legality(move) is None
            board.play(move)
            assert np.array_equal(board.pts, pts) and np.array_equal(board.info, info)
    # The superko set is exactly the positions along the game.
    replay = mcgo.Board(size)
    for color, p in board.moves:
        replay.play(p, color)
    assert replay._seen_hashes == board._seen_hashes
    assert sorted(replay.legal_moves()) == sorted(board.legal_moves())


# ------------------------------------------------------------------------ copy
def test_copy_is_independent():
    rng = random.Random(5)
    board = mcgo.Board(9)
    for _ in range(60):
        board.play(random_legal_move(board, rng))
    copy = board.copy()
    pts, info, moves = board.pts.copy(), board.info.copy(), list(board.moves)
    # Play on the copy, including captures and undo: the original does not move.
    for _ in range(200):
        copy.play(random_legal_move(copy, rng))
    copy.undo()
    assert np.array_equal(board.pts, pts) and np.array_equal(board.info, info)
    assert board.moves == moves
    # And the other way round.
    copy_pts = copy.pts.copy()
    board.play(random_legal_move(board, rng))
    board.undo()
    board.undo()
    assert np.array_equal(copy.pts, copy_pts)
    # The copy's history is the original's plus its own moves: undo walks back into it.
    for _ in range(199):
        copy.undo()
    assert np.array_equal(copy.pts, pts) and copy.moves == moves


# ------------------------------------------------------------------ coordinates
SIZES = range(5, 26)


@pytest.mark.parametrize("size", SIZES)
def test_points_agree_with_sgfmill(size):
    for row in range(size):
        for col in range(size):
            p = coords.point(row, col, size)
            assert coords.row_col(p, size) == (row, col)
            assert coords.to_sgfmill(p, size) == (row, col)
            assert coords.from_sgfmill((row, col), size) == p
            vertex = coords.to_gtp(p, size)
            assert vertex == common.format_vertex((row, col))
            assert common.move_from_vertex(vertex, size) == (row, col)
            assert coords.from_gtp(vertex, size) == p
            assert coords.from_gtp(vertex.lower(), size) == p
            sgf = coords.to_sgf(p, size)
            assert sgf.encode() == sgf_properties.serialise_go_point((row, col), size)
            assert sgf_properties.interpret_go_point(sgf.encode(), size) == (row, col)
            assert coords.from_sgf(sgf, size) == p
    assert sorted(coords.all_points(size)) == sorted(
        coords.point(r, c, size) for r in range(size) for c in range(size))
    # Passes.
    assert coords.to_gtp(mcgo.PASS, size) == common.format_vertex(None) == "pass"
    assert coords.from_gtp("pass", size) == coords.from_gtp("PASS", size) == mcgo.PASS
    assert coords.to_sgf(mcgo.PASS, size) == ""
    assert sgf_properties.interpret_go_point(b"", size) is None
    assert coords.from_sgf("", size) == mcgo.PASS
    if size <= 19:
        assert sgf_properties.interpret_go_point(b"tt", size) is None
        assert coords.from_sgf("tt", size) == mcgo.PASS


def sgfmill_accepts_vertex(vertex, size):
    try:
        common.move_from_vertex(vertex, size)
        return True
    except ValueError:
        return False


@pytest.mark.parametrize("size", [5, 9, 19, 25])
def test_invalid_vertices_are_refused_like_sgfmill(size):
    texts = ["I5", "i1", "A0", "A-1", f"A{size + 1}", "Z1", "AA1", "A", "", "5A", "A1.5", "pas"]
    texts += [f"{c}{r}" for c in "ABHJKTUZ" for r in (1, size, size + 1)]
    for text in texts:
        ours = True
        try:
            coords.from_gtp(text, size)
        except coords.CoordinateError:
            ours = False
        assert ours == sgfmill_accepts_vertex(text, size), text


# --------------------------------------------------------------- refusals
def test_refusal_reasons():
    board = mcgo.Board(9)
    board.play("E5")
    with pytest.raises(mcgo.IllegalMove) as err:
        board.play("E5")
    assert err.value.reason == "occupied" and board.legality("E5") == "occupied"
    # A1 between black B1 and A2 is suicide for white.
    board = mcgo.Board(9)
    for vertex in ["B1", "A2"]:
        board.play(vertex, mcgo.BLACK)
    with pytest.raises(mcgo.IllegalMove) as err:
        board.play("A1", mcgo.WHITE)
    assert err.value.reason == "suicide"
    assert board.is_legal("A1", mcgo.BLACK)
    # A ko: white B2 taken by black C2; white may not retake at once.
    for vertex in ["B3"]:
        board.play(vertex, mcgo.BLACK)
    for vertex in ["C1", "D2", "C3", "B2"]:
        board.play(vertex, mcgo.WHITE)
    board.play("C2", mcgo.BLACK)
    with pytest.raises(mcgo.IllegalMove) as err:
        board.play("B2", mcgo.WHITE)
    assert err.value.reason == "ko"
    assert board.ko_point == board.point("B2")
    # Off-board and malformed vertices raise CoordinateError (a ValueError).
    for bad in ["J10", "Z1", "I3", "xx"]:
        with pytest.raises(coords.CoordinateError):
            board.play(bad)
        assert not board.is_legal(bad)
    # Nothing above changed the board.
    assert K.check_consistency(board.pts, board.info, board.zob) == 0


# ------------------------------------------------------------------ board sizes
@pytest.mark.parametrize("size", [5, 9, 13, 19, 25])
def test_board_sizes_play_whole_games(size):
    """A random game to two passes on each size, checked against sgfmill move by move at the
    end: the same stones and the same area count."""
    rng = random.Random(100 + size)
    board = mcgo.Board(size)
    ref = sgfmill.boards.Board(size)
    passes = 0
    while passes < 2 and len(board.moves) < 3 * size * size:
        color = board.to_move
        move = random_legal_move(board, rng, pass_rate=0.0)
        board.play(move)
        if move == mcgo.PASS:
            passes += 1
        else:
            passes = 0
            ref.play(*coords.to_sgfmill(move, size), "b" if color == mcgo.BLACK else "w")
    for color, colour in ((mcgo.BLACK, "b"), (mcgo.WHITE, "w")):
        assert sorted(coords.to_sgfmill(p, size) for p in board.stones(color)) == sorted(
            pt for c, pt in ref.list_occupied_points() if c == colour)
    assert board.area() == ref.area_score()
    assert board.score() == ref.area_score() - board.komi
    assert K.check_consistency(board.pts, board.info, board.zob) == 0
    # The printed board shows the same picture as sgfmill's ascii rendering (# and o there).
    ours = [line.split()[1:-1] for line in str(board).splitlines()[1:-1]]
    theirs = [line.split()[1:] for line in ascii_boards.render_board(ref).splitlines()[:-1]]
    assert ours == [[{"#": "X", "o": "O"}.get(cell, cell) for cell in row] for row in theirs]


@pytest.mark.parametrize("size", [1, 26, 0, 9.0])
def test_unsupported_sizes_are_refused(size):
    with pytest.raises(ValueError):
        mcgo.Board(size)
