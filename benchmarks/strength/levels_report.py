"""The levels' table: each level against the level below it, and against its anchors.

    python benchmarks/strength/levels_report.py benchmarks/matches/19x19-level*-vs-*

Reads saved ``mcgo match`` folders whose first engine is labelled ``levelN`` (the one below,
``levelM``, or an anchor such as ``gnugo-10``) and prints, as JSON and then a table, each
match's games, the first engine's score (a draw half a point) with its 95% Wilson interval,
and the Elo difference it gives. The matches themselves (20 games a pair on 19x19,
``--move-time 1``, so that a level's endgame questions to the engine take a second):

    python -m mcgo match --engine "mcgo:--level 2" --engine-label level2 \\
        --opponent "mcgo:--level 1" --opponent-label level1 --size 19 --komi 7.5 \\
        --move-time 1 --timeout 60 -n 20 --out benchmarks/matches/19x19-level2-vs-level1-SHA
"""

import json
import math
import pathlib

import click

from mcgo.match.results import load_results
from mcgo.stats import elo_difference, wilson_interval


def row(folder):
    document = load_results(pathlib.Path(folder))
    first, second = document["config"]["labels"]
    games = [g for g in document["games"] if g.get("winner_color") is not None]
    wins = sum(g["winner"] == first for g in games)
    draws = sum(g["winner"] is None for g in games)
    score = wins + draws / 2
    n = len(games)
    low, high = wilson_interval(score, n) if n else (None, None)
    elo = elo_difference(score / n) if n else None
    return {"folder": str(folder), "engine": first, "opponent": second, "games": n,
            "score": score, "rate": score / n if n else None, "wilson95": [low, high],
            "elo": elo if elo is not None and math.isfinite(elo) else None}


@click.command()
@click.argument("folders", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
def main(folders):
    rows = [row(f) for f in folders]
    click.echo(json.dumps(rows, indent=1))
    click.echo(f"{'engine':>10} {'opponent':>10} {'games':>5} {'score':>6} {'rate':>6}  95% Wilson")
    for r in rows:
        if not r["games"]:
            continue
        low, high = r["wilson95"]
        click.echo(f"{r['engine']:>10} {r['opponent']:>10} {r['games']:5d} {r['score']:6.1f} "
                   f"{r['rate']:6.3f}  [{low:.3f}, {high:.3f}]")


if __name__ == "__main__":
    main()
