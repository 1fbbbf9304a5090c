"""Move prediction, as seed 003's Table 2 measures it, and the ``mcgo learn moves`` and
``mcgo learn evaluate`` commands.

Over the positions of the *test* games (:mod:`.split`), moves A-B, the played move's
probability under the model: mean log-probability, its geometric mean (written 1/x), and the
top-k accuracies, for the whole run and by phase (move-number buckets), beside the
uniform-random baseline (1 / number of legal points) on the same positions.

Choices: a position whose played move is a pass is not counted (the baseline has no pass);
the model's probabilities do include pass. Ties are shared fairly: when ``g`` moves score
above the played one and ``e`` others the same, the played move is in the top k with
probability ``clip((k - g) / (e + 1), 0, 1)`` (random tie-breaking), which makes the
baseline's top-k exactly ``k / n``.

>>> import mcgo.sgf
>>> from mcgo.models.movemodel import MoveModel
>>> record = mcgo.sgf.read_game(b"(;SZ[9];B[ee];W[cc];B[gg])")
>>> table = evaluate(MoveModel.uniform(), [record], size=9, split=None)
>>> table["all"]["positions"], round(1 / table["all"]["geometric_mean_p"])  # 82, 81, 80 choices
(3, 81)
"""

import json
import math
import os
import time

import click
import numpy as np

from ..clitypes import Number

PASS = 0        # mcgo.board.kernels.PASS: nothing of the board or Numba is imported before a
TEST = "test"   # command runs (mcgo.train.split.TEST), so ``mcgo --help`` stays fast

TOPS = (1, 5, 10, 20, 30)
PHASES = ((1, 20), (21, 50), (51, 100), (101, 200), (201, None), (80, 83))


class _Tally:
    def __init__(self):
        self.positions = 0
        self.log_p = 0.0
        self.top = np.zeros(len(TOPS))
        self.random_log_p = 0.0
        self.random_top = np.zeros(len(TOPS))

    def add(self, log_p, top, n):
        self.positions += 1
        self.log_p += log_p
        self.top += top
        self.random_log_p -= math.log(n)
        self.random_top += np.minimum(np.array(TOPS), n) / n

    def as_dict(self):
        k = max(self.positions, 1)

        def part(log_p, top):
            mean = log_p / k
            out = {"positions": self.positions, "mean_log_p": mean, "geometric_mean_p": math.exp(mean)}
            out.update({f"top{t}": float(v / k) for t, v in zip(TOPS, top)})
            return out

        out = part(self.log_p, self.top)
        out["random"] = part(self.random_log_p, self.random_top)
        return out


HAND_SHARPNESS = 8.0    # score = sharpness x prior win rate; chosen on the validation games


class HandPriors:
    """The hand-written priors of the tree (:mod:`mcgo.search.priors`) as a move predictor,
    so that ``mcgo learn evaluate hand`` puts them in the same table as a learned model.

    Each legal move (and pass) gets the virtual visits and wins the search gives a new child;
    its score is ``HAND_SHARPNESS`` times that prior win rate, and the probabilities are the
    softmax of the scores. The ranking (top-k) does not depend on the sharpness; the mean
    log-probability does: 8 was the best of 2, 4, 8, 16 and 32 on the goban validation games.
    """

    def __init__(self, sharpness=HAND_SHARPNESS):
        self.sharpness = sharpness
        self._ladder = {}

    def scores(self, pts, info, color):
        """(moves, scores) of every legal move, pass last."""
        from ..board import kernels as K
        from ..board.board import zobrist
        from ..playout import shape_table
        from ..search.priors import set_priors
        from ..search.tree import NF_ROWS, PRIOR_VISITS, PRIOR_WINS
        from ..tactics.ladder import new_ladder_space
        size = int(info[K.BOARDSIZE])
        moves = np.zeros(size * size + 1, dtype=np.int32)
        n = K.legal_moves(pts, info, color, moves)
        moves[n] = K.PASS
        moves = moves[:n + 1]
        floats = np.zeros((NF_ROWS, len(moves)), dtype=np.float64)
        if size not in self._ladder:
            self._ladder[size] = new_ladder_space(size)
        set_priors(moves, floats, 0, len(moves), pts, info, zobrist(size), shape_table(),
                   self._ladder[size], color, 0.0,
                   np.zeros((3, pts.shape[1]), dtype=np.int32))
        value = floats[PRIOR_WINS] / floats[PRIOR_VISITS]
        return moves, self.sharpness * value


def phase_name(phase):
    return f"{phase[0]}-{phase[1]}" if phase[1] is not None else f"{phase[0]}+"


def scored_positions(model, record, moves=(1, None)):
    """The positions of one game in the move range (``(first, last)`` move numbers, last
    None: to the end) whose played move ``model`` can score: ``(move number, the scores of
    the legal moves, the played move's index among them, legal points without pass, CPU
    seconds the scoring took with its Python call)``."""
    from .movemodel import game_states
    for number, pts, info, color, point in game_states(record):
        if number < moves[0] or (moves[1] is not None and number > moves[1]):
            continue
        if point == PASS:
            continue
        started = time.process_time()
        legal, scores = model.scores(pts, info, color)
        seconds = time.process_time() - started
        where = np.flatnonzero(legal == point)
        if len(where):
            yield number, scores, int(where[0]), len(legal) - 1, seconds


def played_rank(scores, played):
    """(moves scored above the played one, moves tied with it): its rank is ``above + 1``
    to ``above + 1 + ties``."""
    s = scores[played]
    return int(np.count_nonzero(scores > s)), int(np.count_nonzero(scores == s)) - 1


def evaluate(model, records, size=19, moves=(1, None), split=TEST):
    """The prediction table (a dict, see the module docstring) of ``model`` (a
    :class:`~.movemodel.MoveModel`) over the ``split`` games of ``records`` (None: all)."""
    from .movemodel import split_records
    total = _Tally()
    phases = {phase_name(p): _Tally() for p in PHASES}
    games = 0
    seconds = 0.0               # CPU time in the scorer (with its Python call): the speed figure
    from ..board import Board
    warm = Board(size)
    model.scores(warm.pts, warm.info, warm.to_move)      # load the kernel before timing it
    for record, part in split_records(records, size):
        if split is not None and part != split:
            continue
        games += 1
        for number, scores, played, n, cpu in scored_positions(model, record, moves):
            seconds += cpu
            top = scores.max()
            log_p = float(scores[played] - top - math.log(np.exp(scores - top).sum()))
            above, ties = played_rank(scores, played)
            hits = np.clip((np.array(TOPS) - above) / (ties + 1), 0.0, 1.0)
            total.add(log_p, hits, n)
            for p in PHASES:
                if p[0] <= number and (p[1] is None or number <= p[1]):
                    phases[phase_name(p)].add(log_p, hits, n)
    return {"games": games, "all": total.as_dict(),
            "score_us_per_position": 1e6 * seconds / max(total.positions, 1),
            "phases": {name: t.as_dict() for name, t in phases.items()}}


def format_table(table):
    """The table as text, seed 003's Table 2 layout (one line per phase)."""
    head = (f"{'moves':>8} {'positions':>9} {'mean log p':>10} {'geo mean':>9} "
            + " ".join(f"{'top' + str(t):>6}" for t in TOPS) + "   random: geo mean, top1")
    lines = [f"{table['games']} games; scoring all legal moves took "
             f"{table['score_us_per_position']:.1f} us of CPU a position (with the Python call)",
             head]
    rows = [("all", table["all"])] + list(table["phases"].items())
    for name, r in rows:
        lines.append(f"{name:>8} {r['positions']:>9} {r['mean_log_p']:>10.3f} "
                     f"{'1/' + format(1 / r['geometric_mean_p'], '.1f'):>9} "
                     + " ".join(f"{r[f'top{t}']:>6.3f}" for t in TOPS)
                     + f"   1/{1 / r['random']['geometric_mean_p']:.1f}, {r['random']['top1']:.4f}")
    return "\n".join(lines)


# ----------------------------------------------------------------------------- commands
def _is_ownership_network(path):
    """True when ``path`` is a network file of ``mcgo learn ownership`` (by its metadata)."""
    if not os.path.isfile(path):
        return False
    from ..models.ownership.network import is_network_file
    return is_network_file(path)


def _is_policy_net(path):
    """True when ``path`` is a file of ``mcgo learn policy-net``."""
    from ..models.policy_net import is_policy_net_file
    return is_policy_net_file(path)


def _move_range(text):
    if text is None:
        return (1, None)
    try:
        a, b = text.split("-")
        first, last = int(a), int(b)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a range like 80-83", param_hint="--moves") from None
    if first < 1 or last < first:
        raise click.BadParameter(f"{text!r}: need 1 <= A <= B", param_hint="--moves")
    return (first, last)


def _check_inputs(games):
    from ..sgf.sources import input_files
    try:
        files, _ = input_files(games)
    except FileNotFoundError as e:
        raise click.BadParameter(str(e), param_hint="GAMES") from None
    if not files:
        raise click.BadParameter("no SGF files or archives found", param_hint="GAMES")


def _sources(games):
    """``PATH`` or ``PATH@RATE`` arguments as (path, rate) pairs."""
    out = []
    for text in games:
        path, rate = text, 1.0
        head, at, tail = text.rpartition("@")
        if at and head:
            try:
                rate = float(tail)
            except ValueError:
                raise click.BadParameter(f"{text!r}: the rate after @ is not a number",
                                         param_hint="GAMES") from None
            if not 0 < rate <= 1:
                raise click.BadParameter(f"{text!r}: the rate must be in (0, 1]", param_hint="GAMES")
            path = head
        out.append((path, rate))
    return out


@click.command("moves")
@click.argument("games", nargs=-1, required=True)
@click.option("-o", "--output", required=True, help="Model file to write (.npz).")
@click.option("--size", default=19, show_default=True, help="Board size of the games used.")
@click.option("--max-games", type=click.IntRange(1), default=None,
              help="Train on at most N games of each source.")
@click.option("--min-seen", type=click.IntRange(1), default=20, show_default=True,
              help="Keep a 3x3 pattern seen at least this often among the candidates.")
@click.option("--spatial-min-played", type=click.IntRange(1), default=None,
              help="Keep a spatial pattern played at least this often [default: the model's].")
@click.option("--spatial-prior", type=Number(0), default=None,
              help="Virtual wins and losses of each spatial pattern [default: the model's].")
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes reading the games.")
@click.option("--iterations", type=click.IntRange(1), default=40, show_default=True,
              help="At most this many MM iterations (it stops earlier on the validation games).")
def moves_command(games, output, size, max_games, min_seen, spatial_min_played, spatial_prior,
                  jobs, iterations):
    """Train the move model (Bradley-Terry by MM) on the train split of GAMES (files, folders
    or archives; PATH@RATE uses each position of those games with chance RATE)."""
    sources = _sources(games)
    _check_inputs([path for path, _ in sources])
    folder = os.path.dirname(os.path.abspath(output))
    if not os.path.isdir(folder):
        raise click.BadParameter(f"no folder {folder} for the model", param_hint="--output")
    from .movemodel import DEFAULT_SPATIAL_MIN_PLAYED, DEFAULT_SPATIAL_PRIOR, read_records, train
    skipped = []
    model = train([(read_records([path], skipped), rate) for path, rate in sources], size=size,
                  max_games=max_games, min_seen=min_seen,
                  spatial_min_played=spatial_min_played or DEFAULT_SPATIAL_MIN_PLAYED,
                  spatial_prior=DEFAULT_SPATIAL_PRIOR if spatial_prior is None else spatial_prior,
                  jobs=jobs, iterations=iterations, source=" ".join(games),
                  labels=source_labels([path for path, _ in sources]),
                  log=lambda text: click.echo(text, err=True))
    model.metadata["unreadable_files"] = len(skipped)
    model.save(output)
    m = model.metadata
    click.echo(f"{output}: {m['train_games']} train games, {m['train_positions']} positions, "
               f"{m['patterns']} patterns, {m['spatial_patterns']} spatial patterns; "
               f"validation log-likelihood {m['validation_log_likelihood']}")


def source_labels(paths):
    """Names of training sources for a model's metadata: the last part of each path, or as
    many last parts as tell them apart (``a/games.zip`` and ``b/games.zip``), never the
    folders above them (which belong to the machine that trained).

    >>> source_labels(["data/kgs-6d", "goban/"])
    ['kgs-6d', 'goban']
    >>> source_labels(["m/a/games.zip", "m/b/games.zip"])
    ['a/games.zip', 'b/games.zip']
    """
    parts = [os.path.normpath(path).split(os.sep) for path in paths]
    for depth in range(1, max(map(len, parts)) + 1):
        labels = ["/".join(p[-depth:]) for p in parts]
        if len(set(labels)) == len(labels):
            return labels
    return labels


@click.command("evaluate")
@click.argument("model")
@click.argument("games", nargs=-1, required=True)
@click.option("--moves", "move_range", default=None, help="Move numbers A-B only (e.g. 80-83).")
@click.option("--size", default=19, show_default=True, help="Board size of the games used.")
@click.option("--split", "part", type=click.Choice(["test", "validation", "train", "all"]),
              default="test", show_default=True, help="Games of this split only (never tune on test).")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@click.option("--fit-temperature", "fit_positions", type=click.IntRange(0), default=0,
              help="For the ownership network: first fit its ranker's temperature on N "
                   "positions (same move numbers) of the validation games of GAMES.")
def evaluate_command(model, games, move_range, size, part, as_json, fit_positions):
    """Move prediction of MODEL (a file, 'default' for the shipped model, 'hand' for the
    tree's hand-written priors, 'uniform', a policy net of `mcgo learn policy-net`, or seed
    003's ownership network as a 1-ply ranker: 'dagrnn' for the shipped one or a file of
    `mcgo learn ownership`) on the test games of GAMES."""
    from ..models.movemodel import ModelError, MoveModel, open_model
    from .movemodel import read_records
    span = _move_range(move_range)
    _check_inputs(games)
    if model == "uniform":
        chosen = MoveModel.uniform()
    elif model == "hand":
        chosen = HandPriors()
    elif os.path.isfile(model) and _is_policy_net(model):
        from ..models.policy_net import PolicyNetError, load
        try:
            chosen = load(model)
        except PolicyNetError as e:
            raise click.BadParameter(str(e), param_hint="MODEL") from None
    elif model == "dagrnn" or _is_ownership_network(model):
        from ..models.ownership.model import open_ownership
        from ..models.ownership.network import NetworkError
        try:
            chosen = open_ownership(model)
        except NetworkError as e:
            raise click.BadParameter(str(e), param_hint="MODEL") from None
    else:
        try:
            chosen = open_model(model)
        except ModelError as e:
            raise click.BadParameter(str(e), param_hint="MODEL") from None
        if chosen is None:
            raise click.BadParameter("'none' is no model (the baseline is 'uniform')",
                                     param_hint="MODEL")
    fitted = None
    if fit_positions:
        from ..models.ownership.model import OwnershipModel
        from .ownership_fit import fit_on_records
        if not isinstance(chosen, OwnershipModel):
            raise click.BadParameter("only the ownership network has a temperature to fit",
                                     param_hint="--fit-temperature")
        t, mean, n = fit_on_records(chosen, read_records(games), size, span, fit_positions)
        fitted = {"temperature": t, "validation_mean_log_p": mean, "positions": n}
    table = evaluate(chosen, read_records(games), size=size, moves=span,
                     split=None if part == "all" else part)
    table["model"] = model
    if fitted is not None:
        table["fitted_temperature"] = fitted
    click.echo(json.dumps(table, indent=1) if as_json else format_table(table))
