"""Start-up cost (issue 2): seconds to ``import mcgo`` and make the first move, in a fresh
process, with a cold and with a warm Numba cache.

Each run is a new Python process that times ``import mcgo`` and then
``mcgo.Board(19).play("D4")`` (the first call of each kernel it needs loads it from Numba's
cache or compiles it). ``NUMBA_CACHE_DIR`` points at a temporary directory:

* cold: a new empty directory for every run, so every kernel the first move needs compiles;
* warm: one directory, filled by an untimed run first, so every kernel loads from the cache.

Medians of ``--repeat`` runs (3 by default). Besides wall-clock seconds it reports the CPU
seconds of the child process, which other work on a shared machine disturbs far less.

    python benchmarks/speed/startup.py            # table on stderr, JSON on stdout
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

import click

from mcgo.apps.bench import machine_facts

CHILD = r"""
import json, time
t0 = time.perf_counter()
import mcgo
t1 = time.perf_counter()
mcgo.Board(19).play("D4")
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "first_move_s": t2 - t1, "total_s": t2 - t0}))
"""


def run_child(cache_dir):
    """One fresh process; its own timings plus the process's wall and CPU seconds."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, check=True,
                         capture_output=True, text=True).stdout
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    row = json.loads(out.strip().splitlines()[-1])
    row["process_wall_s"] = wall
    row["process_cpu_s"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return row


def median_row(rows):
    return {key: statistics.median(r[key] for r in rows) for key in rows[0]}


@click.command()
@click.option("--repeat", type=int, default=3, show_default=True)
def main(repeat):
    results = {}
    with tempfile.TemporaryDirectory(prefix="mcgo-startup-") as root:
        cold = []
        for i in range(repeat):
            cold.append(run_child(os.path.join(root, f"cold{i}")))
        warm_dir = os.path.join(root, "warm")
        run_child(warm_dir)  # fills the cache, untimed
        warm = [run_child(warm_dir) for _ in range(repeat)]
    results["cold"] = dict(median_row(cold), runs=cold)
    results["warm"] = dict(median_row(warm), runs=warm)
    header = f"{'cache':6} {'import s':>9} {'1st move s':>11} {'both s':>8} {'process s':>10} {'CPU s':>7}"
    lines = [header, "-" * len(header)]
    for name in ("cold", "warm"):
        r = results[name]
        lines.append(f"{name:6} {r['import_s']:9.2f} {r['first_move_s']:11.2f} {r['total_s']:8.2f} "
                     f"{r['process_wall_s']:10.2f} {r['process_cpu_s']:7.2f}")
    print("\n".join(lines) + f"\n(median of {repeat} fresh processes each)", file=sys.stderr)
    print(json.dumps(dict(machine=machine_facts(), repeat=repeat, **results), indent=2))


if __name__ == "__main__":
    main()
