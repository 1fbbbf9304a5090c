"""CPU time of the ownership network's parts on one core: the propensity plane, the inputs
(:mod:`mcgo.models.ownership.features`) and the Numba forward pass, per position of a real game.

    python benchmarks/ownership/ownership_speed.py [--net dagrnn|FILE] [--sgf GAME] [--move 100] [--json]

The default game is the first of the goban collection (19x19).
"""

import argparse
import json
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from mcgo.models.seedstats import colors_of  # noqa: E402
from mcgo.models.ownership.features import features  # noqa: E402
from mcgo.models.ownership.model import OwnershipModel, open_ownership  # noqa: E402
from mcgo.sgf import read_game, replay  # noqa: E402

GOBAN = pathlib.Path(__file__).resolve().parents[2] / "data/goban-original-games/usr/share/goban"


def per_call_ms(fn, repeat):
    fn()
    started = time.process_time()
    for _ in range(repeat):
        fn()
    return 1000 * (time.process_time() - started) / repeat


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--net", default="dagrnn")
    parser.add_argument("--sgf", default=None)
    parser.add_argument("--move", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    model = open_ownership(args.net) if args.net == "dagrnn" else OwnershipModel.load(args.net)
    sgf = pathlib.Path(args.sgf) if args.sgf else sorted(GOBAN.glob("*.sgf"))[0]
    board = replay(read_game(sgf), max_moves=args.move)
    propensity = model.propensity(colors_of(board))
    x = features(board, propensity, radius=model.radius)
    out = {"game": sgf.name, "size": board.size, "move": args.move, "inputs": int(x.shape[-1]),
           "weights": model.network.weight_count,
           "propensity_ms": per_call_ms(lambda: model.propensity(colors_of(board)), args.repeat),
           "features_ms": per_call_ms(lambda: features(board, propensity, radius=model.radius),
                                      args.repeat),
           "forward_ms": per_call_ms(lambda: model.network.forward(x), args.repeat),
           "ownership_ms": per_call_ms(lambda: model.ownership(board), args.repeat)}
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        for key, value in out.items():
            print(f"{key:>15}: {value:.3f}" if isinstance(value, float) else f"{key:>15}: {value}")
        print(json.dumps(out))


if __name__ == "__main__":
    main()
