"""The guided playout policy (mcgo/playout/guided_policy.py) against the move model it
follows: its fallback picks moves the model rates higher than uniform random picks do (the
model's own NumPy path, ``MoveModel.probabilities``, decides), every pick is legal by
sgfmill's rules, the playouts depend on the model, and it plays through GTP."""

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats
from sgfmill import boards

import mcgo
from mcgo import sgf
from mcgo.board import coords
from mcgo.cli import main
from mcgo.learn.movemodel import open_model
from mcgo.playout import common, guided_policy, learned_policy

DRAWS = 400
MOVE_NUMBERS = (20, 40, 60)
SGF_COLOR = {mcgo.BLACK: "b", mcgo.WHITE: "w"}


@pytest.fixture(scope="module")
def model():
    return open_model("default")


def positions(goban_games_dir):
    """Boards from four professional games at a few move numbers (19x19)."""
    games = sorted(goban_games_dir.glob("*.sgf"))
    out = []
    for path in games[::len(games) // 4][:4]:
        record = sgf.read_game(path)
        for n in MOVE_NUMBERS:
            out.append(sgf.replay(record, max_moves=n, superko=False))
    return out


def sgfmill_legal(board, p, color):
    ref = boards.Board(board.size)
    for c in (mcgo.BLACK, mcgo.WHITE):
        for q in board.stones(c):
            ref.play(*coords.row_col(q, board.size), SGF_COLOR[c])
    row, col = coords.row_col(p, board.size)
    if ref.get(row, col) is not None:
        return False
    ref.play(row, col, SGF_COLOR[color])
    return ref.get(row, col) == SGF_COLOR[color]


def test_fallback_prefers_the_models_moves(model, goban_games_dir):
    """From real positions, the fallback's picks have a higher log-probability under the
    model (its NumPy path) than uniformly random picks with the same self-atari rule
    (a one-sided Welch test), and each pick is legal by sgfmill's rules."""
    tables = learned_policy.model_tables(model)
    scratch = np.zeros(8, dtype=np.int32)
    guided, uniform = [], []
    for board in positions(goban_games_dir):
        color = board.to_move
        log_p = {m: np.log(p) for m, p in model.probabilities(board).items()}
        rng = common.seed_rng(5)
        for _ in range(DRAWS):
            g = guided_policy.model_weighted_move(board.pts, board.info, rng, color, tables,
                                                  scratch)
            u = common.random_move(board.pts, board.info, rng, color, common.REJECT_SELF_ATARI,
                                   scratch)
            guided.append(log_p[g])
            uniform.append(log_p[u])
        for p in set(int(x) for x in np.unique(np.array([g, u]))):
            assert sgfmill_legal(board, p, color)
    test = stats.ttest_ind(guided, uniform, equal_var=False, alternative="greater")
    print(f"mean log p: guided {np.mean(guided):.3f}, uniform {np.mean(uniform):.3f}, p {test.pvalue:.2g}")
    assert np.mean(guided) > np.mean(uniform) + 0.5, (np.mean(guided), np.mean(uniform))
    assert test.pvalue < 1e-6


def test_playouts_follow_the_given_model(model):
    """The default model, given or not, plays the same playouts; a uniform model others."""
    board = mcgo.Board(9)
    board.play("E5")
    a = mcgo.playout.simulate(board, 50, "guided", seed=3, ownership=True)
    b = mcgo.playout.simulate(board, 50, "guided", seed=3, ownership=True, model=model)
    c = mcgo.playout.simulate(board, 50, "guided", seed=3, ownership=True,
                              model=type(model).uniform())
    assert a.moves == b.moves and np.array_equal(a.owner_sum, b.owner_sum)
    assert a.moves != c.moves


def test_gtp_genmove_with_the_guided_policy():
    result = CliRunner().invoke(main, ["gtp", "--policy", "guided", "--playouts", "200",
                                       "--quiet", "--casebase", "none"],
                                input="boardsize 9\nclear_board\ngenmove b\nquit\n")
    assert result.exit_code == 0, result.output
    answers = [line for line in result.output.splitlines() if line.startswith("=")]
    assert len(answers) == 4
    move = answers[2][2:]
    assert move.lower() != "resign" and (move == "pass" or coords.from_gtp(move, 9) > 0)
