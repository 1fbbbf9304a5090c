"""Case base kernels against hand-worked positions and plain-Python references.

References here are written independently of mcgo.casebase: a breadth-first flow with exact
fractions, codes as Python ints, ``int.bit_count``, numpy's rot90/flip, brute-force sorting.
"""

import collections
import random
from fractions import Fraction

import numpy as np
import pytest

import mcgo
from mcgo.board import kernels as K
from mcgo.board.coords import all_points, from_gtp, point, row_col
from mcgo.casebase import CaseBase, influence_map, influence_sums
from mcgo.casebase.advisor import OpeningAdvisor, bonus_map
from mcgo.casebase.codes import code_words, popcount_words, similarity
from mcgo.casebase.encoder import PositionEncoder
from mcgo.casebase.influence import INFLUENCE_UNIT
from mcgo.casebase.retrieval import best_matches, top_matches
from mcgo.board.symmetry import images, inverse, map_point
from mcgo.sgf import read_game

UNIT = INFLUENCE_UNIT


def position(size, black=(), white=()):
    """Board arrays with stones placed directly (legality is irrelevant to influence)."""
    board = mcgo.Board(size)
    for vertices, color in ((black, K.BLACK), (white, K.WHITE)):
        for v in vertices:
            board.pts[K.COLOR, from_gtp(v, size) if isinstance(v, str) else v] = color
    return board


def reference_influence(colors, size, steps=5):
    """{point: (black, white)} as Fractions: a flow from each empty neighbour of each stone,
    1/d at flow distance d (the neighbour is at 1), through empty points, up to ``steps``."""
    w = size + 2
    total = collections.defaultdict(lambda: [Fraction(0), Fraction(0)])
    for s in range(w * w):
        c = colors[s]
        if c not in (K.BLACK, K.WHITE):
            continue
        for start in (s + 1, s - 1, s + w, s - w):
            if colors[start] != K.EMPTY:
                continue
            dist = {start: 1}
            frontier = [start]
            while frontier:
                nxt = []
                for p in frontier:
                    if dist[p] == steps:
                        continue
                    for q in (p + 1, p - 1, p + w, p - w):
                        if colors[q] == K.EMPTY and q not in dist:
                            dist[q] = dist[p] + 1
                            nxt.append(q)
                frontier = nxt
            for p, d in dist.items():
                total[p][c - 1] += Fraction(1, d)
    return total


def reference_classes(colors, size, threshold):
    infl = reference_influence(colors, size)
    out = []
    for r in range(size):
        for c in range(size):
            p = point(r, c, size)
            if colors[p] in (K.BLACK, K.WHITE):
                out.append(int(colors[p]))
                continue
            b, wh = infl[p] if p in infl else (0, 0)
            if b - wh > threshold:
                out.append(K.BLACK)
            elif wh - b > threshold:
                out.append(K.WHITE)
            else:
                out.append(K.EMPTY)
    return out


def reference_code(classes):
    """The code as one Python int: bit 3*i + class."""
    return sum(1 << (3 * i + k) for i, k in enumerate(classes))


def words_to_int(words):
    return sum(int(x) << (64 * j) for j, x in enumerate(words))


def random_position(rng, size, density):
    board = mcgo.Board(size)
    for p in all_points(size):
        x = rng.random()
        if x < density / 2:
            board.pts[K.COLOR, p] = K.BLACK
        elif x < density:
            board.pts[K.COLOR, p] = K.WHITE
    return board


# ------------------------------------------------------------------- influence: hand-made
def test_lone_stone_influence_by_hand():
    size = 19
    board = position(size, black=["K10"])
    black, white = influence_sums(board)
    assert not white.any()
    k10 = from_gtp("K10", size)
    r0, c0 = row_col(k10, size)
    # Worked by hand: the stream from K11 gives 1; those from J10 and L10 reach K11 in 3
    # steps (1/3 each); the one from K9 goes round in 5 steps (1/5).
    assert Fraction(int(black[from_gtp("K11", size)]), UNIT) == 1 + Fraction(2, 3) + Fraction(1, 5)
    # Five points up only the stream from K11 arrives, at its fifth step; six up nothing does.
    assert Fraction(int(black[from_gtp("K15", size)]), UNIT) == Fraction(1, 5)
    assert black[from_gtp("K16", size)] == 0
    for p in all_points(size):
        r, c = row_col(p, size)
        manhattan = abs(r - r0) + abs(c - c0)
        assert (black[p] > 0) == (1 <= manhattan <= 5), mcgo.to_gtp(p, size)
    classes = influence_map(board, threshold=0)
    assert classes[k10] == K.BLACK and classes[from_gtp("K15", size)] == K.BLACK
    assert classes[from_gtp("K16", size)] == K.EMPTY
    # A threshold above the outer influence empties the far points.
    assert influence_map(board, threshold=0.5)[from_gtp("K15", size)] == K.EMPTY


def test_wall_blocks_flow():
    size = 9
    wall = [f"E{r}" for r in range(1, 10)]
    board = position(size, black=["C5"], white=wall)
    black, white = influence_sums(board)
    for p in all_points(size):
        r, c = row_col(p, size)
        if c > 4:           # right of the wall: black's flow cannot get there
            assert black[p] == 0
    assert black[from_gtp("D5", size)] > 0
    # The wall influences both sides; the left side is shared, the right side is white's.
    classes = influence_map(board, threshold=0.5)
    assert classes[from_gtp("H5", size)] == K.WHITE
    assert classes[from_gtp("B5", size)] == K.BLACK
    # One stone in the way cuts the influence behind it.
    open_board = position(size, black=["C5"])
    blocked = position(size, black=["C5"], white=["D5"])
    e5 = from_gtp("E5", size)
    assert influence_sums(blocked)[0][e5] < influence_sums(open_board)[0][e5]


def test_equal_opposing_stones_give_empty():
    size = 9
    board = position(size, black=["C5"], white=["G5"])
    black, white = influence_sums(board)
    for p in all_points(size):
        r, c = row_col(p, size)
        mirror = point(r, size - 1 - c, size)
        assert black[p] == white[mirror]
    classes = influence_map(board, threshold=0)
    for r in range(size):
        p = point(r, 4, size)          # the E column, halfway
        assert black[p] == white[p]
        assert classes[p] == K.EMPTY
    assert classes[from_gtp("D5", size)] == K.BLACK and classes[from_gtp("F5", size)] == K.WHITE


def test_empty_board_is_all_empty():
    assert not influence_map(mcgo.Board(13)).any()


# ------------------------------------------------------------------- influence, codes: random
@pytest.mark.parametrize("size", [5, 9, 19])
def test_influence_codes_and_similarity_match_reference(size):
    rng = random.Random(size)
    encoder = {t: PositionEncoder(size, threshold=t) for t in (0.0, 0.5, 1.0)}
    boards = [random_position(rng, size, rng.choice([0.05, 0.15, 0.4])) for _ in range(12)]
    codes = {}
    for n, board in enumerate(boards):
        colors = board.pts[K.COLOR]
        ref = reference_influence(colors, size)
        black, white = influence_sums(board)
        for p in all_points(size):
            b, w = ref[p] if p in ref else (0, 0)
            if colors[p] == K.EMPTY:
                assert Fraction(int(black[p]), UNIT) == b and Fraction(int(white[p]), UNIT) == w
        for t, enc in encoder.items():
            classes = reference_classes(colors, size, Fraction(t).limit_denominator(100))
            assert enc.classes(board.pts).tolist() == classes
            code = enc.code(board.pts)
            assert code.shape == (code_words(size),)
            assert words_to_int(code) == reference_code(classes)
            assert popcount_words(code) == size * size
            codes[n, t] = (code, classes)
    for (n, t), (code, classes) in codes.items():
        for (m, u), (other, other_classes) in codes.items():
            if t != u:
                continue
            expected = (words_to_int(code) & words_to_int(other)).bit_count()
            assert similarity(code, other) == expected
            assert expected == sum(a == b for a, b in zip(classes, other_classes))


def test_retrieval_kernels_against_brute_force():
    rng = np.random.default_rng(7)
    words = code_words(19)
    codes = rng.integers(0, 2 ** 63, size=(500, words), dtype=np.int64).astype(np.uint64)
    codes[137] = codes[42]                      # a tie: the lower row wins
    queries = rng.integers(0, 2 ** 63, size=(3, words), dtype=np.int64).astype(np.uint64)
    queries[1] = codes[42]
    for start, stop in ((0, 500), (100, 400), (7, 7)):
        score = np.array([[sum((int(a) & int(b)).bit_count() for a, b in zip(codes[i], q))
                           for i in range(500)] for q in queries])
        index, best = np.empty(3, np.int64), np.empty(3, np.int64)
        best_matches(codes, start, stop, queries, index, best)
        k = 10
        top_index, top_score = np.empty((3, k), np.int64), np.empty((3, k), np.int64)
        top_matches(codes, start, stop, queries, top_index, top_score)
        for q in range(3):
            ranked = sorted(range(start, stop), key=lambda i: (-score[q, i], i))
            if not ranked:
                assert index[q] == -1 and (top_index[q] == -1).all()
                continue
            assert (index[q], best[q]) == (ranked[0], score[q, ranked[0]])
            assert top_index[q].tolist() == ranked[:k]
            assert top_score[q].tolist() == [score[q, i] for i in ranked[:k]]


# ------------------------------------------------------------------- symmetries
NUMPY_SYMMETRIES = {0: lambda a: a, 1: np.fliplr, 2: np.flipud, 3: lambda a: np.rot90(a, 2),
                    4: lambda a: a.T, 5: lambda a: np.fliplr(a.T), 6: lambda a: np.flipud(a.T),
                    7: lambda a: np.rot90(a.T, 2)}


@pytest.mark.parametrize("size", [5, 9, 19])
def test_symmetries_against_numpy(size):
    grid = np.arange(size * size).reshape(size, size)      # grid[row, col]
    table = images(size)
    results = []
    for s in range(8):
        moved = np.empty(size * size, dtype=np.int64)
        moved[table[s]] = grid.ravel()
        assert np.array_equal(moved.reshape(size, size), NUMPY_SYMMETRIES[s](grid))
        results.append(moved.reshape(size, size))
    numpy_group = [np.rot90(g, k) for g in (grid, np.fliplr(grid)) for k in range(4)]
    assert sorted(r.tobytes() for r in results) == sorted(g.tobytes() for g in numpy_group)
    for s in range(8):
        assert np.array_equal(table[inverse(s)][table[s]], np.arange(size * size))
        for p in all_points(size):
            q = map_point(p, s, size)
            assert map_point(q, inverse(s), size) == p
            assert table[s][_index(p, size)] == _index(q, size)


def _index(p, size):
    r, c = row_col(p, size)
    return r * size + c


def test_influence_commutes_with_symmetry():
    rng = random.Random(3)
    size = 19
    encoder = PositionEncoder(size)
    for _ in range(5):
        board = random_position(rng, size, 0.1)
        codes = encoder.symmetric_codes(board.pts)
        for s in range(8):
            moved = mcgo.Board(size)
            for p in all_points(size):
                moved.pts[K.COLOR, map_point(p, s, size)] = board.pts[K.COLOR, p]
            assert np.array_equal(encoder.code(moved.pts), codes[s])


GAME = (b"(;SZ[19]KM[6.5];B[pd];W[dp];B[pq];W[dd];B[fq];W[cn];B[jp];W[qo];B[qn];W[pn];B[qm]"
        b";W[on];B[ql];W[fc];B[qf];W[jd];B[nc];W[cg];B[kq];W[ie])")


def test_symmetric_retrieval_maps_the_move_back():
    record = read_game(GAME)
    cb = CaseBase.from_records([record])
    size = 19
    for s in range(8):
        for n in (3, 8, 15):
            board = mcgo.Board(size)
            for color, p in record.moves[:n]:
                board.play(map_point(p, s, size), color)
            plain = cb.best(board)
            match = cb.best(board, symmetries=True)
            assert match.score == size * size
            assert match.move == map_point(record.moves[n][1], s, size)
            assert match.stored_move == record.moves[n][1]
            if s:
                assert plain.score < size * size


# ------------------------------------------------------------------- bonus and advisor
def test_bonus_map_against_distances():
    size = 19
    pro = from_gtp("R14", size)
    bonus = bonus_map(pro, size)
    pr, pc = row_col(pro, size)
    for p in all_points(size):
        r, c = row_col(p, size)
        d = ((r - pr) ** 2 + (c - pc) ** 2) ** 0.5
        expected = 0.4 if d == 0 else 0.3 if d == 1 else 0.2 if abs(d - 2 ** 0.5) < 1e-9 else \
            0.1 if d <= 4 else 0.0
        assert bonus[p] == pytest.approx(expected)
    assert bonus.shape == ((size + 2) ** 2,)


def test_advisor_stops_after_the_opening_and_on_other_sizes():
    record = read_game(GAME)
    cb = CaseBase.from_records([record])
    advisor = OpeningAdvisor(cb, bonus_moves=5)
    board = mcgo.Board(19)
    for color, p in record.moves[:4]:
        board.play(p, color)
    bonus, labels = advisor.advise(board)
    pro = record.moves[4][1]
    assert bonus[pro] == pytest.approx(0.4)
    assert labels[pro] == f"{mcgo.to_gtp(pro, 19)}: 0.4 <bytes>"
    board.play(*reversed(record.moves[4]))
    assert advisor.advise(board) == (None, None)
    assert advisor.advise(mcgo.Board(9)) == (None, None)


def test_vote_prefers_the_move_most_cases_agree_on():
    games = [b"(;SZ[9];B[ee];W[cc])", b"(;SZ[9];B[ee];W[gg])", b"(;SZ[9];B[ee];W[gg])"]
    cb = CaseBase.from_records([read_game(g) for g in games])
    board = mcgo.Board(9)
    board.play("E5")
    assert mcgo.to_gtp(cb.best(board).move, 9) == "C7"          # all tie: the first game
    assert mcgo.to_gtp(cb.vote(board, k=3).move, 9) == "G3"     # two votes against one
    assert mcgo.to_gtp(cb.vote(board, k=1).move, 9) == "C7"
    assert [int(cb.games[m.index]) for m in cb.top(board, k=3, exclude_game=1)] == [0, 2]
