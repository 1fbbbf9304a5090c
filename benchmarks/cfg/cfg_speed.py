#!/usr/bin/env python
"""Time seed 000's relative subgraph features of every legal move of a position (one core).

    python benchmarks/cfg/cfg_speed.py [--repeat 200]

The positions: the 19x19 and 9x9 middle-game positions of ``mcgo bench`` (a professional game
after move 60, a KGS game after move 30). Prints JSON and a short table: milliseconds per
position (median and minimum of the repeats), legal moves, graph nodes.
"""

import argparse
import json
import statistics
import time

from mcgo.apps.bench import bench_position
from mcgo.models.cfg import build_cfg, relative_subgraph_features


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args(argv)
    rows = []
    for size in (19, 9):
        board = bench_position(size, "midgame")
        points, _ = relative_subgraph_features(board)          # compile / load, and the moves
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            relative_subgraph_features(board, points)
            times.append(time.perf_counter() - start)
        nodes = len(build_cfg(board.pts, board.size, board.to_move)[1])
        rows.append({"size": size, "legal_moves": len(points), "nodes": nodes,
                     "ms_median": 1000 * statistics.median(times), "ms_min": 1000 * min(times)})
    print(json.dumps(rows, indent=2))
    print(f"{'board':>6} {'moves':>6} {'nodes':>6} {'ms median':>10} {'ms min':>8}")
    for r in rows:
        print(f"{r['size']:>4}x{r['size']:<1} {r['legal_moves']:>6} {r['nodes']:>6} "
              f"{r['ms_median']:>10.2f} {r['ms_min']:>8.2f}")


if __name__ == "__main__":
    main()
