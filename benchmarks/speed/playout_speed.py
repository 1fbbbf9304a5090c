"""Playout speed of every policy (issue 3) and of the play kernel in random games (issue 2).

Runs ``mcgo.apps.bench.run_bench`` for each policy, size, start and thread count ``--repeat``
times and reports the median, as JSON on stdout (``--json``) or a table. Besides wall-clock
rates it reports rates per CPU-second of the worker threads, which other processes on a
shared machine disturb far less.

    python benchmarks/speed/playout_speed.py --seconds 3 --repeat 3 --json > benchmarks/speed/playout_speed.json
"""

import json
import statistics
import sys

import click

from mcgo.apps.bench import format_table, machine_facts, run_bench

FIGURES = ["playouts_per_second", "playouts_per_cpu_second", "moves_per_second",
           "moves_per_playout", "black_win_rate"]


def median_row(rows):
    row = dict(rows[0])
    for key in FIGURES:
        row[key] = statistics.median(r[key] for r in rows)
    row["repeats"] = len(rows)
    row["playouts"] = sum(r["playouts"] for r in rows)
    return row


@click.command()
@click.option("--policy", "policies", multiple=True, default=["random", "pattern", "fill"])
@click.option("--size", "sizes", multiple=True, type=int, default=[9, 19])
@click.option("--start", "starts", multiple=True, default=["empty"])
@click.option("--threads", "thread_counts", multiple=True, type=int, default=[1])
@click.option("--seconds", type=float, default=3.0)
@click.option("--repeat", type=int, default=3)
@click.option("--json", "as_json", is_flag=True)
def main(policies, sizes, starts, thread_counts, seconds, repeat, as_json):
    results = []
    for size in sizes:
        for start in starts:
            for threads in thread_counts:
                for policy in policies:
                    runs = [run_bench(policy, size, seconds, threads, start, seed=1 + i)
                            for i in range(repeat)]
                    results.append(median_row(runs))
                    print(f"{policy} {size}x{size} {start} x{threads}: "
                          f"{results[-1]['playouts_per_second']:,.0f}/s wall, "
                          f"{results[-1]['playouts_per_cpu_second']:,.0f}/s per CPU-second",
                          file=sys.stderr)
    if as_json:
        print(json.dumps(dict(machine=machine_facts(), results=results), indent=2))
    else:
        print(format_table(results))


if __name__ == "__main__":
    main()
