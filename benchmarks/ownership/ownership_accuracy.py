"""Final-owner accuracy of the ownership network against playout ownership (issue 13).

On the test games of a dataset (``mcgo learn extract``), at the chosen move numbers: the share
of the points a side owns at the end (dame and seki left out) whose owner the estimate
predicts (P(black) > 0.5 for the net, mean owner > 0 for the playouts; a tie counts half),
and the CPU time per position of each estimate.

    python benchmarks/ownership/ownership_accuracy.py DATASET --net NET.npz [--moves 20,40,60,80,100]
        [--playouts 100,1000] [--max-games N] [--json]

Prints JSON (with --json) or a table.
"""

import argparse
import json
import pathlib
import sys
import time

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from mcgo.train.dataset import Dataset, replay_game  # noqa: E402
from mcgo.models.ownership.model import OwnershipModel, open_ownership  # noqa: E402
from mcgo.playout import ownership  # noqa: E402


def accuracy(estimate_black, final):
    """Share of owned points whose owner ``estimate_black`` (> 0: black) gets right."""
    owned = final != 0
    right = np.where(estimate_black == 0, 0.5, (np.sign(estimate_black) == final).astype(float))
    return float(right[owned].sum()), int(owned.sum())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dataset")
    parser.add_argument("--net", default="dagrnn", help="network file or 'dagrnn'")
    parser.add_argument("--moves", default="20,40,60,80,100,150")
    parser.add_argument("--playouts", default="100,1000")
    parser.add_argument("--split", default="test")
    parser.add_argument("--max-games", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    ds = Dataset.open(args.dataset)
    model = open_ownership(args.net) if args.net == "dagrnn" else OwnershipModel.load(args.net)
    moves = [int(m) for m in args.moves.split(",")]
    playouts = [int(p) for p in args.playouts.split(",")]
    names = ["net"] + [f"playouts-{p}" for p in playouts]
    tally = {m: {n: [0.0, 0, 0.0, 0] for n in names} for m in moves}   # right, points, cpu, positions
    warm = None
    games = 0
    for g in ds.game_indices(args.split):
        if args.max_games is not None and games >= args.max_games:
            break
        game = ds.game(g)
        games += 1
        final = game.ownership
        for board, color, _, number in replay_game(game):
            if color is None or number - 1 not in moves:
                continue
            m = number - 1                       # moves played so far
            if warm is None:
                model.ownership(board)
                ownership(board, playouts=10)
                warm = True
            t0 = time.process_time()
            net = model.ownership(board) - 0.5
            t1 = time.process_time()
            row = tally[m]["net"]
            right, n = accuracy(net, final)
            row[0] += right
            row[1] += n
            row[2] += t1 - t0
            row[3] += 1
            for p in playouts:
                t0 = time.process_time()
                mean = ownership(board, playouts=p, seed=number)
                t1 = time.process_time()
                row = tally[m][f"playouts-{p}"]
                right, n = accuracy(mean, final)
                row[0] += right
                row[1] += n
                row[2] += t1 - t0
                row[3] += 1
    out = {"dataset": args.dataset, "net": args.net, "split": args.split, "games": games,
           "by_move": {str(m): {n: {"accuracy": r[0] / max(r[1], 1), "positions": r[3],
                                     "ms_per_position": 1000 * r[2] / max(r[3], 1)}
                                for n, r in tally[m].items()} for m in moves}}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{games} {args.split} games of {args.dataset}; net {args.net}")
        print(f"{'move':>5} " + " ".join(f"{n:>22}" for n in names))
        for m in moves:
            cells = [f"{r['accuracy']:.3f} ({r['ms_per_position']:.2f} ms)"
                     for r in out["by_move"][str(m)].values()]
            print(f"{m:>5} " + " ".join(f"{c:>22}" for c in cells))
        print(json.dumps(out))


if __name__ == "__main__":
    main()
