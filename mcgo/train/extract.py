"""``mcgo learn extract``: the command (:mod:`.extraction` does the work).

This module imports nothing heavy at load time: ``mcgo --help`` must not load Numba.
"""

import pathlib
import shutil
import sys

import click

from ..clitypes import OutputFile
from .extract_defaults import DEFAULT_MIN_MOVES, DEFAULT_PLAYOUTS

META = "meta.json"          # mcgo.train.META, named here to stay light


# ----------------------------------------------------------------------------- command
@click.command("extract")
@click.argument("sources", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-o", "--output", type=click.Path(file_okay=False), required=True,
              help="Dataset folder to write (its parent must exist).")
@click.option("--size", type=click.IntRange(5, 25), default=19, show_default=True,
              help="Board size of the dataset; games of other sizes are skipped.")
@click.option("--ownership-playouts", "playouts", type=click.IntRange(1), default=DEFAULT_PLAYOUTS,
              show_default=True, help="Playouts per game for the final ownership.")
@click.option("--min-moves", type=click.IntRange(0), default=DEFAULT_MIN_MOVES, show_default=True,
              help="Games with fewer moves are skipped.")
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes extracting games in parallel (the result does not depend on it).")
@click.option("--force", is_flag=True, help="Replace an existing dataset at --output.")
@click.option("--log", "log_path", type=OutputFile(), default=None,
              help="Also write every skipped or duplicate game with its reason to this file.")
def extract_command(sources, output, size, playouts, min_moves, jobs, force, log_path):
    """Extract a training dataset from SGF games (files, folders searched recursively,
    .tar.gz archives): moves, results, final ownership, the split by game."""
    from ..sgf.sources import input_files, total_size
    from .extraction import extract

    output = pathlib.Path(output)
    if not output.parent.is_dir():
        raise click.BadParameter(f"no folder {output.parent} to write the dataset in",
                                 param_hint="--output")
    if output.exists():
        if not force:
            raise click.BadParameter(f"{output} already exists (--force replaces a dataset)",
                                     param_hint="--output")
        if not (output / META).is_file():
            raise click.BadParameter(f"{output} exists and is not a dataset: not replacing it",
                                     param_hint="--output")
    files, _ = input_files(sources)
    if not files:
        raise click.UsageError("no SGF files (.sgf, .mgt) or archives (.tar.gz) among the sources")
    total = total_size(files)
    temporary = output.with_name(output.name + ".partial")
    if temporary.exists():
        shutil.rmtree(temporary)
    with click.progressbar(length=total, label="extracting", file=sys.stderr,
                           show_pos=False, show_percent=True, show_eta=True) as bar:
        document, report = extract(sources, temporary, size=size, playouts=playouts,
                                   min_moves=min_moves, jobs=jobs, progress=bar.update)
    if output.exists():
        shutil.rmtree(output)
    temporary.rename(output)
    if log_path:
        with open(log_path, "w", encoding="utf-8") as f:
            f.write("\n".join(report.skipped_messages) + "\n")
    click.echo(report.summary())
    click.echo(f"wrote {output} ({report.positions} positions from {report.games_kept} games; "
               f"train/validation/test games: "
               + "/".join(str(v) for v in document["counts"]["split_games"].values()) + ")")
