"""Two properties a value net should have (issue 74's tests), measured on held-out KGS games:

* **symmetry**: the 8 symmetries of a position get the same value. For each position at the
  given moves of test-split games (mcgo.train.split, never trained on): the spread (largest
  less smallest) of the 8 win probabilities, their mean distance from their mean, the
  ownership's mean distance between a symmetry's map turned back and the position's own, and
  the outcome's log loss of the plain evaluation beside that of the 8 evaluations' mean;
* **dead stones**: a final position with a dead group is valued for the side that owns it.
  On the final positions of test-split games that ended with two passes and a count, GNU Go
  3.8's ``final_status_list dead`` names the dead stones; the share of them whose point the
  net's ownership gives to the other colour (and, beside it, the share of the living stones
  given to their own), and the share of positions where the net's win probability favours
  the winner the record's RE names.

    python benchmarks/value/value_properties.py ../shared/data/kgs-6d --limit 300 --games 20

Prints JSON, then a short table.
"""

import json
import pathlib
import tempfile
import time

import click
import numpy as np

from mcgo import BLACK, PASS, WHITE
from mcgo.board import coords
from mcgo.board.symmetry import SYMMETRIES, map_point
from mcgo.gtp.controller import GtpEngine
from mcgo.match.settings import GNUGO
from mcgo.models import policy_net as PN
from mcgo.sgf import ReplayError, replay, write_sgf
from mcgo.train.movemodel import read_records
from mcgo.train.policy_net_train import transformed
from mcgo.train.results import COUNT, parse_result
from mcgo.train.split import game_key, split_of
from mcgo.train.value_data import held_out_positions
from mcgo.train.value_train import outcome_metrics


def evaluate(net, board, symmetry=0):
    """``(win, ownership)`` of ``board`` turned by ``symmetry``, from Black's view, the
    ownership turned back to the board's own points (``(N, N)``)."""
    size = board.size
    stones, liberties, moves = PN.compact(board.pts, board.info)
    batch = (stones[None], liberties[None], moves[None], np.zeros(1, np.int64))
    s, lib, mv, _ = transformed(batch, symmetry)
    komi = board.komi if board.to_move == WHITE else -board.komi
    win, _, owner = net.values(PN.planes(s, lib, mv), np.array([komi], np.float32))
    sign = 1.0 if board.to_move == BLACK else -1.0
    image = np.array([map_point(p, symmetry, size) for p in PN.row_major_points(size)])
    turned_back = owner[0].reshape(-1)[PN.row_major_index(size)[image]].reshape(size, size)
    black_win = float(win[0]) if sign > 0 else 1.0 - float(win[0])
    return black_win, sign * turned_back


def symmetry_measure(net, positions):
    spreads, deviations, owner_gaps, plain, mean = [], [], [], [], []
    for board, _ in positions:
        values = [evaluate(net, board, s) for s in range(SYMMETRIES)]
        wins = np.array([w for w, _ in values])
        spreads.append(wins.max() - wins.min())
        deviations.append(np.abs(wins - wins.mean()).mean())
        owner_gaps.append(np.mean([np.abs(o - values[0][1]).mean() for _, o in values[1:]]))
        plain.append(wins[0])
        mean.append(wins.mean())
    label = np.array([1 if won else -1 for _, won in positions])
    return {"positions": len(positions), "win_spread_median": float(np.median(spreads)),
            "win_spread_max": float(np.max(spreads)),
            "win_mean_deviation": float(np.mean(deviations)),
            "ownership_mean_gap": float(np.mean(owner_gaps)),
            "log_loss_plain": outcome_metrics(np.array(plain), label)["log_loss"],
            "log_loss_8_mean": outcome_metrics(np.array(mean), label)["log_loss"]}


def counted_final_positions(paths, games):
    """``(record, board)`` of the first ``games`` test-split 19x19 games that ended with two
    passes and a count."""
    out, seen = [], set()
    for record in read_records(paths):
        if record.size != 19 or record.komi is None or len(record.moves) < 2:
            continue
        key = game_key(record)
        if key in seen or split_of(key) != "test":
            continue
        seen.add(key)
        winner, _, how = parse_result(record.result)
        if how != COUNT or winner is None or record.moves[-1][1] != PASS \
                or record.moves[-2][1] != PASS:
            continue
        try:
            out.append((record, replay(record)))
        except (ReplayError, ValueError):
            continue
        if len(out) == games:
            break
    return out


def dead_stone_measure(net, finals, workdir):
    engine = GtpEngine([GNUGO, "--mode", "gtp", "--chinese-rules"])
    dead_total = dead_given = alive_total = alive_given = winner_favoured = 0
    try:
        for n, (record, board) in enumerate(finals):
            path = pathlib.Path(workdir) / f"g{n}.sgf"
            write_sgf(record, path)
            engine.send(f"loadsgf {path}")
            answer = engine.send("final_status_list dead", timeout=600)   # slow on 19x19
            dead = {coords.from_gtp(v, 19) for v in answer.split()}
            win, owner = evaluate(net, board)
            for colour, sign in ((BLACK, 1.0), (WHITE, -1.0)):
                for p in board.stones(colour):
                    mine = sign * owner[coords.row_col(p, 19)] > 0
                    if p in dead:
                        dead_total += 1
                        dead_given += not mine
                    else:
                        alive_total += 1
                        alive_given += mine
            winner_favoured += (win > 0.5) == (parse_result(record.result)[0] == BLACK)
    finally:
        engine.close()
    return {"games": len(finals), "dead_stones": dead_total,
            "dead_given_to_the_other": dead_given / max(dead_total, 1),
            "alive_stones": alive_total, "alive_given_to_their_own": alive_given / max(alive_total, 1),
            "winner_favoured": winner_favoured / max(len(finals), 1)}


@click.command()
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True, path_type=pathlib.Path))
@click.option("--net", default="default", show_default=True,
              help="A policy net with value heads, or default (the shipped 19x19 one).")
@click.option("--moves", default="60,100,140", show_default=True)
@click.option("--limit", default=300, show_default=True, help="Positions of the symmetry measure.")
@click.option("--games", "final_games", default=20, show_default=True,
              help="Counted games of the dead-stone measure.")
def main(games, net, moves, limit, final_games):
    paths = []
    for g in games:
        paths += sorted(g.glob("*.tar.gz")) + sorted(g.glob("*.sgf")) if g.is_dir() else [g]
    value_net = PN.open_value_net(net)
    start = time.time()
    positions = held_out_positions(paths, 19, tuple(int(m) for m in moves.split(",")), "test",
                                   limit)
    out = {"net": net, "symmetry": symmetry_measure(value_net, positions)}
    with tempfile.TemporaryDirectory() as workdir:
        out["dead_stones"] = dead_stone_measure(value_net, counted_final_positions(
            paths, final_games), workdir)
    out["seconds"] = round(time.time() - start, 1)
    print(json.dumps(out, indent=1))
    s, d = out["symmetry"], out["dead_stones"]
    print(f"symmetry, {s['positions']} positions: win spread median {s['win_spread_median']:.3f}, "
          f"max {s['win_spread_max']:.3f}; ownership gap {s['ownership_mean_gap']:.3f}; "
          f"log loss plain {s['log_loss_plain']:.3f}, 8-symmetry mean {s['log_loss_8_mean']:.3f}")
    print(f"dead stones, {d['games']} counted games: {d['dead_stones']} dead, "
          f"{d['dead_given_to_the_other']:.1%} given to the other colour; living "
          f"{d['alive_given_to_their_own']:.1%} to their own; winner favoured "
          f"{d['winner_favoured']:.1%}")


if __name__ == "__main__":
    main()
