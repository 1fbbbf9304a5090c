#!/usr/bin/env python
# SPDX-License-Identifier: GPL-3.0-or-later
"""The dead-stone judge on saved ownership maps: tune its constants without new searches.

``benchmarks/judge/dead_stones.py`` asks an engine over GTP, so every change of the judge
(:func:`mcgo.judge.status.judge`) costs a tree search per position again (two a game,
about 40 s each on one core at 10,000 simulations). The judge's own step is milliseconds. This
script splits the two:

``collect`` saves, for the counted games that ``dead_stones.py`` chooses (the same rule:
19x19, no handicap, at least 150 moves, the first N in file order; ``--split`` keeps only the
games of one part of :mod:`mcgo.train.split`), GNU Go's dead stones of the final position, the
stones that stay on the board from ``--before`` moves before the end, and the search's
ownership map of both positions (``status.search_ownership``, seed 0, as ``mcgo gtp
--status-search N`` computes it). One pickle a game in OUT_DIR; a rerun skips the games
there. A game GNU Go does not judge (an error, or no answer within 600 s) is skipped with its
reason, and the others go on.

``judge`` counts the games whose dead list is exact before and at the end (``dead_stones.py``'s
definition), with the judge's constants as they are or as ``--set NAME=VALUE`` says, and
``--grid NAME=V1,V2,...`` tries every combination. Tune on games you will not report
(``--split train`` of a collection), then report on the held-out ones. ``--corner-net`` and
``--ownership-net`` add the engine's second judges as ``mcgo gtp`` does with the same options
(seed 004's corner net on the chains the ownership leaves unsure; seed 003's network settling
the unsettled chains by its sign).

    python benchmarks/judge/judge_maps.py collect data/goban-original-games --games 40 --split train --out runs/maps-goban
    python benchmarks/judge/judge_maps.py judge runs/maps-goban --grid UNSETTLED_SPLIT=0,0.1,0.2
    python benchmarks/judge/judge_maps.py judge runs/maps-goban --corner-net corner
"""

import argparse
import itertools
import json
import pathlib
import pickle
import sys

from mcgo.board.kernels import PASSES
from mcgo.train.corner_train import survivors
from mcgo.judge import status
from mcgo.sgf import read_game, replay

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from dead_stones import chosen_games, dead_list                 # noqa: E402

CONSTANTS = ("DEAD_BELOW", "ALIVE_ABOVE", "UNSETTLED_SPLIT", "RESCUE_FLOOR", "SAFE_OWNERSHIP")


def fail(message):
    """A usage error: one line, exit status 2 (before any long work starts)."""
    print(f"judge_maps: {message}", file=sys.stderr)
    sys.exit(2)


def collect(args):
    from mcgo.gtp.controller import EngineProcess, GtpClientError
    from mcgo.train.split import game_key, split_of
    from mcgo.match.opponents import gnugo_command
    if not pathlib.Path(args.games_dir).is_dir():
        fail(f"no such folder: {args.games_dir}")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    games = chosen_games(args.games_dir, None if args.split else args.games, args.min_moves)
    if args.split:
        games = [(p, r) for p, r in games if split_of(game_key(r)) == args.split][:args.games]
    gnugo = EngineProcess(gnugo_command(), timeout=600)
    for path, record in games:
        target = out / (path.stem + ".pkl")
        if target.exists():
            continue
        start = len(record.moves) - args.before
        try:
            truth = dead_list(gnugo, path)
        except GtpClientError as e:       # one game GNU Go cannot judge loses no other
            print(f"skipped {path.stem}: GNU Go: {e}", file=sys.stderr, flush=True)
            continue                # (a hung GNU Go was killed; the next game starts another)
        row = {"path": str(path), "start": start, "truth_end": truth,
               "stay": survivors(record, start), "simulations": args.simulations}
        for key, moves in (("before", start), ("end", None)):
            board = replay(record, max_moves=moves)
            board.info[PASSES] = 0
            row[key] = status.search_ownership(board, args.simulations, seed=0)
        target.write_bytes(pickle.dumps(row))
        print(path.stem, file=sys.stderr, flush=True)
    gnugo.close()


def parse_assignments(items, many):
    out = {}
    for item in items:
        name, _, value = item.partition("=")
        if name not in CONSTANTS:
            fail(f"unknown constant {name!r}; known: {', '.join(CONSTANTS)}")
        try:
            out[name] = [float(v) for v in value.split(",")] if many else float(value)
        except ValueError:
            fail(f"{item!r} is not NAME=NUMBER" + ("[,NUMBER...]" if many else ""))
    return out


def second_judges(args):
    """(ownership model, corner net) of ``--ownership-net`` and ``--corner-net`` (None for
    ``none``); a bad choice is a usage error."""
    model = corner = None
    if args.ownership_net != "none":
        from mcgo.models.ownership.model import open_ownership
        from mcgo.models.ownership.network import NetworkError
        try:
            model = open_ownership(args.ownership_net)
        except NetworkError as e:
            fail(f"--ownership-net: {e}")
    if args.corner_net != "none":
        from mcgo.models.corner import open_corner_net
        try:
            corner = open_corner_net(args.corner_net)
        except ValueError as e:
            fail(f"--corner-net: {e}")
    return model, corner


def verdict(board, owner, model, corner):
    """The dead stones the engine would list from ``owner`` with these second judges."""
    return set(status.judge_with(board, owner, model, corner).dead)


def judge(args):
    for name, value in parse_assignments(args.set, many=False).items():
        setattr(status, name, value)
    grid = parse_assignments(args.grid, many=True)
    model, corner = second_judges(args)
    games = []
    for f in sorted(pathlib.Path(args.maps).glob("*.pkl")):
        row = pickle.loads(f.read_bytes())
        record = read_game(row["path"])
        games.append((f.stem, row, replay(record, max_moves=row["start"]), replay(record)))
    if not games:
        fail(f"no saved maps in {args.maps}")
    results = []
    for values in itertools.product(*grid.values()):
        setting = dict(zip(grid, values))
        for name, value in setting.items():
            setattr(status, name, value)
        before = end = 0
        wrong = []
        for name, row, start, final in games:
            stay, truth = row["stay"], row["truth_end"]
            ok_before = verdict(start, row["before"], model, corner) & stay == truth & stay
            ok_end = verdict(final, row["end"], model, corner) == truth
            before += ok_before
            end += ok_end
            if not (ok_before and ok_end):
                wrong.append(name)
        result = {"setting": {n: getattr(status, n) for n in CONSTANTS},
                  "corner_net": args.corner_net, "ownership_net": args.ownership_net,
                  "games": len(games),
                  "before_exact": before, "end_exact": end, "wrong": wrong}
        results.append(result)
        print(json.dumps(result), flush=True)
    print(f"{'setting':60s} before  end   (of {len(games)})", file=sys.stderr)
    for r in results:
        shown = " ".join(f"{n}={r['setting'][n]:g}" for n in grid) or "as shipped"
        print(f"{shown:60s} {r['before_exact']:>6} {r['end_exact']:>4}", file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="save ownership maps and GNU Go's verdicts")
    c.add_argument("games_dir")
    c.add_argument("--games", type=int, default=40)
    c.add_argument("--split", choices=("train", "validation", "test"))
    c.add_argument("--before", type=int, default=30)
    c.add_argument("--min-moves", type=int, default=150)
    c.add_argument("--simulations", type=int, default=10000)
    c.add_argument("--out", required=True)
    j = sub.add_parser("judge", help="count exact dead lists on saved maps")
    j.add_argument("maps")
    j.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    j.add_argument("--grid", action="append", default=[], metavar="NAME=V1,V2")
    j.add_argument("--corner-net", default="none", metavar="FILE|corner|none")
    j.add_argument("--ownership-net", default="none", metavar="FILE|dagrnn|none")
    args = ap.parse_args()
    (collect if args.command == "collect" else judge)(args)


if __name__ == "__main__":
    main()
