"""How fast ``mcgo gtp`` answers after it starts (issue 5: under 2 s with a warm cache).

A fresh ``NUMBA_CACHE_DIR`` is filled by ``mcgo warmup`` (timed: that is the one-off compile
of every kernel, the cold start), then each run starts ``mcgo gtp --quiet`` (19x19, the
shipped case base, 100 playouts a move) and times from the start of the process:

* the answer to ``protocol_version`` (a controller's usual first command), answered while
  the engine loads in the background;
* the answer to ``boardsize 19`` (the first command that needs the engine);
* the answer to the first ``genmove b``.

Medians of ``--repeat`` runs; JSON on stdout, a table on stderr.

    python benchmarks/speed/gtp_startup.py --repeat 5
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import click

from mcgo.apps.bench import machine_facts

COMMANDS = [("first_answer_s", "protocol_version"), ("boardsize_s", "boardsize 19"),
            ("genmove_s", "genmove b")]


def read_reply(stream):
    lines = []
    while True:
        line = stream.readline()
        if line == "":
            raise RuntimeError("mcgo gtp ended early: " + "".join(lines))
        if line == "\n" and lines:
            return "".join(lines)
        if line != "\n":
            lines.append(line)


def one_run(env):
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "mcgo", "gtp", "--quiet", "--playouts", "100"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    row = {}
    try:
        for key, command in COMMANDS:
            proc.stdin.write(command + "\n")
            proc.stdin.flush()
            reply = read_reply(proc.stdout)
            if not reply.startswith("="):
                raise RuntimeError(f"{command}: {reply}")
            row[key] = time.perf_counter() - start
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        proc.wait(timeout=60)
    finally:
        proc.kill()
    return row


@click.command()
@click.option("--repeat", type=int, default=5, show_default=True)
def main(repeat):
    with tempfile.TemporaryDirectory(prefix="mcgo-gtp-startup-") as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mcgo", "warmup"], env=env, check=True,
                       capture_output=True)
        warmup = time.perf_counter() - start
        runs = [one_run(env) for _ in range(repeat)]
    median = {key: round(statistics.median(r[key] for r in runs), 3) for key, _ in COMMANDS}
    print(f"mcgo warmup with an empty cache (compiles every kernel): {warmup:.1f} s",
          file=sys.stderr)
    print(f"warm start, median of {repeat}: first answer {median['first_answer_s']:.2f} s, "
          f"boardsize {median['boardsize_s']:.2f} s, first genmove {median['genmove_s']:.2f} s",
          file=sys.stderr)
    print(json.dumps(dict(machine=machine_facts(), load_average=os.getloadavg(),
                          cold_warmup_s=round(warmup, 2), warm=median, runs=runs), indent=2))


if __name__ == "__main__":
    main()
