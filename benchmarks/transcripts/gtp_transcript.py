"""A fixed-seed, fixed-simulation self-play game through ``mcgo gtp``, printed move by move:
two versions of mcgo that play alike print the same transcript (issue 10's "no change in
play" check).

    python benchmarks/transcripts/gtp_transcript.py --size 9 --playouts 1000 --seed 1 > after.txt
    (cd ../old-checkout && PYTHONPATH=$PWD python benchmarks/transcripts/gtp_transcript.py ...) > before.txt
    cmp before.txt after.txt

One search thread, no case base, komi 7; ``genmove`` for both sides until two passes or a
resignation, then ``final_score``, ``final_status_list dead`` and ``printsgf``.
"""

import subprocess
import sys

import click

from mcgo.gtp.controller import GtpEngine


@click.command()
@click.option("--size", type=int, default=9, show_default=True)
@click.option("--playouts", type=int, default=1000, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
def main(size, playouts, seed):
    command = [sys.executable, "-m", "mcgo", "gtp", "--playouts", str(playouts), "--seed",
               str(seed), "--quiet", "--threads", "1", "--casebase", "none"]
    with GtpEngine(command, stderr=subprocess.DEVNULL) as engine:
        for setup in (f"boardsize {size}", "komi 7", "clear_board"):
            engine.send(setup)
        passes = 0
        for n in range(3 * size * size):
            color = "b" if n % 2 == 0 else "w"
            answer = engine.send(f"genmove {color}", timeout=600)
            print(color, answer, flush=True)
            if answer.lower() == "resign":
                break
            passes = passes + 1 if answer.lower() == "pass" else 0
            if passes >= 2:
                break
        print("score", engine.send("final_score", timeout=600))
        print("dead", engine.send("final_status_list dead", timeout=600).replace("\n", " | "))
        print("sgf", engine.send("printsgf").replace("\n", " "))


if __name__ == "__main__":
    main()
