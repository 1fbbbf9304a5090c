"""``mcgo learn cfg``: seed 000's learners on life-and-death problems, as Foulds's Table 1.

Training pairs as in the seed: for each problem of the train collections, every correct
first move is a *good* example and one other legal move of the problem's region, drawn at
random, a *bad* one. Learners (scikit-learn, the ``train`` extra): random forests of 100 and
200 trees with 9 features tried at each split (Weka's default, log2(406) + 1), and an RBF
support vector machine (gamma 1, C 1) on features scaled to 0-1. The baselines: the first
legal move of the region (row by row from the top left) and a random one (its expected
share, exactly).

Each learner answers each problem of the test collections with its best-scored legal move
in the region; a problem is solved when that move is one of the correct ones. The learner
best on the validation collections is written to ``--output`` in the project's scorer
format (:mod:`.cfg_scorer`), with its figures in the metadata.
"""

import json
import sys
import time

import click
import numpy as np

from ..clitypes import OutputFile
from ..extras import require
from ..stats import mcnemar

LEARNERS = ("rf100", "rf200", "svm")
TRAIN, VALIDATION, TEST = "train", "validation", "test"   # mcgo.train.split's names (that
# module loads the board's kernels, which `mcgo --help` must not)
FEATURES_PER_SPLIT = 9       # Weka's random forest default: int(log2(406)) + 1
SVM_GAMMA = 1.0
SVM_C = 1.0


def problem_features(problem):
    """``(candidates, features, correct)`` of one problem, or None if it cannot be used."""
    from ..models.cfg import relative_subgraph_features
    from .tsumego import ProblemError
    try:
        board = problem.board()
    except ProblemError:
        return None
    candidates = problem.candidates(board)
    correct = np.array([p in problem.solutions for p in candidates])
    if not correct.any():
        return None
    _, x = relative_subgraph_features(board, candidates, problem.player)
    return candidates, x, correct


def training_pairs(problems, seed):
    """``(X, y)``: the good moves and one random bad move of each problem."""
    rng = np.random.default_rng(seed)
    rows, labels = [], []
    for problem in problems:
        found = problem_features(problem)
        if found is None:
            continue
        _, x, correct = found
        bad = np.flatnonzero(~correct)
        rows.append(x[correct])
        labels += [1] * int(correct.sum())
        if len(bad):
            rows.append(x[rng.choice(bad)][None, :])
            labels.append(0)
    return np.concatenate(rows), np.array(labels)


def fit_learner(name, x, y, seed):
    """A fitted scorer (:mod:`.cfg_scorer`) of learner ``name``."""
    require("train", "mcgo learn cfg")
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.preprocessing import MinMaxScaler
    from sklearn.svm import SVC

    from ..models.cfg_scorer import ForestScorer, SvmScorer
    if name.startswith("rf"):
        model = RandomForestClassifier(n_estimators=int(name[2:]), max_features=FEATURES_PER_SPLIT,
                                       random_state=seed, n_jobs=-1)
        model.fit(x, y)
        return ForestScorer.from_sklearn(model, {"learner": name}), model
    scaler = MinMaxScaler().fit(x)
    model = SVC(kernel="rbf", gamma=SVM_GAMMA, C=SVM_C).fit(scaler.transform(x), y)
    return SvmScorer.from_sklearn(model, scaler, {"learner": name}), (scaler, model)


def first_move_results(problems, scorers):
    """``{name: [solved, ...]}`` per problem for each scorer and the baselines (``first``:
    solved or not; ``random``: the chance a random candidate is correct)."""
    out = {name: [] for name in list(scorers) + ["first", "random"]}
    for problem in problems:
        found = problem_features(problem)
        if found is None:
            continue
        _, x, correct = found
        for name, scorer in scorers.items():
            out[name].append(bool(correct[int(np.argmax(scorer.scores(x)))]))
        out["first"].append(bool(correct[0]))
        out["random"].append(float(correct.mean()))
    return out


def share(flags):
    return float(np.mean(flags)) if flags else float("nan")


@click.command("cfg")
@click.argument("problems", type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--output", type=OutputFile(), required=True,
              help="Scorer file to write (.npz): the learner best on the validation collections.")
@click.option("--learners", default=",".join(LEARNERS), show_default=True,
              help=f"Comma-separated learners among {', '.join(LEARNERS)}.")
@click.option("--json", "json_path", type=OutputFile(), default=None,
              help="Also write the table, per learner and split, to this JSON file.")
@click.option("--limit", type=click.IntRange(1), default=None,
              help="Use only the first N problems of each split (quick runs).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the bad examples and the forests.")
def cfg_command(problems, output, learners, json_path, limit, seed):
    """Train seed 000's move scorers on the train collections of PROBLEMS (tsumego
    problems.jsonl.gz) and report each one's first-move success on the test collections."""
    from ..models.cfg_scorer import now
    from .provenance import git_commit
    from .tsumego import load_problems

    names = [n.strip() for n in learners.split(",") if n.strip()]
    unknown = [n for n in names if n not in LEARNERS]
    if unknown or not names:
        raise click.BadParameter(f"choose among {', '.join(LEARNERS)}", param_hint="--learners")
    require("train", "mcgo learn cfg")
    loaded, skipped = load_problems(problems)
    usable = [p for p in loaded if not p.doubtful]
    parts = {s: [p for p in usable if p.split == s][:limit] for s in (TRAIN, VALIDATION, TEST)}
    click.echo(f"problems: {len(loaded)} read, {len(skipped)} unreadable, "
               f"{len(loaded) - len(usable)} doubtful; " +
               ", ".join(f"{s} {len(v)}" for s, v in parts.items()), err=True)
    started = time.perf_counter()
    x, y = training_pairs(parts[TRAIN], seed)
    click.echo(f"training pairs: {len(y)} ({int(y.sum())} good) in "
               f"{time.perf_counter() - started:.0f} s", err=True)
    scorers = {}
    for name in names:
        started = time.perf_counter()
        scorers[name], _ = fit_learner(name, x, y, seed)
        click.echo(f"{name}: trained in {time.perf_counter() - started:.0f} s", err=True)
    table = {}
    for split in (VALIDATION, TEST):
        results = first_move_results(parts[split], scorers)
        table[split] = {name: {"solved": share(flags), "problems": len(flags)}
                        for name, flags in results.items()}
        ranked = sorted(names, key=lambda n: -table[split][n]["solved"])
        if len(ranked) >= 2:
            p, a, b = mcnemar(results[ranked[0]], results[ranked[1]])
            table[split]["mcnemar"] = {"best": ranked[0], "second": ranked[1], "p": p,
                                       "only_best": a, "only_second": b}
    best = max(names, key=lambda n: table[VALIDATION][n]["solved"])
    scorer = scorers[best]
    scorer.metadata.update({
        "training_data": f"{problems} (tsumego problems, train collections)",
        "split": "by collection, mcgo.train.tsumego.split_of_collection",
        "train_pairs": int(len(y)), "seed": seed, "commit": git_commit(), "date": now(),
        "validation_solved": table[VALIDATION][best]["solved"],
        "test_solved": table[TEST][best]["solved"],
        "test_problems": table[TEST][best]["problems"]})
    scorer.save(output)
    lines = [f"{'learner':10} {'validation':>10} {'test':>8}"]
    for name in names + ["first", "random"]:
        lines.append(f"{name:10} {table[VALIDATION][name]['solved']:>10.3f} "
                     f"{table[TEST][name]['solved']:>8.3f}")
    if "mcnemar" in table[TEST]:
        m = table[TEST]["mcnemar"]
        lines.append(f"McNemar on test, {m['best']} vs {m['second']}: p = {m['p']:.3g} "
                     f"({m['only_best']} vs {m['only_second']} problems solved by one only)")
    lines.append(f"wrote {output} ({best}, best on validation)")
    click.echo("\n".join(lines))
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump({"table": table, "best": best, "output": str(output)}, f, indent=2)
    sys.stdout.flush()


def game_pairs(games, seed, per_game=None):
    """``(X, y)`` from game records as Graepel et al. and Foulds's Go player: each played move
    good, one random legal empty point of the same position bad (``per_game``: at most that
    many moves a game, drawn at random)."""
    from ..board.kernels import PASS
    from ..models.cfg import relative_subgraph_features
    from .dataset import replay_game
    rng = np.random.default_rng(seed)
    rows, labels = [], []
    for game in games:
        moves = [n for n, (_, p) in enumerate(game.moves, 1) if p != PASS]
        chosen = set(moves if per_game is None or len(moves) <= per_game
                     else rng.choice(moves, per_game, replace=False).tolist())
        for board, color, point, number in replay_game(game):
            if color is None:
                break
            if number not in chosen:
                continue
            others = [p for p in board.legal_moves(color) if p != point]
            if not others:
                continue
            bad = others[int(rng.integers(len(others)))]
            _, x = relative_subgraph_features(board, [point, bad], color)
            rows.append(x)
            labels += [1, 0]
    return np.concatenate(rows), np.array(labels)


def move_prediction(games, scorer):
    """The share of the games' moves (passes left out) that are the scorer's best legal move."""
    from ..board.kernels import PASS
    from .dataset import replay_game
    hits = n = 0
    for game in games:
        for board, color, point, _ in replay_game(game):
            if color is None:
                break
            if point == PASS:
                continue
            moves = board.legal_moves(color)
            if point not in moves:
                continue
            n += 1
            hits += scorer.best_move(board, moves, color) == point
    return hits / n if n else float("nan"), n


@click.command("cfg-games")
@click.argument("dataset", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--output", type=OutputFile(), required=True,
              help="Scorer file to write (.npz).")
@click.option("--learner", type=click.Choice(LEARNERS), default="rf200", show_default=True,
              help="The learner.")
@click.option("--per-game", type=click.IntRange(1), default=None,
              help="At most this many moves a game [default: all].")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the bad examples and the forests.")
def cfg_games_command(dataset, output, learner, per_game, seed):
    """Train seed 000's move scorer on the train games of DATASET (mcgo learn extract): the
    played move good, a random legal point bad, as Graepel et al.'s Go player; reports the
    share of the validation games' moves it predicts."""
    from ..models.cfg_scorer import now
    from .dataset import Dataset
    from .provenance import git_commit
    require("train", "mcgo learn cfg-games")
    data = Dataset.open(dataset)
    x, y = game_pairs(data.games(TRAIN), seed, per_game)
    scorer, _ = fit_learner(learner, x, y, seed)
    accuracy, positions = move_prediction(data.games(VALIDATION), scorer)
    scorer.metadata.update({"training_data": f"{dataset} (train games)", "board_size": data.size,
                            "split": "by game, mcgo.train.split", "train_pairs": int(len(y)),
                            "validation_move_prediction": accuracy,
                            "validation_positions": positions, "seed": seed,
                            "commit": git_commit(), "date": now()})
    scorer.save(output)
    click.echo(f"{len(y)} training pairs; validation moves predicted: {accuracy:.3f} of "
               f"{positions}; wrote {output}")
