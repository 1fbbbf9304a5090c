"""Simulations a move at equal time with a value net and without: the default engine and
the same engine with ``--value-net NET --set value_prior=W``, each searching the positions at
``--moves`` of the first held-out games of GAMES for ``--seconds``, alternating, ``--repeat``
times; the simulations and the simulations per CPU-second (machines are shared: compare the
ratio of one run).

    python benchmarks/value/value_speed.py $MCGO_REFERENCE_DATA/kgs-6d/KGS-2017_06-19-910-.tar.gz \
        --net heads.npz --value-prior 50

Prints JSON, then a short table.
"""

import json
import time

import click
import numpy as np

from mcgo.engine.recipe import Recipe
from mcgo.search import Search
from mcgo.train.value_data import held_out_positions


@click.command()
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--net", required=True, help="A net with value heads (or 'default').")
@click.option("--value-prior", default="50", show_default=True, help="value_prior's visits.")
@click.option("--size", type=int, default=19, show_default=True)
@click.option("--moves", default="10,60,150", show_default=True, help="Move numbers, commas.")
@click.option("--positions", type=int, default=6, show_default=True)
@click.option("--seconds", type=float, default=1.0, show_default=True)
@click.option("--repeat", type=int, default=2, show_default=True)
def main(games, net, value_prior, size, moves, positions, seconds, repeat):
    boards = [b for b, _ in held_out_positions(list(games), size,
                                              tuple(int(m) for m in moves.split(",")),
                                              "test", positions)]
    configs = {"default": Recipe().search_config(),
               "value": Recipe(value_net=net, settings={"value_prior": value_prior}).search_config()}
    runs = {name: [] for name in configs}
    for _ in range(repeat):
        for board in boards:
            for name, config in configs.items():
                began = time.process_time()
                result = Search(config).run(board, seconds=seconds)
                runs[name].append((result.simulations, time.process_time() - began))
    summary = {name: {"median_simulations": float(np.median([s for s, _ in r])),
                      "median_per_cpu_second": float(np.median([s / max(c, 1e-9) for s, c in r]))}
               for name, r in runs.items()}
    print(json.dumps({"net": net, "value_prior": value_prior, "seconds": seconds,
                      "positions": len(boards), "runs": runs, "summary": summary}))
    print(f"{'engine':<10}{'simulations':>14}{'per CPU-s':>12}")
    for name, row in summary.items():
        print(f"{name:<10}{row['median_simulations']:>14.0f}{row['median_per_cpu_second']:>12.0f}")


if __name__ == "__main__":
    main()
