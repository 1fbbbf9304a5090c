"""The learned playout policy (mcgo/playout/learned_policy.py) against the move model it
samples: its near-move frequencies follow the model's own probabilities (the NumPy path,
``MoveModel.probabilities``), it never fills its own true eye, and it plays through GTP."""

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats

import mcgo
import helpers
from mcgo.board import kernels as K
from mcgo.cli import main
from mcgo.models.movemodel import open_model
from mcgo.playout import MODEL_POLICIES, learned_policy, playout_tables
from mcgo.tactics import eyes

SAMPLES = 60000


@pytest.fixture(scope="module")
def model():
    return open_model("default")


def near(board, centres):
    """The points at Manhattan distance 1..2 of any of ``centres`` (a hand-written rule)."""
    size = board.size
    out = set()
    for c in centres:
        r0, c0 = mcgo.board.coords.row_col(c, size)
        for r in range(size):
            for col in range(size):
                if 0 < abs(r - r0) + abs(col - c0) <= 2:
                    out.add(mcgo.board.coords.point(r, col, size))
    return out


def draw(board, model, previous, n=SAMPLES, seed=7):
    counts = np.zeros(board.pts.shape[1], dtype=np.int64)
    learned_policy.sample_moves(board.pts, board.info, board.zob, learned_policy.model_tables(model),
                                previous, seed, n, counts)
    return counts


def test_near_moves_follow_the_model_probabilities(model):
    board = mcgo.Board(9)
    for move in ["E5", "E4", "D4", "D5", "F4", "C5", "F5"]:
        board.play(move)
    previous = board.point("C5")
    last = board.point("F5")
    counts = draw(board, model, previous)
    probs = model.probabilities(board, previous=previous)     # every legal move and pass
    candidates = sorted(p for p in near(board, [last, previous]) if p in probs)
    assert len(candidates) > 10
    observed = np.array([counts[p] for p in candidates], dtype=float)
    weights = np.array([probs[p] for p in candidates])
    expected = observed.sum() * weights / weights.sum()
    assert observed.sum() > SAMPLES / 2          # most draws are near the last moves
    assert stats.chisquare(observed, expected).pvalue > 1e-3
    # A far point gets far fewer draws than the model's best near move.
    best = candidates[int(np.argmax(weights))]
    far = [p for p in probs if p != K.PASS and p not in candidates]
    assert max(counts[p] for p in far) < counts[best] / 5
    assert counts[K.PASS] == 0


def test_frequencies_on_a_board_where_every_move_is_near(model):
    """5x5, every empty point within distance 2 of the last move (white's C3): the whole
    distribution is the model's, bar pass and own-eye fills."""
    board = helpers.board_from_rows(["XX.OO",
                                     "X...O",
                                     "..O..",
                                     "X...O",
                                     "XX.OO"], to_move=mcgo.BLACK)
    last = board.point("C3")
    board.info[K.LAST_MOVE] = last          # as if white had just played there
    probs = model.probabilities(board)
    moves = [p for p in probs if p != K.PASS
             and not eyes.is_true_eye(board.pts, board.info[K.WIDTH], p, mcgo.BLACK)]
    assert len(moves) >= 10 and set(moves) <= near(board, [last])
    counts = draw(board, model, -1, n=20000)
    observed = np.array([counts[p] for p in moves], dtype=float)
    weights = np.array([probs[p] for p in moves])
    assert observed.sum() == 20000
    assert stats.chisquare(observed, observed.sum() * weights / weights.sum()).pvalue > 1e-3


def test_never_fills_its_own_true_eye(model):
    # Black's B8 is a true eye (all four neighbours and the diagonals black or edge);
    # black to move, the last move right next to the group.
    board = helpers.board_from_rows(["XXX......",
                                     "X.X......",
                                     "XXX......",
                                     ".........",
                                     ".........",
                                     ".........",
                                     ".........",
                                     ".........",
                                     "........."], to_move=mcgo.WHITE)
    board.play("D8")   # white, next to the eye's wall
    eye = board.point("B8")
    assert board.legality(eye) is None            # legal for black, only the rule forbids it
    counts = draw(board, model, -1, n=20000)
    assert counts[eye] == 0
    assert counts.sum() == 20000


@pytest.mark.parametrize("policy", MODEL_POLICIES)
def test_playouts_use_the_given_model(model, policy):
    """The default model, given or not, plays the same playouts; a uniform model others."""
    board = mcgo.Board(9)
    board.play("E5")
    a = mcgo.playout.simulate(board, 50, policy, seed=3, ownership=True)
    b = mcgo.playout.simulate(board, 50, policy, seed=3, ownership=True, model=model)
    c = mcgo.playout.simulate(board, 50, policy, seed=3, ownership=True,
                              model=type(model).uniform())
    assert a.moves == b.moves and np.array_equal(a.owner_sum, b.owner_sum)
    assert a.moves != c.moves
    assert len(playout_tables("pattern", None)[0]) == 1      # placeholders for other policies


@pytest.mark.parametrize("policy", MODEL_POLICIES)
def test_gtp_genmove_with_the_policy(policy):
    result = CliRunner().invoke(main, ["gtp", "--policy", policy, "--playouts", "200",
                                       "--quiet", "--casebase", "none"],
                                input="boardsize 9\nclear_board\ngenmove b\nquit\n")
    assert result.exit_code == 0, result.output
    answers = [line for line in result.output.splitlines() if line.startswith("=")]
    assert len(answers) == 4
    move = answers[2][2:]
    assert move.lower() != "resign" and (move == "pass" or mcgo.board.coords.from_gtp(move, 9) > 0)


def test_bench_measures_the_learned_policy_beside_the_others():
    from mcgo.apps.bench import run_bench
    from mcgo.commands import BENCH_POLICIES
    assert "learned" in BENCH_POLICIES and "pattern" in BENCH_POLICIES   # so `--policy all` has it
    row = run_bench("learned", 9, seconds=0.2, threads=1, start="midgame", seed=1)
    assert row["policy"] == "learned" and row["playouts"] > 0
    assert 20 < row["moves_per_playout"] < 3 * 81
