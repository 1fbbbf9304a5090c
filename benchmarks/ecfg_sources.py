#!/usr/bin/env python
# SPDX-License-Identifier: GPL-3.0-or-later
"""Does seed 002's evaluator read positions, or the games' source? (issue 17)

Trains ECFG evaluators (d = 2, count weighting, one linear SVM per stone count, as
``mcgo learn ecfg``) on the 9x9 games of TRAIN with two labels for the same positions:

* ``outcome``: the game's winner, the seed's label;
* ``search``: the verdict of mcgo's search of the position (``--simulations``; the side to
  move wins when its best move's win rate is above one half).

Each is then measured against the games' winners, as ``mcgo learn evaluate-outcome``: on
one game in five of TRAIN held out (same source) and on every ``--test NAME=DIR`` (other
sources). An evaluator that reads the position does about as well on another source as
on its own; one that learned who plays which colour does not.

    python benchmarks/ecfg_sources.py benchmarks/matches/*-vs-pachi-9x9*/games \\
        --test pachi-selfplay=RUN/games --test mcgo-equal=RUN2/games --cache labels.npz --json

The searches take most of the time (about 0.05 s a position at 1,000 simulations);
``--cache`` keeps the features and labels for a second run.
"""

import argparse
import json
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from mcgo.models.ecfg import Ecfg, point_weights  # noqa: E402
from mcgo.models.ecfg_evaluator import OutcomeModel, stone_count  # noqa: E402
from mcgo.train.ecfg_train import fit_counts, outcome_accuracy, outcome_positions  # noqa: E402
from mcgo.train.movemodel import read_records
from mcgo.search.search import Search  # noqa: E402

DEPTH, WEIGHTING = 2, "count"
HELD_OUT = 5            # game g is held out when g % HELD_OUT == 0


def labelled_positions(records, stones, simulations, seed):
    """Features, stone count, outcome label, search win rate and game index of every
    position with ``stones[0] - 1 .. stones[1] + 1`` stones (the SVMs' windows)."""
    search = Search(seed=seed)
    rows = {k: [] for k in ("X", "S", "Y", "WIN", "G")}
    for g, board, color, won in outcome_positions(records, (stones[0] - 1, stones[1] + 1)):
        weights = point_weights(None, board, WEIGHTING, color)
        rows["X"].append(Ecfg(board, color, weights).features(DEPTH, WEIGHTING))
        rows["S"].append(stone_count(board))
        rows["Y"].append(int(won))
        rows["WIN"].append(search.run(board, playouts=simulations).winrate)
        rows["G"].append(g)
    return {k: np.array(v) for k, v in rows.items()}


def train(data, labels, mask, stones):
    """An :class:`OutcomeModel` fitted on the masked positions with these labels."""
    by_count = {s: (data["X"][mask & (data["S"] == s)], labels[mask & (data["S"] == s)])
                for s in range(stones[0] - 1, stones[1] + 2)}
    models, _ = fit_counts(by_count, {}, stones)
    return OutcomeModel.from_fits(DEPTH, WEIGHTING, stones, models)


def held_out_accuracy(model, data, mask, stones):
    """Share of the masked positions (stone counts in ``stones``) given to the game's winner."""
    right = n = 0
    for s in range(stones[0], stones[1] + 1):
        m = mask & (data["S"] == s)
        i = s - stones[0]
        decision = (data["X"][m] * model.scale[i]) @ model.coef[i] + model.intercept[i]
        right += int(np.sum((decision > 0) == (data["Y"][m] == 1)))
        n += int(m.sum())
    return n, right / n if n else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("train", nargs="+", help="9x9 game records (files, folders) to train on")
    ap.add_argument("--test", action="append", default=[], metavar="NAME=DIR",
                    help="games of another source to measure on (repeatable)")
    ap.add_argument("--simulations", type=int, default=1000)
    ap.add_argument("--stones", default="20-50")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache", help="npz file for the features and labels (read if present)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    stones = tuple(int(v) for v in args.stones.split("-"))
    tests = {}
    for spec in args.test:
        name, sep, path = spec.partition("=")
        if not sep or not pathlib.Path(path).exists():
            sys.exit(f"error: --test {spec!r}: give NAME=DIR with an existing DIR")
        resolved = pathlib.Path(path).resolve()
        for given in args.train:
            other = pathlib.Path(given).resolve()
            if resolved == other or other in resolved.parents or resolved in other.parents:
                sys.exit(f"error: --test {spec!r} overlaps the training games {given!r}")
        tests[name] = [r for r in read_records([path]) if r.size == 9]
    cache = pathlib.Path(args.cache) if args.cache else None
    if cache is not None and cache.exists():
        with np.load(cache) as f:
            data = {k: f[k] for k in f.files}
    else:
        records = [r for r in read_records(args.train) if r.size == 9]
        data = labelled_positions(records, stones, args.simulations, args.seed)
        if cache is not None:
            np.savez(cache, **data)
    held = data["G"] % HELD_OUT == 0
    window = (data["S"] >= stones[0]) & (data["S"] <= stones[1])
    out = {"positions": int(window.sum()), "simulations": args.simulations,
           "search_held_out": float(np.mean((data["WIN"][held & window] > 0.5)
                                            == (data["Y"][held & window] == 1))),
           "labels": {}}
    for name, labels in (("outcome", data["Y"]), ("search", (data["WIN"] > 0.5).astype(int))):
        model = train(data, labels, ~held, stones)
        row = {"same source (held-out games)": held_out_accuracy(model, data, held, stones)}
        for test, records in tests.items():
            n, right = outcome_accuracy(model, records, stones)
            row[test] = (n, right / n if n else float("nan"))
        out["labels"][name] = row
    if args.json:
        print(json.dumps(out, indent=1))
    print(f"{out['positions']} positions of the training games; the search ({args.simulations}) names the "
          f"winner of {out['search_held_out']:.3f} of the held-out ones", file=sys.stderr)
    for name, row in out["labels"].items():
        print(f"{name:8} " + "  ".join(f"{k} {acc:.3f} ({n})" for k, (n, acc) in row.items()),
              file=sys.stderr)


if __name__ == "__main__":
    main()
