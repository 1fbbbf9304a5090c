"""Answers per second of ``mcgo analysis`` (KataGo's JSON analysis engine, issue 47).

The engine runs as KaTrain runs it, a subprocess reading JSON lines; for each board size one
query asks for ``--turns`` positions of an opening (every turn from the empty board on) at
``--visits`` visits each, after a warm-up query on that size (the first search of a size
loads its kernels and tables: seconds, not counted). The time runs from writing the query
to its last answer; positions are searched ``--workers`` at a time, and a worker whose next
position follows its last one keeps that tree (maxVisits counts the root's visits, the kept
ones included, as KataGo does), as when KaTrain analyses a game turn by turn.

    python benchmarks/speed/analysis_speed.py --visits 500 --json
"""

import json
import os
import pathlib
import subprocess
import sys
import time

import click

from mcgo.apps.bench import machine_facts

ROOT = pathlib.Path(__file__).resolve().parents[2]
# An opening on each size (the star points and an approach), for positions beyond the first.
OPENINGS = {9: ["E5", "C4", "G4", "D7", "F3", "C6", "G6", "D3", "E3", "C3", "E7", "F7"],
            19: ["Q16", "D4", "Q3", "D16", "R5", "C14", "F17", "O17", "C6", "F3", "K4", "R14"]}


def run_engine(workers):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    return subprocess.Popen([sys.executable, "-m", "mcgo", "analysis", "-analysis-threads",
                             str(workers)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)


def timed_query(engine, qid, size, turns, visits):
    """(seconds, answers, root visits) of one query of ``turns`` positions."""
    opening = OPENINGS[size][:max(0, turns - 1)]
    colors = "BW" * len(opening)
    query = {"id": qid, "moves": [[colors[i], m] for i, m in enumerate(opening)],
             "rules": "chinese", "komi": 7.5, "boardXSize": size, "boardYSize": size,
             "analyzeTurns": list(range(len(opening) + 1)), "maxVisits": visits,
             "includeOwnership": True, "includePolicy": True}
    start = time.perf_counter()
    engine.stdin.write(json.dumps(query) + "\n")
    engine.stdin.flush()
    answers, visited = 0, 0
    while answers < len(opening) + 1:
        a = json.loads(engine.stdout.readline())
        if a.get("id") == qid and a.get("isDuringSearch") is False:
            answers += 1
            visited += a["rootInfo"]["visits"]
    return time.perf_counter() - start, answers, visited


@click.command()
@click.option("--visits", type=int, default=500, show_default=True)
@click.option("--turns", type=int, default=10, show_default=True,
              help="Positions per size (turns 0 to N-1 of the opening).")
@click.option("--size", "sizes", multiple=True, type=int, default=[9, 19])
@click.option("--workers", type=int, default=2, show_default=True,
              help="-analysis-threads: positions searched at once.")
@click.option("--json", "as_json", is_flag=True)
def main(visits, turns, sizes, workers, as_json):
    engine = run_engine(workers)
    try:
        rows = []
        for size in sizes:
            timed_query(engine, f"warm-up{size}", size, 1, 50)
            seconds, answers, visited = timed_query(engine, f"size{size}", size, turns, visits)
            rows.append(dict(size=size, visits=visits, workers=workers, answers=answers,
                             seconds=round(seconds, 3),
                             answers_per_second=round(answers / seconds, 3),
                             root_visits_per_second=round(visited / seconds, 1)))
    finally:
        engine.stdin.close()
        engine.wait(60)
    facts = dict(machine=machine_facts(), load_average=list(os.getloadavg()), analysis=rows)
    if as_json:
        print(json.dumps(facts, indent=2))
    else:
        print(f"{'size':>4} {'visits':>6} {'workers':>7} {'answers':>7} {'seconds':>8} "
              f"{'answers/s':>9} {'visits/s':>9}")
        for r in rows:
            print(f"{r['size']:>4} {r['visits']:>6} {r['workers']:>7} {r['answers']:>7} "
                  f"{r['seconds']:>8.2f} {r['answers_per_second']:>9.2f} "
                  f"{r['root_visits_per_second']:>9.0f}")


if __name__ == "__main__":
    main()
