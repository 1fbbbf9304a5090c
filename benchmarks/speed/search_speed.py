"""Simulations per second of the UCT search (issue 5), beside the raw playout rate.

For each board size, thread count and way of sharing the work between threads (one tree
with virtual loss, or a tree per thread; see ``mcgo.search``): the strong preset with pattern playouts searches the
empty board for ``--seconds`` (no early stop), and ``mcgo.apps.bench.run_bench`` measures the raw
pattern playouts in the same run, so the ratio is fair on a shared machine. Rates are given
per wall second and per CPU second of the process (robust to other processes' load).
Then the time for 10,000 simulations of the first 9x9 move on one thread. When Pachi is built
(``$MCGO_PACHI`` or ``pachi`` on ``PATH``, as ``mcgo match`` finds it), a Pachi row:
its first move on the empty board at a fixed number of playouts (``-t =N``, one thread), per
wall second and per CPU second of its process, measured in the same run.

    python benchmarks/speed/search_speed.py --seconds 5 --json
"""

import json
import os
import pathlib
import time

import click

import mcgo
from mcgo.apps.bench import machine_facts, run_bench
from mcgo.search import Search

FIRST_MOVE_SIMULATIONS = 10_000
PACHI_PLAYOUTS = {9: 40_000, 19: 10_000}   # about 3 s of Pachi's first move, one thread


def process_cpu_seconds(pid):
    """User + system CPU seconds of a running process (Linux /proc)."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pachi_rate(size):
    """Pachi's playouts per second on its first move of an empty board (None: not built)."""
    from mcgo.gtp.controller import GtpEngine
    from mcgo.match.opponents import EngineNameError, pachi_binary
    try:
        binary = pachi_binary()
    except EngineNameError:
        return None
    playouts = PACHI_PLAYOUTS[size] if size in PACHI_PLAYOUTS else PACHI_PLAYOUTS[19]
    engine = GtpEngine([str(binary), "-t", f"={playouts}", "threads=1,pondering=0"],
                       cwd=str(binary.parent))
    try:
        for command in (f"boardsize {size}", "clear_board", "komi 7", "genmove b",
                        "clear_board"):   # the first genmove loads its pattern files
            engine.send(command, timeout=300)
        cpu0 = process_cpu_seconds(engine.process.pid)
        t0 = time.perf_counter()
        engine.send("genmove b", timeout=300)
        wall = time.perf_counter() - t0
        cpu = process_cpu_seconds(engine.process.pid) - cpu0
    finally:
        engine.close()
    return dict(size=size, threads=1, parallel="pachi", simulations=playouts,
                seconds=round(wall, 3), cpu_seconds=round(cpu, 3),
                simulations_per_second=round(playouts / wall, 1),
                simulations_per_cpu_second=round(playouts / max(cpu, 1e-9), 1))


def search_rate(size, threads, parallel, seconds, seed):
    board = mcgo.Board(size, komi=7.5 if size == 19 else 7.0)
    search = Search(preset="strong", policy="pattern", threads=threads, seed=seed,
                    parallel=parallel)
    search.run(board, playouts=200)                     # compile or load, allocate
    search.clear()
    cpu0 = time.process_time()
    result = search.run(board, seconds=seconds, early_stop=False)
    cpu = time.process_time() - cpu0
    return dict(size=size, threads=threads, parallel=parallel if threads > 1 else "-",
                simulations=result.simulations,
                seconds=round(result.seconds, 3), cpu_seconds=round(cpu, 3),
                simulations_per_second=round(result.simulations / result.seconds, 1),
                simulations_per_cpu_second=round(result.simulations / max(cpu, 1e-9), 1),
                playout_moves_per_simulation=round(result.playout_moves / result.simulations, 1))


def first_move(seed):
    board = mcgo.Board(9, komi=7.0)
    search = Search(preset="strong", policy="pattern", threads=1, seed=seed)
    search.run(board, playouts=200)
    search.clear()
    result = search.run(board, playouts=FIRST_MOVE_SIMULATIONS)
    return dict(simulations=result.simulations, seconds=round(result.seconds, 3),
                thread_cpu_seconds=round(result.cpu_seconds, 3),
                move=mcgo.to_gtp(result.best_move, 9), winrate=round(result.winrate, 3))


@click.command()
@click.option("--seconds", type=float, default=5.0, show_default=True)
@click.option("--size", "sizes", multiple=True, type=int, default=[9, 19])
@click.option("--threads", "thread_counts", multiple=True, type=int, default=[1, 2])
@click.option("--parallel", "modes", multiple=True, type=click.Choice(["tree", "root"]),
              default=["tree", "root"], help="Ways of using several threads.")
@click.option("--seed", type=int, default=1)
@click.option("--json", "as_json", is_flag=True)
def main(seconds, sizes, thread_counts, modes, seed, as_json):
    rows = []
    for size in sizes:
        for threads in thread_counts:
            raw = run_bench("pattern", size, seconds, threads, "empty", seed)
            for parallel in modes if threads > 1 else modes[:1]:
                row = search_rate(size, threads, parallel, seconds, seed)
                row["raw_playouts_per_second"] = raw["playouts_per_second"]
                row["raw_playouts_per_cpu_second"] = raw["playouts_per_cpu_second"] / threads
                row["tree_over_raw_cpu"] = round(
                    row["simulations_per_cpu_second"]
                    / max(row["raw_playouts_per_cpu_second"], 1e-9), 3)
                rows.append(row)
        pachi = pachi_rate(size)
        if pachi is not None:
            rows.append(pachi)
    first = first_move(seed)
    load = os.getloadavg()
    report = dict(machine=machine_facts(), load_average=[round(x, 2) for x in load],
                  search=rows, first_9x9_move=first)
    if as_json:
        print(json.dumps(report, indent=2))
        return
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'size':>4} {'thr':>3} {'mode':>5} {'sims/s':>9} {'sims/cpu-s':>10} "
          f"{'raw/cpu-s':>10} {'ratio':>6}")
    for r in rows:
        raw = f"{r['raw_playouts_per_cpu_second']:>10.0f} {r['tree_over_raw_cpu']:>6.2f}" \
            if "raw_playouts_per_cpu_second" in r else f"{'':>10} {'':>6}"
        print(f"{r['size']:>4} {r['threads']:>3} {r['parallel']:>5} "
              f"{r['simulations_per_second']:>9.0f} "
              f"{r['simulations_per_cpu_second']:>10.0f} {raw}")
    print(f"10,000 simulations of the first 9x9 move: {first['seconds']} s wall, "
          f"{first['thread_cpu_seconds']} s CPU, plays {first['move']}")


if __name__ == "__main__":
    main()
