"""What mcgo's search knows at the root of one opening position of the goban test games
(issue 46): the most visited root moves, the professional's, and the prior's favourites,
each with its visits, Monte Carlo win rate, prior (virtual wins / visits) and AMAF win rate
(/ AMAF visits), at each simulation count and seed. The positions are those of
:mod:`opening_curve` (``--game`` 0-based among its games, ``--move`` 1-based); the engine is
the default ``mcgo gtp``'s (the shipped model's prior on 19x19, no case base).

    python benchmarks/movemodel/opening_root.py --game 0 --move 1 --sims 1000,10000
    python benchmarks/movemodel/opening_root.py --game 0 --move 8 --sims 10000 --seeds 1,2,3
"""

import pathlib
import sys

import click

from mcgo.board import coords
from mcgo.config import EngineConfig
from mcgo.gtp.engine import Engine
from mcgo.engine.recipe import Recipe
from mcgo.options import parse_settings

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from opening_curve import GOBAN, color_word, positions, test_games  # noqa: E402


def line(m):
    amaf = m.amaf_wins / m.amaf_visits if m.amaf_visits else 0.0
    return (f"  {coords.to_gtp(m.move, 19):>4} visits {m.visits:6.0f}  mc {m.winrate:.3f}  "
            f"prior {m.prior:.3f}/{m.prior_visits:.0f}  amaf {amaf:.3f}/{m.amaf_visits:.0f}")


@click.command()
@click.option("--game", type=click.IntRange(0), default=0, show_default=True)
@click.option("--move", type=click.IntRange(1, 20), default=1, show_default=True)
@click.option("--sims", default="1000,10000", show_default=True)
@click.option("--seeds", default="0", show_default=True)
@click.option("--policy", default="auto", show_default=True)
@click.option("--model", "model_choice", default="auto", show_default=True)
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE")
@click.option("--top", type=click.IntRange(1), default=5, show_default=True)
def main(game, move, sims, seeds, policy, model_choice, settings, top):
    record = test_games(GOBAN, "test", game + 1)[game:]
    name, komi, before, color, pro = list(positions(record, 20))[move - 1]
    # The move model's engine as the recipe builds it (its measured settings), without a net.
    recipe = Recipe(model=model_choice, policy_net="none", policy=policy,
                    settings=parse_settings(settings))
    search = recipe.search_config()
    for n in [int(s) for s in sims.split(",")]:
        for seed in [int(s) for s in seeds.split(",")]:
            engine = Engine(EngineConfig.of(size=19, komi=komi, playouts=n, search=search,
                                            seed=seed), verbose=False)
            for c, q in before:
                engine.execute("play", [color_word(c), coords.to_gtp(q, 19)])
            answer = engine.execute("reg_genmove", [color_word(color)])
            stats = engine.game.search.root_stats(engine.game.search.last_board)
            print(f"{name} move {move}, professional {coords.to_gtp(pro, 19)}, {n} simulations, "
                  f"seed {seed}: {answer}")
            shown = stats[:top]
            for m in shown:
                print(line(m))
            for m in stats:
                if m.move == pro and m not in shown:
                    print(" the professional's:\n" + line(m))
            print(" the prior's favourites:")
            for m in sorted(stats, key=lambda m: -m.prior)[:3]:
                print(line(m))


if __name__ == "__main__":
    main()
