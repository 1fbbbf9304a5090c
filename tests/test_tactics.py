"""The tactics kernels (:mod:`mcgo.tactics`) against references we did not write.

Positions: Fuego's regression SGFs (life and death, nakade, seki, safety tests, games) and
professional games from the goban collection, replayed with :func:`mcgo.sgf.replay` at
several move numbers. References:

* GNU Go 3.8 over GTP: ``findlib``/``countlib`` for every chain's liberties; ``attack``,
  ``is_legal`` and ``play`` for the capture of a chain in atari; ``is_legal`` for the moves
  the kernels propose;
* sgfmill's board (its own capture rules) for what a move does: whether it removes stones,
  and the liberties of the chain it makes (read off sgfmill's board after the move by a flood
  fill here), for captures, self-atari, liberties after a move and escapes from atari.
"""

import pathlib

import numpy as np
import pytest

import mcgo
from mcgo import sgf
from mcgo.board import coords
from mcgo.board import kernels as K
from mcgo.gtp.controller import GtpEngine
from mcgo.tactics import atari, geometry, ladder, liberties
from helpers import sgfmill_board, sgfmill_group

ROOT = pathlib.Path(__file__).resolve().parent.parent
GTP_COLOR = {mcgo.BLACK: "black", mcgo.WHITE: "white"}
SGF_COLOR = {mcgo.BLACK: "b", mcgo.WHITE: "w"}
FUEGO_FOLDERS = ["lifeanddeath", "nakade", "seki", "semeai", "ladder", "ko", "eyes", "playout",
                 "policy-rejected-moves", "safetytest-whole-board", "games/pro-9x9",
                 "games/2008/CGOS"]
FUEGO_FILES_PER_FOLDER = 5
PRO_GAMES = 8
PRO_MOVE_NUMBERS = (60, 120, 180)


def positions_of(path, move_numbers=(None,)):
    """Boards of a record at the given move numbers (None: the end), rebuilt from their stones
    alone (no ko ban, no history: GNU Go gets the same stones)."""
    record = sgf.read_game(path)
    out = []
    for n in move_numbers:
        try:
            played = sgf.replay(record, max_moves=n, superko=False)
        except sgf.SgfError:
            continue
        board = mcgo.Board(played.size, superko=False)
        board.setup(black=played.stones(mcgo.BLACK), white=played.stones(mcgo.WHITE))
        board.to_move = played.to_move
        out.append((f"{path.name}@{n}", board))
    return out


@pytest.fixture(scope="module")
def real_positions(fuego_regression_dir, goban_games_dir):
    found = []
    for folder in FUEGO_FOLDERS:
        files = sorted((fuego_regression_dir / "sgf" / folder).rglob("*.sgf"))
        step = max(1, len(files) // FUEGO_FILES_PER_FOLDER)
        for path in files[::step][:FUEGO_FILES_PER_FOLDER]:
            found += positions_of(path, (None, 30))
    games = sorted(goban_games_dir.glob("*.sgf"))
    for path in games[::len(games) // PRO_GAMES][:PRO_GAMES]:
        found += positions_of(path, PRO_MOVE_NUMBERS)
    distinct = {}
    for name, board in found:   # a problem without moves is the same at every move number
        if board.stones(mcgo.BLACK):
            distinct.setdefault((board.size, board.pts[K.COLOR].tobytes()), (name, board))
    assert len(distinct) >= 60
    return list(distinct.values())


@pytest.fixture(scope="module")
def gnugo(gnugo_command):
    with GtpEngine(gnugo_command) as engine:
        yield engine


def load_into_gnugo(gnugo, board):
    """The same stones on GNU Go's board (placing a legal position's stones in any order
    captures nothing)."""
    gnugo.send(f"boardsize {board.size}")
    gnugo.send("clear_board")
    for color, name in GTP_COLOR.items():
        for p in board.stones(color):
            gnugo.send(f"play {name} {coords.to_gtp(p, board.size)}")


def chains(board):
    """(head, colour, points) of every chain."""
    seen = {}
    for p in coords.all_points(board.size):
        c = board.color_at(p)
        if c in (mcgo.BLACK, mcgo.WHITE):
            seen.setdefault(int(board.pts[K.HEAD, p]), (c, []))[1].append(p)
    return [(head, c, pts) for head, (c, pts) in seen.items()]


def vertex(board, p):
    return coords.to_gtp(p, board.size)


# --------------------------------------------------------------------------- sgfmill oracle
def after_move(ref, board, p, color):
    """What sgfmill's board says of ``color`` playing ``p``: (stones it removed, size and
    liberty count of the chain at ``p`` afterwards)."""
    after = ref.copy()
    row, col = coords.row_col(p, board.size)
    opp = SGF_COLOR[3 - color]
    before = sum(1 for c, _ in ref.list_occupied_points() if c == opp)
    after.play(row, col, SGF_COLOR[color])
    captured = before - sum(1 for c, _ in after.list_occupied_points() if c == opp)
    chain, libs = sgfmill_group(after, board.size, row, col)
    return captured, len(chain), len(libs)


# --------------------------------------------------------------------------- GNU Go
@pytest.mark.gnugo
def test_chain_liberties_equal_gnugo_findlib_and_countlib(real_positions, gnugo):
    checked = 0
    for name, board in real_positions:
        load_into_gnugo(gnugo, board)
        w = board.size + 2
        out = np.zeros(board.size * board.size, dtype=np.int32)
        for head, _, pts in chains(board):
            v = vertex(board, pts[0])
            n = liberties.chain_liberties(board.pts, w, head, out)
            ours = {vertex(board, q) for q in out[:n]}
            assert n == len(ours) == int(gnugo.send(f"countlib {v}")), (name, v)
            assert ours == set(gnugo.send(f"findlib {v}").split()), (name, v)
            assert vertex(board, liberties.first_liberty(board.pts, w, head)) in ours, (name, v)
            checked += 1
    assert checked > 1000


@pytest.mark.gnugo
def test_capturing_a_chain_in_atari_agrees_with_gnugo(real_positions, gnugo):
    """A chain in atari: GNU Go's ``attack`` finds it capturable, GNU Go accepts our capture
    at its liberty exactly when our rules do, and playing there removes the chain."""
    captures = 0
    for name, board in real_positions:
        load_into_gnugo(gnugo, board)
        w = board.size + 2
        for head, color, pts in chains(board):
            if board.pts[K.LIBS, head] != 1:
                continue
            attacker = 3 - color
            lib = liberties.first_liberty(board.pts, w, head)
            v, move = vertex(board, pts[0]), vertex(board, lib)
            legal = gnugo.send(f"is_legal {GTP_COLOR[attacker]} {move}") == "1"
            assert legal == (K.legality(board.pts, board.info, lib, attacker) == K.LEGAL)
            if not legal:
                continue
            assert atari.is_capture(board.pts, w, lib, attacker), (name, move)
            assert gnugo.send(f"attack {v}").split()[0] != "0", (name, v)
            gnugo.send(f"play {GTP_COLOR[attacker]} {move}")
            assert all(gnugo.send(f"color {vertex(board, p)}") == "empty" for p in pts), (name, v)
            gnugo.send("undo")
            captures += 1
    assert captures >= 20


@pytest.mark.gnugo
def test_capture_or_escape_proposes_gnugo_legal_moves_that_work(real_positions, gnugo):
    """After every stone of a position as the "last move": the answer is legal for GNU Go,
    and sgfmill sees it capture, or leave the saved chain two liberties or more."""
    answers = 0
    for name, board in real_positions:
        space = ladder.new_ladder_space(board.size)
        load_into_gnugo(gnugo, board)
        ref = sgfmill_board(board)
        w = board.size + 2
        color = board.to_move
        for head, _, pts in chains(board):
            for last in pts:
                move = atari.capture_or_escape(board.pts, board.info, board.zob, space, last, color,
                                               True)
                if move == K.PASS:
                    continue
                assert gnugo.send(f"is_legal {GTP_COLOR[color]} {vertex(board, move)}") == "1"
                captured, _, libs = after_move(ref, board, move, color)
                assert captured > 0 or libs >= 2, (name, vertex(board, last), vertex(board, move))
                answers += 1
    assert answers >= 10


# --------------------------------------------------------------------------- sgfmill
def test_capture_self_atari_and_liberties_after_agree_with_sgfmill(real_positions):
    kinds = {"capture": 0, "self-atari": 0, "one liberty": 0}
    for name, board in real_positions:
        ref = sgfmill_board(board)
        w = board.size + 2
        for color in (mcgo.BLACK, mcgo.WHITE):
            for p in board.legal_moves(color):
                captured, size, libs = after_move(ref, board, p, color)
                where = (name, GTP_COLOR[color], vertex(board, p))
                assert bool(atari.is_capture(board.pts, w, p, color)) == (captured > 0), where
                truly_self_atari = captured == 0 and size >= 2 and libs == 1
                assert bool(atari.is_self_atari(board.pts, w, p, color)) == truly_self_atari, where
                ours, stones = liberties.liberties_after(board.pts, w, p, color)
                assert ours == (2 if captured else min(libs, 2)), where
                if ours < 2:
                    assert min(stones, 2) == min(size, 2), where
                    kinds["one liberty"] += 1
                kinds["capture"] += captured > 0
                kinds["self-atari"] += truly_self_atari
    assert min(kinds.values()) >= 10, kinds   # the positions really hold each case


def sgfmill_chains(ref, size):
    """Every chain of sgfmill's board as ``{(row, col): (chain, liberty count)}``, the chain a
    frozenset of its points."""
    out = {}
    for _, start in ref.list_occupied_points():
        if start not in out:
            chain, libs = sgfmill_group(ref, size, *start)
            for point in chain:
                out[point] = (frozenset(chain), len(libs))
    return out


def test_chains_near_are_sgfmills_chains_there_biggest_first(real_positions):
    """With every point as the centre: the chains of one and of two liberties with a stone at
    or next to it on sgfmill's board, each once, biggest first, and among equal sizes in the
    order of the centre and its west, east, south and north neighbours."""
    found = 0
    for name, board in real_positions[::2]:
        ref = sgfmill_board(board)
        size, w = board.size, board.size + 2
        chain_at = sgfmill_chains(ref, size)
        for centre in coords.all_points(size):
            order = [coords.row_col(q, size)
                     for q in (centre, centre - 1, centre + 1, centre - w, centre + w)
                     if 1 <= q // w <= size and 1 <= q % w <= size]
            for libs in (1, 2):
                expected = []
                for point in order:
                    chain, n = chain_at.get(point, (None, 0))
                    if chain is not None and n == libs and chain not in expected:
                        expected.append(chain)
                expected.sort(key=len, reverse=True)           # stable: ties keep the order
                heads = [h for h in liberties.chains_near(board.pts, w, centre, libs)
                         if h != K.PASS]
                got = [chain_at[coords.row_col(h, size)][0] for h in heads]
                assert got == expected, (name, vertex(board, centre), libs)
                found += len(got)
    assert found >= 200, found


def test_escape_from_atari_agrees_with_sgfmill(real_positions):
    """For every chain in atari: the escape either captures a neighbour in atari (sgfmill
    removes stones) or extends to two liberties or more; PASS exactly when no such move of
    that kind is legal (sgfmill tried on each candidate) or the extension runs into a ladder
    that the ladder reader (tested on its own in test_ladder.py) reads as working."""
    escapes = passes = 0
    for name, board in real_positions:
        space = ladder.new_ladder_space(board.size)
        ref = sgfmill_board(board)
        w = board.size + 2
        for head, color, pts in chains(board):
            if board.pts[K.LIBS, head] != 1:
                continue
            move = atari.escape_atari(board.pts, board.info, board.zob, space, head, color, True)
            legal = set(board.legal_moves(color))
            opp_in_atari = {int(board.pts[K.HEAD, q]) for s in pts
                            for q in (s - 1, s + 1, s - w, s + w)
                            if board.pts[K.COLOR, q] == 3 - color and board.pts[K.LIBS, board.pts[K.HEAD, q]] == 1}
            capturing = {liberties.first_liberty(board.pts, w, h) for h in opp_in_atari} & legal
            lib = liberties.first_liberty(board.pts, w, head)
            if lib in legal:
                captured, _, libs = after_move(ref, board, lib, color)
                extends = captured > 0 or libs >= 2   # a capture counts as two liberties
            else:
                extends = False
            where = (name, vertex(board, pts[0]))
            if move == K.PASS:
                assert not capturing, where
                assert not extends or ladder.ladder_captures(board.pts, board.info, board.zob, space,
                                                             head), where
                passes += 1
            else:
                assert move in capturing or (not capturing and move == lib and extends), where
                escapes += 1
    assert escapes >= 5 and passes >= 1, (escapes, passes)


def test_free_area_rule_agrees_with_sgfmill_stones(real_positions):
    for name, board in real_positions[::3]:
        ref = sgfmill_board(board)
        stones = [(r, c) for _, (r, c) in ref.list_occupied_points()]
        w = board.size + 2
        for p in coords.all_points(board.size):
            row, col = coords.row_col(p, board.size)
            empty = all(max(abs(r - row), abs(c - col)) > geometry.EMPTY_AREA_RADIUS for r, c in stones)
            assert bool(geometry.in_empty_area(board.pts, w, board.size, p)) == empty, (name, p)
            line = min(row, col, board.size - 1 - row, board.size - 1 - col)
            assert geometry.edge_distance(p, w, board.size) == line


def open_region_by_sgfmill(ref, size):
    """True when some empty region of sgfmill's board (a flood fill of its empty points)
    covers more than 1/geometry.OPEN_REGION_SHARE of the board, or touches stones of both
    colours where neither colour's are invaders (at most geometry.INVADER_STONES of them
    against geometry.WALL_RATIO times as many)."""
    seen = set()
    for r in range(size):
        for c in range(size):
            if ref.get(r, c) is not None or (r, c) in seen:
                continue
            stack, stones, region = [(r, c)], {"b": set(), "w": set()}, {(r, c)}
            seen.add((r, c))
            while stack:
                y, x = stack.pop()
                for a, b in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                    if not (0 <= a < size and 0 <= b < size):
                        continue
                    colour = ref.get(a, b)
                    if colour is not None:
                        stones[colour].add((a, b))
                    elif (a, b) not in seen:
                        seen.add((a, b))
                        region.add((a, b))
                        stack.append((a, b))
            fewer, more = sorted(len(s) for s in stones.values())
            invaders = fewer <= geometry.INVADER_STONES and more >= geometry.WALL_RATIO * fewer
            if len(region) * geometry.OPEN_REGION_SHARE > size * size:
                return True
            if fewer > 0 and not invaders:
                return True
    return False


def region_scratch(board):
    n = board.pts.shape[1]
    return np.zeros(n, dtype=np.int32), np.zeros(n, dtype=np.int32)


def test_open_region_agrees_with_a_flood_fill_of_sgfmills_board(real_positions,
                                                               fuego_regression_dir):
    """On the sample, and on the last positions of Fuego's 2007 CGOS games: programs that
    played to the end under Tromp-Taylor rules, many of them with every dame filled."""
    games = sorted((fuego_regression_dir / "sgf" / "games" / "2007" / "CGOS").glob("*.sgf"))
    ends = [position for path in games for position in positions_of(path)]
    verdicts = set()
    for name, board in real_positions + ends:
        expected = open_region_by_sgfmill(sgfmill_board(board), board.size)
        assert geometry.has_open_region(board.pts, board.info, *region_scratch(board)) \
            == expected, name
        verdicts.add(expected)
    assert verdicts == {True, False}     # the sample holds finished games as well


def test_the_yamato_example_is_closed_when_its_comment_says_both_must_pass(fuego_regression_dir):
    """Yamato's example (Fuego's final_moves/yamato-example2.sgf): "After move 20 both need
    to pass". Before move 20 the top border (E9) is still open; the empty board is open.
    Moves 21-26 are played inside the territories, three of them into the other side's
    (Fuego's cleanup_japanese_rules.tst expects a pass after each): dead invaders, which
    leave the borders drawn. After one move, or two each, nothing is drawn."""
    record = sgf.read_game(fuego_regression_dir / "sgf" / "final_moves" / "yamato-example2.sgf")
    for moves, is_open in ((0, True), (1, True), (2, True), (4, True), (19, True), (20, False),
                           (23, False), (24, False), (26, False)):
        board = sgf.replay(record, max_moves=moves)
        assert geometry.has_open_region(board.pts, board.info, *region_scratch(board)) \
            == is_open, moves


def test_moves_that_give_a_two_liberty_chain_more_liberties_agree_with_sgfmill(real_positions):
    """The priors' way out of a ladder threat (mcgo.search.priors.leaves_the_ladder, on
    tactics.liberties.extension_liberties): for every chain with two liberties and each of
    its liberties that captures nothing, "three or more liberties after the move" is what
    sgfmill's board shows."""
    from mcgo.search.priors import leaves_the_ladder
    seen = {True: 0, False: 0}
    for name, board in real_positions:
        ref = sgfmill_board(board)
        w = board.size + 2
        for head, color, _ in chains(board):
            if board.pts[K.LIBS, head] != 2:
                continue
            for lib in liberties.two_liberties(board.pts, w, head):
                if board.legality(lib, color) is not None:
                    continue
                captured, _, libs = after_move(ref, board, lib, color)
                if captured:
                    continue
                says = bool(leaves_the_ladder(board.pts, w, lib, head, color))
                assert says == (libs >= 3), (name, vertex(board, lib))
                seen[says] += 1
    assert min(seen.values()) >= 20, seen


def test_common_fate_graph_distances_agree_with_a_graph_on_sgfmills_board(real_positions):
    """cfg_distances against a breadth-first search over the common fate graph built from
    sgfmill's board: chains (flood fills of sgfmill's stones) contracted to one node, empty
    points as nodes, edges between neighbours; from the last stone of each chain."""
    checked = 0
    limit = 3
    for name, board in real_positions[::4]:
        ref = sgfmill_board(board)
        size, w = board.size, board.size + 2
        chain_of = {}
        for r in range(size):
            for c in range(size):
                colour = ref.get(r, c)
                if colour is None or (r, c) in chain_of:
                    continue
                stack, members = [(r, c)], {(r, c)}
                while stack:
                    y, x = stack.pop()
                    for a, b in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if 0 <= a < size and 0 <= b < size and (a, b) not in members \
                                and ref.get(a, b) == colour:
                            members.add((a, b))
                            stack.append((a, b))
                for m in members:
                    chain_of[m] = frozenset(members)
        dist = np.zeros(w * w, dtype=np.int32)
        queue = np.zeros(w * w, dtype=np.int32)
        seen = np.zeros(w * w, dtype=np.int32)
        for source in list({m: None for m in chain_of.values()})[:6]:
            start = min(source)
            expected = {point: 0 for point in source}
            frontier = list(source)
            for d in range(1, limit + 1):
                nxt = []
                for y, x in frontier:
                    for a, b in ((y + 1, x), (y - 1, x), (y, x + 1), (y, x - 1)):
                        if not (0 <= a < size and 0 <= b < size) or (a, b) in expected:
                            continue
                        for point in chain_of.get((a, b), [(a, b)]):
                            expected[point] = d
                            nxt.append(point)
                frontier = nxt
            geometry.cfg_distances(board.pts, w, coords.point(*start, size), limit, dist, queue,
                                   seen)
            for r in range(size):
                for c in range(size):
                    assert dist[coords.point(r, c, size)] == expected.get((r, c), limit + 1), \
                        (name, (r, c))
            checked += 1
    assert checked >= 50
