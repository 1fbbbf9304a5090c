#!/usr/bin/env python
"""19x19 match: mcgo with the default case base against mcgo without, equal simulations.

Runs ``mcgo match`` (colours alternate, GNU Go referee scores; each engine behind
``gtp_reseed.py`` so that every game gets new seeds), then prints the score
with a 95% Wilson interval as JSON and a line of text; ``--plot`` draws the win share with
its interval and the wins by colour. ``--summarize-only`` reads an existing ``--out``.

    python benchmarks/casebase/casebase_match.py --games 50 --playouts 100 --out runs/casebase/match19-100 \
        --plot benchmarks/casebase/casebase_match.png
"""

import argparse
import json
import pathlib
import subprocess
import sys

from mcgo.stats import wilson_interval

ROOT = pathlib.Path(__file__).resolve().parents[2]


def rounded(interval):
    """An interval rounded for the report."""
    return tuple(round(x, 4) for x in interval)


def run_match(args):
    # A fixed seed and simulation count make every game the same: reseed each game.
    proxy = f"python {ROOT / 'benchmarks' / 'casebase' / 'gtp_reseed.py'}"
    engine = (f"{proxy} --base 1000 -- python -m mcgo gtp --quiet --playouts {args.playouts} "
              f"--casebase default")
    opponent = (f"{proxy} --base 2000 -- python -m mcgo gtp --quiet --playouts {args.playouts} "
                f"--casebase none")
    command = [sys.executable, "-m", "mcgo", "match", "--engine", engine,
               "--opponent", opponent, "--engine-label", f"mcgo-cb-{args.playouts}",
               "--opponent-label", f"mcgo-nocb-{args.playouts}", "-n", str(args.games),
               "--size", "19", "--komi", str(args.komi), "--out", str(args.out)]
    if (args.out / "results.json").exists():
        command.append("--resume")
    print(" ".join(command), file=sys.stderr)
    subprocess.run(command, check=True, cwd=ROOT)


def summarize(out):
    data = json.loads((out / "results.json").read_text())
    summary = data["summary"]
    with_cb, without = data["config"]["labels"]
    wins = summary["wins"][with_cb]
    decided = summary["decided"]
    return {"games": summary["games"], "decided": decided, "wins_with_casebase": wins,
            "wins_without": summary["wins"][without], "share_with_casebase": round(wins / decided, 4) if decided else None,
            "wilson95": rounded(wilson_interval(wins, decided)), "wins_by_color": summary.get("wins_by_color"),
            "commands": data["config"]["commands"], "settings": data["config"]["settings"]}


def plot(result, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4))
    share = result["share_with_casebase"] or 0
    lo, hi = result["wilson95"]
    left.errorbar([0], [share], yerr=[[share - lo], [hi - share]], fmt="o", capsize=8)
    left.axhline(0.5, color="grey", linestyle="--")
    left.set_xlim(-1, 1)
    left.set_xticks([])
    left.set_ylim(0, 1)
    left.set_ylabel("win share of the case-base engine (95% Wilson)")
    left.set_title(f"{result['decided']} games, {result['wins_with_casebase']} wins")
    colours = result["wins_by_color"] or {}
    labels = list(colours)
    for i, colour in enumerate(("black", "white")):
        right.bar([j + 0.4 * i for j in range(len(labels))], [colours[l][colour] for l in labels], 0.4,
                  label=f"wins as {colour}")
    right.set_xticks([j + 0.2 for j in range(len(labels))])
    right.set_xticklabels(labels, fontsize=8)
    right.legend()
    right.set_title("wins by colour")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--playouts", type=int, default=100)
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "runs" / "casebase" / "match19")
    parser.add_argument("--summarize-only", action="store_true")
    parser.add_argument("--plot", type=pathlib.Path)
    args = parser.parse_args(argv)
    if not args.summarize_only:
        run_match(args)
    result = summarize(args.out)
    print(json.dumps(result, indent=1))
    print(f"case base {result['wins_with_casebase']} - {result['wins_without']} none "
          f"({result['decided']} decided), share {result['share_with_casebase']}, 95% {result['wilson95']}")
    if args.plot:
        plot(result, args.plot)
        print(f"wrote {args.plot}")


if __name__ == "__main__":
    main()
