#!/usr/bin/env python
# SPDX-License-Identifier: GPL-3.0-or-later
"""Foulds's 9x9 game statistics for a one-move player's match (his section 5: stones
surviving, eyes made, score), judged by GNU Go 3.8 on each game's final position.

    python benchmarks/cfg/cfg_player_stats.py RUN_FOLDER --player cfg --json

* **stones surviving**: the player's stones GNU Go's ``final_status_list alive`` (and
  ``seki``) lists at the end;
* **eyes made**: empty points that are true eyes of the player (all four neighbours its
  stones or the edge, enough diagonals) among its surviving stones;
* **score**: GNU Go's ``final_score`` from the player's side.

Printed as his Tables 3, 5, 6 and 7 have them: medians over the games, the eyes summed, and
the games with two eyes or more.
"""

import argparse
import json
import statistics

from mcgo.board import BLACK, EMPTY, WHITE, coords
from mcgo.gtp.controller import EngineProcess
from mcgo.match.opponents import gnugo_command
from mcgo.match.archive import extracted_games
from mcgo.sgf import read_game, replay
from mcgo.tactics.eyes import is_true_eye


def game_stats(engine, path, player_label):
    record = read_game(path)
    color = BLACK if player_label in record.black else WHITE if player_label in record.white else None
    if color is None:
        return None
    board = replay(record)
    engine.send(f"loadsgf {path}")
    surviving = set()
    for status in ("alive", "seki"):
        for v in engine.send(f"final_status_list {status}").split():
            p = coords.from_gtp(v, board.size)
            if board.color_at(p) == color:
                surviving.add(p)
    dead = [coords.from_gtp(v, board.size) for v in engine.send("final_status_list dead").split()]
    cleaned = board.copy()
    if dead:
        cleaned.setup(empty=dead)
    w = board.size + 2
    eyes = sum(1 for p in coords.all_points(board.size)
               if cleaned.color_at(p) == EMPTY and is_true_eye(cleaned.pts, w, p, color))
    score = engine.send("final_score")
    sign = 1 if (score[0].upper() == "B") == (color == BLACK) else -1
    margin = 0.0 if score == "0" else sign * float(score[2:])
    return {"game": path.name, "color": "black" if color == BLACK else "white",
            "stones_surviving": len(surviving), "eyes_made": eyes, "score": margin,
            "won": margin > 0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", help="a mcgo match --out folder")
    ap.add_argument("--player", default="cfg", help="text in the player's PB/PW name")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    engine = EngineProcess(gnugo_command(), timeout=120)
    rows = []
    try:
        with extracted_games(args.run) as games:
            for _, path in games:
                row = game_stats(engine, path, args.player)
                if row:
                    rows.append(row)
    finally:
        engine.close()
    # Foulds's tables: medians over the games (3, 5), eyes summed (6), games with two eyes (7)
    summary = {"games": len(rows), "wins": sum(r["won"] for r in rows),
               "median_stones_surviving": statistics.median(r["stones_surviving"] for r in rows),
               "median_score": statistics.median(r["score"] for r in rows),
               "total_eyes": sum(r["eyes_made"] for r in rows),
               "games_with_two_eyes": sum(r["eyes_made"] >= 2 for r in rows)}
    print(json.dumps(summary) if args.json else
          f"{summary['games']} games, {summary['wins']} won; median stones surviving "
          f"{summary['median_stones_surviving']}, eyes made {summary['total_eyes']} in all, "
          f"{summary['games_with_two_eyes']} games with two eyes or more, median score "
          f"{summary['median_score']:+.1f}")


if __name__ == "__main__":
    main()
