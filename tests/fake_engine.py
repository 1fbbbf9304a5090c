#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""A deliberately broken GTP engine, for testing that the match runner survives faults.

    python tests/fake_engine.py --fault crash --fault-at 2

It plays random legal moves (on a small board of its own) and passes after ``--moves`` moves
of its own or when its opponent passed; at its ``--fault-at``-th genmove it misbehaves:

* ``crash``: exits at once without answering;
* ``hang``: never answers;
* ``illegal``: answers a point that already holds a stone;
* ``garbage``: answers ``= banana`` (a GTP success that is not a move);
* ``noise``: writes a line that is not a GTP response at all;
* ``kill-parent``: kills the process that started it (SIGKILL), as when the match's worker
  dies mid-game (a Ray worker, or the ``mcgo match`` process itself), then exits;
* ``none``: never misbehaves.

With ``--fault-once FILE`` it misbehaves only if FILE does not exist yet (and creates it),
so a restarted process plays normally: the test can see the restart. With ``--fault-color b``
(or ``w``) it counts only the genmoves of that colour towards ``--fault-at``, so in a match
with alternating colours only the games where it plays that colour meet the fault.
"""

import argparse
import os
import pathlib
import random
import signal
import sys
import time

FAULTS = ("none", "crash", "hang", "illegal", "garbage", "noise", "kill-parent")
HANG_SECONDS = 3600
CRASH_EXIT_CODE = 3
BLACK, WHITE = "b", "w"
COLORS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
PASS = None


class TinyBoard:
    """Stones, captures, suicide and positional superko in plain Python.

    The fake engine does not import mcgo: Numba's start-up would make every restart slow,
    and the match runner should judge the fake's moves with a board it does not share.
    """

    def __init__(self, size, komi=7.5):
        self.size = size
        self.komi = komi
        self.stones = {}
        self.history = {frozenset()}
        self.last_move = "none"

    def neighbours(self, point):
        row, col = point
        for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= r < self.size and 0 <= c < self.size:
                yield r, c

    def group_and_liberties(self, stones, point):
        color, group, liberties, todo = stones[point], {point}, set(), [point]
        while todo:
            for n in self.neighbours(todo.pop()):
                if n not in stones:
                    liberties.add(n)
                elif stones[n] == color and n not in group:
                    group.add(n)
                    todo.append(n)
        return group, liberties

    def after(self, point, color):
        """The stones after ``color`` plays ``point``, or None if the move is illegal."""
        if point in self.stones:
            return None
        stones = dict(self.stones)
        stones[point] = color
        for n in self.neighbours(point):
            if stones.get(n) not in (None, color):
                group, liberties = self.group_and_liberties(stones, n)
                if not liberties:
                    for p in group:
                        del stones[p]
        if not self.group_and_liberties(stones, point)[1]:
            return None  # suicide
        if frozenset(stones.items()) in self.history:
            return None  # positional superko
        return stones

    def play(self, point, color):
        self.last_move = point
        if point is PASS:
            return
        stones = self.after(point, color)
        if stones is None:
            raise ValueError("illegal move")
        self.stones = stones
        self.history.add(frozenset(stones.items()))

    def legal_moves(self, color):
        return [(r, c) for r in range(self.size) for c in range(self.size)
                if self.after((r, c), color) is not None]

    def result(self):
        """Stones on the board only: a crude score, enough for a fake."""
        black = sum(c == BLACK for c in self.stones.values())
        score = black - (len(self.stones) - black) - self.komi
        return "0" if score == 0 else (f"B+{score:g}" if score > 0 else f"W+{-score:g}")


def parse_vertex(text, size):
    text = text.strip().upper()
    if text == "PASS":
        return PASS
    col, row = COLUMNS.index(text[0]), int(text[1:]) - 1
    if not (col < size and 0 <= row < size):
        raise ValueError("off board")
    return row, col


def vertex(point):
    return "pass" if point is PASS else f"{COLUMNS[point[1]]}{point[0] + 1}"


class FakeEngine:
    def __init__(self, args):
        self.args = args
        self.random = random.Random(args.seed)
        self.board = TinyBoard(9)
        self.genmoves = 0
        self.counted_genmoves = 0  # the genmoves --fault-at counts
        self.own_moves = 0

    def handle(self, line):
        """Answer one command line; returns the response body or raises ValueError (``?``)."""
        words = line.split()
        name, args = words[0], words[1:]
        if name in ("protocol_version",):
            return "2"
        if name == "name":
            return "fake engine"
        if name == "version":
            return self.args.fault
        if name == "boardsize":
            self.board = TinyBoard(int(args[0]), self.board.komi)
            return ""
        if name == "clear_board":
            self.board = TinyBoard(self.board.size, self.board.komi)
            self.own_moves = 0
            return ""
        if name == "komi":
            self.board.komi = float(args[0])
            return ""
        if name in ("time_settings", "time_left"):
            return ""
        if name == "play":
            self.board.play(parse_vertex(args[1], self.board.size), COLORS[args[0].lower()])
            return ""
        if name == "genmove":
            return self.genmove(COLORS[args[0].lower()])
        if name == "final_score":
            return self.board.result()
        raise ValueError("unknown command")

    def genmove(self, color):
        self.genmoves += 1
        if self.fault_due(color) and self.should_fault():
            return self.misbehave()
        time.sleep(self.args.delay)
        move = self.choose_move(color)
        self.board.play(move, color)
        return vertex(move)

    def fault_due(self, color):
        """Whether this is the --fault-at-th genmove (counting only --fault-color's, if given)."""
        if self.args.fault_color is not None and COLORS[self.args.fault_color] != color:
            return False
        self.counted_genmoves += 1
        return self.counted_genmoves == self.args.fault_at

    def should_fault(self):
        if self.args.fault == "none":
            return False
        if self.args.fault_once is None:
            return True
        marker = pathlib.Path(self.args.fault_once)
        if marker.exists():
            return False
        marker.write_text("faulted\n")
        return True

    def choose_move(self, color):
        opponent_passed = self.board.last_move is PASS
        legal = self.board.legal_moves(color)
        if opponent_passed or self.own_moves >= self.args.moves or not legal:
            return PASS
        self.own_moves += 1
        return self.random.choice(legal)

    def misbehave(self):
        fault = self.args.fault
        if fault == "crash":
            os._exit(CRASH_EXIT_CODE)
        if fault == "hang":
            time.sleep(HANG_SECONDS)
        if fault == "kill-parent":
            os.kill(os.getppid(), signal.SIGKILL)
            os._exit(CRASH_EXIT_CODE)
        if fault == "illegal":
            occupied = sorted(self.board.stones)
            if not occupied:
                raise SystemExit("--fault illegal needs a stone on the board: use --fault-at 2 or later")
            return vertex(occupied[0])
        if fault == "garbage":
            return "banana"
        if fault == "noise":
            sys.stdout.write("this is not a GTP response\n\n")
            sys.stdout.flush()
            return None
        raise AssertionError(fault)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fault", choices=FAULTS, default="none")
    parser.add_argument("--fault-at", type=int, default=1, help="misbehave at this genmove")
    parser.add_argument("--fault-once", default=None, help="marker file: misbehave only once")
    parser.add_argument("--fault-color", choices=sorted(COLORS), default=None,
                        help="misbehave only when playing this colour")
    parser.add_argument("--moves", type=int, default=8, help="own moves before passing")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to think per move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start-delay", type=float, default=0.0,
                        help="seconds to sleep before reading the first command (a slow start-up)")
    parser.add_argument("--log", default=None, help="append every command received to this file")
    args = parser.parse_args(argv)
    engine = FakeEngine(args)
    time.sleep(args.start_delay)
    for raw in sys.stdin:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if args.log:
            with open(args.log, "a") as log:
                log.write(line + "\n")
        if line == "quit":
            sys.stdout.write("=\n\n")
            sys.stdout.flush()
            return
        try:
            body = engine.handle(line)
        except Exception as exc:  # any trouble is a GTP failure answer, as a real engine gives
            sys.stdout.write(f"? {exc}\n\n")
        else:
            if body is not None:
                sys.stdout.write(f"= {body}\n\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
