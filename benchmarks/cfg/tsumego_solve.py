#!/usr/bin/env python
"""First-move success on life-and-death problems of the test collections, the answer
restricted to the problem's region: seed 000's scorer, ``mcgo solve`` by search, GNU Go 3.8's
``restricted_genmove``, and the baselines (first legal move, random).

    python benchmarks/cfg/tsumego_solve.py PROBLEMS.jsonl.gz --every 8 --out runs/tsumego.jsonl

Each problem's results are appended to ``--out`` as one JSON line as soon as they are known,
and problems already there are skipped, so the run resumes. Prints the shares with 95%
Wilson intervals at the end (``--summary`` prints them without running anything).
"""

import argparse
import json
import pathlib
import sys
import time

from mcgo.board import coords
from mcgo.gtp.controller import GtpEngine
from mcgo.match import settings as match_settings
from mcgo.models.cfg_scorer import open_scorer
from mcgo.train.split import TEST
from mcgo.train.tsumego import REGION_MARGIN, ProblemError, load_problems
from mcgo.apps.solve import solve
from mcgo.stats import wilson_interval

GNUGO = [match_settings.GNUGO, "--mode", "gtp", "--level", "10", "--chinese-rules"]
METHODS = ("cfg", "search", "gnugo", "first", "random")
GNUGO_LINE = 990          # GNU Go's GTP lines hold at most 1,000 bytes: a larger region shrinks


def restricted(player, points, size):
    return f"restricted_genmove {player} " + " ".join(coords.to_gtp(p, size) for p in points)


def gnugo_answer(gnugo, problem, board, candidates):
    size = problem.size
    gnugo.send(f"boardsize {size}")
    gnugo.send("clear_board")
    stones = [("black", p) for p in problem.black] + [("white", p) for p in problem.white]
    for colour, p in stones:
        gnugo.send(f"play {colour} {coords.to_gtp(p, size)}")
    player = "black" if problem.player == 1 else "white"
    margin = REGION_MARGIN
    command = restricted(player, candidates, size)
    while len(command) > GNUGO_LINE and margin > 0:    # GNU Go reads lines of 1,000 bytes
        margin -= 1
        command = restricted(player, problem.candidates(board, margin), size)
    if len(command) > GNUGO_LINE:
        command = f"genmove {player}"       # a problem as large as the board
    answer = gnugo.send(command, timeout=600)
    return None if answer.lower() in ("pass", "resign") else coords.from_gtp(answer, size)


def summary(path):
    rows = [json.loads(line) for line in pathlib.Path(path).read_text().splitlines() if line.strip()]
    out = {"problems": len(rows)}
    for method in METHODS:
        values = [r[method] for r in rows if r.get(method) is not None]
        if not values:
            continue
        solved = sum(values)
        low, high = wilson_interval(solved, len(values))
        out[method] = {"solved": solved / len(values), "low": low, "high": high, "n": len(values)}
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("problems")
    parser.add_argument("--every", type=int, default=8, help="every Nth test problem")
    parser.add_argument("--playouts", type=int, default=10000)
    parser.add_argument("--out", required=True)
    parser.add_argument("--summary", action="store_true")
    parser.add_argument("--no-gnugo", action="store_true")
    args = parser.parse_args(argv)
    out = pathlib.Path(args.out)
    if not args.summary:
        done = set()
        if out.exists():
            done = {json.loads(line)["id"] for line in out.read_text().splitlines() if line.strip()}
        problems, _ = load_problems(args.problems)
        test = [p for p in problems if p.split == TEST and not p.doubtful][::args.every]
        scorer = open_scorer("cfg")
        gnugo = None if args.no_gnugo else GtpEngine(GNUGO)
        for problem in test:
            ident = f"{problem.collection}/{problem.name}"
            if ident in done:
                continue
            try:
                board = problem.board()
            except ProblemError:
                continue
            candidates = problem.candidates(board)
            correct = set(problem.solutions)
            if not correct & set(candidates):
                continue
            started = time.perf_counter()
            row = {"id": ident, "candidates": len(candidates),
                   "first": candidates[0] in correct,
                   "random": len(correct & set(candidates)) / len(candidates)}
            row["cfg"] = solve(board, candidates, "cfg", scorer=scorer).move in correct
            searched = solve(board, sorted(problem.region()), "search", playouts=args.playouts)
            row["search"] = searched.move in correct
            row["search_move"] = coords.to_gtp(searched.move, problem.size)
            if gnugo is not None:
                row["gnugo"] = gnugo_answer(gnugo, problem, board, candidates) in correct
            row["seconds"] = round(time.perf_counter() - started, 2)
            with out.open("a") as f:
                f.write(json.dumps(row) + "\n")
        if gnugo is not None:
            gnugo.close()
    result = summary(out)
    print(json.dumps(result, indent=2))
    for method in METHODS:
        if method in result:
            r = result[method]
            print(f"{method:8} {r['solved']:.3f} [{r['low']:.3f}, {r['high']:.3f}] of {r['n']}",
                  file=sys.stderr)


if __name__ == "__main__":
    main()
