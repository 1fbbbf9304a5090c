"""The board's rules against GNU Go 3.8 over GTP.

GNU Go (``--chinese-rules --positional-superko``) is the referee: after every move of random
games both must agree on which empty points each colour may play, on the stones and on the
captures, and every move one of them refuses the other must refuse too. Explicit positions
check ko recaptures, suicide and a triple-ko cycle that only positional superko stops.

What GNU Go does, found by experiment with 3.8 (and relied on below):

* ``play`` accepts a move by either colour at any time (out of turn), like our ``Board.play``
  with ``color``; any move by either colour lifts the simple-ko ban, as in our board.
* the simple-ko ban binds only the colour whose stone was just taken: the capturer may fill
  the ko point at once (``is_legal`` 1), the other colour may not (``is_legal`` 0).
* with ``--positional-superko``, ``is_legal``, ``all_legal`` and ``play`` all refuse a move
  that recreates an earlier whole-board position; without the flag ``is_legal`` says 1 and
  ``play`` accepts it. ``play`` answers ``? illegal move`` whatever the reason.
"""

import random

import pytest

import mcgo
from mcgo.board import coords, opponent
from mcgo.board import kernels as K
from mcgo.gtp.controller import GtpEngine, GtpFailure

pytestmark = pytest.mark.gnugo

GTP_COLOR = {mcgo.BLACK: "black", mcgo.WHITE: "white"}


@pytest.fixture(scope="module")
def gnugo(gnugo_command):
    with GtpEngine(gnugo_command) as engine:
        yield engine


def vertices(board, points):
    return {coords.to_gtp(p, board.size) for p in points}


def assert_same_state(board, gnugo):
    """Stones of both colours and the captures of both colours agree."""
    for color, name in GTP_COLOR.items():
        theirs = set(gnugo.send(f"list_stones {name}").split())
        assert theirs == vertices(board, board.stones(color)), f"{name} stones differ\n{board}"
        assert int(gnugo.send(f"captures {name}")) == board.captures(color), f"{name} captures differ"


def assert_same_legal_points(board, gnugo):
    """``all_legal`` of each colour equals our legal points (superko included)."""
    for color, name in GTP_COLOR.items():
        theirs = set(gnugo.send(f"all_legal {name}").split())
        ours = vertices(board, board.legal_moves(color))
        assert theirs == ours, (f"{name}: only GNU Go {sorted(theirs - ours)}, "
                                f"only mcgo {sorted(ours - theirs)}\n{board}")


def new_game(gnugo, size):
    gnugo.send(f"boardsize {size}")
    gnugo.send("clear_board")
    return mcgo.Board(size)


def play_both(board, gnugo, p, color):
    board.play(p, color)
    gnugo.send(f"play {GTP_COLOR[color]} {coords.to_gtp(p, board.size)}")


def refuse_both(board, gnugo, p, color):
    """Both engines refuse the move and neither board changes; returns our reason."""
    with pytest.raises(mcgo.IllegalMove) as refused:
        board.play(p, color)
    with pytest.raises(GtpFailure):
        gnugo.send(f"play {GTP_COLOR[color]} {coords.to_gtp(p, board.size)}")
    return refused.value.reason


# Random moves per board size; the small board makes suicide, ko and superko frequent.
MOVES = {5: 1500, 9: 2500, 13: 600, 19: 400}


@pytest.mark.parametrize("size", sorted(MOVES))
def test_random_moves_agree_with_gnugo(gnugo, size):
    rng = random.Random(4200 + size)
    refused = {}
    captured = 0
    moves = 0
    while moves < MOVES[size]:
        board = new_game(gnugo, size)
        # Games up to a full board and more: captures, refills, kos.
        for _ in range(min(MOVES[size] - moves, 3 * size * size)):
            color = board.to_move if rng.random() > 0.03 else opponent(board.to_move)
            assert_same_legal_points(board, gnugo)
            legal = board.legal_moves(color)
            empties = [int(q) for q in board.pts[K.EMPTIES, :int(board.info[K.NEMPTY])]]
            illegal = sorted(set(empties) - set(legal))
            ko = int(board.info[K.KO_POINT])
            if ko != K.PASS and int(board.info[K.KO_COLOR]) == color and rng.random() < 0.7:
                assert refuse_both(board, gnugo, ko, color) == "ko"
                refused["ko"] = refused.get("ko", 0) + 1
            elif illegal and rng.random() < 0.3:
                # A refused move through ``play`` too (suicide, ko retake or superko).
                reason = refuse_both(board, gnugo, rng.choice(illegal), color)
                refused[reason] = refused.get(reason, 0) + 1
            if not legal or rng.random() < 0.005:
                play_both(board, gnugo, mcgo.PASS, color)
            else:
                before = board.captures(color)
                play_both(board, gnugo, rng.choice(legal), color)
                captured += board.captures(color) - before
            moves += 1
            assert_same_state(board, gnugo)
    print(f"{size}x{size}: {moves} moves, {captured} stones captured, refused {refused}")
    assert captured > 0 and refused.get("suicide", 0) > 0
    if size == 5:
        assert refused.get("ko", 0) > 0


def test_ko_recapture_and_suicide(gnugo):
    """A ko on the edge: the retake is refused to the side whose stone was taken, allowed to
    the capturer and to anyone after another move; a lone eye point is suicide to enter."""
    board = new_game(gnugo, 9)
    for color, vertex in [(mcgo.BLACK, "B1"), (mcgo.BLACK, "A2"), (mcgo.BLACK, "B3"),
                          (mcgo.WHITE, "C1"), (mcgo.WHITE, "D2"), (mcgo.WHITE, "C3"),
                          (mcgo.WHITE, "B2")]:
        play_both(board, gnugo, board.point(vertex), color)
    play_both(board, gnugo, board.point("C2"), mcgo.BLACK)  # takes B2
    assert_same_state(board, gnugo)
    assert board.captures(mcgo.BLACK) == 1
    b2 = board.point("B2")
    assert gnugo.send("is_legal white B2") == "0"
    assert gnugo.send("is_legal black B2") == "1"
    assert board.legality(b2, mcgo.WHITE) == "ko" and board.is_legal(b2, mcgo.BLACK)
    assert_same_legal_points(board, gnugo)
    assert refuse_both(board, gnugo, b2, mcgo.WHITE) == "ko"
    # A1 is surrounded by black B1, A2 (two liberties each): white there is suicide, black
    # may fill it.
    assert refuse_both(board, gnugo, board.point("A1"), mcgo.WHITE) == "suicide"
    assert gnugo.send("is_legal black A1") == "1" and board.is_legal("A1", mcgo.BLACK)
    # A ko threat elsewhere and its answer; then the retake is fine for both.
    play_both(board, gnugo, board.point("G7"), mcgo.WHITE)
    play_both(board, gnugo, board.point("G6"), mcgo.BLACK)
    assert_same_legal_points(board, gnugo)
    play_both(board, gnugo, b2, mcgo.WHITE)
    assert_same_state(board, gnugo)
    assert board.captures(mcgo.WHITE) == 1
    # Now black may not retake at once; and white A1 would now capture B1 (in atari since
    # the retake), so it is legal for both.
    assert refuse_both(board, gnugo, board.point("C2"), mcgo.BLACK) == "ko"
    assert gnugo.send("is_legal white A1") == "1" and board.is_legal("A1", mcgo.WHITE)
    assert_same_legal_points(board, gnugo)


def test_multi_stone_suicide_and_capture_instead_of_suicide(gnugo):
    """Filling the last liberty of one's own chain is suicide unless it captures first."""
    board = new_game(gnugo, 5)
    # White chain A1-B1 with black around, one liberty left at C1... played by white: suicide.
    for color, vertex in [(mcgo.WHITE, "A1"), (mcgo.WHITE, "B1"), (mcgo.BLACK, "A2"),
                          (mcgo.BLACK, "B2"), (mcgo.BLACK, "C2"), (mcgo.BLACK, "D1")]:
        play_both(board, gnugo, board.point(vertex), color)
    assert refuse_both(board, gnugo, board.point("C1"), mcgo.WHITE) == "suicide"
    assert_same_legal_points(board, gnugo)
    # Black at C1 captures the two white stones.
    play_both(board, gnugo, board.point("C1"), mcgo.BLACK)
    assert_same_state(board, gnugo)
    assert board.captures(mcgo.BLACK) == 2
    # White into the corner A1 next to a black chain in atari captures instead of suicide:
    # make black's lower chain short of liberties first.
    board = new_game(gnugo, 5)
    for color, vertex in [(mcgo.BLACK, "B1"), (mcgo.BLACK, "A2"), (mcgo.WHITE, "C1"),
                          (mcgo.WHITE, "B2"), (mcgo.WHITE, "A3")]:
        play_both(board, gnugo, board.point(vertex), color)
    # A1 looks like black's eye, but both black stones are in atari: white captures.
    assert gnugo.send("is_legal white A1") == "1" and board.is_legal("A1", mcgo.WHITE)
    play_both(board, gnugo, board.point("A1"), mcgo.WHITE)
    assert_same_state(board, gnugo)
    assert board.captures(mcgo.WHITE) == 2


def ko_shape(row, col, holder):
    """The stones of a ko in rows row..row+2, columns col..col+3 (row 0 at the bottom).

    Black stones at (r, c+1), (r+1, c), (r+2, c+1) and white at (r, c+2), (r+1, c+3),
    (r+2, c+2) leave two mouths; ``holder`` says whose single stone sits in the other's
    mouth: white at (r+1, c+1) or black at (r+1, c+2)."""
    stones = [(mcgo.BLACK, row, col + 1), (mcgo.BLACK, row + 1, col), (mcgo.BLACK, row + 2, col + 1),
              (mcgo.WHITE, row, col + 2), (mcgo.WHITE, row + 1, col + 3), (mcgo.WHITE, row + 2, col + 2)]
    if holder == mcgo.WHITE:
        stones.append((mcgo.WHITE, row + 1, col + 1))
    else:
        stones.append((mcgo.BLACK, row + 1, col + 2))
    return stones


def ko_take(row, col, color):
    """The point where ``color`` takes the ko of ``ko_shape(row, col, ...)``."""
    return (row + 1, col + 2) if color == mcgo.BLACK else (row + 1, col + 1)


def build_triple_ko(board, gnugo):
    """Three kos stacked on 9x9, held white / black / white; then five ko captures:
    B takes ko 1, W ko 2, B ko 3, W ko 1, B ko 2. W taking ko 3 now would bring back the
    position before the first capture."""
    size = board.size
    for color, r, c in ko_shape(0, 1, mcgo.WHITE) + ko_shape(3, 1, mcgo.BLACK) + ko_shape(6, 1, mcgo.WHITE):
        play_both(board, gnugo, coords.point(r, c, size), color)
    start = board.hash
    cycle = [(mcgo.BLACK, 0), (mcgo.WHITE, 3), (mcgo.BLACK, 6), (mcgo.WHITE, 0), (mcgo.BLACK, 3)]
    for color, row in cycle:
        p = coords.point(*ko_take(row, 1, color), size)
        assert board.legality(p, color) is None
        assert gnugo.send(f"is_legal {GTP_COLOR[color]} {coords.to_gtp(p, size)}") == "1"
        play_both(board, gnugo, p, color)
        assert_same_state(board, gnugo)
    return start, coords.point(*ko_take(6, 1, mcgo.WHITE), size)


def test_triple_ko_superko_cycle(gnugo, gnugo_command):
    board = new_game(gnugo, 9)
    start, repeat = build_triple_ko(board, gnugo)
    vertex = coords.to_gtp(repeat, 9)
    # The move is no simple-ko retake (the last capture was in another ko) ...
    assert board.ko_point != repeat
    assert K.legality(board.pts, board.info, repeat, mcgo.WHITE) == K.LEGAL
    # ... but it recreates the position before the cycle, so both forbid it.
    assert K.hash_after(board.pts, board.info, board.zob, repeat, mcgo.WHITE) == start
    assert gnugo.send(f"is_legal white {vertex}") == "0"
    assert vertex not in gnugo.send("all_legal white").split()
    assert_same_legal_points(board, gnugo)
    assert refuse_both(board, gnugo, repeat, mcgo.WHITE) == "superko"

    # Controls: without positional superko the same move is legal in both and brings back
    # the starting stones, so the refusal above really is superko.
    plain_command = [arg for arg in gnugo_command if arg != "--positional-superko"]
    with GtpEngine(plain_command) as plain:
        plain_board = new_game(plain, 9)
        plain_board.superko = False
        build_triple_ko(plain_board, plain)
        assert plain.send(f"is_legal white {vertex}") == "1"
        play_both(plain_board, plain, repeat, mcgo.WHITE)
        assert_same_state(plain_board, plain)
        assert plain_board.hash == start


# ------------------------------------------------------------------ area scoring
def own_eye(board, p, color):
    """A point all of whose neighbours are ``color``'s stones, none of them in atari.
    (Filling a point next to one's own chain in atari connects it, which is how a side ends
    a ko it has won; without that exception random games can repeat two kos for ever.)"""
    w = board.size + 2
    for q in (p - 1, p + 1, p - w, p + w):
        c = board.pts[K.COLOR, q]
        if c == K.OFFBOARD:
            continue
        if c != color or board.pts[K.LIBS, board.pts[K.HEAD, q]] == 1:
            return False
    return True


def in_atari(board):
    return any(board.liberties(p) == 1 for c in GTP_COLOR for p in board.stones(c))


def play_out(size, komi, rng):
    """A random game to its end: moves until neither side has a move other than filling its
    own one-point eyes and no chain is in atari. Every empty point is then one colour's eye
    and every chain has two liberties or more, so nothing dead is left on the board.

    Under positional superko a game often stops with a stone in atari that may not be taken
    (the capture would repeat a position; GNU Go rightly scores such a stone as dead). Then
    the game goes on from the same stones with a fresh history, where the capture is legal.
     Returns
    the final board (None if it took too many restarts) and the number of restarts."""
    board = mcgo.Board(size, komi=komi)
    for restart in range(20):
        passes = 0
        while passes < 2:
            color = board.to_move
            moves = [p for p in board.legal_moves(color) if not own_eye(board, p, color)]
            if moves:
                board.play(rng.choice(moves))
                passes = 0
            else:
                board.pass_move()
                passes += 1
        if not in_atari(board):
            return board, restart
        fresh = mcgo.Board(size, komi=komi)
        fresh.setup(black=board.stones(mcgo.BLACK), white=board.stones(mcgo.WHITE))
        fresh.to_move = board.to_move
        board = fresh
    return None, restart


SCORED_GAMES = {9: 24, 19: 8}


@pytest.mark.parametrize("size", sorted(SCORED_GAMES))
def test_area_score_matches_gnugo_final_score(gnugo_command, size):
    """Finished random games scored by ``Board.score`` and by GNU Go's ``final_score`` with
    ``--capture-all-dead``, after loading the final stones into GNU Go."""
    rng = random.Random(77 + size)
    komi = 7.5
    seen_winners = set()
    skipped = 0
    scored = 0
    restarts = 0
    with GtpEngine(gnugo_command + ["--capture-all-dead"]) as referee:
        while scored < SCORED_GAMES[size]:
            board, restarted = play_out(size, komi, rng)
            restarts += restarted
            if board is None:
                skipped += 1
                continue
            referee.send(f"boardsize {size}")
            referee.send("clear_board")
            referee.send(f"komi {komi}")
            # Every chain has liberties in the final position, so placing its stones one by
            # one never captures anything.
            for color, name in GTP_COLOR.items():
                for p in board.stones(color):
                    referee.send(f"play {name} {coords.to_gtp(p, size)}")
            for color, name in GTP_COLOR.items():
                assert set(referee.send(f"list_stones {name}").split()) == vertices(board, board.stones(color))
            theirs = referee.send("final_score")
            assert theirs == board.result(), f"game {scored}: GNU Go {theirs}, mcgo {board.result()}\n{board}"
            seen_winners.add(theirs[0])
            scored += 1
    print(f"{size}x{size}: {scored} games scored alike, {skipped} cut off, {restarts} restarts")
    assert skipped < scored
    # Both winners appear, so a sign error could not pass.
    assert seen_winners == {"B", "W"}
