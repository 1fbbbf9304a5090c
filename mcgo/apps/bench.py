"""``mcgo bench``: playouts per second of each policy, from the empty board and from a fixed
middle-game position, on one thread or all cores.

>>> row = run_bench("random", 9, seconds=0.2, threads=1, start="empty", seed=1)
>>> row["policy"], row["size"], row["playouts"] > 0
('random', 9, True)
"""

import datetime
import os
import platform
import sys
import threading
import time

import numba
import numpy as np

from .. import __version__, options
from ..board import Board, coords
from ..playout import NO_OWNERSHIP, PlayoutStats, policy_id, run_batch, shape_table, thread_seed

# Middle-game positions: the first moves of real games, as SGF points.
MIDGAME_POSITIONS = {
    9: dict(
        source="mz1.sgf, MoGoTiTan - teytaud, KGS 2008-09-27, position after move 30 "
               "(Fuego regression suite, LGPL-3.0)",
        komi=6.5,
        moves="eececddddeccbdcfdgbcdcedfdecfcebfbbeggdhehfagaeacgbggbchadac"),
    19: dict(
        source="Hon-85-2, Rin Kaiho - Takemiya Masaki, Honinbo 1985, position after move 60 "
               "(goban-original-games, GPL-2+)",
        komi=5.5,
        moves="pddpqpdcfqipcndndmencqcodqcmdedgfefchdopgcfdgehqeppnoqnqpqnpcccbbbcdbcddcebdbe"
              "aedbbfcgcfdfcibgafckegefbjbnbobmemdlbkdheh"),
}
DEFAULT_KOMI = options.DEFAULT_KOMI
WARMUP_PLAYOUTS = 20
CHUNK_SECONDS = 0.05       # each thread runs batches of about this length between checks
PROGRESS_INTERVAL = 0.5


def bench_position(size, start):
    """The board a benchmark starts from: ``empty`` or ``midgame`` (9 and 19 only)."""
    if start == "empty":
        return Board(size, komi=DEFAULT_KOMI)
    if start != "midgame":
        raise ValueError(f"start must be 'empty' or 'midgame', not {start!r}")
    if size not in MIDGAME_POSITIONS:
        raise ValueError(f"no middle-game position for {size}x{size}; have {sorted(MIDGAME_POSITIONS)}")
    spec = MIDGAME_POSITIONS[size]
    board = Board(size, komi=spec["komi"])
    moves = spec["moves"]
    for i in range(0, len(moves), 2):
        board.play(coords.from_sgf(moves[i:i + 2], size))
    return board


def run_bench(policy, size, seconds, threads=1, start="empty", seed=1, progress=None):
    """Run ``policy`` for about ``seconds`` on ``threads`` threads after a warm-up; returns
    a dict of the figures. ``progress(stats, elapsed)`` is called now and then if given."""
    board = bench_position(size, start)
    kind = policy_id(policy)
    table = shape_table()
    args = (board.pts, board.info, board.zob, table)
    run_batch(kind, *args, seed, WARMUP_PLAYOUTS, board.komi, NO_OWNERSHIP)  # compile or load

    # Size the chunks from a short single-thread measurement.
    t0 = time.perf_counter()
    run_batch(kind, *args, seed, WARMUP_PLAYOUTS, board.komi, NO_OWNERSHIP)
    rate = WARMUP_PLAYOUTS / max(time.perf_counter() - t0, 1e-6)
    chunk = max(1, int(rate * CHUNK_SECONDS))

    stats = PlayoutStats(policy)
    cpu_seconds = []  # each worker's own CPU time: robust to other processes' load
    lock = threading.Lock()
    start_time = time.perf_counter()
    deadline = start_time + seconds

    def worker(thread):
        batch_seed = thread_seed(seed, thread)
        cpu_start = time.thread_time()
        while time.perf_counter() < deadline:
            wins, moves = run_batch(kind, *args, batch_seed, chunk, board.komi, NO_OWNERSHIP)
            batch_seed += 1
            with lock:
                stats.add(chunk, wins, moves)
        with lock:
            cpu_seconds.append(time.thread_time() - cpu_start)

    workers = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(threads)]
    for w in workers:
        w.start()
    while any(w.is_alive() for w in workers):
        for w in workers:
            w.join(PROGRESS_INTERVAL / len(workers))
        if progress is not None:
            with lock:
                progress(stats, time.perf_counter() - start_time)
    stats.seconds = time.perf_counter() - start_time
    return dict(
        policy=policy, size=size, start=start, threads=threads,
        playouts=stats.playouts, seconds=round(stats.seconds, 3),
        playouts_per_second=round(stats.playouts_per_second, 1),
        playouts_per_cpu_second=round(stats.playouts / max(sum(cpu_seconds), 1e-9) * threads, 1),
        moves_per_second=round(stats.moves_per_second, 1),
        moves_per_playout=round(stats.moves_per_playout, 2),
        black_win_rate=round(stats.black_win_rate, 4),
        komi=board.komi,
        position=MIDGAME_POSITIONS[size]["source"] if start == "midgame" else "empty board")


def machine_facts():
    return dict(
        date=datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        mcgo=__version__, numba=numba.__version__, numpy=np.__version__,
        python=platform.python_version(), machine=platform.machine(),
        processor=platform.processor() or platform.machine(), cpus=os.cpu_count())


def format_table(rows):
    """The figures as a plain-text table."""
    header = f"{'policy':8} {'size':>5} {'start':8} {'thr':>3} {'playouts/s':>11} " \
             f"{'moves/s':>11} {'moves/po':>9} {'B win':>6}"
    lines = [header, "-" * len(header)]
    for r in rows:
        board = f"{r['size']}x{r['size']}"
        lines.append(f"{r['policy']:8} {board:>5} {r['start']:8} {r['threads']:>3} "
                     f"{r['playouts_per_second']:>11,.0f} "
                     f"{r['moves_per_second']:>11,.0f} {r['moves_per_playout']:>9.1f} "
                     f"{r['black_win_rate']:>6.3f}")
    komis = ", ".join(sorted({f"{r['komi']:g}" for r in rows}))
    lines.append(f"moves/po: moves per playout; B win: share of playouts black wins "
                 f"(area scoring, komi {komis}: {DEFAULT_KOMI:g} on the empty board, the "
                 f"game's own in the middle-game positions).")
    return "\n".join(lines)


def progress_printer(label, seconds, stream=sys.stderr):
    """A progress callback that rewrites one line on ``stream``."""
    def show(stats, elapsed):
        rate = stats.playouts / elapsed if elapsed > 0 else 0.0
        stream.write(f"\r{label}: {min(elapsed, seconds):4.1f}/{seconds:g} s, "
                     f"{stats.playouts:,} playouts, {rate:,.0f}/s   ")
        stream.flush()
    return show
