#!/usr/bin/env python
"""How often the case base's suggested move lands near the move actually played (moves 1-20).

Two test sets:

* ``goban``: leave-one-game-out on the default set (each game of goban-original-games is
  queried against the case base of the other 595);
* ``kgs``: KGS 6d+ games (not in the case base) against the default case base.

Methods: ``thesis`` (best case, thesis 8.6.1), ``symmetries`` (best over the 8 images),
``vote`` (top-k vote), ``vote+symmetries``, and the ``baseline``: the free 3-4 or 4-4 point
nearest to the last move (free: no stone within 2 lines of it, counted as a square; on move
1, the upper-right 4-4 point; no free point: no suggestion, a miss).

A hit "within d" means Euclidean distance <= d (d = 0, 1, 2, 4). Prints JSON, then a table;
``--plot`` writes a PNG. ``--thresholds`` sweeps the influence threshold on the goban set
(rebuilding the case base in memory for each).

    python benchmarks/casebase/casebase_prediction.py --kgs-games 300 --plot benchmarks/casebase/casebase_prediction.png
"""

import argparse
import json
import pathlib
import sys
import tarfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))   # references: where the KGS games are

from mcgo.board import PASS  # noqa: E402
from mcgo.board.coords import point, row_col  # noqa: E402
from mcgo.board.kernels import COLOR, EMPTY  # noqa: E402
from mcgo.casebase import CaseBase, DEFAULT_TOP_K  # noqa: E402
from mcgo.casebase.advisor import default_casebase_path  # noqa: E402
from mcgo.casebase.indexing import IndexedGame, game_name, index_game  # noqa: E402,F401
from mcgo.casebase.encoder import PositionEncoder  # noqa: E402
from mcgo.sgf import SgfError, read_directory, read_games  # noqa: E402
from references import KGS_6D, absent_reason, reference_path  # noqa: E402

GOBAN = ROOT / "data" / "goban-original-games" / "usr" / "share" / "goban"
KGS_ARCHIVE = f"{KGS_6D}/KGS-2017_01-19-733-.tar.gz"   # under $MCGO_REFERENCE_DATA
DISTANCES = (0, 1, 2, 4)
MOVES = 20
METHODS = ("thesis", "symmetries", "vote", "vote+symmetries", "baseline")
CORNER_LINES = ((3, 3), (2, 3), (3, 2))      # 4-4 and the two 3-4 points, 0-based lines
FREE_RADIUS = 2


def corner_points(size):
    """The 4-4 and 3-4 points of the four corners, upper-right 4-4 first."""
    out = []
    for flip_r, flip_c in ((True, True), (True, False), (False, True), (False, False)):
        for a, b in CORNER_LINES:
            r = size - 1 - a if flip_r else a
            c = size - 1 - b if flip_c else b
            out.append(point(r, c, size))
    return out


def baseline_move(board):
    size = board.size
    free = []
    for p in corner_points(size):
        r, c = row_col(p, size)
        if all(board.pts[COLOR, point(rr, cc, size)] == EMPTY
               for rr in range(max(0, r - FREE_RADIUS), min(size, r + FREE_RADIUS + 1))
               for cc in range(max(0, c - FREE_RADIUS), min(size, c + FREE_RADIUS + 1))):
            free.append(p)
    if not free:
        return None
    last = next((p for _, p in reversed(board.moves) if p != PASS), None)
    if last is None:
        return free[0]
    lr, lc = row_col(last, size)
    return min(free, key=lambda p: (row_col(p, size)[0] - lr) ** 2 + (row_col(p, size)[1] - lc) ** 2)


def positions(record, moves=MOVES):
    """(board before move n, n, move) for n = 1..moves, stopping at a pass or illegal move."""
    from mcgo.sgf import replay
    try:
        board = replay(record, max_moves=0, superko=False)
    except SgfError:
        return
    for n, (color, p) in enumerate(record.moves[:moves], start=1):
        if p == PASS:
            return
        board.to_move = color
        yield board, n, p
        try:
            board.play(p, color)
        except ValueError:
            return


def suggest(cb, board, method, exclude, k):
    if method == "baseline":
        return baseline_move(board)
    vote = method.startswith("vote")
    symmetries = method.endswith("symmetries")
    match = cb.vote(board, k, symmetries=symmetries, exclude_game=exclude) if vote else \
        cb.best(board, symmetries=symmetries, exclude_game=exclude)
    return None if match is None else match.move


def evaluate(cb, games, methods, k, leave_one_out):
    """{method: {"positions": n, "within": {d: share}}} and per-move hit shares at d=2."""
    hits = {m: {d: 0 for d in DISTANCES} for m in methods}
    by_move = {m: [[0, 0] for _ in range(MOVES)] for m in methods}
    count = 0
    name_to_index = {pathlib.Path(n).name: i for i, n in enumerate(cb.names)}
    for record in games:
        exclude = name_to_index.get(pathlib.Path(game_name(record)).name) if leave_one_out else None
        if leave_one_out and exclude is None:
            continue
        for board, n, actual in positions(record):
            count += 1
            ar, ac = row_col(actual, board.size)
            for m in methods:
                s = suggest(cb, board, m, exclude, k)
                d2 = None if s is None else (row_col(s, board.size)[0] - ar) ** 2 + (row_col(s, board.size)[1] - ac) ** 2
                for d in DISTANCES:
                    if d2 is not None and d2 <= d * d:
                        hits[m][d] += 1
                by_move[m][n - 1][1] += 1
                if d2 is not None and d2 <= 4:
                    by_move[m][n - 1][0] += 1
    return {m: {"positions": count,
                "within": {str(d): round(hits[m][d] / count, 4) if count else None for d in DISTANCES},
                "within_2_by_move": [round(h / t, 4) if t else None for h, t in by_move[m]]}
            for m in methods}


def goban_records():
    return [g for g in read_directory(GOBAN) if not isinstance(g, SgfError)]


def kgs_records(limit):
    out, path = [], reference_path(KGS_ARCHIVE)
    with tarfile.open(path) as archive:
        for member in archive:
            if len(out) >= limit:
                break
            if member.isfile() and member.name.endswith(".sgf"):
                data = archive.extractfile(member).read()
                for g in read_games(data, errors="yield"):
                    if not isinstance(g, SgfError) and g.size == 19 and g.handicap == 0 and len(g.moves) >= MOVES:
                        g.source = f"{path.name}/{member.name}"
                        out.append(g)
    return out[:limit]


def table(results):
    lines = [f"{'set':<22}{'method':<18}{'positions':>10}" + "".join(f"{'<=' + str(d):>8}" for d in DISTANCES)]
    for label, per_method in results.items():
        for m, r in per_method.items():
            lines.append(f"{label:<22}{m:<18}{r['positions']:>10}" +
                         "".join(f"{r['within'][str(d)] or 0:>8.3f}" for d in DISTANCES))
    return "\n".join(lines)


def plot(results, sweep, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    panels = 3 if sweep else 2
    fig, axes = plt.subplots(1, panels, figsize=(6 * panels, 4.5))
    for ax, label in zip(axes, [l for l in results if not l.startswith("threshold")]):
        methods = list(results[label])
        width = 0.8 / len(methods)
        for i, m in enumerate(methods):
            ys = [results[label][m]["within"][str(d)] for d in DISTANCES]
            ax.bar([j + i * width for j in range(len(DISTANCES))], ys, width, label=m)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(DISTANCES))])
        ax.set_xticklabels([f"<= {d}" for d in DISTANCES])
        ax.set_ylim(0, 1)
        ax.set_ylabel("share of moves 1-20")
        ax.set_title(label)
        ax.legend(fontsize=7)
    if sweep:
        ax = axes[-1]
        ts = sorted(sweep)
        for d in DISTANCES:
            ax.plot(ts, [sweep[t]["within"][str(d)] for t in ts], marker="o", label=f"within {d}")
        ax.set_xlabel("influence threshold (stone units)")
        ax.set_ylim(0, 1)
        ax.set_title("goban leave-one-out, thesis method")
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--casebase", type=pathlib.Path, default=default_casebase_path())
    parser.add_argument("--kgs-games", type=int, default=300)
    parser.add_argument("--k", type=int, default=DEFAULT_TOP_K)
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--thresholds", default="", help="comma-separated thresholds to sweep")
    parser.add_argument("--plot", type=pathlib.Path)
    args = parser.parse_args(argv)
    if args.kgs_games and absent_reason(KGS_ARCHIVE):
        parser.exit(2, f"casebase_prediction: {absent_reason(KGS_ARCHIVE)} (or --kgs-games 0)\n")
    methods = args.methods.split(",")
    started = time.perf_counter()
    cb = CaseBase.load(args.casebase)
    goban = goban_records()
    results = {"goban leave-one-out": evaluate(cb, goban, methods, args.k, True)}
    if args.kgs_games:
        results["kgs vs default"] = evaluate(cb, kgs_records(args.kgs_games), methods, args.k, False)
    sweep = {}
    for t in [float(x) for x in args.thresholds.split(",") if x]:
        encoder = PositionEncoder(19, t)
        parts, names = [], []
        for record in goban:
            try:
                parts.append(index_game(record, encoder, cb.max_moves))
                names.append(game_name(record))
            except SgfError:
                pass
        import numpy as np
        swept = CaseBase.from_arrays(
            19, codes=np.concatenate([p.codes for p in parts]),
            colors=np.concatenate([p.colors for p in parts]),
            moves=np.concatenate([p.moves for p in parts]),
            move_numbers=np.concatenate([p.move_numbers for p in parts]),
            games=np.concatenate([np.full(len(p.moves), i, np.uint32) for i, p in enumerate(parts)]),
            names=names, threshold=t, max_moves=cb.max_moves)
        sweep[t] = evaluate(swept, goban, ["thesis"], args.k, True)["thesis"]
        results[f"threshold {t:g}"] = {"thesis": sweep[t]}
    out = {"casebase": str(args.casebase), "cases": len(cb), "threshold": cb.threshold,
           "k": args.k, "seconds": round(time.perf_counter() - started, 1), "results": results}
    print(json.dumps(out, indent=1))
    print(table(results))
    if args.plot:
        plot(results, sweep, args.plot)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
