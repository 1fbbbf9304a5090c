"""Seed 004's experiment 2 (Chan 1996, section 5.3, Table 5.3): the winner of 9x9 games
from their last k positions, learnt by TD(lambda) on a fixed set of sequences
(``mcgo learn td-outcome``).

The data: games that end by resignation (``RE`` holds ``+R``) with a number of moves inside a
window (the thesis's 20 to 50; :data:`MOVES`). Of a game of n moves, with ``B_i`` the position
after move i (passes count as moves), the example for length k is the sequence
``B_{n-k+1} .. B_n`` and the outcome, +1 when black won, -1 when white did. Each sequence is
shown under the 8 symmetries of the board (:mod:`mcgo.board.symmetry`, the same symmetry for
every position of a sequence): 8 sequences per game.

The split is by game, :func:`mcgo.train.split.split_of` of :func:`mcgo.train.split.game_key`
(the split of ``mcgo learn extract``'s datasets): no position of a test game is trained on,
and a game recorded twice (under any symmetry) is kept once.

The net: the thesis's 83-50-20-1, ``tanh`` units (:class:`mcgo.models.td_net.Mlp`); the inputs
those of experiment 1 (:func:`mcgo.models.td_net.inputs`: the 81 points +1 black, -1 white, 0
empty; the side to move +1 black, -1 white; the prisoner difference, black's captures less
white's, divided by 10). Learning: :class:`mcgo.train.td.TdLearner` (online TD(lambda)), one
sequence at a time, the training sequences in a new random order every epoch; for k = 1 it is
the supervised rule ``eta (o - P) grad P``.

Choices the thesis leaves open, stated here and in the output's ``settings``:

* learning rate :data:`LEARNING_RATE` and at most :data:`EPOCHS` epochs, chosen on the
  validation games (never the test games; ``--evaluate validation``): of eta 0.001, 0.003,
  0.01 and 0.03 (30 epochs, k = 1 and k = 6 at lambda 0.5, the side-to-move input at 0),
  0.003 had the lowest validation mse at both k; at 60 epochs k = 1's best epoch was the
  36th, hence 40. Each (k, lambda) keeps the net of the epoch with the lowest mean squared
  error on the final positions of the validation games (early stopping on validation);
* the initial weights uniform in +-0.1 (:class:`mcgo.models.td_net.Mlp`), from ``--seed``; the same
  initial net and the same order of sequences for every lambda;
* the test, as the thesis's: the FINAL position of each test sequence only (so the same
  positions for every k): the mean squared error per test position (``mse``, the thesis's
  "SSE" is of that size) and the share of positions whose output's sign is not the outcome's
  (``incorrect``; an output of exactly 0 counts as incorrect). Its standard error
  ``incorrect_se`` is over test *games* (the mean over a game's 8 symmetries, then the
  standard deviation of those means over the square root of the number of games), since the
  8 symmetries of one position are not independent.

A caution the thesis does not raise: in a record that ends by resignation the last move is
usually the winner's (a program resigns on its own turn), so the side to move of the final
position names the loser. ``baselines.last_mover_wins`` reports the share of test games that
rule gets wrong. The side to move can also be read off the other inputs (the stones on the
board plus the prisoners give the number of moves of each colour), so
``--no-side-to-move`` (the side-to-move input held at 0) weakens but does not remove it.
"""

import json
import sys
import time

import click
import numpy as np

from ..clitypes import Number, OutputFile

SIZE = 9
HIDDEN = (50, 20)
MOVES = (20, 50)
MAX_K = 20
LEARNING_RATE = 0.003
EPOCHS = 40
INIT_SCALE = 0.1
THESIS = {  # Table 5.3: (k, lambda) -> (SSE, incorrect ratio)
    (1, 0.0): (0.2417, 0.1333), (1, 0.5): (0.2408, 0.1333), (1, 1.0): (0.2419, 0.1333),
    (2, 0.0): (0.4340, 0.3049), (2, 0.5): (0.3833, 0.2632), (2, 1.0): (0.3545, 0.2444),
    (3, 0.0): (0.3533, 0.2132), (3, 0.5): (0.3752, 0.2556), (3, 1.0): (0.3748, 0.2278),
    (4, 0.0): (0.4683, 0.3208), (4, 0.5): (0.3942, 0.2785), (4, 1.0): (0.3891, 0.2778),
    (5, 0.0): (0.4338, 0.2944), (5, 0.5): (0.3964, 0.2667), (5, 1.0): (0.3955, 0.2674),
    (6, 0.0): (0.4648, 0.3444), (6, 0.5): (0.4020, 0.2868), (6, 1.0): (0.3999, 0.2986),
}


# ----------------------------------------------------------------------------- data
def symmetric_inputs(x, size=SIZE):
    """The inputs ``x`` (``(..., size*size + extra)``, points first in
    :func:`mcgo.board.coords.all_points` order) under the 8 symmetries: ``(8, ...)``. The
    points move; the other inputs (side to move, prisoners) stay."""
    from ..board.symmetry import SYMMETRIES, images
    x = np.asarray(x, dtype=np.float64)
    n = size * size
    table = images(size)
    out = np.empty((SYMMETRIES,) + x.shape)
    for s in range(SYMMETRIES):
        out[s][..., table[s]] = x[..., :n]
        out[s][..., n:] = x[..., n:]
    return out


def last_positions(record, k):
    """The inputs of the positions after each of the last ``k`` moves of ``record``
    (``B_{n-k+1} .. B_n``): an array ``(k, size*size + 2)``, oldest first. Raises
    :class:`mcgo.sgf.ReplayError` for a record that cannot be replayed or has fewer than k
    moves."""
    from ..sgf import replay
    from .td_go import inputs
    n = len(record.moves)
    if n < k:
        replay(record, min_moves=k)          # raises "too short"
    return np.array([inputs(replay(record, max_moves=j)) for j in range(n - k + 1, n + 1)])


class Game:
    """One kept game: its name, split, outcome (+1 black won, -1 white), number of moves,
    the colour of its last move (+1 black, -1 white) and its last positions' inputs."""

    __slots__ = ("name", "split", "outcome", "moves", "last_mover", "positions")

    def __init__(self, name, split, outcome, moves, last_mover, positions):
        self.name, self.split, self.outcome = name, split, outcome
        self.moves, self.last_mover, self.positions = moves, last_mover, positions


def load_games(paths, k_max, moves=MOVES, size=SIZE):
    """``(games, read, skipped)``: the games of the SGF files and folders ``paths`` that end
    by resignation with a number of moves inside ``moves`` (``(low, high)``, either None for
    no bound), each with its last ``k_max`` positions; ``read`` the games read and
    ``skipped`` the games left out, counted by reason."""
    import collections
    import io

    from ..board import BLACK
    from ..sgf import SgfError, read_games
    from ..sgf.sources import game_name, input_files, iter_inputs
    from .split import game_key, split_of

    files, _ = input_files(paths)
    if not files:
        raise ValueError("no SGF files (.sgf, .mgt) or archives (.tar.gz) among GAMES")
    games, seen, read = [], set(), 0
    skipped = collections.Counter()
    low, high = moves
    for name, data, error, _ in iter_inputs(files):
        if name is None:
            continue
        if error is not None:
            skipped["unreadable file"] += 1
            continue
        source = io.BytesIO(data)
        source.name = name
        for record in read_games(source, errors="yield"):
            if isinstance(record, SgfError):
                skipped["unreadable game"] += 1
                continue
            read += 1
            n = len(record.moves)
            if record.size != size:
                skipped[f"not {size}x{size}"] += 1
            elif "+R" not in record.result.strip().upper() or record.winner is None:
                skipped["not ended by resignation"] += 1
            elif (low is not None and n < low) or (high is not None and n > high) or n < k_max:
                skipped["moves outside the window"] += 1
            else:
                key = game_key(record)
                if key in seen:
                    skipped["duplicate game"] += 1
                    continue
                try:
                    positions = last_positions(record, k_max)
                except SgfError:
                    skipped["cannot be replayed"] += 1
                    continue
                seen.add(key)
                games.append(Game(game_name(record), split_of(key),
                                  1.0 if record.winner == BLACK else -1.0, n,
                                  1.0 if record.moves[-1][0] == BLACK else -1.0, positions))
    return games, read, dict(skipped)


# ----------------------------------------------------------------------------- learning
def arrays(games, side_to_move=True, size=SIZE):
    """``(x, outcome)``: ``x`` of shape ``(games, 8, k_max, inputs)`` (every game's last
    positions under the 8 symmetries) and the outcomes ``(games,)``."""
    x = np.array([symmetric_inputs(g.positions, size) for g in games]).reshape(
        len(games), 8, -1, size * size + 2) if games else np.zeros((0, 8, 1, size * size + 2))
    if not side_to_move:
        x[..., size * size] = 0.0
    return x, np.array([g.outcome for g in games])


def evaluate(net, x, outcome):
    """``(mse, incorrect, incorrect_se, mse_se)`` of ``net`` on the FINAL positions of ``x``
    (``(games, 8, k, inputs)``), per position; the standard errors over games."""
    final = x[:, :, -1, :]
    y = net.forward(final.reshape(-1, final.shape[-1])).reshape(final.shape[0], final.shape[1])
    o = outcome[:, None]
    se = (o - y) ** 2
    wrong = (np.sign(y) != o).astype(float)
    n = len(outcome)

    def stderr(values):
        per_game = values.mean(axis=1)
        return float(per_game.std(ddof=1) / np.sqrt(n)) if n > 1 else None

    return float(se.mean()), float(wrong.mean()), stderr(wrong), stderr(se)


def train(x, outcome, k, lam, eta, epochs, seed, validation=None, progress=None):
    """A net trained by TD(``lam``) on the sequences of the last ``k`` positions of ``x``
    (``(games, 8, k_max, inputs)``), ``epochs`` passes over the ``games * 8`` sequences in a
    new random order each. With ``validation`` (``(x, outcome)``) the net of the epoch with
    the lowest validation mse is returned. Returns ``(net, best epoch, its validation mse)``."""
    from ..models.td_net import Mlp
    from .td import TdLearner
    net = Mlp([x.shape[-1], *HIDDEN, 1], seed=seed, scale=INIT_SCALE)
    learner = TdLearner(net, eta=eta, lam=lam)
    rng = np.random.default_rng(seed)
    sequences = x[:, :, x.shape[2] - k:, :].reshape(-1, k, x.shape[-1])
    targets = np.repeat(outcome, x.shape[1])[:, None]
    best = (None, 0, None)
    for epoch in range(1, epochs + 1):
        for i in rng.permutation(len(sequences)):
            learner.learn(sequences[i], targets[i])
        if validation is not None:
            mse = evaluate(net, *validation)[0]
            if best[2] is None or mse < best[2]:
                best = ([w.copy() for w in net.w] + [b.copy() for b in net.b], epoch, mse)
        if progress:
            progress(1)
    if validation is None:
        return net, epochs, None
    layers = len(net.w)
    net.w, net.b = best[0][:layers], best[0][layers:]
    return net, best[1], best[2]


def run_table(games, lambdas, ks, eta, epochs, seed, side_to_move=True, evaluate_on="test",
              progress=None):
    """The rows of the table: one per (k, lambda)."""
    from .split import TEST, TRAIN, VALIDATION
    parts = {s: [g for g in games if g.split == s] for s in (TRAIN, VALIDATION, TEST)}
    data = {s: arrays(p, side_to_move) for s, p in parts.items()}
    validation = data[VALIDATION] if parts[VALIDATION] else None
    scored = data[TEST] if evaluate_on == "test" else data[VALIDATION]
    rows = []
    for k in ks:
        for lam in lambdas:
            started = time.perf_counter()
            net, epoch, val_mse = train(*data[TRAIN], k, lam, eta, epochs, seed,
                                        validation=validation, progress=progress)
            mse, wrong, wrong_se, mse_se = evaluate(net, *scored)
            rows.append({"k": k, "lambda": lam, "mse": round(mse, 4), "mse_se": _round(mse_se),
                         "incorrect": round(wrong, 4), "incorrect_se": _round(wrong_se),
                         "best_epoch": epoch, "validation_mse": _round(val_mse),
                         "thesis_sse": THESIS.get((k, lam), (None, None))[0],
                         "thesis_incorrect": THESIS.get((k, lam), (None, None))[1],
                         "seconds": round(time.perf_counter() - started, 1)})
    return rows


def baselines(games, evaluate_on="test"):
    """Rules with no net, on the scored games: the player who moved last wins; the colour
    that won more training games always wins."""
    scored = [g for g in games if g.split == evaluate_on]
    train_black = sum(g.outcome > 0 for g in games if g.split == "train")
    train_n = sum(g.split == "train" for g in games)
    majority = 1.0 if 2 * train_black >= train_n else -1.0
    n = len(scored)
    if not n:
        return {}
    return {"last_mover_wins": round(sum(g.last_mover != g.outcome for g in scored) / n, 4),
            "majority_colour": round(sum(majority != g.outcome for g in scored) / n, 4),
            "majority_is": "black" if majority > 0 else "white"}


# ----------------------------------------------------------------------------- command
def parse_ks(text):
    """``"1-6"``, ``"1,3,5"`` or ``"2"``: the sorted k values (1 to :data:`MAX_K`)."""
    ks = set()
    try:
        for part in text.split(","):
            part = part.strip()
            if "-" in part:
                a, b = part.split("-")
                a, b = int(a), int(b)
                if a > b:
                    raise ValueError
                ks.update(range(a, b + 1))
            else:
                ks.add(int(part))
    except ValueError:
        raise ValueError(f"{text!r} is not a list of k values like 1-6 or 1,2,4") from None
    if not ks or min(ks) < 1 or max(ks) > MAX_K:
        raise ValueError(f"k must be 1 to {MAX_K}, got {text!r}")
    return sorted(ks)


def parse_lambdas(text):
    try:
        out = [float(p) for p in text.split(",")]
    except ValueError:
        raise ValueError(f"{text!r} is not a list of lambdas like 0,0.5,1") from None
    if not out or any(not 0.0 <= v <= 1.0 for v in out):
        raise ValueError(f"every lambda must be 0 to 1, got {text!r}")
    return sorted(set(out))


def parse_moves(text):
    """``"20-50"``, ``"20-"``, ``"-50"`` or ``"any"``: the window of game lengths."""
    if text.strip().lower() == "any":
        return (None, None)
    try:
        a, b = text.split("-")
        low = int(a) if a.strip() else None
        high = int(b) if b.strip() else None
    except ValueError:
        raise ValueError(f"{text!r} is not a window of moves like 20-50 or any") from None
    if (low is not None and low < 0) or (low is not None and high is not None and low > high):
        raise ValueError(f"{text!r} is not a window of moves like 20-50 or any")
    return (low, high)


def _round(v, digits=4):
    return None if v is None else round(v, digits)


@click.command("td-outcome")
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--lambdas", default="0,0.5,1", show_default=True, help="TD's lambdas, comma separated.")
@click.option("--k", "k_text", default="1-6", show_default=True,
              help="Lengths of the sequences: the last k positions of each game (1-6, 1,2,4).")
@click.option("--moves", "moves_text", default=f"{MOVES[0]}-{MOVES[1]}", show_default=True,
              help="Keep games of this many moves (20-50, 30-, any).")
@click.option("--epochs", type=click.IntRange(1), default=EPOCHS, show_default=True,
              help="Passes over the training sequences (the best epoch on validation is kept).")
@click.option("--learning-rate", type=Number(0, 1, min_open=True), default=LEARNING_RATE,
              show_default=True, help="The rule's eta.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the initial weights and of the order of the sequences.")
@click.option("--side-to-move/--no-side-to-move", default=True, show_default=True,
              help="Feed the side to move (the thesis's input 82), or hold it at 0.")
@click.option("--evaluate", "evaluate_on", type=click.Choice(["test", "validation"]), default="test",
              show_default=True, help="Score on the test games, or on the validation games "
              "(to choose settings without looking at the test games).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option("--output-table", type=OutputFile(), default=None, help="Also write the JSON here.")
def td_outcome_command(games, lambdas, k_text, moves_text, epochs, learning_rate, seed,
                       side_to_move, evaluate_on, as_json, output_table):
    """Seed 004's experiment 2 (Chan 1996, Table 5.3): predict the winner of 9x9 games that
    end by resignation from their last k positions, an 83-50-20-1 net trained by TD(lambda)
    on the sequences (k = 1: supervised), tested on the final positions of the test games."""
    from ..models.cfg_scorer import now
    from .provenance import git_commit
    try:
        ks = parse_ks(k_text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--k") from None
    try:
        lams = parse_lambdas(lambdas)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--lambdas") from None
    try:
        moves = parse_moves(moves_text)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--moves") from None
    started = time.perf_counter()
    try:
        kept, read, skipped = load_games(games, max(ks), moves)
    except (ValueError, FileNotFoundError) as e:
        raise click.UsageError(str(e)) from None
    counts = {s: sum(g.split == s for g in kept) for s in ("train", "validation", "test")}
    if not counts["train"]:
        raise click.UsageError(f"no training games among the {len(kept)} kept "
                               f"(of {read} read; skipped: {skipped or 'none'})")
    if not counts[evaluate_on]:
        raise click.UsageError(f"no {evaluate_on} games among the {len(kept)} kept "
                               f"(of {read} read; skipped: {skipped or 'none'})")
    cells = len(ks) * len(lams) * epochs
    with click.progressbar(length=cells, label="td-outcome", file=sys.stderr) as bar:
        rows = run_table(kept, lams, ks, learning_rate, epochs, seed, side_to_move, evaluate_on,
                         progress=bar.update)
    lengths = [g.moves for g in kept]
    document = {
        "games": {**counts, "source": [str(p) for p in games], "read": read, "skipped": skipped,
                  "moves_min": min(lengths), "moves_max": max(lengths),
                  "moves_median": float(np.median(lengths)),
                  "black_wins": {s: sum(g.outcome > 0 for g in kept if g.split == s) for s in counts}},
        "settings": {"k": ks, "lambdas": lams, "moves_window": list(moves), "epochs": epochs,
                     "learning_rate": learning_rate, "seed": seed, "side_to_move": side_to_move,
                     "net": [SIZE * SIZE + 2, *HIDDEN, 1], "init": f"uniform +-{INIT_SCALE}",
                     "symmetries": 8, "order": "every epoch a new random order of the sequences",
                     "early_stopping": "each (k, lambda) keeps the epoch of lowest validation mse",
                     "scored_on": evaluate_on, "scored_positions": counts[evaluate_on] * 8,
                     "mse": "mean over the scored final positions of (outcome - output)^2",
                     "incorrect": "share of scored final positions with sign(output) != outcome",
                     "se": "standard error over games (mean of a game's 8 symmetries first)",
                     "split": "mcgo.train.split.split_of(game_key)",
                     "seconds": round(time.perf_counter() - started, 1),
                     "commit": git_commit(), "date": now()},
        "baselines": baselines(kept, evaluate_on),
        "table": rows,
    }
    text = json.dumps(document, indent=1)
    if output_table:
        with open(output_table, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    if as_json:
        click.echo(text)
        return
    click.echo(f"games: train {counts['train']}, validation {counts['validation']}, "
               f"test {counts['test']} (scored on {evaluate_on})")
    click.echo(f"{'k':>2} {'lambda':>6} {'mse':>7} {'incorrect':>9} {'+-se':>6} "
               f"{'epoch':>5} {'thesis SSE':>10} {'thesis inc':>10}")
    for r in rows:
        thesis = ("" if r["thesis_sse"] is None else
                  f"{r['thesis_sse']:>10.4f} {r['thesis_incorrect']:>10.4f}")
        se = "" if r["incorrect_se"] is None else f"{r['incorrect_se']:.4f}"
        click.echo(f"{r['k']:>2} {r['lambda']:>6g} {r['mse']:>7.4f} {r['incorrect']:>9.4f} "
                   f"{se:>6} {r['best_epoch']:>5} {thesis}")
    b = document["baselines"]
    click.echo(f"baselines: the last mover wins {b['last_mover_wins']:.4f} incorrect; "
               f"always {b['majority_is']} {b['majority_colour']:.4f}")
