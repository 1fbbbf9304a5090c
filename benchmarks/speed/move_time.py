"""Does ``mcgo gtp`` keep to its time a move? The wall time from sending ``genmove`` to its
answer, against the ``--seconds`` budget, on 19x19 after ten opening moves.

Everything a move costs counts: the case base's advice and the root priors (seed 003's 1-ply
ranker with ``--ownership-prior``, about a quarter of a second on 19x19) come out of the
budget, not on top of it. The first ``genmove`` is left out of the median (it may wait for
the engine's start-up, which the rule "a move's time runs from when its command arrived"
covers, see gtp_startup.py).

    python benchmarks/speed/move_time.py -- --ownership-net dagrnn --ownership-prior 10
    python benchmarks/speed/move_time.py --cwd OLD_CHECKOUT -- --ownership-net dagrnn --ownership-prior 10

JSON on stdout, a line on stderr. Arguments after ``--`` go to ``mcgo gtp``.
"""

import json
import os
import statistics
import subprocess
import sys
import time

import click

from gtp_startup import read_reply

OPENING = ["Q16", "D4", "Q4", "D16", "C14", "R10", "F17", "K4", "O3", "C6"]


def ask(proc, command):
    proc.stdin.write(command + "\n")
    proc.stdin.flush()
    reply = read_reply(proc.stdout)
    if not reply.startswith("="):
        raise RuntimeError(f"{command}: {reply}")
    return reply


@click.command()
@click.option("--seconds", type=float, default=2.0, show_default=True,
              help="mcgo gtp --seconds: the budget of a move")
@click.option("--moves", type=int, default=6, show_default=True,
              help="genmove commands, alternating colours (the first is not in the median)")
@click.option("--cwd", default=None, help="run `python -m mcgo` from this checkout")
@click.argument("gtp_args", nargs=-1)
def main(seconds, moves, cwd, gtp_args):
    proc = subprocess.Popen([sys.executable, "-m", "mcgo", "gtp", "--quiet",
                             "--seconds", str(seconds), *gtp_args], cwd=cwd,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    times = []
    try:
        for command in ["boardsize 19", "clear_board", "komi 7.5"]:
            ask(proc, command)
        for i, move in enumerate(OPENING):
            ask(proc, f"play {'bw'[i % 2]} {move}")
        for i in range(moves):
            start = time.perf_counter()
            ask(proc, f"genmove {'bw'[i % 2]}")
            times.append(time.perf_counter() - start)
        ask(proc, "quit")
    finally:
        proc.kill()
    median = statistics.median(times[1:] or times)
    print(f"budget {seconds:.2f} s, median move {median:.3f} s "
          f"({' '.join(f'{t:.2f}' for t in times)})", file=sys.stderr)
    print(json.dumps(dict(gtp_args=list(gtp_args), cwd=cwd, seconds=seconds,
                          load_average=os.getloadavg(), move_times=[round(t, 3) for t in times],
                          median_s=round(median, 3)), indent=2))


if __name__ == "__main__":
    main()
