"""How long ``mcgo review`` takes (issue 47): one long 19x19 game on local processes, and
the same set of games on ``--ray auto`` against ``--jobs N``.

Each run is ``python -m mcgo review ... --json`` in a fresh output folder (nothing to
resume), timed from the start of the process to its end, so the start-up of the workers
(loading the kernels and the move model) is counted; the searches' own seconds come from
the review's numbers. The machine's load average before and after each run is recorded:
on a shared machine the wall times depend on it.

The full measurement (issue 47's): moves 1-250 of a 19x19 professional game at 1,000
simulations a position with ``--jobs 2``, and 20 games on ``--ray auto`` against ``--jobs 2``:

    python benchmarks/review/review_speed.py --game data/goban-original-games/usr/share/goban/Hon-45-1.sgf \\
        --moves 1-250 --visits 1000 --jobs 2 --games 20 --games-visits 1000

A small version (a loaded machine): ``--moves 1-30`` and ``--games 4 --games-visits 200``
on 9x9 match games. JSON on stdout, a table on stderr.
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import zipfile

import click

from mcgo.apps.bench import machine_facts

ROOT = pathlib.Path(__file__).resolve().parents[2]
DEFAULT_GAME = ROOT / "data" / "goban-original-games" / "usr" / "share" / "goban" / "Hon-45-1.sgf"
MATCH_GAMES = ROOT / "benchmarks" / "matches" / "11190aa-vs-pachi-9x9" / "games.zip"


def load():
    return round(os.getloadavg()[0], 2)


def timed_review(games, out, extra):
    """Run ``mcgo review GAMES -o OUT EXTRA --json``; its figures."""
    before = load()
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mcgo", "review", *map(str, games), "-o",
                           str(out), "--json", *extra], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise click.ClickException(f"mcgo review failed: {done.stderr[-2000:]}")
    document = json.loads(done.stdout)
    positions = [p for g in document["games"] for p in g["positions"]]
    search_s = sum(p["seconds"] for p in positions)
    simulations = sum(p["simulations"] for p in positions)
    return {"games": len(document["games"]), "positions": len(positions),
            "wall_s": round(wall, 2), "positions_per_s": round(len(positions) / wall, 3),
            "search_s": round(search_s, 2), "simulations": simulations,
            "simulations_per_search_s": round(simulations / search_s) if search_s else None,
            "load_before": before, "load_after": load()}


def match_games(folder, count):
    """``count`` 9x9 games of the committed match against Pachi, written to ``folder``."""
    with zipfile.ZipFile(MATCH_GAMES) as z:
        names = sorted(n for n in z.namelist() if n.endswith(".sgf"))[:count]
        paths = []
        for name in names:
            path = folder / name
            path.write_bytes(z.read(name))
            paths.append(path)
    return paths


@click.command()
@click.option("--game", type=click.Path(exists=True, dir_okay=False), default=str(DEFAULT_GAME),
              show_default=True, help="The long game.")
@click.option("--moves", default="1-250", show_default=True, help="Its moves reviewed.")
@click.option("--visits", type=int, default=1000, show_default=True,
              help="Simulations a position of the long game.")
@click.option("--jobs", type=int, default=2, show_default=True, help="Local processes.")
@click.option("--games", "game_count", type=int, default=20, show_default=True,
              help="Games reviewed on Ray and on --jobs (0: none).")
@click.option("--games-from", type=click.Path(exists=True), default=None,
              help="A folder of SGF games for the Ray comparison [default: the committed "
                   "9x9 match against Pachi].")
@click.option("--games-visits", type=int, default=1000, show_default=True,
              help="Simulations a position of those games.")
def main(game, moves, visits, jobs, game_count, games_from, games_visits):
    """Time mcgo review: a long game on --jobs, and a set of games on Ray and on --jobs."""
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        row = timed_review([game], tmp / "long", ["--moves", moves, "--visits", str(visits),
                                                  "--jobs", str(jobs)])
        runs.append(dict(what=f"{pathlib.Path(game).name} moves {moves}", visits=visits,
                         where=f"--jobs {jobs}", **row))
        if game_count:
            folder = tmp / "games"
            folder.mkdir()
            if games_from:
                paths = sorted(pathlib.Path(games_from).glob("*.sgf"))[:game_count]
            else:
                paths = match_games(folder, game_count)
            for where, extra in ((f"--jobs {jobs}", ["--jobs", str(jobs)]),
                                 ("--ray auto", ["--ray", "auto"])):
                row = timed_review(paths, tmp / where.replace(" ", ""),
                                   ["--visits", str(games_visits), *extra])
                runs.append(dict(what=f"{len(paths)} games", visits=games_visits, where=where,
                                 **row))
    click.echo(json.dumps({"machine": machine_facts(), "runs": runs}, indent=2))
    header = f"{'review':32} {'visits':>6} {'where':11} {'positions':>9} {'wall s':>8} " \
             f"{'pos/s':>6} {'sims/search-s':>13} {'load':>9}"
    lines = [header, "-" * len(header)]
    for r in runs:
        lines.append(f"{r['what']:32} {r['visits']:>6} {r['where']:11} {r['positions']:>9} "
                     f"{r['wall_s']:>8.1f} {r['positions_per_s']:>6.2f} "
                     f"{r['simulations_per_search_s'] or 0:>13,} "
                     f"{r['load_before']:>4}-{r['load_after']:<4}")
    click.echo("\n".join(lines), err=True)


if __name__ == "__main__":
    main()
