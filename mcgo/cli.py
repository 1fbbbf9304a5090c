"""The ``mcgo`` command: a click group that each part of the engine adds its command to."""

import json
import sys

import click

from . import __version__

POLICY_CHOICES = ["random", "pattern", "fill", "all"]
SIZE_CHOICES = ["9", "13", "19"]


@click.group()
@click.version_option(__version__, prog_name="mcgo")
def main():
    """mcgo: a Monte Carlo UCT Go engine with case-based opening play."""


@main.command()
@click.option("--policy", type=click.Choice(POLICY_CHOICES), default="all", show_default=True,
              help="Playout policy to measure.")
@click.option("--size", "sizes", type=click.Choice(SIZE_CHOICES), multiple=True,
              help="Board size (repeat for several). Default: 9 and 19.")
@click.option("--seconds", type=float, default=3.0, show_default=True,
              help="Measuring time per row, after a warm-up.")
@click.option("--threads", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Threads running playouts at once.")
@click.option("--start", type=click.Choice(["empty", "midgame", "both"]), default="both",
              show_default=True, help="Start from the empty board, a middle-game position, or both.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON on stdout.")
def bench(policy, sizes, seconds, threads, start, seed, as_json):
    """Measure playouts per second of each playout policy."""
    from .bench import MIDGAME_POSITIONS, format_table, machine_facts, progress_printer, run_bench

    policies = ["random", "pattern", "fill"] if policy == "all" else [policy]
    sizes = [int(s) for s in sizes] or [9, 19]
    starts = ["empty", "midgame"] if start == "both" else [start]
    rows = []
    for size in sizes:
        for where in starts:
            if where == "midgame" and size not in MIDGAME_POSITIONS:
                continue
            for name in policies:
                label = f"{name} {size}x{size} {where} x{threads}"
                rows.append(run_bench(name, size, seconds, threads, where, seed,
                                      progress=progress_printer(label, seconds)))
                sys.stderr.write("\n")
    if as_json:
        click.echo(json.dumps(dict(machine=machine_facts(), results=rows), indent=2))
    else:
        click.echo(format_table(rows))


if __name__ == "__main__":
    main()
