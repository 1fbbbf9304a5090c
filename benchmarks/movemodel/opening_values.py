"""Can the playouts tell the policy net's opening candidates apart? (issue 46) The value the
playouts give each of the net's first choices, moves 1-20 of the goban test games.

The opening curve (``opening_curve.py``) does not rise with more simulations: the search
leaves the priors' choice about as often for a worse move as for a better one. This script
measures the reason directly, without the tree. For every position of the curve (the first
``--games`` test games without handicap, moves 1-20), the shipped policy net's ``--top``
most probable moves are each played, and ``--playouts`` playouts of ``--policy`` are run from
the position after it, in two independent halves (two seeds). Within a half every
candidate's playouts use the same seed (common random numbers), so the candidates are compared
with less noise than a search's independent playouts have. For each position it reports

* the playouts' win rate of each candidate for the side that played it, and which candidate
  they rate best (the choice of a search with unlimited flat simulations);
* whether that choice and the net's own first choice are within distance 2 of the
  professional's move (the curve's measure), paired, with the exact McNemar test, beside a
  random one of the candidates; and whether the playouts rate the candidates near the
  professional's move higher than the others (the mean difference of their centred win
  rates, with its standard error);
* how far the two halves agree: how often they rate the same candidate best, and the
  covariance of their centred win rates, which estimates the variance of the candidates' true
  win rates about their mean (the noise of the two halves is independent, so it drops out).
  Its square root is the playouts' real spread between the candidates; beside it, the noise
  of one half (with common random numbers), the binomial noise of one half's win rate
  without them, 0.5 / sqrt(n) at most, and the n at which that binomial noise equals the
  spread: about the visits each candidate needs before a search can rank them;
* whether the value adds anything to the net's probabilities: how often the candidate with
  the most log-probability plus w times its value (in sd of the value's spread) lands near
  the professional's move, for a few w (w = 0 is the net's own choice).

``--value`` says what rates a candidate: the playouts' win rate (``win``), their mean final
score for the side that played it, area less komi (``score``), or the shipped ownership
network's expected area after it (``ownership``, seed 003's 1-ply ranker, no playouts).

Prints a JSON object (``--save FILE`` also writes every position's figures as JSON lines) and
a short table.

    python benchmarks/movemodel/opening_values.py --top 5 --playouts 4000
    python benchmarks/movemodel/opening_values.py --top 5 --playouts 4000 --policy pattern
    python benchmarks/movemodel/opening_values.py --top 5 --playouts 4000 --value score
    python benchmarks/movemodel/opening_values.py --top 5 --value ownership
    python benchmarks/movemodel/opening_values.py --top 5 --playouts 4000 --table runs/values.jsonl
"""

import json
import math
import pathlib
import sys
import time

import click
import numpy as np

from mcgo.board import Board, coords
from mcgo.models.ownership.model import SHIPPED as SHIPPED_OWNERSHIP, open_ownership
from mcgo.models.policy_net import open_policy_net
from mcgo.playout import POLICY_NAMES, simulate
from mcgo.stats import mcnemar, wilson_interval
from mcgo.train.split import SPLITS, TEST

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from opening_curve import MOVES, distance, positions, test_games  # noqa: E402
from opening_prediction import GOBAN  # noqa: E402

NEAR = 2.0            # the curve's measure: within this distance of the professional's move
HALVES = 2            # independent halves of each candidate's playouts (two seeds)
VALUES = ("win", "score", "ownership")
BLEND_WEIGHTS = (0.0, 0.1, 0.3, 1.0, 3.0)  # nats of prior one sd of the value is worth
PROBABILITY_FLOOR = 1e-4  # older saved files round the net's probabilities to 4 decimals
VALUE_UNITS = dict(win="win rate", score="mean score", ownership="expected area")


def value_after(after, color, value, playouts, policy, seed, ownership_model=None):
    """The ``value`` of the position ``after`` for ``color``, the side that just played:
    ``win`` and ``score``, the win rate and the mean final score (area less komi) of
    ``playouts`` playouts; ``ownership``, the ownership network's expected area."""
    if value == "ownership":
        black = ownership_model.black_area(after.pts, after.info)
        return black if color == 1 else after.size * after.size - black
    stats = simulate(after, playouts=playouts, policy=policy, seed=seed,
                     ownership=value == "score")
    if value == "win":
        black = stats.black_win_rate
        return black if color == 1 else 1.0 - black
    black = float(stats.owner_sum.sum()) / stats.playouts - after.komi
    return black if color == 1 else -black


def candidate_values(board, color, net, top, playouts, policy, seed, value="win",
                     ownership_model=None):
    """The net's ``top`` moves in ``board`` for ``color``: a list of dicts with the move, the
    net's probability and each half's ``value`` for ``color`` after playing it (the network's
    ``ownership`` has no noise: the same in both halves)."""
    probabilities = net.probabilities(board, color)
    best = sorted(probabilities, key=lambda p: -probabilities[p])[:top]
    out = []
    for p in best:
        after = board.copy()
        after.play(p, color)
        if value == "ownership":
            rates = [value_after(after, color, value, 0, policy, seed, ownership_model)] * HALVES
        else:
            rates = [value_after(after, color, value, playouts // HALVES, policy, seed + half)
                     for half in range(HALVES)]
        out.append(dict(move=int(p), net=probabilities[p], halves=rates))
    return out


def near(vertex, professional):
    """Whether the GTP ``vertex`` is within ``NEAR`` of the point ``professional``."""
    d = distance(vertex, professional)
    return d is not None and d <= NEAR + 1e-9


def near_flags(row):
    """Whether each candidate of a saved row is within ``NEAR`` of the professional's move."""
    professional = coords.from_gtp(row["professional"], 19)
    return np.array([near(c["move"], professional) for c in row["candidates"]], dtype=bool)


def measure(games, moves, net, top, playouts, policy, seed, value="win", ownership_model=None):
    """One dict per position: the candidates, the net's and the playouts' choices."""
    for name, komi, before, color, professional in positions(games, moves):
        board = Board(19, komi)
        for c, q in before:
            board.play(q, c)
        cands = candidate_values(board, color, net, top, playouts, policy, seed, value,
                                 ownership_model)
        if not cands:
            continue
        vertices = [coords.to_gtp(c["move"], 19) for c in cands]
        choice = vertices[int(np.argmax([np.mean(c["halves"]) for c in cands]))]
        firsts = [int(np.argmax([c["halves"][h] for c in cands])) for h in range(HALVES)]
        yield dict(game=name, move=len(before) + 1, professional=coords.to_gtp(professional, 19),
                   candidates=[dict(move=v, net=float(f"{c['net']:.4g}"),
                                    halves=[round(r, 4) for r in c["halves"]])
                               for v, c in zip(vertices, cands)],
                   net_choice=vertices[0], playout_choice=choice,
                   net_near=near(vertices[0], professional),
                   playout_near=near(choice, professional),
                   halves_agree=firsts[0] == firsts[1])


def spread(rows):
    """The covariance of the two halves' centred win rates, pooled over positions (an
    estimate of the candidates' true variance about their mean), and the noise variance
    (the mean of half the squared difference of the halves, per half)."""
    cov, noise, n = 0.0, 0.0, 0
    for r in rows:
        a = np.array([c["halves"][0] for c in r["candidates"]])
        b = np.array([c["halves"][1] for c in r["candidates"]])
        if len(a) < 2:
            continue
        a, b = a - a.mean(), b - b.mean()
        k = len(a)
        cov += float(a @ b) / (k - 1)
        noise += float(((a - b) ** 2).sum()) / (2 * (k - 1))
        n += 1
    return cov / max(n, 1), noise / max(n, 1)


def near_minus_far(rows):
    """The mean over positions of (the near candidates' mean centred win rate minus the far
    ones'), where a position has both, and its standard error: whether the playouts lean
    towards the moves near the professional's. The halves' noise has mean zero, so it only
    widens the error."""
    diffs = []
    for r in rows:
        values = np.array([np.mean(c["halves"]) for c in r["candidates"]])
        values -= values.mean()
        flags = near_flags(r)
        if flags.any() and not flags.all():
            diffs.append(values[flags].mean() - values[~flags].mean())
    if len(diffs) < 2:
        return None, None, len(diffs)
    diffs = np.array(diffs)
    return float(diffs.mean()), float(diffs.std(ddof=1) / math.sqrt(len(diffs))), len(diffs)


def blended_hits(rows, sd):
    """Whether the value adds anything to the net: for each weight w of ``BLEND_WEIGHTS``,
    the share of positions whose candidate with the most ``log(net probability) + w * value /
    sd`` is within ``NEAR`` of the professional's move (``sd``: the value's spread between
    the candidates). w = 0 is the net's own choice; a search that weighs the value against
    the prior can do no better than the best w, which is chosen here on the positions
    themselves and so flatters the value."""
    out = {}
    for weight in BLEND_WEIGHTS:
        hits = 0
        for r in rows:
            prior = np.log([max(c["net"], PROBABILITY_FLOOR) for c in r["candidates"]])
            value = np.array([np.mean(c["halves"]) for c in r["candidates"]])
            hits += bool(near_flags(r)[int(np.argmax(prior + weight * value / sd))])
        out[f"{weight:g}"] = round(hits / max(len(rows), 1), 4)
    return out


def summarize(rows, top, playouts, policy, seconds, value="win"):
    n = len(rows)
    net_hits = sum(r["net_near"] for r in rows)
    playout_hits = sum(r["playout_near"] for r in rows)
    p, only_net, only_playouts = mcnemar([r["net_near"] for r in rows],
                                         [r["playout_near"] for r in rows])
    agree = sum(r["halves_agree"] for r in rows)
    same = sum(r["net_choice"] == r["playout_choice"] for r in rows)
    true_var, noise_var = spread(rows)
    random_pick = float(np.mean([near_flags(r).mean() for r in rows]))
    lean, lean_se, mixed = near_minus_far(rows)
    true_sd = math.sqrt(max(true_var, 0.0))
    half = playouts // HALVES
    win = value == "win"  # binomial noise and the playouts a search needs: win rates only
    total_sd = math.sqrt(max(true_var + noise_var / HALVES, 1e-12))
    out = dict(value=value, policy=policy, top=top, playouts=playouts, positions=n,
               net_choice_near=round(net_hits / max(n, 1), 4),
               net_choice_wilson=[round(x, 4) for x in wilson_interval(net_hits, n)],
               playout_choice_near=round(playout_hits / max(n, 1), 4),
               playout_choice_wilson=[round(x, 4) for x in wilson_interval(playout_hits, n)],
               same_choice=same, near_only_net=only_net, near_only_playouts=only_playouts,
               mcnemar_p=float(f"{p:.3g}"), random_pick_near=round(random_pick, 4),
               near_minus_far=None if lean is None else round(lean, 5),
               near_minus_far_se=None if lean_se is None else round(lean_se, 5),
               mixed_positions=mixed,
               halves_agree=round(agree / max(n, 1), 4), chance_agreement=round(1 / top, 4),
               true_sd=round(true_sd, 4),
               noise_sd_per_half=round(math.sqrt(noise_var), 4),
               noise_sd_binomial_per_half=round(0.5 / math.sqrt(half), 4) if win else None,
               playouts_for_sd_equal=(round(0.25 / true_var) if win and true_var > 0
                                      else None),
               blend_near=blended_hits(rows, total_sd),
               seconds=round(seconds, 1))
    return out


def table(s):
    value = s.get("value", "win")
    unit = VALUE_UNITS[value]
    weights = list(s["blend_near"])
    blends = " / ".join(f"{s['blend_near'][w]:.3f}" for w in weights)
    noise = [] if value == "ownership" else [
        f"| the noise of one half ({s['playouts'] // HALVES} playouts, common random numbers), "
        f"sd | {s['noise_sd_per_half']:.4f} |"]
    binomial = [] if value != "win" else [
        f"| the same without common random numbers, binomial sd | "
        f"{s['noise_sd_binomial_per_half']:.4f} |",
        f"| playouts a candidate needs for its noise to equal that spread (win rates) | "
        f"{s['playouts_for_sd_equal']} |"]
    return "\n".join([
        "| what | figure |", "|---|---:|",
        f"| positions | {s['positions']} |",
        f"| the net's first choice within {NEAR:g} of the professional's | "
        f"{s['net_choice_near']:.3f} |",
        f"| the value's best of the net's {s['top']} within {NEAR:g} | "
        f"{s['playout_choice_near']:.3f} |",
        f"| near only with the net's / only with the value's (McNemar p) | "
        f"{s['near_only_net']} / {s['near_only_playouts']} ({s['mcnemar_p']:.2g}) |",
        f"| a random one of the net's {s['top']} within {NEAR:g} | {s['random_pick_near']:.3f} |",
        f"| near candidates' {unit} minus far ones' ({s['mixed_positions']} positions with "
        f"both), +- se | {s['near_minus_far']} +- {s['near_minus_far_se']} |",
        f"| the two halves rate the same candidate best (chance {s['chance_agreement']:.2f}) | "
        f"{s['halves_agree']:.3f} |",
        f"| the candidates' true spread, sd of the {unit} | {s['true_sd']:.4f} |",
        *noise, *binomial,
        f"| the net's log-probability plus w sd of the value, within {NEAR:g}, w = "
        f"{' / '.join(weights)} | {blends} |"])


@click.command()
@click.option("--top", type=click.IntRange(2), default=5, show_default=True,
              help="The net's this many first choices in each position.")
@click.option("--playouts", type=click.IntRange(2), default=4000, show_default=True,
              help="Playouts from each candidate, in two halves of different seeds.")
@click.option("--policy", type=click.Choice(POLICY_NAMES), default="auto", show_default=True)
@click.option("--value", type=click.Choice(VALUES), default="win", show_default=True,
              help="What rates a candidate: the playouts' win rate, their mean score (area "
                   "less komi), or the shipped ownership network's expected area (no "
                   "playouts).")
@click.option("--games", type=click.IntRange(1), default=15, show_default=True)
@click.option("--moves", type=click.IntRange(1), default=MOVES, show_default=True)
@click.option("--folder", type=click.Path(file_okay=False), default=str(GOBAN))
@click.option("--split", "part", type=click.Choice(SPLITS), default=TEST, show_default=True)
@click.option("--net", default="default", show_default=True,
              help="The policy net (default or a file).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--save", type=click.Path(dir_okay=False),
              help="Write every position as a JSON line.")
@click.option("--table", "saved", type=click.Path(exists=True, dir_okay=False),
              help="Only summarize a --save file of an earlier run (its --top, --playouts, "
                   "--policy and --value given again).")
def main(top, playouts, policy, value, games, moves, folder, part, net, seed, save, saved):
    if saved:
        with open(saved) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        result = summarize(rows, top, playouts, policy, 0.0, value)
        print(json.dumps(result))
        print(table(result))
        return
    if not pathlib.Path(folder).is_dir():
        raise click.BadParameter(f"{folder}: no such folder (tools/setup.sh installs the goban "
                                 "games)", param_hint="--folder")
    policy_net = open_policy_net(net)
    ownership_model = open_ownership(SHIPPED_OWNERSHIP) if value == "ownership" else None
    records = test_games(folder, part, games)
    start = time.perf_counter()
    rows = []
    sink = open(save, "w") if save else None
    try:
        for row in measure(records, moves, policy_net, top, playouts, policy, seed, value,
                           ownership_model):
            rows.append(row)
            if sink:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
    finally:
        if sink:
            sink.close()
    result = summarize(rows, top, playouts, policy, time.perf_counter() - start, value)
    print(json.dumps(result))
    print(table(result))


if __name__ == "__main__":
    main()
