#!/usr/bin/env python
# SPDX-License-Identifier: GPL-3.0-or-later
"""Dead stones before the end and at the end of counted games, judged by GNU Go 3.8.

For each counted 19x19 game (no handicap, at least --min-moves moves; the first --games in
file order) the reference is GNU Go's ``final_status_list dead`` on the final position.
Every engine (a GTP command line) is asked ``final_status_list dead``

* ``--before`` moves before the end (``loadsgf FILE N``): it is *exact* when the stones it
  names, among the stones that stay on their points to the end, are exactly the reference's
  dead stones among them (stones captured in between are left out on both sides: they are
  dead in a sense the count never sees);
* on the final position: exact when its list equals the reference's.

Each row also names the stones a judge got wrong (``*_missed``, ``*_extra``: GTP vertices).

Results go to a JSON-lines file as each game ends (a rerun skips the games already there).

    python benchmarks/judge/dead_stones.py GAMES_DIR --games 40 --out runs/dead.jsonl \\
        --engine "mcgo=python -m mcgo gtp --quiet" \\
        --engine "mcgo+corner=python -m mcgo gtp --quiet --corner-net corner"
"""

import argparse
import json
import pathlib
import sys

from mcgo.board import coords
from mcgo.gtp.controller import EngineProcess
from mcgo.match.opponents import gnugo_command
from mcgo.sgf import read_game, replay
from mcgo.sgf.reading import SGF_SUFFIXES
from mcgo.train.corner_train import counted, engine_dead_stones, survivors


def chosen_games(folder, count, min_moves):
    out = []
    for path in sorted(p for p in pathlib.Path(folder).rglob("*") if p.suffix.lower() in SGF_SUFFIXES):
        try:
            record = read_game(path)
            if record.size != 19 or not counted(record) or (record.handicap or 0) > 1:
                continue
            if record.setups or len(record.moves) < min_moves:
                continue
            replay(record)
        except Exception:          # a broken record is no test game
            continue
        out.append((path, record))
        if len(out) == count:
            break
    return out


def dead_list(engine, path, move_number=None):
    return engine_dead_stones(engine, path, 19, move_number, timeout=600)


def mistakes(prefix, said, truth):
    """The stones a judge got wrong, as GTP vertices: ``missed`` (dead by the reference,
    called alive) and ``extra`` (called dead, alive by the reference)."""
    def vertices(points):
        return sorted(coords.to_gtp(p, 19) for p in points)
    return {f"{prefix}_missed": vertices(truth - said), f"{prefix}_extra": vertices(said - truth)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games")
    ap.add_argument("--games", dest="count", type=int, default=40)
    ap.add_argument("--before", type=int, default=30)
    ap.add_argument("--min-moves", type=int, default=150)
    ap.add_argument("--engine", action="append", default=[], help="LABEL=COMMAND")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    engines = {"gnugo": EngineProcess(gnugo_command(), timeout=600)}
    for spec in args.engine:
        label, _, command = spec.partition("=")
        engines[label] = EngineProcess(command, timeout=600)
    done = {}
    out = pathlib.Path(args.out)
    if out.exists():
        for line in out.read_text().splitlines():
            row = json.loads(line)
            done[row["game"]] = row
    games = chosen_games(args.games, args.count, args.min_moves)
    for path, record in games:
        if str(path) in done:
            continue
        n = len(record.moves)
        start = n - args.before
        truth_end = dead_list(engines["gnugo"], path)
        stay = survivors(record, start)
        truth_before = truth_end & stay
        row = {"game": str(path), "moves": n, "dead_at_end": len(truth_end)}
        for label, engine in engines.items():
            said = dead_list(engine, path, start + 1) & stay
            row[f"{label}_before_exact"] = said == truth_before
            row[f"{label}_before_wrong"] = len(said ^ truth_before)
            row.update(mistakes(f"{label}_before", said, truth_before))
            if label != "gnugo":
                at_end = dead_list(engine, path)
                row[f"{label}_end_exact"] = at_end == truth_end
                row[f"{label}_end_wrong"] = len(at_end ^ truth_end)
                row.update(mistakes(f"{label}_end", at_end, truth_end))
        with out.open("a") as f:
            f.write(json.dumps(row) + "\n")
        done[str(path)] = row
        print(json.dumps(row), file=sys.stderr)
    for engine in engines.values():
        engine.close()
    rows = [done[str(p)] for p, _ in games if str(p) in done]
    summary = {"games": len(rows), "before": args.before}
    for label in engines:
        summary[f"{label}_before_exact"] = sum(r[f"{label}_before_exact"] for r in rows)
        if label != "gnugo":
            summary[f"{label}_end_exact"] = sum(r[f"{label}_end_exact"] for r in rows)
    print(json.dumps(summary))
    for label in engines:
        end = summary.get(f"{label}_end_exact", "-")
        print(f"{label:14s} {args.before} moves before the end: {summary[f'{label}_before_exact']:>3}/{len(rows)}"
              f"   at the end: {end}/{len(rows)}")


if __name__ == "__main__":
    main()
