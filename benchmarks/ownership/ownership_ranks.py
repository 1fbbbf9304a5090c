"""Where the ownership network's 1-ply ranker puts the professional's move (issue 13, Table 2).

Seed 003 reports two figures for its 9x9-trained net on 19x19 professional moves 80-83: a
geometric-mean probability of 1/15 (Table 2) and, in Figure 2b, that with 80 stones on the
board half the moves are among the net's top 30. This script measures the second figure for
our net and asks how far any calibration of its ranking could carry the first: for each
test position it records the rank of the played move (ties at their midpoint) and then
gives the geometric-mean probability of the best distribution that depends on the rank
alone, fitted on these same ranks (so an upper bound for the ranking, not a result):

* ``oracle_bins``: one probability per rank bin (1, 2, 3-5, 6-10, 11-20, 21-30, ...);
* ``oracle_every_rank``: one probability for every rank, each the frequency seen here.

    python benchmarks/ownership/ownership_ranks.py GAMES_DIR [--net dagrnn] [--moves 80-83] [--json]

GAMES_DIR holds the SGF records (the goban collection); only their test split is used.
"""

import argparse
import json
import math
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from mcgo.train.evaluate import played_rank, scored_positions  # noqa: E402
from mcgo.train.movemodel import read_records, split_records  # noqa: E402
from mcgo.train.split import TEST  # noqa: E402
from mcgo.models.ownership.model import open_ownership  # noqa: E402

TOPS = (1, 5, 10, 20, 30, 50, 100)
BIN_EDGES = (1, 2, 3, 6, 11, 21, 31, 51, 101, 201, 362)


def played_ranks(model, records, size, first, last):
    """(rank of the played move, legal points) for each test position in the move range."""
    ranks, legal_counts = [], []
    for record, part in split_records(records, size):
        if part != TEST:
            continue
        for _number, scores, played, legal, _cpu in scored_positions(model, record, (first, last)):
            above, ties = played_rank(scores, played)
            ranks.append(above + 1 + ties / 2)
            legal_counts.append(legal)
    return np.array(ranks), np.array(legal_counts)


def oracle_geometric_mean(ranks, edges):
    """Geometric-mean probability of the best rank-binned distribution for these ranks:
    each bin gets the share of ranks that fell in it, spread evenly over its ranks."""
    log_p = 0.0
    for lo, hi in zip(edges[:-1], edges[1:]):
        inside = (ranks >= lo) & (ranks < hi)
        if inside.any():
            log_p += inside.sum() * math.log(inside.mean() / (hi - lo))
    return math.exp(log_p / len(ranks))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("games")
    parser.add_argument("--net", default="dagrnn", help="network file or 'dagrnn'")
    parser.add_argument("--moves", default="80-83")
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    first, last = (int(m) for m in args.moves.split("-"))
    model = open_ownership(args.net)
    ranks, legal = played_ranks(model, read_records([args.games]), args.size, first, last)
    if len(ranks) == 0:
        sys.exit(f"error: no test positions at moves {args.moves} in {args.games}")
    every_rank = tuple(range(1, int(legal.max()) + 2))
    out = {"net": args.net, "moves": args.moves, "positions": len(ranks),
           "median_rank": float(np.median(ranks)), "median_legal": float(np.median(legal)),
           **{f"top{t}": float(np.mean(ranks <= t)) for t in TOPS},
           "oracle_bins": oracle_geometric_mean(ranks, BIN_EDGES),
           "oracle_every_rank": oracle_geometric_mean(ranks, every_rank)}
    if args.json:
        print(json.dumps(out, indent=1))
        return
    print(f"{out['positions']} positions, moves {args.moves}; median rank {out['median_rank']:g} "
          f"of {out['median_legal']:g} legal points")
    print("  ".join(f"top{t} {out[f'top{t}']:.3f}" for t in TOPS))
    print(f"best rank-only calibration (fitted on these ranks): binned 1/{1 / out['oracle_bins']:.1f}, "
          f"every rank 1/{1 / out['oracle_every_rank']:.1f}")


if __name__ == "__main__":
    main()
