"""The ``lgrf`` playout policy: last good reply with forgetting (Baier and Drake 2010).

* the update rule on hand-made sequences, against the paper's definition written out as
  the expected tables (store the winner's reply; delete the loser's only where it is the
  move just played), and against a plain-Python reading of the same definition on real
  playout records;
* the search's update (tree moves, then the playout) is the same as one over the whole
  sequence;
* the policy plays a stored reply when it is legal and good, and falls back when not;
* playouts with learned tables from positions of Fuego's regression games end in legal
  positions: sgfmill (not written on this project) replays every recorded move;
* the policy is reachable by name from ``mcgo bench`` and ``mcgo gtp``.
"""

import pathlib

import numpy as np
import pytest
import sgfmill.boards
from click.testing import CliRunner

import helpers
import mcgo
from mcgo import playout, sgf
from mcgo.board import coords
from mcgo.board import kernels as K
from mcgo.cli import main
from mcgo.playout import common, lgrf_policy, pattern_policy
from mcgo.playout.lgrf_policy import (BEFORE_LAST, NO_MOVE, REPLY1, REPLY2, SLOTS,
                                      learn_record, learn_reply)
from mcgo.search import Search, kernels as search_kernels
from mcgo.search.tree import MOVE
from mcgo.tactics.atari import is_self_atari
from mcgo.tactics.eyes import is_true_eye

B, W = mcgo.BLACK, mcgo.WHITE
MODEL = playout.playout_tables("lgrf", None)


def tables(size=9):
    work = playout.new_work(size)
    return work, work[REPLY1], work[REPLY2]


def pt(vertex, size=9):
    return coords.from_gtp(vertex, size)


def record_of(moves, size=9):
    """A playout record of ``[(colour, vertex or "pass"), ...]``."""
    return np.array([(K.PASS if v == "pass" else pt(v, size)) * playout.RECORD_COLORS + c
                     for c, v in moves], dtype=np.int32)


# --------------------------------------------------------------------------- update rule
def test_winner_stores_replies_and_loser_forgets_only_its_own_move():
    _, r1, r2 = tables()
    a, b, c, d, e = (pt(v) for v in ("C3", "G7", "C7", "G3", "E5"))
    # What earlier simulations left:
    r1[W - 1, a] = b          # white answered C3 with G7: white loses below, deleted
    r1[W - 1, c] = e          # white's reply to C7 is E5, not G3: kept
    r2[W - 1, b, c] = d       # white answered G7, C7 with G3: deleted
    r1[B - 1, b] = e          # black's old reply to G7: replaced
    record = record_of([(B, "C3"), (W, "G7"), (B, "C7"), (W, "G3")])
    learn_record(r1, r2, NO_MOVE, NO_MOVE, record, 4, 1.0)     # black won
    expected1 = np.zeros_like(r1)
    expected2 = np.zeros_like(r2)
    expected1[W - 1, c] = e
    expected1[B - 1, b] = c
    expected2[B - 1, a, b] = c
    assert np.array_equal(r1, expected1)
    assert np.array_equal(r2, expected2)


def test_passes_are_no_replies_and_no_keys_and_a_jigo_teaches_nothing():
    _, r1, r2 = tables()
    record = record_of([(B, "C3"), (W, "pass"), (B, "D4"), (W, "E5"), (B, "pass")])
    learn_record(r1, r2, NO_MOVE, NO_MOVE, record, 5, 0.0)     # white won
    # W pass: not stored. B D4 after a pass: no key. W E5 after (pass, D4): LGR-1 only.
    # B pass: not stored.
    assert np.count_nonzero(r1) == 1 and r1[W - 1, pt("D4")] == pt("E5")
    assert np.count_nonzero(r2) == 0
    learn_record(r1, r2, NO_MOVE, NO_MOVE, record_of([(B, "C3"), (W, "E5")]), 2, 0.5)
    assert np.count_nonzero(r1) == 1 and np.count_nonzero(r2) == 0


def test_the_record_is_read_after_the_moves_before_it():
    """The first moves of a playout are keyed by the two moves before it (the tree's)."""
    _, r1, r2 = tables()
    learn_record(r1, r2, pt("A1"), pt("B2"), record_of([(W, "C3")]), 1, 0.0)
    assert r1[W - 1, pt("B2")] == pt("C3") and r2[W - 1, pt("A1"), pt("B2")] == pt("C3")


def reference_update(r1, r2, moves, black_result):
    """Baier and Drake's rule read plainly, on dicts: ``moves`` is ``[(colour, point)]``."""
    for i, (color, move) in enumerate(moves):
        prev = moves[i - 1][1] if i >= 1 else None
        before = moves[i - 2][1] if i >= 2 else None
        if move == K.PASS or prev in (None, K.PASS) or black_result == 0.5:
            continue
        keys = [(r1, (color, prev))]
        if before not in (None, K.PASS):
            keys.append((r2, (color, before, prev)))
        won = (black_result == 1.0) == (color == B)
        for table, key in keys:
            if won:
                table[key] = move
            elif table.get(key) == move:
                del table[key]


def as_dicts(r1, r2):
    d1 = {(c + 1, p): int(r1[c, p]) for c, p in zip(*np.nonzero(r1))}
    d2 = {(c + 1, q, p): int(r2[c, q, p]) for c, q, p in zip(*np.nonzero(r2))}
    return d1, d2


def test_update_over_real_playouts_matches_the_rule_read_plainly():
    board = mcgo.Board(9)
    board.play("E5")
    work, r1, r2 = tables()
    ref1, ref2 = {}, {}
    rng = common.seed_rng(3)
    owner = np.zeros(board.pts.shape[1], dtype=np.int8)
    record = np.zeros(3 * 81 + 1, dtype=np.int32)
    kind = playout.policy_id("lgrf")
    for _ in range(40):
        pts, info = board.pts.copy(), board.info.copy()
        n = playout.run_playout(kind, pts, info, board.zob, playout.shape_table(), work, rng,
                                owner, record, MODEL)
        result = playout.scoring.black_win_value(owner, 7.0)
        learn_record(r1, r2, NO_MOVE, pt("E5"), record, n, result)
        moves = [(B, pt("E5"))] + [(int(e) % 4, int(e) // 4) for e in record[:n]]
        reference_update(ref1, ref2, moves, result)
        assert as_dicts(r1, r2) == (ref1, ref2)
    assert len(ref1) > 20 and len(ref2) > 20


def test_search_update_is_the_update_over_tree_moves_then_playout():
    """``learn_replies`` (tree path, then record) equals one ``learn_record`` over all."""
    tree_moves = [(B, "C3"), (W, "G7"), (B, "pass"), (W, "C7")]
    playout_moves = [(B, "G3"), (W, "E5"), (B, "D4")]
    ints = np.zeros((MOVE + 1, 8), dtype=np.int32)
    path = np.zeros(8, dtype=np.int32)
    for d, (_, v) in enumerate(tree_moves, start=1):
        ints[MOVE, d] = K.PASS if v == "pass" else pt(v)
        path[d] = d
    record = record_of(playout_moves)
    for black_result in (1.0, 0.0):
        work, r1, r2 = tables()
        work[SLOTS][lgrf_policy.ROOT_BEFORE_LAST] = pt("H8")
        search_kernels.learn_replies(ints, path, len(tree_moves), B, pt("J9"), work, record,
                                     len(record), black_result)
        _, e1, e2 = tables()
        learn_record(e1, e2, pt("H8"), pt("J9"), record_of(tree_moves + playout_moves),
                     len(tree_moves) + len(playout_moves), black_result)
        assert np.array_equal(r1, e1) and np.array_equal(r2, e2)
        assert np.count_nonzero(r1) > 0


def test_a_search_learns_replies_and_keeps_them_within_a_game():
    board = mcgo.Board(9, komi=7.0)
    board.play("E5")
    board.play("C3")
    search = Search(policy="lgrf", seed=1)
    search.run(board, playouts=300)
    work = search.workers[0].work
    assert work[SLOTS][lgrf_policy.ROOT_BEFORE_LAST] == pt("E5")
    learned = np.count_nonzero(work[REPLY1])
    assert learned > 0 and np.count_nonzero(work[REPLY2]) > 0
    board.play("G7")
    search.run(board, playouts=50)
    assert search.workers[0].work is work
    search.new_game()
    search.run(mcgo.Board(9, komi=7.0), playouts=50)
    assert search.workers[0].work is not work
    # Other policies learn nothing.
    other = Search(policy="pattern", seed=1)
    other.run(board, playouts=100)
    assert np.count_nonzero(other.workers[0].work[REPLY1]) == 0


# --------------------------------------------------------------------------- policy
def choose(board, work, before, seed=1):
    return lgrf_policy.choose_move_after(board.pts, board.info, board.zob, playout.shape_table(),
                                         work, common.seed_rng(seed), board.to_move, before)


def pattern_choice(board, seed=1):
    return pattern_policy.choose_move(board.pts, board.info, board.zob, playout.shape_table(),
                                      playout.new_work(board.size), common.seed_rng(seed),
                                      board.to_move)


def test_plays_the_lgr2_reply_then_the_lgr1_reply_then_falls_back():
    board = mcgo.Board(9, superko=False)
    board.play("D4")                       # black; white answers
    board.play("F6")                       # white; black to play, before = D4, last = F6
    work, r1, r2 = tables()
    last, before = pt("F6"), pt("D4")
    r1[B - 1, last] = pt("C7")
    r2[B - 1, before, last] = pt("G3")
    for seed in range(5):
        assert choose(board, work, before, seed) == pt("G3")
        assert choose(board, work, NO_MOVE, seed) == pt("C7")        # no LGR-2 key
        assert choose(board, work, pt("A1"), seed) == pt("C7")       # another key
    board = mcgo.Board(9, superko=False)
    board.setup(black=[pt("G3")])
    board.play("D4", B)
    board.play("F6", W)
    assert choose(board, work, before) == pt("C7")                   # G3 occupied
    board = mcgo.Board(9, superko=False)
    board.setup(black=[pt("G3")], white=[pt("C7")])
    board.play("D4", B)
    board.play("F6", W)
    for seed in range(5):                                            # both occupied
        assert choose(board, work, before, seed) == pattern_choice(board, seed)


def test_rejects_own_eye_self_atari_and_illegal_replies():
    # Black's true eye at A1 (its chain keeps C1 and C2); for white A1 is suicide.
    rows = [". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            ". . . . . . . . .",
            "O . . . . . . . .",
            "X O . . . . . . .",
            "X O . . . . . . .",
            "X X . . . . . . .",
            ". X . . . . . . ."]
    board = helpers.board_from_rows(rows, to_move=W, superko=False)
    board.play("G5")                       # white; black to play
    assert K.legality(board.pts, board.info, pt("A1"), B) == K.LEGAL
    w = board.info[K.WIDTH]
    assert is_true_eye(board.pts, w, pt("A1"), B)
    work, r1, r2 = tables()
    last = pt("G5")
    r1[B - 1, last] = pt("A1")             # fills black's own eye
    for seed in range(5):
        assert choose(board, work, NO_MOVE, seed) == pattern_choice(board, seed)
    # Black's A2 B2 has two liberties, A1 and B1: either leaves it one.
    rows2 = [". . . . . . . . .",
             ". . . . . . . . .",
             ". . . . . . . . .",
             ". . . . . . . . .",
             ". . . . . . . . .",
             ". . . . . . . . .",
             "O O . . . . . . .",
             "X X O . . . . . .",
             ". . O . . . . . ."]
    board2 = helpers.board_from_rows(rows2, to_move=W, superko=False)
    board2.play("G5")
    w = board2.info[K.WIDTH]
    for reply in ("A1", "B1"):             # each leaves A2 B2 (+1) with one liberty
        assert K.legality(board2.pts, board2.info, pt(reply), B) == K.LEGAL
        assert is_self_atari(board2.pts, w, pt(reply), B)
        work, r1, r2 = tables()
        r1[B - 1, pt("G5")] = pt(reply)
        for seed in range(5):
            assert choose(board2, work, NO_MOVE, seed) == pattern_choice(board2, seed)
    # A suicide: white to play A1 in the first position is suicide for white.
    board3 = helpers.board_from_rows(rows, to_move=B, superko=False)
    board3.play("G6")                      # black; white to play
    assert K.legality(board3.pts, board3.info, pt("A1"), W) == K.SUICIDE
    work, r1, r2 = tables()
    r1[W - 1, pt("G6")] = pt("A1")
    for seed in range(5):
        assert choose(board3, work, NO_MOVE, seed) == pattern_choice(board3, seed)


def test_the_reply_comes_before_capture_or_escape():
    """Baier and Drake's order: a good stored reply first, the pattern playout's capture of
    a chain in atari when there is none."""
    board = mcgo.Board(9, superko=False)
    board.setup(black=[pt("D5"), pt("F5"), pt("E6")])
    board.play("E5", W)                    # in atari: black's capture is E4
    work, r1, r2 = tables()
    assert choose(board, work, NO_MOVE) == pt("E4")
    r1[B - 1, pt("E5")] = pt("C7")
    assert choose(board, work, NO_MOVE) == pt("C7")


def test_choose_move_keeps_the_move_before_last_in_its_slot():
    board = mcgo.Board(9, superko=False)
    board.play("D4")
    board.play("F6")
    work, r1, r2 = tables()
    r2[B - 1, pt("D4"), pt("F6")] = pt("G3")
    work[SLOTS][BEFORE_LAST] = pt("D4")
    move = lgrf_policy.choose_move(board.pts, board.info, board.zob, playout.shape_table(),
                                   work, common.seed_rng(1), B)
    assert move == pt("G3") and work[SLOTS][BEFORE_LAST] == pt("F6")


# --------------------------------------------------------------------------- real positions
FUEGO_GAMES = ["2007/uct160K-mogo10K-2.sgf", "2008/KGS/7/26/MatroidX-4.sgf",
               "2008/EGC2008/19/LeelaBot2-Fuego.sgf", "2011/KGS-January/PueGo-pachi2.sgf"]


def sgfmill_replay_is_legal(board, record, n, pts):
    """Replay the recorded moves on sgfmill's board from ``board``'s position; each must be
    a pass or on an empty point, no suicide and no simple-ko retake; the final stones must
    be the playout's."""
    size = board.size
    ref = sgfmill.boards.Board(size)
    for p in coords.all_points(size):
        c = board.color_at(p)
        if c in (B, W):
            row, col = coords.row_col(p, size)
            ref.play(row, col, "b" if c == B else "w")
    ko = None
    ko_point = int(board.info[K.KO_POINT])
    if ko_point != K.PASS and int(board.info[K.KO_COLOR]) == board.to_move:
        ko = coords.row_col(ko_point, size)
    for entry in record[:n]:
        p, color = divmod(int(entry), playout.RECORD_COLORS)
        if p == K.PASS:
            ko = None
            continue
        row, col = coords.row_col(p, size)
        assert ref.get(row, col) is None, "occupied"
        assert (row, col) != ko, "simple ko retaken"
        ko = ref.play(row, col, "b" if color == B else "w")
        assert ref.get(row, col) is not None, "suicide"
    w = size + 2
    ours = pts[K.COLOR].reshape(w, w)[1:-1, 1:-1]
    theirs = np.array([[{None: 0, "b": B, "w": W}[ref.get(r, c)] for c in range(size)]
                       for r in range(size)])
    assert np.array_equal(ours, theirs)


@pytest.mark.parametrize("game", FUEGO_GAMES)
def test_lgrf_playouts_from_fuego_positions_are_legal(fuego_regression_dir, game):
    record_path = fuego_regression_dir / "sgf" / "games" / game
    game_record = sgf.read_game(pathlib.Path(record_path).read_bytes())
    board = sgf.replay(game_record, max_moves=min(40, len(game_record.moves) - 1))
    search = Search(policy="lgrf", seed=7)
    search.run(board, playouts=200)         # fills the tables from the tree and playouts
    work = search.workers[0].work
    r1, r2 = work[REPLY1], work[REPLY2]
    assert np.count_nonzero(r1) > 0
    rng = common.seed_rng(5)
    owner = np.zeros(board.pts.shape[1], dtype=np.int8)
    record = np.zeros(3 * board.size ** 2 + 1, dtype=np.int32)
    kind = playout.policy_id("lgrf")
    replies = 0
    for _ in range(10):
        pts, info = board.pts.copy(), board.info.copy()
        n = playout.run_playout(kind, pts, info, board.zob, playout.shape_table(), work, rng,
                                owner, record, MODEL)
        sgfmill_replay_is_legal(board, record, n, pts)
        assert K.check_consistency(pts, info, board.zob) == 0
        before, prev = NO_MOVE, int(board.info[K.LAST_MOVE])
        for entry in record[:n]:
            p, color = divmod(int(entry), playout.RECORD_COLORS)
            if prev > 0 and p > 0 and r1[color - 1, prev] == p:
                replies += 1
            before, prev = prev, p
    assert replies > 0                      # the stored replies were played


# --------------------------------------------------------------------------- by name
def test_bench_and_gtp_reach_the_policy_by_name(monkeypatch):
    result = CliRunner().invoke(main, ["bench", "--policy", "lgrf", "--size", "9",
                                       "--seconds", "0.2", "--start", "empty", "--json"])
    assert result.exit_code == 0, result.output
    assert '"policy": "lgrf"' in result.output
    policies = []
    original = Search.__init__

    def spy(self, *args, **kwargs):
        original(self, *args, **kwargs)
        policies.append(self.policy)
    monkeypatch.setattr(Search, "__init__", spy)
    result = CliRunner().invoke(main, ["gtp", "--policy", "lgrf", "--playouts", "50", "--quiet"],
                                input="boardsize 9\nclear_board\ngenmove b\nquit\n")
    assert result.exit_code == 0, result.output
    assert "lgrf" in policies
    answer = [line for line in result.output.splitlines() if line.startswith("=")][2]
    assert answer[2:].strip() not in ("", "resign")
