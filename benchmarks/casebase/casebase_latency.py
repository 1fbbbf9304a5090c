#!/usr/bin/env python
"""Retrieval latency of a case base (one core): milliseconds per query, median and spread.

Queries are the positions before moves 1-40 of professional games (goban-original-games),
asked for the side to move. Measures the whole :meth:`CaseBase.best` (influence, code,
kernel) and the bare kernel, plus the symmetric (8 images) and top-k variants. Also the time
to open the file. Wall time (``median_ms``) and this thread's CPU time (``median_cpu_ms``,
which a loaded machine inflates less) are both reported. Prints JSON, then a table.

    python benchmarks/casebase/casebase_latency.py runs/casebase/kgs.mcgocb --queries 200
"""

import argparse
import json
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from mcgo.casebase import CaseBase  # noqa: E402
from mcgo.casebase.advisor import default_casebase_path  # noqa: E402
from mcgo.casebase.retrieval import best_matches  # noqa: E402
from mcgo.sgf import SgfError, read_directory, replay  # noqa: E402

GOBAN = ROOT / "data" / "goban-original-games" / "usr" / "share" / "goban"


def query_boards(count, seed=1):
    rng = np.random.default_rng(seed)
    records = [g for g in read_directory(GOBAN) if not isinstance(g, SgfError)]
    boards = []
    while len(boards) < count:
        record = records[rng.integers(len(records))]
        try:
            boards.append(replay(record, max_moves=int(rng.integers(0, 40)), superko=False))
        except SgfError:
            continue
    return boards


def timed(fn, boards, repeat=1):
    fn(boards[0])    # warm-up (compilation, page cache)
    out, cpu = [], []
    for board in boards:
        start, start_cpu = time.perf_counter(), time.thread_time()
        for _ in range(repeat):
            fn(board)
        out.append((time.perf_counter() - start) * 1000 / repeat)
        cpu.append((time.thread_time() - start_cpu) * 1000 / repeat)
    return {"median_ms": round(statistics.median(out), 3),
            "p10_ms": round(float(np.percentile(out, 10)), 3),
            "p90_ms": round(float(np.percentile(out, 90)), 3),
            "median_cpu_ms": round(statistics.median(cpu), 3), "queries": len(out)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("casebase", nargs="?", type=pathlib.Path, default=default_casebase_path())
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--k", type=int, default=8)
    parser.add_argument("--skip-symmetries", action="store_true")
    parser.add_argument("--plot", type=pathlib.Path, help="bar chart of wall and CPU medians")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    cb = CaseBase.load(args.casebase)
    open_ms = (time.perf_counter() - start) * 1000
    boards = query_boards(args.queries)
    index = np.empty(1, np.int64)
    score = np.empty(1, np.int64)
    codes = {id(b): cb.query_codes(b) for b in boards}

    def kernel_only(board):
        lo, hi = cb.rows(board.to_move)
        best_matches(cb.codes, lo, hi, codes[id(board)], index, score)

    # First pass over the file from disk is page-cache warm-up, not retrieval.
    for color in (1, 2):
        lo, hi = cb.rows(color)
        best_matches(cb.codes, lo, hi, cb.query_codes(boards[0]), index, score)
    rows = {"kernel (one query)": timed(kernel_only, boards),
            "CaseBase.best": timed(lambda b: cb.best(b), boards),
            f"CaseBase.top k={args.k}": timed(lambda b: cb.top(b, args.k), boards)}
    if not args.skip_symmetries:
        rows["CaseBase.best symmetries"] = timed(lambda b: cb.best(b, symmetries=True), boards)
    out = {"casebase": str(args.casebase), "cases": len(cb),
           "cases_per_side": [cb.black_cases, len(cb) - cb.black_cases],
           "bytes_of_codes": int(cb.codes.nbytes), "open_ms": round(open_ms, 2), "results": rows}
    print(json.dumps(out, indent=1))
    print(f"{'query':<28}{'median ms':>10}{'p10':>8}{'p90':>8}{'cpu ms':>8}")
    for name, r in rows.items():
        print(f"{name:<28}{r['median_ms']:>10.3f}{r['p10_ms']:>8.3f}{r['p90_ms']:>8.3f}"
              f"{r['median_cpu_ms']:>8.3f}")
    if args.plot:
        plot(out, args.plot)
        print(f"wrote {args.plot}")


def plot(out, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = list(out["results"])
    fig, ax = plt.subplots(figsize=(8, 4))
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], [out["results"][n]["median_ms"] for n in names], 0.4,
           label="median wall ms (shared, loaded machine)")
    ax.bar([x + 0.2 for x in xs], [out["results"][n]["median_cpu_ms"] for n in names], 0.4,
           label="median CPU ms")
    ax.axhline(20, color="grey", linestyle="--", label="target 20 ms")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names, fontsize=8)
    ax.set_ylabel("ms per query")
    ax.set_title(f"retrieval on {out['cases']:,} positions")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
