#!/usr/bin/env python
"""A GTP pass-through that gives an engine a new random seed for every game.

mcgo with a fixed ``--seed`` and a fixed number of simulations plays the same game every
time, so a match between two such engines repeats two games. This proxy sends
``set_random_seed BASE+n`` before the n-th ``clear_board`` (reproducible, but every game
different) and passes everything else through unchanged:

    python benchmarks/casebase/gtp_reseed.py --base 1000 -- python -m mcgo gtp --playouts 100

GTP is request/response, so the proxy reads one answer (up to its blank line) per command.
"""

import argparse
import subprocess
import sys


def read_answer(child):
    lines = []
    while True:
        line = child.stdout.readline()
        if not line:
            return "".join(lines), False
        if line.strip() == "" and lines:
            return "".join(lines) + "\n", True
        if line.strip() == "":
            continue
        lines.append(line)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=int, default=1000)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             bufsize=1)
    games = 0
    for line in sys.stdin:
        words = line.split()
        name = words[1] if words and words[0].isdigit() and len(words) > 1 else (words[0] if words else "")
        if name == "clear_board":
            child.stdin.write(f"set_random_seed {args.base + games}\n")
            child.stdin.flush()
            read_answer(child)
            games += 1
        child.stdin.write(line)
        child.stdin.flush()
        if not words:
            continue
        answer, alive = read_answer(child)
        sys.stdout.write(answer)
        sys.stdout.flush()
        if not alive or name == "quit":
            break
    child.stdin.close()
    child.wait()


if __name__ == "__main__":
    main()
