"""Speed of the learned move model (issue 11): the Numba scorer on 19x19 positions of the
goban professional games, and the tree search with and without the model's priors.

    python benchmarks/movemodel/movemodel_speed.py runs/models/goban-moves.npz

CPU time (``time.process_time``), so that other processes on the machine count less.
"""

import glob
import pathlib
import sys
import time

import numpy as np

import mcgo
from mcgo import sgf
from mcgo.models import movemodel as M
from mcgo.models.move_features import NGROUPS
from mcgo.search.search import Search
from mcgo.tactics.ladder import new_ladder_space

GAMES = pathlib.Path(__file__).resolve().parents[2] / "data/goban-original-games/usr/share/goban"
MOVE_NUMBERS = (1, 50, 100, 150, 200)
REPEATS = 2000


def scorer(model, games):
    for n in MOVE_NUMBERS:
        times, legal = [], 0
        for path in games:
            record = sgf.read_game(path)
            if len(record.moves) <= n:
                continue
            board = sgf.replay(record, max_moves=n, superko=False)
            previous = record.moves[n - 2][1] if n > 1 else -1
            moves, scores = np.zeros(362, np.int32), np.zeros(362)
            args = (board.pts, board.info, board.zob, new_ladder_space(board.size), board.to_move,
                    previous, model.pattern_table,
                    model.group_log_gamma, model.spatial_keys, model.spatial_table, moves, scores,
                    np.zeros(NGROUPS, np.int32))
            legal = M.score_moves(*args) - 1
            start = time.process_time()
            for _ in range(REPEATS):
                M.score_moves(*args)
            times.append((time.process_time() - start) / REPEATS * 1e6)
        print(f"move {n}: {legal} legal points, {np.median(times):.1f} us a position "
              f"(median of {len(times)} games, min {min(times):.1f}, max {max(times):.1f})")


def search(model, games):
    record = sgf.read_game(games[0])
    b19 = sgf.replay(record, max_moves=60, superko=False)
    b9 = mcgo.Board(9)
    for move in ["E5", "C3", "G7", "C7"]:
        b9.play(move)
    for name, board, playouts in (("19x19, move 60", b19, 4000), ("9x9", b9, 10000)):
        for m in (None, model):
            s = Search(seed=1, model=m)
            s.run(board, playouts=200)             # load the kernels
            start = time.process_time()
            result = s.run(board, playouts=playouts)
            rate = result.simulations / (time.process_time() - start)
            label = "model priors" if m else "no model"
            print(f"search {name}, {label}: {rate:.0f} simulations per CPU second")


if __name__ == "__main__":
    model = M.load(sys.argv[1])
    games = sorted(glob.glob(str(GAMES / "*.sgf")))[:20]
    scorer(model, games)
    search(model, games)
