"""The SPRT of saved matches: where each test stands, and how long such a test lasts.

    python benchmarks/strength/sprt_report.py benchmarks/matches/9x9-sprt-mcgo1000-vs-itself \\
        [--sprt 0 100]

For each match folder: its games, the test's counts, LLR and bounds, the decision and the Elo
estimate (the test saved with the match, or ``--sprt`` for a match played without one), and
the number of units (game pairs, or games with fixed colours) the test is expected to last
(:func:`mcgo.match.sprt.expected_units`) if the engines were equal and if the true difference
were the estimate, both with the variance of the units observed. Prints JSON, then a table.
"""

import json
import pathlib

import click

from mcgo.match.results import load_results
from mcgo.match.sprt import (SprtSettings, expected_score, expected_units, match_counts,
                             sprt_result, unit_moments)


def report(folder, override=None):
    document = load_results(pathlib.Path(folder))
    config = document["config"]
    settings = override or (SprtSettings(**config["sprt"]) if config.get("sprt") else None)
    if settings is None:
        raise click.UsageError(f"{folder} was played without --sprt: give --sprt ELO0 ELO1")
    label = config["labels"][0]
    model, counts = match_counts(document["games"], label, config["alternate"])
    result = sprt_result(counts, settings=settings, model=model)
    _, mean, var = unit_moments(counts)
    return {"folder": str(folder), "engine": label, "games": len(document["games"]),
            "units": sum(counts), "unit_variance": round(var, 4),
            "expected_units_if_equal": round(expected_units(settings, 0.5, var), 1),
            "expected_units_at_estimate": round(expected_units(settings, mean, var), 1),
            "equal_pairs_variance_0125": round(expected_units(settings, expected_score(0), 0.125), 1),
            **result.as_dict()}


@click.command()
@click.argument("folders", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--sprt", type=(float, float), default=None, metavar="ELO0 ELO1",
              help="The test to read a match by [the one it was played with].")
def main(folders, sprt):
    override = SprtSettings(*sprt) if sprt else None
    rows = [report(folder, override) for folder in folders]
    click.echo(json.dumps(rows, indent=1))
    click.echo(f"\n{'match':<48} {'games':>5} {'counts':<16} {'LLR':>6}  {'state':<12} "
               f"{'Elo':>5} {'units':>5} {'E[units] equal':>14} {'at estimate':>11}")
    for r in rows:
        counts = "-".join(f"{c:g}" for c in r["counts"])
        click.echo(f"{pathlib.Path(r['folder']).name:<48} {r['games']:>5} {counts:<16} "
                   f"{r['llr']:>6.2f}  {r['state']:<12} {r['elo'] or 0:>+5.0f} {r['units']:>5} "
                   f"{r['expected_units_if_equal']:>14} {r['expected_units_at_estimate']:>11}")


if __name__ == "__main__":
    main()
