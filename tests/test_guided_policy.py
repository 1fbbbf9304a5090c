"""The guided playout policy (mcgo/playout/guided_policy.py) against the move model it
follows: its fallback picks moves the model rates higher than uniform random picks do (the
model's own NumPy path, ``MoveModel.probabilities``, decides) and every pick is legal by
sgfmill's rules. That its playouts follow the given model and that it plays through GTP is
tested with the learned policy's (tests/test_learned_policy.py)."""

import numpy as np
import pytest
from scipy import stats

import mcgo
from helpers import sgfmill_allows
from mcgo import sgf
from mcgo.models.movemodel import open_model
from mcgo.playout import common, guided_policy, learned_policy

DRAWS = 400
MOVE_NUMBERS = (20, 40, 60)


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
            assert sgfmill_allows(board, p, color)
    test = stats.ttest_ind(guided, uniform, equal_var=False, alternative="greater")
    assert np.mean(guided) > np.mean(uniform) + 0.5, (np.mean(guided), np.mean(uniform))
    assert test.pvalue < 1e-6
