"""Each playout policy does what it claims, on constructed positions.

References: sgfmill's ``Board.area_score`` for the score of a finished playout, numpy's
``rot90``/``fliplr`` for the 8 symmetries of the MoGo shapes as drawn in Gelly et al. 2006,
and textbook life and death for the random-fill judgement.
"""

import importlib

import numpy as np
import pytest
from sgfmill import boards

import mcgo
import helpers
from mcgo import options, playout
from mcgo.board import coords
from mcgo.board import kernels as K
from mcgo.playout import common, fill_policy, pattern_policy, scoring
from mcgo.playout.patterns import MOGO_SHAPES
from mcgo.tactics import atari, eyes


LETTERS = {"X": K.BLACK, "O": K.WHITE, ".": K.EMPTY, "#": K.OFFBOARD}
CHOICES = {"X": "X", "O": "O", ".": ".", "#": "#", "x": ".O", "o": ".X", "?": ".XO#"}


def board_from_rows(rows, to_move=mcgo.BLACK, komi=0.0):
    """A Board from text rows; the playout tests do without superko, as playouts do."""
    return helpers.board_from_rows(rows, to_move, komi, superko=False)


def sgfmill_area(pts, size):
    """sgfmill's area score (black minus white) of the stones in ``pts``."""
    ref = boards.Board(size)
    for p in coords.all_points(size):
        c = pts[K.COLOR, p]
        if c in (K.BLACK, K.WHITE):
            row, col = coords.row_col(p, size)
            ref.board[row][col] = "b" if c == K.BLACK else "w"
    return ref.area_score()


# --------------------------------------------------------------------------- scores
@pytest.mark.parametrize("size", [9, 13, 19])
@pytest.mark.parametrize("policy", ["random", "pattern", "fill"])
def test_playout_score_equals_sgfmill_area_score(size, policy):
    board = mcgo.Board(size)
    for move in ["D4", "E5", "C3"]:
        board.play(move)
    kind = playout.policy_id(policy)
    rng = common.seed_rng(size * 7 + kind)
    work = playout.new_work(board.size)
    owner = np.zeros(board.pts.shape[1], dtype=np.int8)
    for _ in range(30):
        pts, info = board.pts.copy(), board.info.copy()
        playout.run_playout(kind, pts, info, board.zob, playout.shape_table(), work, rng, owner,
                            playout.NO_RECORD)
        area = sgfmill_area(pts, size)
        assert K.area_of(owner) == area
        for komi in (area - 0.5, float(area), area + 0.5):   # a win, a jigo, a loss for black
            win = (area > komi) + 0.5 * (area == komi)
            assert scoring.black_win_value(owner, komi) == win
        if policy != "fill":
            # A finished rule-abiding playout: bookkeeping intact, both sides passed or cap hit.
            assert K.check_consistency(pts, info, board.zob) == 0
            assert info[K.PASSES] >= 2 or info[K.MOVE_COUNT] - board.info[K.MOVE_COUNT] == 3 * size * size


def test_each_registered_policy_runs_under_its_number():
    """The dispatch maps the i-th name of ``options.PLAYOUT_POLICIES`` to the ``play_out`` of
    ``NAME_policy.py``: the same seed gives the same playout either way."""
    board = mcgo.Board(19)
    board.play("D4")
    work = playout.new_work(board.size)
    results = {}
    for number, name in enumerate(options.PLAYOUT_POLICIES):
        assert playout.policy_id(name) == number
        module = importlib.import_module(f"mcgo.playout.{name}_policy")
        runs = []
        for run in (playout.run_playout, lambda *args: module.play_out(*args[1:])):
            pts, info = board.pts.copy(), board.info.copy()
            owner = np.zeros(board.pts.shape[1], dtype=np.int8)
            moves = run(number, pts, info, board.zob, playout.shape_table(), work,
                        common.seed_rng(5), owner, playout.NO_RECORD)
            runs.append((moves, owner.tobytes()))
        assert runs[0] == runs[1], name
        results[name] = runs[0]
    # auto plays fill here (19x19 opening).
    assert results["auto"] == results["fill"]
    assert len(set(results.values())) == len(results) - 1
    owner = np.zeros(board.pts.shape[1], dtype=np.int8)
    assert playout.run_playout(len(options.PLAYOUT_POLICIES), board.pts.copy(), board.info.copy(),
                               board.zob, playout.shape_table(), work, common.seed_rng(5),
                               owner, playout.NO_RECORD) == playout.dispatch.NO_POLICY
    with pytest.raises(ValueError, match="unknown playout policy"):
        playout.policy_id("nonsense")


def test_fixed_seed_reproduces_and_other_seed_differs():
    board = mcgo.Board(9)
    a = playout.simulate(board, 300, "pattern", seed=5, ownership=True)
    b = playout.simulate(board, 300, "pattern", seed=5, ownership=True)
    c = playout.simulate(board, 300, "pattern", seed=6, ownership=True)
    assert (a.black_wins, a.moves) == (b.black_wins, b.moves)
    assert np.array_equal(a.owner_sum, b.owner_sum)
    assert (a.moves, a.black_wins) != (c.moves, c.black_wins)


def test_threads_add_up_all_playouts():
    stats = playout.simulate(mcgo.Board(9), 401, "random", seed=3, threads=2)
    assert stats.playouts == 401
    assert 80 < stats.moves_per_playout < 140


def test_ownership_map_sees_a_living_group_and_its_territory():
    # Black owns the left side solidly; the right side is empty.
    rows = ["..X......",
            "..X......",
            "..X......",
            "XXX......",
            ".........",
            "XXX......",
            "..X......",
            "..X......",
            "..X......"]
    board = board_from_rows(rows, to_move=mcgo.WHITE)
    owner = playout.ownership(board, playouts=300, policy="pattern", seed=2)
    assert playout.point_ownership(owner, "A9", 9) > 0.9
    assert playout.point_ownership(owner, "A1", 9) > 0.9
    assert playout.point_ownership(owner, "C6", 9) > 0.9
    assert abs(playout.point_ownership(owner, "G5", 9)) < 0.9


# --------------------------------------------------------------------------- random
def true_eyes(sgf_board, colour):
    """Empty points that are true eyes of ``colour`` ('b'/'w'), read off sgfmill's board."""
    size = sgf_board.side
    eyes = set()
    other = "w" if colour == "b" else "b"
    for r in range(size):
        for c in range(size):
            if sgf_board.get(r, c) is not None:
                continue
            sides = [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))]
            if any(0 <= a < size and 0 <= b < size and sgf_board.get(a, b) != colour for a, b in sides):
                continue
            diags = [(r + dr, c + dc) for dr in (1, -1) for dc in (1, -1)]
            on_edge = any(not (0 <= a < size and 0 <= b < size) for a, b in diags)
            bad = sum(1 for a, b in diags if 0 <= a < size and 0 <= b < size and sgf_board.get(a, b) == other)
            if bad == 0 or (bad == 1 and not on_edge):
                eyes.add(coords.point(r, c, size))
    return eyes


@pytest.mark.parametrize("size", [9, 19])
def test_random_policy_never_fills_its_own_true_eye(size):
    rng = common.seed_rng(11)
    filled_eyes_offered = 0
    for game in range(6 if size == 9 else 2):
        board = mcgo.Board(size, superko=False)
        ref = boards.Board(size)
        for _ in range(3 * size * size):
            color = board.to_move
            move = common.random_move(board.pts, board.info, rng, color, common.ALLOW_SELF_ATARI)
            eyes = true_eyes(ref, "b" if color == mcgo.BLACK else "w")
            filled_eyes_offered += bool(eyes)
            assert move not in eyes
            if move == K.PASS:
                # Passing is right only when every legal move fills an own true eye.
                assert set(board.legal_moves(color)) <= eyes
                if board.consecutive_passes == 1:
                    break
            else:
                row, col = coords.row_col(move, size)
                ref.play(row, col, "b" if color == mcgo.BLACK else "w")
            board.play(move, color)
    assert filled_eyes_offered > 50  # the games really reached positions with eyes


def test_random_policy_is_uniform_over_playable_points():
    board = mcgo.Board(5)
    board.play("C3")
    rng = common.seed_rng(4)
    counts = {}
    n = 24000
    for _ in range(n):
        move = common.random_move(board.pts, board.info, rng, mcgo.WHITE, common.ALLOW_SELF_ATARI)
        counts[move] = counts.get(move, 0) + 1
    assert set(counts) == set(board.legal_moves(mcgo.WHITE))
    expected = n / len(counts)
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 60  # 23 degrees of freedom: p < 1e-4 would need chi2 > 57


# --------------------------------------------------------------------------- pattern
def position(black, white, last=None, size=9):
    """A Board with setup stones; ``last`` = (colour, vertex) is then played as a move."""
    board = mcgo.Board(size, superko=False)
    board.setup(black=[board.point(v) for v in black], white=[board.point(v) for v in white])
    if last is not None:
        board.play(last[1], last[0])
    return board


def choose(board, seed=1):
    rng = common.seed_rng(seed)
    return pattern_policy.choose_move(board.pts, board.info, board.zob, playout.shape_table(),
                                      playout.new_work(board.size), rng, board.to_move)


def test_pattern_policy_captures_a_chain_in_atari():
    # White plays E5 into atari between D5, F5 and E6: black takes it at E4.
    board = position(black=["D5", "F5", "E6"], white=[], last=(mcgo.WHITE, "E5"))
    assert board.liberties("E5") == 1
    for seed in range(20):
        assert coords.to_gtp(choose(board, seed), 9) == "E4"


def test_pattern_policy_saves_its_own_chain_by_extending():
    # White E6 puts black E5 in atari; extending to E4 gives three liberties.
    board = position(black=["E5"], white=["D5", "F5"], last=(mcgo.WHITE, "E6"))
    assert board.liberties("E5") == 1
    for seed in range(20):
        assert coords.to_gtp(choose(board, seed), 9) == "E4"


def test_pattern_policy_saves_the_bigger_chain_first():
    # White E5 ataris both black D5 (one stone) and F5-F6 (two stones).
    board = position(black=["D5", "F5", "F6"], white=["C5", "D6", "E6", "G5", "G6", "F7"],
                     last=(mcgo.WHITE, "E5"))
    assert board.liberties("D5") == 1 and board.liberties("F5") == 1
    assert board.liberties("E5") > 1
    for seed in range(20):
        assert coords.to_gtp(choose(board, seed), 9) == "F4"


def test_pattern_policy_saves_by_capturing_when_extending_fails():
    # Black D5-E5 in atari (liberty E4, where extending leaves one liberty); white C5 is in
    # atari itself: capturing it at C4 is the save.
    board = position(black=["D5", "E5", "B5", "C6"], white=["C5", "D6", "E6", "F5", "F4"],
                     last=(mcgo.WHITE, "D4"))
    assert board.liberties("D5") == 1 and board.liberties("C5") == 1
    after = board.copy()
    after.play("E4")
    assert after.liberties("E4") == 1  # extending really fails
    for seed in range(20):
        assert coords.to_gtp(choose(board, seed), 9) == "C4"


def test_pattern_policy_plays_a_shape_next_to_the_last_move():
    board = position(black=["E5", "E4"], white=["F5"], last=(mcgo.WHITE, "F4"))
    table = playout.shape_table()
    w = board.size + 2
    last = board.point("F4")
    shape_points = {q for q in (last + w - 1, last + w, last + w + 1, last - 1, last + 1,
                                last - w - 1, last - w, last - w + 1)
                    if board.color_at(q) == mcgo.EMPTY
                    and table[pattern_policy.neighbourhood_code(board.pts, w, q)]}
    assert shape_points  # the position really offers shape moves
    for seed in range(30):
        assert choose(board, seed) in shape_points


def random_positions(size, count, seed):
    """Positions from random games, taken every few moves."""
    rng = common.seed_rng(seed)
    board = mcgo.Board(size, superko=False)
    out = []
    while len(out) < count:
        move = common.random_move(board.pts, board.info, rng, board.to_move, common.ALLOW_SELF_ATARI)
        if move == K.PASS:
            board = mcgo.Board(size, superko=False)
            continue
        board.play(move)
        if len(board.moves) % 7 == 0:
            out.append(board.copy())
    return out


def test_self_atari_test_agrees_with_playing_the_move():
    for board in random_positions(9, 60, seed=21):
        w = board.size + 2
        color = board.to_move
        for p in board.legal_moves(color):
            after = board.copy()
            after.play(p, color)
            truly = (after.captures(color) == board.captures(color)
                     and len(after.chain(p)) >= 2 and after.liberties(p) == 1)
            assert bool(atari.is_self_atari(board.pts, w, p, color)) == truly, (board, p)


def test_self_atari_is_mostly_rejected():
    # On positions with self-atari moves among the playable ones, the random step picks
    # them far less often than their share of the playable moves.
    expected_share = []
    chosen_share = []
    for i, board in enumerate(random_positions(9, 120, seed=5)):
        w = board.size + 2
        color = board.to_move
        playable = [p for p in board.legal_moves(color)
                    if not eyes.is_true_eye(board.pts, w, p, color)]
        bad = {p for p in playable if atari.is_self_atari(board.pts, w, p, color)}
        if not bad:
            continue
        rng = common.seed_rng(i)
        picks = [common.random_move(board.pts, board.info, rng, color, common.REJECT_SELF_ATARI)
                 for _ in range(300)]
        expected_share.append(len(bad) / len(playable))
        chosen_share.append(sum(m in bad for m in picks) / len(picks))
    assert len(expected_share) >= 10
    assert np.mean(chosen_share) < 0.35 * np.mean(expected_share)
    assert np.mean(chosen_share) > 0  # but not never: nakade needs them now and then


# 3x3 shapes: every symmetry and colouring, placed on a real board.
def shape_variants(rows):
    grid = np.array([list(r) for r in rows])
    for k in range(4):
        rotated = np.rot90(grid, k)
        for g in (rotated, np.fliplr(rotated)):
            for swap in (False, True):
                out = g.copy()
                if swap:
                    table = str.maketrans("XOxo", "OXox")
                    out = np.array([[ch.translate(table) for ch in row] for row in g])
                yield ["".join(r) for r in out]


def place_shape(rows, size, rng):
    """Put a concrete instance of a shape on a Board; returns (board, centre point)."""
    def is_edge(cells):
        return "#" in cells and set(cells) <= {"#", "?"}
    top_edge = is_edge(rows[0])
    bottom_edge = is_edge(rows[2])
    left_edge = is_edge("".join(r[0] for r in rows))
    right_edge = is_edge("".join(r[2] for r in rows))
    centre_row = size - 1 if top_edge else 0 if bottom_edge else size // 2
    centre_col = 0 if left_edge else size - 1 if right_edge else size // 2
    black, white = [], []
    for i in range(3):
        for j in range(3):
            if (i, j) == (1, 1):
                continue
            r, c = centre_row + 1 - i, centre_col + j - 1
            on_board = 0 <= r < size and 0 <= c < size
            options = [ch for ch in CHOICES[rows[i][j]] if (ch == "#") != on_board]
            assert options, (rows, i, j)
            ch = options[rng.integers(len(options))]
            if ch == "X":
                black.append(coords.point(r, c, size))
            elif ch == "O":
                white.append(coords.point(r, c, size))
    board = mcgo.Board(size, superko=False)
    board.setup(black=black, white=white)
    return board, coords.point(centre_row, centre_col, size)


@pytest.mark.parametrize("name,rows", MOGO_SHAPES, ids=[n for n, _ in MOGO_SHAPES])
def test_each_shape_is_recognised_in_all_symmetries_and_both_colours(name, rows):
    table = playout.shape_table()
    rng = np.random.default_rng(0)
    variants = list(shape_variants(rows))
    assert len(variants) == 16
    for variant in variants:
        for _ in range(8):  # several concrete fillings of the wildcards
            board, centre = place_shape(variant, 9, rng)
            code = pattern_policy.neighbourhood_code(board.pts, board.size + 2, centre)
            assert table[code] == 1, (name, variant, board)


def test_a_bare_neighbourhood_matches_no_shape():
    board = mcgo.Board(9)
    board.play("A1")
    code = pattern_policy.neighbourhood_code(board.pts, 11, board.point("E5"))
    assert playout.shape_table()[code] == 0


def test_pattern_policy_plays_the_shape_answer_to_the_last_move():
    # Black E5, white F5 contacts it; the hane shape answers next to the last move.
    board = mcgo.Board(9, superko=False)
    for move in ["E5", "F5", "E4"]:  # black E5-E4, white F5: white to move
        board.play(move)
    board.play("F4")  # white blocks: black to move, last move F4
    table = playout.shape_table()
    w = 11
    shape_points = {q for q in range(board.pts.shape[1])
                    if board.pts[K.COLOR, q] == K.EMPTY
                    and max(abs(q % w - board.point("F4") % w), abs(q // w - board.point("F4") // w)) == 1
                    and table[pattern_policy.neighbourhood_code(board.pts, w, q)]}
    assert shape_points  # the position really offers a shape move
    for seed in range(20):
        assert choose(board, seed) in shape_points


def test_self_atari_of_a_big_chain_is_mostly_rejected():
    # Black's only non-eye move besides self-atari: count how often the playout picks it.
    rows = ["XXXXXXXXX",
            "X.X.X.X.X",
            "XXXXXXXXX",
            "OOOOOOOOO",
            "O.OO.O.OO",
            "OOOOOOOOO",
            "....O....",
            "OO..O..OO",
            ".O..O..O."]
    board = board_from_rows(rows)
    w = 11
    picks = 0
    selfatari = 0
    rng = common.seed_rng(9)
    for _ in range(4000):
        m = common.random_move(board.pts, board.info, rng, mcgo.BLACK, common.REJECT_SELF_ATARI)
        if m != K.PASS:
            picks += 1
            selfatari += atari.is_self_atari(board.pts, w, m, mcgo.BLACK)
    assert picks > 0
    # Some moves (the lower area) are self-atari for nobody; the test only needs the rule
    # to agree with the real board: playing a reported self-atari leaves one liberty.
    for p in board.legal_moves(mcgo.BLACK):
        after = board.copy()
        after.play(p, mcgo.BLACK)
        chain = after.chain(p)
        truly = len(chain) >= 2 and after.liberties(p) == 1 and after.captures(mcgo.BLACK) == 0
        assert bool(atari.is_self_atari(board.pts, w, p, mcgo.BLACK)) == truly, coords.to_gtp(p, 9)


# --------------------------------------------------------------------------- fill
def judge(rows):
    """Run the fill policy's life judgement on a filled position (text rows, top first);
    returns the colour of a vertex afterwards."""
    size = len(rows)
    board = mcgo.Board(size, superko=False)
    black, white = [], []
    for i, line in enumerate(rows):
        for col, ch in enumerate(line):
            p = coords.point(size - 1 - i, col, size)
            (black if ch == "X" else white if ch == "O" else []).append(p)
    board.setup(black=black, white=white)
    col = board.pts[K.COLOR].copy()
    scratch = np.zeros((fill_policy.SCRATCH_ROWS, col.shape[0]), dtype=np.int32)
    fill_policy.judge_and_remove_dead(col, scratch, size + 2)
    return lambda vertex: int(col[coords.from_gtp(vertex, size)])


def test_fill_two_eyes_live():
    status = judge(["XXXXXOOOO",
                    "X.X.XOO.O",
                    "XXXXXOOOO",
                    "XXXXXOOOO",
                    "XXXXXOOOO",
                    "XXXXXOOOO",
                    "XXXXXOOOO",
                    "XXXXXOO.O",
                    "XXXXXOOOO"])
    assert status("A9") == K.BLACK and status("E1") == K.BLACK
    assert status("F9") == K.WHITE and status("J1") == K.WHITE


def test_fill_one_small_eye_dies():
    status = judge(["OOOOOOOOO",
                    "OXXXXXOOO",
                    "OXX.XXOOO",
                    "OXXXXXOOO",
                    "OOOOOOOOO",
                    "OOOOOOOOO",
                    "OO.OOOOOO",
                    "OOOOOOO.O",
                    "OOOOOOOOO"])
    assert status("B8") == K.EMPTY and status("F6") == K.EMPTY
    assert status("A9") == K.WHITE


@pytest.mark.parametrize("eye_points,alive", [(5, False), (6, True)])
def test_fill_one_eyespace_lives_when_larger_than_five(eye_points, alive):
    middle = "." * eye_points + "X" * (6 - eye_points)
    status = judge(["OOOOOOOOO",
                    "OXXXXXXXX",
                    "OX" + middle + "X",
                    "OXXXXXXXX",
                    "OOOOOOOOO",
                    "OOOOOOOOO",
                    "OO.OOOOOO",
                    "OOOOOOO.O",
                    "OOOOOOOOO"])
    assert status("B8") == (K.BLACK if alive else K.EMPTY)
    assert status("A9") == K.WHITE


def test_fill_seki_both_live():
    # Black E7-G7/C6-G6 and the white ring around it share the eyespace C7-D7 and have no
    # other; the outer black group has two eyes.
    status = judge(["XXXXXXXXX",
                    "XOOOOOOOX",
                    "XO..XXXOX",
                    "XOXXXXXOX",
                    "XOOOOOOOX",
                    "XXXXXXXXX",
                    "X.XXXXXXX",
                    "XXXXXXX.X",
                    "XXXXXXXXX"])
    assert status("E7") == K.BLACK and status("C6") == K.BLACK
    assert status("B8") == K.WHITE and status("H5") == K.WHITE
    assert status("A9") == K.BLACK


def test_fill_removes_chains_of_three_or_fewer():
    status = judge(["OOOOOOOOO",
                    "OXXX.OOOO",
                    "OOOOOOOOO",
                    "OOOOOOOOO",
                    "OOOOOOOOO",
                    "OOOOOOOOO",
                    "OO.OOOOOO",
                    "OOOOOOO.O",
                    "OOOOOOOOO"])
    assert status("B8") == K.EMPTY and status("D8") == K.EMPTY
    assert status("A9") == K.WHITE


# --------------------------------------------------------------------------- move record
@pytest.mark.parametrize("policy", ["random", "pattern"])
def test_recorded_moves_replay_to_the_same_final_position(policy):
    """The record the search's AMAF uses holds exactly the moves played: replaying them on a
    real Board (whose rules were checked against sgfmill) gives the playout's final stones."""
    board = mcgo.Board(9, superko=False)
    for move in ["E5", "C3"]:
        board.play(move)
    kind = playout.policy_id(policy)
    rng = common.seed_rng(11 + kind)
    work = playout.new_work(board.size)
    owner = np.zeros(board.pts.shape[1], dtype=np.int8)
    record = np.zeros(3 * 81 + 1, dtype=np.int32)
    for _ in range(5):
        pts, info = board.pts.copy(), board.info.copy()
        n = playout.run_playout(kind, pts, info, board.zob, playout.shape_table(), work, rng,
                                owner, record)
        replay = board.copy()
        for entry in record[:n]:
            p, color = divmod(int(entry), playout.RECORD_COLORS)
            replay.play(p, color)
        assert np.array_equal(replay.pts[K.COLOR], pts[K.COLOR])


def test_fill_records_every_filled_point_with_its_colour():
    board = mcgo.Board(9)
    board.play("E5")
    empties = set(board.legal_moves()) | {p for p in coords.all_points(9) if board.color_at(p) == K.EMPTY}
    rng = common.seed_rng(3)
    record = np.zeros(81, dtype=np.int32)
    pts, info = board.pts.copy(), board.info.copy()
    n = fill_policy.fill_randomly(pts, info, rng, record)
    moves = [divmod(int(e), playout.RECORD_COLORS) for e in record[:n]]
    assert {p for p, _ in moves} == empties
    assert all(pts[K.COLOR, p] == c for p, c in moves)
