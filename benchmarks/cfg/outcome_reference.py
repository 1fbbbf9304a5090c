#!/usr/bin/env python
# SPDX-License-Identifier: GPL-3.0-or-later
"""How predictable are a set of games' winners? Reference predictors beside an ECFG evaluator.

On every position with LOW-HIGH stones of the 9x9 games with a winner (the positions
``mcgo learn evaluate-outcome`` uses), the share whose game's winner each predictor names:

* ``evaluator``: seed 002's ECFG evaluator (``ecfg``, the shipped one, or a model file), as
  ``mcgo learn evaluate-outcome``;
* ``search``: mcgo's tree search of the position with ``--simulations`` (the side to move
  wins when its best move's win rate is above one half; the record's komi);
* ``white``: always the colour that won more often (the base rate).

When a search that reads the position also stays near the base rate, the games' results are
not decided at these stone counts, and no static evaluator can be expected to do better.

    python benchmarks/cfg/outcome_reference.py ../shared/data/fuego-regression --simulations 3000
"""

import argparse
import collections
import json
import sys

from mcgo.board import opponent
from mcgo.models.ecfg_evaluator import open_evaluator
from mcgo.train.ecfg_train import outcome_positions
from mcgo.train.movemodel import read_records
from mcgo.search.search import Search


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+")
    ap.add_argument("--evaluator", default="ecfg")
    ap.add_argument("--simulations", type=int, default=3000)
    ap.add_argument("--stones", default="20-50")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    low, high = (int(v) for v in args.stones.split("-"))
    model = open_evaluator(args.evaluator)
    search = Search(seed=args.seed)
    records = [r for r in read_records(args.games) if r.size == 9]
    right = collections.Counter()
    winners = collections.Counter()
    positions = 0
    komis = collections.Counter()
    games_used = set()
    for index, board, color, wins in outcome_positions(records, (low, high)):
        if index not in games_used:
            games_used.add(index)
            komis[board.komi] += 1
        positions += 1
        winners[color if wins else opponent(color)] += 1
        right["search"] += (search.run(board, playouts=args.simulations).winrate > 0.5) == wins
        right["evaluator"] += (model.decision(board, color) > 0) == wins
    if not positions:
        sys.exit("no positions with a winner and those stone counts")
    base = max(winners.values()) / positions
    out = {"games": len(records), "positions": positions, "evaluator": right["evaluator"] / positions,
           "search": right["search"] / positions, "base_rate": base, "simulations": args.simulations,
           "komi": {str(k): v for k, v in sorted(komis.items())}}
    print(json.dumps(out))
    print(f"{positions} positions: evaluator {out['evaluator']:.3f}, search ({args.simulations}) "
          f"{out['search']:.3f}, base rate {base:.3f}", file=sys.stderr)


if __name__ == "__main__":
    main()
