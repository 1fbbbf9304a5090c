#!/usr/bin/env python
# SPDX-License-Identifier: GPL-3.0-or-later
"""Were mcgo's resignations in a match right? Every game that an engine lost by resigning is
replayed to the resignation and played on by a judge engine against itself (Pachi at a
fixed number of playouts by default), the judge taking the resigner's side; the match
runner's referee (GNU Go) scores the games that end by two passes. If the resigner's side wins often, it resigned too early.

    python benchmarks/resign_check.py runs/matches/main-vs-pachi-9x9 --resigner mcgo --out runs/resign.jsonl

One JSON line per game as it ends (a rerun skips the games already there), then a summary.
"""

import argparse
import csv
import json
import pathlib
import shlex

from mcgo.gtp.controller import EngineProcess
from mcgo.match.opponents import pachi_binary
from mcgo.match.settings import DEFAULT_REFEREE
from mcgo.match.archive import game_sgf
from mcgo.sgf import read_game
from mcgo.board import BLACK, coords

MOVE_LIMIT = 200


def play_on(judge, referee, record, moves):
    """Play the record's first ``moves`` moves on both engines, then let ``judge`` play both
    sides to the end; the result string (``B+R``, ``W+3.5``...)."""
    size = record.size
    for engine in (judge, referee):
        engine.send(f"boardsize {size}")
        engine.send("clear_board")
        engine.send(f"komi {record.komi}")
        for color, point in record.moves[:moves]:
            engine.send(f"play {'b' if color == BLACK else 'w'} {coords.to_gtp(point, size)}")
    to_move = "w" if record.moves[moves - 1][0] == BLACK else "b"
    passes = 0
    for _ in range(MOVE_LIMIT):
        vertex = judge.send(f"genmove {to_move}")
        if vertex.lower() == "resign":
            return ("W" if to_move == "b" else "B") + "+R"
        referee.send(f"play {to_move} {vertex}")
        passes = passes + 1 if vertex.lower() == "pass" else 0
        if passes == 2:
            break
        to_move = "w" if to_move == "b" else "b"
    return referee.send("final_score")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("match", help="the --out folder of a mcgo match")
    ap.add_argument("--resigner", required=True, help="label of the engine whose resignations are checked")
    ap.add_argument("--judge", default=None, help="GTP command of the judge [Pachi, --playouts fixed]")
    ap.add_argument("--playouts", type=int, default=4000, help="Pachi's playouts a move")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    match = pathlib.Path(args.match)
    out = pathlib.Path(args.out)
    done = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    seen = {row["game"] for row in done}
    if args.judge:
        judge_command, cwd = args.judge, None
    else:
        binary = pachi_binary()
        judge_command = f"{shlex.quote(str(binary))} -t ={args.playouts} threads=1,pondering=0"
        cwd = str(binary.parent)
    for row in csv.DictReader((match / "results.csv").open()):
        if row["end"] != "resignation" or row["game"] in seen:
            continue
        resigner_color = "white" if row["winner_color"] == "black" else "black"
        if row[resigner_color] != args.resigner:
            continue
        record = read_game(game_sgf(match, row["sgf"]))
        judge = EngineProcess(judge_command, timeout=300, cwd=cwd)
        referee = EngineProcess(DEFAULT_REFEREE, timeout=300)
        try:
            result = play_on(judge, referee, record, len(record.moves))
        finally:
            judge.close()
            referee.close()
        line = {"game": row["game"], "resigner": resigner_color, "moves": len(record.moves),
                "result": result, "resigner_wins": result[0] == resigner_color[0].upper()}
        with out.open("a") as f:
            f.write(json.dumps(line) + "\n")
        done.append(line)
        print(json.dumps(line), flush=True)
    wins = sum(row["resigner_wins"] for row in done)
    print(json.dumps({"resignations": len(done), "resigner_side_wins": wins}))


if __name__ == "__main__":
    main()
