"""Seed 002's evaluator: linear SVMs on ECFG path features that tell won from lost 9x9
positions, one per stone count (``mcgo learn ecfg``), and ``mcgo learn evaluate-outcome``.

As the seed (section 4): every position of the games, seen from the side to move (the seed
switches colours so that black is to move), labelled by whether that side won the game;
positions with 20 to 50 stones; for each count ``s`` a linear SVM trained on the train
games' positions with ``s`` stones, its ``C`` among 500, 1000, 2000, 4000 and 8000 chosen by
the error on the train positions with ``s - 1`` and ``s + 1`` stones, its accuracy the mean
over the test positions with ``s - 1``, ``s`` and ``s + 1`` stones. Features are scaled by
their largest absolute value on the training positions (scikit-learn's ``LinearSVC`` needs
it to converge; SVMlight, the seed's, took them raw).

The evaluator ships as the SVMs' weights (``.npz`` with JSON metadata) and the seed
statistics its weighting needs, and runs in NumPy (:class:`mcgo.models.ecfg_evaluator.OutcomeModel`).
"""

import json
import math
import time
import warnings

import click
import numpy as np

from ..clitypes import OutputFile
from ..extras import require

C_GRID = (500, 1000, 2000, 4000, 8000)
WEIGHTINGS = ("count", "stability", "impact")    # mcgo.models.ecfg.WEIGHTINGS (loaded lazily:
# it compiles kernels, which `mcgo --help` must not)
STONES = (20, 50)


def outcome_rows(games, stones, d, weighting, stats=None):
    """``{s: (X, y)}`` for stone counts ``stones[0] - 1 .. stones[1] + 1``: the features of
    every position with ``s`` stones of the games with a winner, and 1 when its side to move
    won."""
    from .dataset import replay_game
    from ..models.ecfg import Ecfg, feature_count, point_weights
    from ..models.ecfg_evaluator import stone_count
    low, high = stones[0] - 1, stones[1] + 1
    rows = {s: ([], []) for s in range(low, high + 1)}
    for game in games:
        if game.winner is None:
            continue
        for board, color, _, _ in replay_game(game):
            if color is None:
                break
            s = stone_count(board)
            if s < low:
                continue
            if s > high:
                break
            weights = point_weights(stats, board, weighting, color)
            rows[s][0].append(Ecfg(board, color, weights).features(d, weighting))
            rows[s][1].append(1 if game.winner == color else 0)
    return {s: (np.array(x).reshape(-1, feature_count(d)), np.array(y)) for s, (x, y) in rows.items()}


def fit_counts(train, evaluations, stones, c_grid=C_GRID):
    """Per stone count: the fitted SVM ``(coef, intercept, scale)`` (its C chosen on the
    neighbouring counts' training positions) and, for each named set of ``evaluations``, the
    accuracy over ``s - 1 .. s + 1``; returns (models, {name: rows})."""
    require("train", "mcgo learn ecfg")
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import LinearSVC
    models, tables = [], {name: [] for name in evaluations}
    for s in range(stones[0], stones[1] + 1):
        x, y = train[s]
        scale = 1.0 / np.maximum(np.abs(x).max(axis=0), 1e-12) if len(x) else np.ones(x.shape[1])
        best = None
        for c in c_grid:
            if len(set(y)) < 2:
                break
            with warnings.catch_warnings():
                # At the seed's large C liblinear often stops at its iteration limit; the
                # solution it has then is the one measured.
                warnings.simplefilter("ignore", ConvergenceWarning)
                svm = LinearSVC(C=c, max_iter=20000).fit(x * scale, y)
            errors = [np.mean(svm.predict(train[t][0] * scale) != train[t][1])
                      for t in (s - 1, s + 1) if len(train[t][1])]
            error = float(np.mean(errors)) if errors else 1.0
            if best is None or error < best[0]:
                best = (error, c, svm)
        if best is None:
            coef, intercept, chosen = np.zeros(x.shape[1]), 0.0, None
        else:
            coef, intercept, chosen = best[2].coef_[0], float(best[2].intercept_[0]), best[1]
        models.append((coef, intercept, scale))
        for name, rows in evaluations.items():
            correct = n = 0
            for t in (s - 1, s, s + 1):
                xt, yt = rows[t]
                if len(yt):
                    correct += int(np.sum(((xt * scale) @ coef + intercept > 0) == (yt == 1)))
                    n += len(yt)
            tables[name].append({"stones": s, "C": chosen, "train": int(len(y)), "positions": n,
                                 "accuracy": correct / n if n else float("nan")})
    return models, tables


def summarize(rows):
    """Mean accuracy over the stone counts and its standard error (by positions)."""
    accuracies = [r["accuracy"] for r in rows if r["positions"]]
    n = sum(r["positions"] for r in rows) / 3     # each position is in three windows
    mean = float(np.mean(accuracies)) if accuracies else float("nan")
    return mean, math.sqrt(mean * (1 - mean) / n) if n else float("nan")


@click.command("ecfg")
@click.argument("dataset", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--output", type=OutputFile(), required=True,
              help="Evaluator file to write (.npz): the best depth and weighting on validation.")
@click.option("--depths", default="1,2,3", show_default=True, help="Path lengths d to try.")
@click.option("--weightings", default=",".join(WEIGHTINGS), show_default=True,
              help="Node weightings to try: count, stability, impact.")
@click.option("--stones", default="20-50", show_default=True, help="Stone counts LOW-HIGH.")
@click.option("--json", "json_path", type=OutputFile(), default=None,
              help="Also write the table to this JSON file.")
def ecfg_command(dataset, output, depths, weightings, stones, json_path):
    """Train seed 002's ECFG evaluators on the train games of a 9x9 DATASET (mcgo learn
    extract) and report their accuracy on its test games, by d and weighting."""
    from .dataset import Dataset
    from ..models.ecfg_evaluator import OutcomeModel
    from ..models.seedstats import SeedStats
    require("train", "mcgo learn ecfg")
    try:
        low, high = (int(v) for v in stones.split("-"))
        ds_list = [int(v) for v in depths.split(",")]
        w_list = [w.strip() for w in weightings.split(",")]
    except ValueError:
        raise click.BadParameter("give numbers as 20-50 and 1,2,3") from None
    if not 1 <= low <= high or any(d not in (1, 2, 3) for d in ds_list) \
            or any(w not in WEIGHTINGS for w in w_list):
        raise click.BadParameter("stones LOW-HIGH, depths among 1,2,3, weightings among "
                                 + ", ".join(WEIGHTINGS))
    data = Dataset.open(dataset)
    games = {split: list(data.games(split)) for split in ("train", "validation", "test")}
    stats = SeedStats(data.size)
    for game in games["train"]:
        stats.add_game(game.record(), game.ownership)
    table, best = [], None
    for d in ds_list:
        for weighting in w_list:
            started = time.perf_counter()
            rows = {split: outcome_rows(games[split], (low, high), d, weighting, stats)
                    for split in games}
            models, tables = fit_counts(rows["train"], {"test": rows["test"],
                                                        "validation": rows["validation"]},
                                        (low, high))
            by_count = tables["test"]
            test_mean, test_se = summarize(by_count)
            valid_mean, _ = summarize(tables["validation"])
            entry = {"d": d, "weighting": weighting, "test_accuracy": test_mean,
                     "test_se": test_se, "validation_accuracy": valid_mean,
                     "by_stones": by_count, "seconds": round(time.perf_counter() - started, 1)}
            table.append(entry)
            click.echo(f"d={d} {weighting:9}: test {test_mean:.3f} +- {test_se:.3f}, "
                       f"validation {valid_mean:.3f}", err=True)
            if best is None or valid_mean > best[0]:
                best = (valid_mean, d, weighting, models, test_mean)
    _, d, weighting, models, test_mean = best
    model = OutcomeModel.from_fits(d, weighting, (low, high), models,
                                   stats if weighting != "count" else None,
                                   {"training_data": str(dataset),
                                    "split": "train games (mcgo.train.split)",
                                    "test_accuracy": test_mean})
    model.save(output)
    click.echo(f"{'d':>2} {'weighting':10} {'test':>6} {'se':>6} {'validation':>10}")
    for e in table:
        click.echo(f"{e['d']:>2} {e['weighting']:10} {e['test_accuracy']:>6.3f} "
                   f"{e['test_se']:>6.3f} {e['validation_accuracy']:>10.3f}")
    click.echo(f"wrote {output} (d={d}, {weighting}: best on validation)")
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump({"table": table, "best": {"d": d, "weighting": weighting}}, f, indent=2)


def outcome_positions(records, stones):
    """Yield ``(index, board, color, won)`` for every position with ``stones[0]..stones[1]``
    stones of the records with a winner: the record's index, the board with ``color`` to
    move, and whether that side won the game. The board is played on after each yield."""
    from ..sgf import replay
    from ..models.ecfg_evaluator import stone_count
    from .results import parse_result
    for index, record in enumerate(records):
        winner, _, _ = parse_result(record.result)
        if winner is None:
            continue
        board = replay(record, max_moves=0, superko=False)
        for color, point in record.moves:
            s = stone_count(board)
            if s > stones[1]:
                break
            if s >= stones[0]:
                board.to_move = color
                yield index, board, color, winner == color
            board.play(point, color, repetition=False)


def outcome_accuracy(model, records, stones):
    """``(positions, correct)``: the positions with ``stones`` stones of the records with a
    winner, and how many of them the model gives to the game's winner."""
    positions = correct = 0
    for _, board, color, won in outcome_positions(records, stones):
        positions += 1
        correct += (model.decision(board, color) > 0) == won
    return positions, correct


@click.command("evaluate-outcome")
@click.argument("evaluator")
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--stones", default="20-50", show_default=True,
              help="Use the positions with LOW-HIGH stones.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
def evaluate_outcome_command(evaluator, games, stones, as_json):
    """The share of the positions of GAMES (SGF files, folders, archives) whose winner
    EVALUATOR (ecfg, the shipped one, or a file of mcgo learn ecfg) predicts."""
    from ..models.ecfg_evaluator import open_evaluator
    from .movemodel import read_records
    try:
        low, high = (int(v) for v in stones.split("-"))
    except ValueError:
        raise click.BadParameter("give LOW-HIGH, as 20-50", param_hint="--stones") from None
    try:
        model = open_evaluator(evaluator)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="EVALUATOR") from None
    records = [r for r in read_records(games) if r.size == 9]
    positions, correct = outcome_accuracy(model, records, (low, high))
    accuracy = correct / positions if positions else float("nan")
    if as_json:
        click.echo(json.dumps({"positions": positions, "accuracy": accuracy}))
    else:
        click.echo(f"{positions} positions of {len(records)} 9x9 games: accuracy {accuracy:.3f}")
