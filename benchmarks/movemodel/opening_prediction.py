"""The opening without the case base (issue 11): how often the engine's move lands near the
professional's, moves 1-20 of the goban games in the learning code's test split (or the
validation split, to tune on).

For each test game and each move 1-20 the GTP engine answers ``reg_genmove`` on the position
before that move (no case base), at a fixed number of simulations, with the tree's priors
from a learned move model or from the hand-written rules; a move counts when it is within
Euclidean distance 2 of the professional's (0, 1 and 4 also reported). Prints JSON.

    python benchmarks/movemodel/opening_prediction.py --sims 1000 --model none
    python benchmarks/movemodel/opening_prediction.py --sims 1000 --model runs/models/goban-moves.npz
"""

import json
import pathlib
import time

import click

from mcgo.board import PASS, coords
from mcgo.config import EngineConfig
from mcgo.gtp.engine import Engine
import mcgo.search.search
from mcgo.train.split import SPLITS, TEST, game_key, split_of
from mcgo.sgf import SgfError, read_game
from mcgo.sgf.sources import input_files
from mcgo.stats import wilson_interval

ROOT = pathlib.Path(__file__).resolve().parents[2]
GOBAN = ROOT / "data" / "goban-original-games" / "usr" / "share" / "goban"
MOVES = 20
DISTANCES = (0, 1, 2, 4)


def split_games(folder, part, limit):
    """The 19x19 games of ``folder`` in the ``part`` split, one per key, in name order."""
    files, _ = input_files([folder])
    seen, games = set(), []
    for path in files:
        try:
            record = read_game(path)
        except SgfError:
            continue
        key = game_key(record)
        if record.size != 19 or key in seen or split_of(key) != part:
            continue
        seen.add(key)
        games.append(record)
    return games[:limit]


@click.command()
@click.option("--sims", type=int, default=1000, show_default=True)
@click.option("--model", "model_path", default="none", show_default=True,
              help="Move model file for the priors, or none (the hand-written priors).")
@click.option("--preset", default="strong", show_default=True)
@click.option("--games", "limit", type=int, default=None, help="At most this many test games.")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--folder", type=click.Path(exists=True, file_okay=False), default=str(GOBAN))
@click.option("--split", "part", type=click.Choice(SPLITS), default=TEST, show_default=True,
              help="Tune on validation games; report on test games.")
@click.option("--prior-visits", type=float, default=None,
              help="Virtual visits of the model's prior (default: the engine's).")
def main(sims, model_path, preset, limit, seed, folder, part, prior_visits):
    if prior_visits is not None:
        mcgo.search.search.MODEL_PRIOR_VISITS = prior_visits
    model = None
    if model_path != "none":
        from mcgo.models.movemodel import load
        model = load(model_path)
    games = split_games(folder, part, limit)
    hits = {d: 0 for d in DISTANCES}
    count = 0
    start = time.perf_counter()
    for g, record in enumerate(games):
        engine = Engine(EngineConfig.of(size=19, komi=record.komi or 6.5, preset=preset,
                                     playouts=sims, seed=seed + g, model=model), verbose=False)
        if record.setup.black or record.setup.white:
            continue                                  # handicap games: not an opening
        for color, p in record.moves[:MOVES]:
            if p == PASS:
                break
            answer = engine.execute("reg_genmove", ["b" if color == 1 else "w"])
            suggested = coords.from_gtp(answer, 19) if answer != "resign" else PASS
            if suggested != PASS:
                (sr, sc), (pr, pc) = coords.row_col(suggested, 19), coords.row_col(p, 19)
                d2 = (sr - pr) ** 2 + (sc - pc) ** 2
                for d in DISTANCES:
                    hits[d] += d2 <= d * d
            count += 1
            engine.execute("play", ["b" if color == 1 else "w", coords.to_gtp(p, 19)])
        click.echo(f"game {g + 1}/{len(games)}: d<=2 {hits[2]}/{count}", err=True)
    share = {f"d<={d}": round(hits[d] / max(count, 1), 4) for d in DISTANCES}
    low, high = wilson_interval(hits[2], count)
    print(json.dumps(dict(sims=sims, model=model_path, preset=preset, split=part,
                          prior_visits=mcgo.search.search.MODEL_PRIOR_VISITS, games=len(games),
                          positions=count, share=share, wilson_95_d2=[round(low, 4), round(high, 4)],
                          seconds=round(time.perf_counter() - start, 1)), indent=2))


if __name__ == "__main__":
    main()
