#!/usr/bin/env python
"""The thesis experiment in numbers (figures 9.4-9.8): does the case base bring the search's
opening moves near the professional's, and do 100 simulations with it match 1,000 without?

Held-out games: every ``--every``-th game of goban-original-games (sorted by name) is left
out of a case base built from the others. For each held-out game and each move 1-20, the
GTP engine (``thesis`` preset, ``auto`` playouts) answers ``reg_genmove`` on the position
before that move, with and without the case-base advisor, at each simulation budget. A move
counts if it is within Euclidean distance 2 of the professional's (also reported: 0, 1, 4).
Prints JSON, then a table; ``--plot`` writes a PNG.

    python benchmarks/casebase/casebase_thesis_experiment.py --sims 100,1000 --every 60 \
        --plot benchmarks/casebase/casebase_thesis_experiment.png
"""

import argparse
import json
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from mcgo.board import PASS, coords  # noqa: E402
from mcgo.casebase import OpeningAdvisor  # noqa: E402
from mcgo.train.casebase_build import build_casebase  # noqa: E402
from mcgo.config import EngineConfig  # noqa: E402
from mcgo.gtp.engine import Engine  # noqa: E402
from mcgo.sgf import SgfError, read_game  # noqa: E402

GOBAN = ROOT / "data" / "goban-original-games" / "usr" / "share" / "goban"
MOVES = 20
DISTANCES = (0, 1, 2, 4)


def split(every):
    files = sorted(p for p in GOBAN.iterdir() if p.suffix.lower() in (".sgf", ".mgt"))
    held = files[every // 2::every]
    return [f for f in files if f not in held], held


def run_arm(records, sims, advisor, seed, limit_games=None):
    hits = {d: 0 for d in DISTANCES}
    count = 0
    by_move = [[0, 0] for _ in range(MOVES)]
    for g, record in enumerate(records[:limit_games]):
        engine = Engine(EngineConfig.of(size=19, komi=record.komi or 6.5, preset="thesis",
                                     playouts=sims, seed=seed + g, opening_advisor=advisor),
                        verbose=False)
        for n, (color, p) in enumerate(record.moves[:MOVES], start=1):
            if p == PASS:
                break
            letter = "b" if color == 1 else "w"
            answer = engine.execute("reg_genmove", [letter])
            suggested = coords.from_gtp(answer, 19)
            if suggested != PASS:
                (sr, sc), (pr, pc) = coords.row_col(suggested, 19), coords.row_col(p, 19)
                d2 = (sr - pr) ** 2 + (sc - pc) ** 2
                for d in DISTANCES:
                    hits[d] += d2 <= d * d
                by_move[n - 1][0] += d2 <= 4
            by_move[n - 1][1] += 1
            count += 1
            engine.execute("play", [letter, coords.to_gtp(p, 19)])
    return {"positions": count, "within": {str(d): round(hits[d] / count, 4) for d in DISTANCES},
            "within_2_by_move": [round(h / t, 4) if t else None for h, t in by_move]}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sims", default="100,1000,10000")
    parser.add_argument("--every", type=int, default=60, help="hold out every N-th game")
    parser.add_argument("--games-at-10000", type=int, default=5,
                        help="held-out games used at 10,000 simulations (time)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--symmetries", choices=["yes", "no"], default="yes",
                        help="advisor matches the 8 board images (mcgo's default: yes)")
    parser.add_argument("--arms", default="without,with", help="which arms to run")
    parser.add_argument("--plot", type=pathlib.Path)
    args = parser.parse_args(argv)
    train, held = split(args.every)
    started = time.perf_counter()
    cb, report = build_casebase(train, jobs=1)
    records = []
    for path in held:
        try:
            records.append(read_game(path))
        except SgfError:
            pass
    advisor = OpeningAdvisor(cb, symmetries=args.symmetries == "yes")
    results = {}
    for sims in [int(s) for s in args.sims.split(",")]:
        limit = args.games_at_10000 if sims >= 10000 else None
        arms = [("without", None), ("with case base", advisor)]
        for label, adv in [a for a in arms if a[0].split()[0] in args.arms.split(",")]:
            t = time.perf_counter()
            r = run_arm(records, sims, adv, args.seed, limit)
            r["seconds"] = round(time.perf_counter() - t, 1)
            results[f"{sims} {label}"] = r
            print(f"{sims:>6} {label:<16} within 2: {r['within']['2']:.3f} "
                  f"({r['positions']} positions, {r['seconds']} s)", file=sys.stderr, flush=True)
    out = {"held_out_games": [p.name for p in held], "casebase_games": report.games_indexed,
           "symmetries": args.symmetries == "yes",
           "casebase_positions": len(cb), "preset": "thesis", "policy": "auto",
           "seconds": round(time.perf_counter() - started, 1), "results": results}
    print(json.dumps(out, indent=1))
    print(f"{'simulations / arm':<28}{'positions':>10}" + "".join(f"{'<=' + str(d):>8}" for d in DISTANCES))
    for name, r in results.items():
        print(f"{name:<28}{r['positions']:>10}" + "".join(f"{r['within'][str(d)]:>8.3f}" for d in DISTANCES))
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4.5))
        for label in ("without", "with case base"):
            keys = [k for k in results if k.endswith(label) and (label != "without" or "case" not in k)]
            xs = [int(k.split()[0]) for k in keys]
            ax.plot(xs, [results[k]["within"]["2"] for k in keys], marker="o", label=label)
        ax.set_xscale("log")
        ax.set_xlabel("simulations per move")
        ax.set_ylabel("share of moves 1-20 within distance 2 of the pro")
        ax.set_ylim(0, 1)
        ax.legend()
        ax.set_title("reg_genmove on held-out professional games")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=110)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
