"""Simulations per second of the engine a user gets (``mcgo gtp`` with its defaults: the
move model, the policy nets), two checkouts alternating in one run.

Each run starts ``mcgo gtp --playouts N --seed 1`` from a checkout, sets up a position a
few moves into a game and answers ``genmove`` (``--playouts``, which older checkouts know); the rate is the search's own summary (its
simulations over its wall time, on stderr), so the start-up is not counted. The two
checkouts alternate, ``--repeat`` runs each, and the medians and their ratio are printed:
the check that a change meant not to alter play does not slow it (issue 75). Run it on an
otherwise idle machine.

    python benchmarks/speed/gtp_speed.py --old ../checkout-of-7d68fb2 --new . --repeat 5 --json
"""

import json
import re
import statistics
import subprocess
import sys

import click

POSITIONS = {9: ["E5", "C3", "G7"], 19: ["Q16", "D4", "Q4", "D16"]}
SIMULATIONS = {9: 50_000, 19: 20_000}   # about 3 s each: the summary gives 0.01 s
SUMMARY = re.compile(r"(\d+) simulations in ([0-9.]+)s")


def rate(checkout, size):
    """Simulations per wall second of one genmove of the checkout's ``mcgo gtp``."""
    colours = "bw"
    lines = [f"boardsize {size}", "komi 7", "clear_board"]
    lines += [f"play {colours[i % 2]} {m}" for i, m in enumerate(POSITIONS[size])]
    lines += [f"genmove {colours[len(POSITIONS[size]) % 2]}", "quit"]
    done = subprocess.run([sys.executable, "-m", "mcgo", "gtp", "--playouts",
                           str(SIMULATIONS[size]), "--seed", "1"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          cwd=checkout, timeout=600, env={"PYTHONPATH": checkout,
                                                          "PATH": "/usr/bin:/bin",
                                                          "HOME": "/tmp"})
    found = SUMMARY.findall(done.stderr)
    if not found:
        raise click.ClickException(f"{checkout}: no search summary: {done.stderr[-500:]}")
    simulations, seconds = found[-1]
    return int(simulations) / float(seconds)


@click.command()
@click.option("--old", required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--new", required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--repeat", type=click.IntRange(1), default=5, show_default=True)
@click.option("--json", "as_json", is_flag=True)
def main(old, new, repeat, as_json):
    import os
    old, new = os.path.abspath(old), os.path.abspath(new)
    rates = {(name, size): [] for name in ("old", "new") for size in POSITIONS}
    for _ in range(repeat):
        for size in POSITIONS:
            for name, checkout in (("old", old), ("new", new)):
                rates[name, size].append(rate(checkout, size))
    out = {"repeat": repeat, "simulations": SIMULATIONS, "sizes": {}}
    for size in POSITIONS:
        o, n = (statistics.median(rates[k, size]) for k in ("old", "new"))
        out["sizes"][size] = {"old": round(o), "new": round(n), "ratio": round(n / o, 3),
                              "old_runs": [round(r) for r in rates["old", size]],
                              "new_runs": [round(r) for r in rates["new", size]]}
    if as_json:
        click.echo(json.dumps(out, indent=1))
    for size, row in out["sizes"].items():
        click.echo(f"{size}x{size}: old {row['old']}/s, new {row['new']}/s, "
                   f"new/old {row['ratio']}")


if __name__ == "__main__":
    main()
