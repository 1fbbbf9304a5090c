"""The levels' table: each level against the level below it, and against its anchors.

    python benchmarks/strength/levels_report.py benchmarks/matches/19x19-level*-vs-*

Reads saved ``mcgo match`` folders whose first engine is labelled ``levelN`` (the one below,
``levelM``, or an anchor such as ``gnugo-10``) and prints, as JSON and then a table, each
match's games, the first engine's score (a draw half a point) with its 95% Wilson interval,
and the Elo difference it gives; then each level's opening moves on the first line (its
moves among the game's first sixth of the board's points in moves, where the levels draw no
first-line move; issue 76 asks for under 2%) over every game of the folders. The matches themselves (20 games a pair on 19x19,
``--move-time 1``, so that a level's endgame questions to the engine take a second):

    python -m mcgo match --engine "mcgo:--level 2" --engine-label level2 \\
        --opponent "mcgo:--level 1" --opponent-label level1 --size 19 --komi 7.5 \\
        --move-time 1 --timeout 60 -n 20 --out benchmarks/matches/19x19-level2-vs-level1-SHA

Against GNU Go 3.8 level 10, at even and with the level giving GNU Go (Black) stones:

    python -m mcgo match --engine "mcgo:--level 7" --engine-label level7 --opponent gnugo \
        --opponent-label gnugo-10 --size 19 --komi 7.5 --move-time 1 --timeout 120 -n 20 \
        --out benchmarks/matches/19x19-level7-vs-gnugo10-SHA
    python -m mcgo match --black gnugo --engine-label gnugo-10 --white "mcgo:--level 8" \
        --opponent-label level8 --handicap 3 --komi 0.5 --size 19 --move-time 1 --timeout 120 \
        -n 20 --out benchmarks/matches/19x19-H3-gnugo10-vs-level8-SHA

and with the level taking stones (Black) from GNU Go:

    python -m mcgo match --black "mcgo:--level 4" --engine-label level4 --white gnugo \
        --opponent-label gnugo-10 --handicap 4 --komi 0.5 --size 19 --move-time 1 --timeout 120 \
        -n 20 --out benchmarks/matches/19x19-H4-level4-vs-gnugo10-SHA
"""

import json
import math
import pathlib
import zipfile
from collections import Counter

import click
from sgfmill import sgf

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


def first_line_moves(folder, opening, counts):
    """Add each engine's ``(opening moves, on the first line)`` in ``folder``'s games to
    ``counts`` (a Counter keyed by ``(label, "moves"|"first_line")``)."""
    document = load_results(pathlib.Path(folder))
    with zipfile.ZipFile(pathlib.Path(folder) / "games.zip") as z:
        for g in document["games"]:
            game = sgf.Sgf_game.from_bytes(z.read(g["sgf"].split("/", 1)[1]))
            size = game.get_size()
            limit = int(opening * size * size)
            for node in game.get_main_sequence()[1:limit + 1]:
                colour, point = node.get_move()
                if colour is None or point is None:
                    continue
                label = g["black"] if colour == "b" else g["white"]
                row, col = point
                counts[label, "moves"] += 1
                counts[label, "first_line"] += min(row, col, size - 1 - row, size - 1 - col) == 0


@click.command()
@click.argument("folders", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
def main(folders):
    from mcgo.engine.levels import OPENING_SHARE
    rows = [row(f) for f in folders]
    counts = Counter()
    for f in folders:
        first_line_moves(f, OPENING_SHARE, counts)
    labels = sorted({label for label, _ in counts})
    first_line = {label: {"opening_moves": counts[label, "moves"],
                          "first_line": counts[label, "first_line"]} for label in labels}
    click.echo(json.dumps({"matches": rows, "opening_first_line": first_line}, indent=1))
    click.echo(f"{'engine':>10} {'opponent':>10} {'games':>5} {'score':>6} {'rate':>6}  95% Wilson")
    for r in rows:
        if not r["games"]:
            continue
        low, high = r["wilson95"]
        click.echo(f"{r['engine']:>10} {r['opponent']:>10} {r['games']:5d} {r['score']:6.1f} "
                   f"{r['rate']:6.3f}  [{low:.3f}, {high:.3f}]")
    for label, c in first_line.items():
        share = c["first_line"] / c["opening_moves"] if c["opening_moves"] else float("nan")
        click.echo(f"{label:>10}: {c['first_line']} of {c['opening_moves']} opening moves on the "
                   f"first line ({share:.2%})")


if __name__ == "__main__":
    main()
