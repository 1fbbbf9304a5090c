"""Seed 002's enriched common fate graph against its Table 1 and eq. (3), written out again
on sgfmill's board, and the evaluator's commands on real 9x9 games (Fuego's suites)."""

import json
import random
import shutil

import numpy as np
import pytest
from click.testing import CliRunner
from sgfmill import boards

from mcgo import BLACK, WHITE, Board
from mcgo.board import coords
from mcgo.cli import main
from mcgo.models.ecfg import LABELS, Ecfg, feature_count, feature_name

TABLE_1 = {"j", "f", "g", "f1", "f2", "f3", "g1", "g2", "g3", "m", "s"}


def random_board(size, stones, seed):
    rng = random.Random(seed)
    board = Board(size)
    for _ in range(stones):
        moves = board.legal_moves()
        board.play(rng.choice(moves) if moves else 0)
    return board


def oracle_label(ref, row, col, player):
    """Table 1 of the seed on sgfmill's board, from ``player``'s side."""
    size = ref.side
    stone = ref.get(row, col)
    mine = "b" if player == BLACK else "w"
    if stone is not None:
        return "b" if stone == mine else "w"
    colours = [ref.get(r, c) for r, c in ((row + 1, col), (row - 1, col), (row, col + 1), (row, col - 1))
               if 0 <= r < size and 0 <= c < size]
    empty = colours.count(None)
    own = colours.count(mine)
    other = len(colours) - empty - own
    if own == other == 0:
        return "j"
    if empty == 0:
        return "f" if other == 0 else "g" if own == 0 else "s"
    if other == 0:
        return f"f{empty}"
    if own == 0:
        return f"g{empty}"
    return "m"


def sgfmill_of(board):
    ref = boards.Board(board.size)
    for colour, letter in ((BLACK, "b"), (WHITE, "w")):
        for p in board.stones(colour):
            ref.play(*coords.row_col(p, board.size), letter)
    return ref


@pytest.mark.parametrize("seed", range(6))
def test_labels_follow_table_1_and_partition_the_empty_points(seed):
    board = random_board(9, 10 + 8 * seed, seed)
    ref = sgfmill_of(board)
    for player in (BLACK, WHITE):
        graph = Ecfg(board, player)
        for node, points in enumerate(graph.node_points):
            for p in points:
                r, c = coords.row_col(p, 9)
                assert LABELS[graph.node_label[node]] == oracle_label(ref, r, c, player)
        empty = [LABELS[graph.node_label[n]] for n, pts in enumerate(graph.node_points)
                 if board.color_at(pts[0]) == board.EMPTY]
        assert set(empty) <= TABLE_1 and len(empty) == 81 - len(board.stones(BLACK)) - len(board.stones(WHITE))


def oracle_features(graph, d):
    """Every simple directed path of 1..d nodes, by label string: count and weight sums."""
    edges = [set(graph.adj[graph.adj_start[n]:graph.adj_start[n + 1]]) for n in range(len(graph.node_label))]
    counts, sums = {}, {}

    def walk(path):
        label = "-".join(LABELS[graph.node_label[n]] for n in path)
        counts[label] = counts.get(label, 0) + 1
        sums[label] = sums.get(label, 0.0) + sum(graph.node_weight[n] for n in path)
        if len(path) < d:
            for m in edges[path[-1]]:
                if m not in path:
                    walk(path + [m])

    for start in range(len(graph.node_label)):
        walk([start])
    return counts, sums


def test_path_features_are_eq_3_on_every_path():
    board = random_board(9, 25, 11)
    rng = np.random.default_rng(2)
    weights = rng.random(board.pts.shape[1])
    graph = Ecfg(board, BLACK, point_weights=weights)
    counts, sums = oracle_features(graph, 3)
    count_features = graph.features(3, "count")
    weighted = graph.features(3, "stability")
    assert count_features.shape == (feature_count(3),) == (2379,)
    named = {feature_name(i): i for i in range(feature_count(3))}
    assert sum(count_features) == sum(counts.values())
    for label, n in counts.items():
        i = named[label]
        assert count_features[i] == n
        length = label.count("-") + 1
        assert weighted[i] == pytest.approx(sums[label] / (length * n))


@pytest.fixture(scope="module")
def nine_by_nine(fuego_regression_dir, tmp_path_factory):
    """Fuego's 9x9 game records with a result, copied into a folder, and their dataset."""
    folder = tmp_path_factory.mktemp("games9")
    from mcgo.sgf import read_game
    kept = 0
    for path in sorted((fuego_regression_dir / "sgf").rglob("*.sgf")):
        try:
            record = read_game(path)
        except Exception:  # noqa: BLE001 - unreadable ones are other tests' business
            continue
        if record.size == 9 and record.result[:2] in ("B+", "W+") and len(record.moves) > 40:
            shutil.copy(path, folder / f"{kept:03d}.sgf")
            kept += 1
    assert kept > 60
    out = tmp_path_factory.mktemp("ds") / "ds"
    result = CliRunner().invoke(main, ["learn", "extract", str(folder), "-o", str(out), "--size", "9",
                                       "--ownership-playouts", "50"])
    assert result.exit_code == 0, result.output
    return folder, out


def test_learn_ecfg_and_evaluate_outcome(nine_by_nine, tmp_path):
    pytest.importorskip("sklearn")
    folder, dataset = nine_by_nine
    model, table = tmp_path / "ecfg.npz", tmp_path / "table.json"
    result = CliRunner().invoke(main, ["learn", "ecfg", str(dataset), "-o", str(model), "--depths", "1,2",
                                       "--weightings", "count,stability", "--stones", "20-24",
                                       "--json", str(table)])
    assert result.exit_code == 0, result.output
    document = json.loads(table.read_text())
    assert {(e["d"], e["weighting"]) for e in document["table"]} == {(1, "count"), (1, "stability"),
                                                                     (2, "count"), (2, "stability")}
    result = CliRunner().invoke(main, ["learn", "evaluate-outcome", str(model), str(folder),
                                       "--stones", "20-24", "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["positions"] > 100 and 0.0 <= figures["accuracy"] <= 1.0
    bad = CliRunner().invoke(main, ["learn", "evaluate-outcome", str(tmp_path / "none.npz"), str(folder)])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1


def test_the_shipped_decision_equals_scikit_learns():
    sklearn = pytest.importorskip("sklearn")
    from sklearn.svm import LinearSVC
    from mcgo.train.ecfg_train import fit_counts
    rng = np.random.default_rng(0)
    rows = {s: (rng.random((40, 13)), rng.integers(0, 2, 40)) for s in range(19, 23)}
    models, tables = fit_counts(rows, {"self": rows}, (20, 21), c_grid=(1000,))
    coef, intercept, scale = models[0]
    svm = LinearSVC(C=1000, max_iter=20000).fit(rows[20][0] * scale, rows[20][1])
    x = rows[21][0]
    assert np.allclose((x * scale) @ coef + intercept, svm.decision_function(x * scale))
    assert sklearn is not None and tables["self"][0]["C"] == 1000


def test_the_command_modules_light_names_equal_the_real_ones():
    from mcgo.models import ecfg
    from mcgo.train import cfg_train, ecfg_train, split
    assert ecfg_train.WEIGHTINGS == ecfg.WEIGHTINGS
    assert (cfg_train.TRAIN, cfg_train.VALIDATION, cfg_train.TEST) == (split.TRAIN, split.VALIDATION, split.TEST)


def test_the_shipped_evaluator_and_the_game_scorer(nine_by_nine, tmp_path):
    """``ecfg`` (the shipped evaluator) reads and scores real games; ``mcgo learn cfg-games``
    trains seed 000's scorer on a dataset's games and says how often it predicts the moves."""
    pytest.importorskip("sklearn")
    folder, dataset = nine_by_nine
    result = CliRunner().invoke(main, ["learn", "evaluate-outcome", "ecfg", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    figures = json.loads(result.output)
    assert figures["positions"] > 1000 and 0.3 < figures["accuracy"] < 1.0
    out = tmp_path / "games.npz"
    result = CliRunner().invoke(main, ["learn", "cfg-games", str(dataset), "-o", str(out),
                                       "--learner", "rf100", "--per-game", "5"])
    assert result.exit_code == 0, result.output
    from mcgo.models.cfg_scorer import load_scorer
    scorer = load_scorer(out)
    assert 0.0 <= scorer.metadata["validation_move_prediction"] <= 1.0
    assert scorer.metadata["board_size"] == 9


def test_gtp_evaluator_option_errors_are_one_line(tmp_path):
    result = CliRunner().invoke(main, ["gtp", "--evaluator", str(tmp_path / "nothing.npz")])
    assert result.exit_code == 2 and "no evaluator file" in result.output
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not an evaluator")
    result = CliRunner().invoke(main, ["gtp", "--evaluator", str(bad)])
    assert result.exit_code == 2 and "not an ECFG evaluator" in result.output
    result = CliRunner().invoke(main, ["gtp", "--evaluator", "ecfg", "--evaluator-visits", "0"])
    assert result.exit_code == 2
