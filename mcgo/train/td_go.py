"""Seed 004's experiment 1: a 7x7 evaluation net trained by TD(lambda) in self-play
(``mcgo learn td``), and the round robin between nets of different lambdas
(``mcgo learn roundrobin``), after Chan (1996), chapter 5.2.

The net is the thesis's 51-30-1: inputs as its Table 5.1 (the 49 points, +1 black, -1 white,
0 empty; the side to move, +1 black, -1 white; the prisoner difference, black's captures less
white's, divided by 10), 30 hidden units, one output in -1..1: the outcome for black.

Choices the thesis leaves open, stated here (and stored in each net's metadata):

* **Rules**: area scoring, positional superko, suicide illegal; **komi 8.5** (7x7's fair komi
  is 9 under area scoring; the half point leaves no draws).
* **Moves**: every legal move but the filling of one's own true eye, and pass.
* **End of game**: two passes in a row, or :data:`MAX_MOVES` moves (then scored as it stands).
* **Reward**: +1 when black wins the area count, -1 when white does.
* **Move choice**: Gibbs sampling over the moves by the net's value of the position after each
  (from the mover's side), temperature T0 = 1.0 times 0.92 every 20 games (the thesis's);
  the round robin plays at :data:`ROUND_ROBIN_TEMPERATURE`.
* **Learning**: :class:`mcgo.train.td.TdLearner` over the game's positions after each move, the
  whole game at its end (the weights change step by step through the sequence, as section 4.3.2
  has it, but the moves of a game are chosen by the net it started with); learning rate
  :data:`LEARNING_RATE`.
"""

import json
import sys
import time

import click
import numpy as np

from ..clitypes import Number, OutputFile
from ..models.td_net import FORMAT, KOMI, Mlp, SIZE, candidate_moves, inputs, load_net, shipped_nets

HIDDEN = 30
LEARNING_RATE = 0.0003
T0 = 1.0
T_DECAY = 0.92
T_EVERY = 20
MAX_MOVES = 2 * SIZE * SIZE
ROUND_ROBIN_TEMPERATURE = 0.1


def choose(net, board, temperature, rng):
    """A move by Gibbs sampling on the net's values of the positions after each move."""
    from ..board import BLACK
    moves = candidate_moves(board)
    rows = []
    for m in moves:
        board.play(m)
        rows.append(inputs(board))
        board.undo()
    values = np.array([net.forward(x)[0] for x in rows])
    if board.to_move != BLACK:
        values = -values
    z = (values - values.max()) / max(temperature, 1e-9)
    p = np.exp(z)
    return moves[int(rng.choice(len(moves), p=p / p.sum()))]


def play_game(black, white, temperature, rng):
    """One game: ``(positions' inputs after each move, outcome for black +1 or -1)``."""
    from ..board import BLACK, Board
    board = Board(SIZE, komi=KOMI)
    seen = []
    while board.consecutive_passes < 2 and len(board.moves) < MAX_MOVES:
        net = black if board.to_move == BLACK else white
        board.play(choose(net, board, temperature, rng))
        seen.append(inputs(board))
    return seen, (1.0 if board.score() > 0 else -1.0)


def temperature_at(game, t0=T0):
    return t0 * T_DECAY ** (game // T_EVERY)


def train(lam, games, seed, progress=None, learning_rate=LEARNING_RATE, t0=T0):
    """A net trained by TD(``lam``) over ``games`` self-play games."""
    from .td import TdLearner
    rng = np.random.default_rng(seed)
    net = Mlp([SIZE * SIZE + 2, HIDDEN, 1], seed=seed)
    learner = TdLearner(net, eta=learning_rate, lam=lam)
    for g in range(games):
        positions, outcome = play_game(net, net, temperature_at(g, t0), rng)
        learner.learn(positions, np.array([outcome]))
        if progress:
            progress(g + 1)
    return net


def save_net(net, path, metadata):
    meta = dict({"learning_rate": LEARNING_RATE, "t0": T0}, **metadata, format=FORMAT,
                sizes=net.sizes, komi=KOMI, hidden=HIDDEN, t_decay=T_DECAY, t_every=T_EVERY,
                max_moves=MAX_MOVES)
    arrays = {f"w{l}": w for l, w in enumerate(net.w)} | {f"b{l}": b for l, b in enumerate(net.b)}
    with open(path, "wb") as f:
        np.savez_compressed(f, metadata=np.frombuffer(json.dumps(meta, sort_keys=True).encode(),
                                                      dtype=np.uint8), **arrays)


def round_robin(nets, games, seed):
    """``win[i][j]``: the share of games net i won against net j (colours alternating)."""
    rng = np.random.default_rng(seed)
    n = len(nets)
    wins = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            won = 0
            for g in range(games):
                black, white = (nets[i], nets[j]) if g % 2 == 0 else (nets[j], nets[i])
                _, outcome = play_game(black, white, ROUND_ROBIN_TEMPERATURE, rng)
                won += (outcome > 0) == (g % 2 == 0)
            wins[i][j], wins[j][i] = won / games, 1 - won / games
    return wins


@click.command("td")
@click.option("--size", type=click.IntRange(SIZE, SIZE), default=SIZE, show_default=True,
              help="Board size (the thesis's experiment: 7 only).")
@click.option("--lambda", "lam", type=Number(0, 1), required=True, help="TD's lambda, 0 to 1.")
@click.option("--games", type=click.IntRange(1), required=True, help="Self-play games.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the initial weights and the moves.")
@click.option("--learning-rate", type=Number(0, 1, min_open=True), default=LEARNING_RATE,
              show_default=True, help="The rule's eta.")
@click.option("--temperature", "t0", type=Number(0, None, min_open=True), default=T0,
              show_default=True, help="The first games' Gibbs temperature (times 0.92 every 20 games).")
@click.option("-o", "--output", type=OutputFile(), required=True, help="Net file to write (.npz).")
def td_command(size, lam, games, seed, learning_rate, t0, output):
    """Train seed 004's 51-30-1 evaluation net by TD(lambda) in 7x7 self-play."""
    from ..models.cfg_scorer import now
    from .provenance import git_commit
    started = time.perf_counter()
    with click.progressbar(length=games, label=f"TD({lam:g})", file=sys.stderr) as bar:
        net = train(lam, games, seed, progress=lambda _: bar.update(1),
                    learning_rate=learning_rate, t0=t0)
    seconds = time.perf_counter() - started
    save_net(net, output, {"lambda": lam, "games": games, "seed": seed, "seconds": round(seconds, 1),
                           "learning_rate": learning_rate, "t0": t0,
                           "commit": git_commit(), "date": now()})
    click.echo(f"wrote {output}: TD({lam:g}), {games} games in {seconds:.0f} s")


@click.command("roundrobin")
@click.argument("nets", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--shipped", is_flag=True, help="Play the shipped nets (lambda 0 and 1) as well.")
@click.option("--games", type=click.IntRange(1), default=100, show_default=True,
              help="Games for every pair, colours alternating.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the moves.")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
def roundrobin_command(nets, shipped, games, seed, as_json):
    """Play every pair of NETS (files of mcgo learn td): the share of wins of each row against
    each column, with 95% Wilson intervals."""
    from ..stats import wilson_interval
    if shipped:
        nets = [str(p) for p in shipped_nets()] + list(nets)
    if len(nets) < 2:
        raise click.UsageError("give two nets or more")
    try:
        loaded = [load_net(p) for p in nets]
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="NETS") from None
    wins = round_robin([n for n, _ in loaded], games, seed)
    lambdas = [m["lambda"] for _, m in loaded]
    intervals = [[None if w is None else list(wilson_interval(w * games, games)) for w in row]
                 for row in wins]
    if as_json:
        click.echo(json.dumps({"lambdas": lambdas, "games": games, "win": wins,
                               "wilson95": intervals, "row_sums": [sum(w for w in row if w is not None)
                                                                   for row in wins]}))
        return
    click.echo("lambda  " + " ".join(f"{lam:>7g}" for lam in lambdas))
    for lam, row in zip(lambdas, wins):
        click.echo(f"{lam:<7g} " + " ".join("      -" if w is None else f"{w:>7.3f}" for w in row))

