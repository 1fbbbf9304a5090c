"""Speed of the policy net's NumPy forward pass (issue 46, item 6: at most 5 ms a 19x19
position on one core): CPU milliseconds per position of the goban professional games, at
several move numbers, for a net file or a random net of the given shape.

    python benchmarks/movemodel/policy_net_speed.py --layers 6 --channels 32
    python benchmarks/movemodel/policy_net_speed.py --net runs/policy-net/net-6x32.npz

BLAS runs on one thread (set before NumPy loads), and the time is CPU time
(``time.process_time``), so that other processes on the machine count less. Prints JSON, then
a short table.
"""

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

import json  # noqa: E402
import pathlib  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

import click  # noqa: E402

from mcgo import sgf  # noqa: E402
from mcgo.models import policy_net as PN  # noqa: E402

GAMES = pathlib.Path(__file__).resolve().parents[2] / "data/goban-original-games/usr/share/goban"
MOVE_NUMBERS = (1, 50, 100, 150, 200)


@click.command()
@click.option("--net", "net_file", type=click.Path(exists=True, dir_okay=False), default=None,
              help="A net file (default: a random net of --layers and --channels).")
@click.option("--layers", type=click.IntRange(2), default=6, show_default=True)
@click.option("--channels", type=click.IntRange(1), default=32, show_default=True)
@click.option("--games", type=click.IntRange(1), default=10, show_default=True)
@click.option("--repeats", type=click.IntRange(1), default=20, show_default=True)
def main(net_file, layers, channels, games, repeats):
    net = PN.load(net_file) if net_file else PN.PolicyNet.random(19, layers, channels)
    paths = sorted(GAMES.glob("*.sgf"))[:games]
    if not paths:
        raise click.UsageError(f"no goban games under {GAMES} (run tools/setup.sh)")
    boards = []
    for path in paths:
        record = sgf.read_game(path)
        for n in MOVE_NUMBERS:
            if len(record.moves) > n:
                boards.append(sgf.replay(record, max_moves=n, superko=False))
    net.move_logits(boards[0].pts, boards[0].info)          # warm the caches
    times = []
    for board in boards:
        start = time.process_time()
        for _ in range(repeats):
            net.move_logits(board.pts, board.info)
        times.append((time.process_time() - start) / repeats * 1000.0)
    out = {"net": net_file or f"random {layers}x{channels}", "layers": net.layers,
           "channels": int(net.arrays["conv0_w"].shape[-1]), "positions": len(boards),
           "median_ms": round(statistics.median(times), 3), "max_ms": round(max(times), 3)}
    click.echo(json.dumps(out))
    click.echo(f"| net | positions | median ms | max ms |\n|---|---:|---:|---:|\n"
               f"| {out['net']} | {out['positions']} | {out['median_ms']} | {out['max_ms']} |")


if __name__ == "__main__":
    main()
