#!/usr/bin/env python
"""How much the case base steered an engine's opening in a match's games (issue 12).

For each game of a ``mcgo match --out`` folder, the moves 1 to ``--moves`` of the engine named
by ``--player`` (a substring of PB/PW): the share that lies in the case base's bonus area
(within distance 4 of the matched professional move, which the default bonus rewards), the
share on that move itself, and the learned move model's geometric-mean probability of the
moves, beside the same figures for the other side's moves. The case base and the model are
the shipped ones; the case base is asked as ``mcgo gtp`` asks it (symmetries on).

    python benchmarks/casebase_steering.py benchmarks/matches/19x19-vs-pachi --player mcgo
"""

import json
import math
import pathlib

import click
import numpy as np

from mcgo.board.board import Board
from mcgo.board.kernels import BLACK, PASS, WHITE
from mcgo.casebase import OpeningAdvisor, open_casebase
from mcgo.casebase.advisor import BONUS_EXACT
from mcgo.models.movemodel import DEFAULT_MODEL, load
from mcgo.sgf import SgfError, read_game


def side_figures(samples):
    """``{moves, in_bonus_area, on_pro_move, model_geometric_mean_p}`` of (bonus, p) pairs."""
    with_case = [b for b, _ in samples if b is not None]
    logs = [math.log(max(p, 1e-12)) for _, p in samples]
    return dict(moves=len(samples), with_a_case=len(with_case),
                in_bonus_area=round(sum(b > 0 for b in with_case) / max(len(with_case), 1), 4),
                on_pro_move=round(sum(b >= BONUS_EXACT for b in with_case) / max(len(with_case), 1), 4),
                model_geometric_mean_p=f"1/{math.exp(-np.mean(logs)):.1f}" if logs else None)


@click.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.option("--player", required=True, help="A substring of the engine's name in PB/PW.")
@click.option("--moves", type=int, default=20, show_default=True,
              help="The game's first moves to look at (the bonus acts on moves 1-20).")
def main(folder, player, moves):
    advisor = OpeningAdvisor(open_casebase("default"))
    model = load(DEFAULT_MODEL)
    samples = {"player": [], "opponent": []}
    games = skipped = 0
    for path in sorted(pathlib.Path(folder).glob("games/*.sgf")):
        try:
            record = read_game(path)
        except SgfError as e:
            click.echo(f"{path.name}: skipped ({e})", err=True)
            skipped += 1
            continue
        if record.size != 19 or (player in record.black) == (player in record.white):
            click.echo(f"{path.name}: skipped (not 19x19, or {player!r} is not one side)", err=True)
            skipped += 1
            continue
        games += 1
        player_color = BLACK if player in record.black else WHITE
        board = Board(19, komi=record.komi or 7.5)
        for color, point in record.moves[:moves]:
            if point == PASS:
                break
            bonus, _ = advisor.advise(board)
            p = model.probabilities(board, color).get(int(point), 0.0)
            side = "player" if color == player_color else "opponent"
            samples[side].append((None if bonus is None else float(bonus[point]), p))
            board.play(point, color)
    out = dict(folder=str(folder), engine=player, games=games, skipped=skipped, first_moves=moves,
               **{side: side_figures(s) for side, s in samples.items()})
    print(json.dumps(out, indent=2))
    for side in ("player", "opponent"):
        f = out[side]
        click.echo(f"{side:8s} {f['moves']:4d} moves: in the bonus area {f['in_bonus_area']:.2f}, "
                   f"on the professional's move {f['on_pro_move']:.2f}, model p {f['model_geometric_mean_p']}",
                   err=True)


if __name__ == "__main__":
    main()
