"""``mcgo learn patterns``: the seed statistics of :mod:`.seedstats` from SGF games.

The command line is built without NumPy's or Numba's modules (``mcgo --help`` answers at
once): the work is imported when the command runs.
"""

import collections
import sys
import time

import click

from ..clitypes import OutputFile

DEFAULT_CAP = 3     # mcgo.models.patterns3.DEFAULT_CAP (checked by the tests)


@click.command("patterns")
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-o", "--output", type=OutputFile(), required=True,
              help="Statistics file to write (.npz).")
@click.option("--size", type=click.IntRange(5, 25), default=19, show_default=True,
              help="Board size; games of other sizes are skipped.")
@click.option("--ownership-playouts", type=click.IntRange(1, 100000), default=200,
              show_default=True, help="Playouts judging the dead stones of each final position.")
@click.option("--cap", type=click.IntRange(0, 11), default=DEFAULT_CAP, show_default=True,
              help="Distance to the edge beyond which windows share a location class.")
@click.option("--split", type=click.Choice(["train", "validation", "test", "all"]),
              default="train", show_default=True, help="Games of this part of the split only.")
def patterns(games, output, size, ownership_playouts, cap, split):
    """3x3 pattern statistics of seeds 002 (stability, impact) and 003 (propensity)
    from SGF games (files, folders, .tar.gz), with each game's final ownership."""
    from ..sgf.sources import input_files

    if cap > (size - 3) // 2:
        raise click.BadParameter(f"at most {(size - 3) // 2} on {size}x{size}", param_hint="--cap")
    files, _ = input_files(games)
    if not files:
        raise click.UsageError("no SGF files (.sgf, .mgt, .tar.gz) in the given paths")
    from .seedstats import build

    skipped = []
    start = time.perf_counter()
    count = [0]

    def progress(record):
        count[0] += 1
        if count[0] % 50 == 0:
            click.echo(f"{count[0]} games", err=True)

    stats = build(games, size=size, cap=cap, playouts=ownership_playouts,
                  split=None if split == "all" else split, progress=progress, skipped=skipped)
    stats.save(output, seconds=round(time.perf_counter() - start, 1))
    reasons = collections.Counter(reason for _, reason in skipped)
    for reason, n in reasons.most_common():
        click.echo(f"skipped {n}: {reason}", err=True)
    click.echo(f"wrote {output}: {stats.games} games, {stats.positions} positions, "
               f"{stats.distinct_patterns(3)} located patterns (seed 003), "
               f"{time.perf_counter() - start:.1f} s", file=sys.stdout)
