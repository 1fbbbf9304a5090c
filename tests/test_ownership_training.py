"""``mcgo learn ownership`` end to end on professional games (the goban collection), the
training examples (eq. 1 of seed 003), and the command's errors."""

import shutil

import numpy as np
import pytest
from click.testing import CliRunner
from sgfmill import sgf as sgfmill_sgf
from sgfmill import sgf_moves

from mcgo.cli import main
from mcgo.train.dataset import Dataset
from mcgo.train.extraction import extract
from mcgo.models.seedstats import SeedStats
from mcgo.train.ownership_data import build_arrays, game_examples, leaving_out, target

GAMES = 14
PLAYOUTS = 50


@pytest.fixture(scope="module")
def dataset(tmp_path_factory, goban_games_dir):
    folder = tmp_path_factory.mktemp("games")
    for path in sorted(goban_games_dir.glob("*.sgf"))[:GAMES]:
        shutil.copy(path, folder / path.name)
    out = tmp_path_factory.mktemp("dataset") / "ds"
    extract([folder], out, playouts=PLAYOUTS)
    return Dataset.open(out)


def sgfmill_board_after(path, moves):
    """sgfmill's board after ``moves`` moves of the game at ``path``."""
    game = sgfmill_sgf.Sgf_game.from_bytes(path.read_bytes())
    board, plays = sgf_moves.get_setup_and_moves(game)
    for colour, move in plays[:moves]:
        if move is not None:
            board.play(move[0], move[1], colour)
    return board


def test_targets_follow_equation_one_on_a_real_game(dataset, goban_games_dir):
    """T = (1 - w) A(end) + w A(t + k), A(t + k) read from sgfmill's board k moves later."""
    game = next(g for g in dataset.games() if not g.setups and len(g.moves) > 40)
    stats = SeedStats(dataset.size)
    w, k = 0.25, 2
    (inputs, t, number), = game_examples(game, stats, [30], radius=1, w=w, k=k)
    assert number == 30 and inputs.shape[:2] == (19, 19)
    later = sgfmill_board_after(goban_games_dir / game.source, 30 - 1 + k)
    for row in range(19):
        for col in range(19):
            stone = later.get(row, col)
            a_later = {"b": 1.0, "w": 0.0, None: 0.5}[stone]
            own = game.ownership[row, col]
            a_end = 1.0 if own > 0 else (0.0 if own < 0 else 0.5)
            assert t[row, col] == pytest.approx((1 - w) * a_end + w * a_later)
    # and the helper agrees with itself on the final position (k beyond the end)
    assert target(game.ownership, game.replay(), w=0.0).tolist() == \
        np.where(game.ownership > 0, 1.0, np.where(game.ownership < 0, 0.0, 0.5)).tolist()


def test_leaving_a_game_out_equals_statistics_built_without_it(dataset):
    games = [g for g in dataset.games() if not g.setups][:4]
    everything = SeedStats(dataset.size)
    for g in games:
        everything.add_game(g.record(), g.ownership)
    without = SeedStats(dataset.size)
    for g in games[1:]:
        without.add_game(g.record(), g.ownership)
    board = games[0].replay()
    with leaving_out(everything, games[0]) as stats:
        np.testing.assert_array_equal(stats.propensity(board), without.propensity(board))
    assert not np.array_equal(everything.propensity(board), without.propensity(board))


def test_examples_stay_within_their_split(dataset):
    stats = SeedStats(dataset.size)
    x, t, numbers, games = build_arrays(dataset, "train", stats, 1, per_game=3, seed=1)
    train = set(dataset.game_indices("train"))
    assert len(x) == len(t) == len(numbers) > 0
    assert set(games.tolist()) <= train
    assert ((t >= 0) & (t <= 1)).all()


def test_learn_ownership_trains_saves_and_ranks(dataset, tmp_path):
    pytest.importorskip("jax")
    assert len(dataset.game_indices("validation")) > 0    # else pick more GAMES
    net = tmp_path / "net.npz"
    result = CliRunner().invoke(main, ["learn", "ownership", str(dataset.path), "-o", str(net),
                                       "--per-game", "3", "--epochs", "2", "--radius", "1",
                                       "--temperature-positions", "3"])
    assert result.exit_code == 0, result.output
    from mcgo.models.ownership.model import OwnershipModel
    model = OwnershipModel.load(net)
    meta = model.network.metadata
    assert meta["board_size"] == 19 and meta["feature_radius"] == 1
    assert len(meta["history"]) == 2 and meta["commit"]
    assert (tmp_path / "net-propensity.npz").is_file()
    board = dataset.game(0).replay()
    owner = model.ownership(board)
    assert owner.shape == (19, 19) and ((owner > 0) & (owner < 1)).all()
    moves, areas = model.move_areas(board.pts, board.info, board.to_move)
    assert len(moves) == len(board.legal_moves()) + 1 and np.isfinite(areas).all()


def test_learn_ownership_errors_are_one_line(tmp_path, dataset):
    runner = CliRunner()
    missing = runner.invoke(main, ["learn", "ownership", str(tmp_path / "nothing"), "-o",
                                   str(tmp_path / "n.npz")])
    assert missing.exit_code == 2 and "nothing" in missing.output
    not_a_dataset = tmp_path / "empty"
    not_a_dataset.mkdir()
    bad = runner.invoke(main, ["learn", "ownership", str(not_a_dataset), "-o",
                               str(tmp_path / "n.npz")])
    assert bad.exit_code == 2 and "DATASET" in bad.output
    no_folder = runner.invoke(main, ["learn", "ownership", str(dataset.path), "-o",
                                     str(tmp_path / "no" / "n.npz")])
    assert no_folder.exit_code == 2 and "no folder" in no_folder.output


def test_ownership_picture_and_its_errors(goban_games_dir, tmp_path):
    pytest.importorskip("matplotlib")
    game = sorted(goban_games_dir.glob("*.sgf"))[0]
    out = tmp_path / "own.png"
    result = CliRunner().invoke(main, ["ownership", str(game), "--move", "40", "-o", str(out),
                                       "--playouts", "50"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(b"\x89PNG")
    bad = tmp_path / "bad.sgf"
    bad.write_bytes(b"(;SZ[19];B[pd];W[pd])")
    result = CliRunner().invoke(main, ["ownership", str(bad), "-o", str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "occupied" in result.output
    result = CliRunner().invoke(main, ["ownership", str(game), "--net", str(bad), "-o",
                                       str(tmp_path / "x.png")])
    assert result.exit_code == 2 and "network" in result.output
