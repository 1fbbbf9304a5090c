"""mcgo's playouts beside Pachi's, in the same run (issue 46): light against light, and the
playouts the 19x19 search uses against Pachi's moggy.

Both sides count the same thing: **whole playouts from the empty board to the end**, one
thread, per CPU-second of the thread or process that plays them.

* mcgo: ``mcgo.apps.bench.run_bench`` (what ``mcgo bench`` runs) from the empty board:
  each playout copies the position, plays until two passes in a row (or the cap of
  3 x size x size moves) and scores the board.
* Pachi: its ``montecarlo`` engine (``pachi -e montecarlo playout=light|moggy``) answering
  ``genmove b`` on the empty board with a fixed number N of playouts (``-t =N``): each
  copies the board, plays one random first move and then the playout policy until two
  passes, and scores. Its ``gamelen`` is set to mcgo's cap (Pachi's default of 400 moves
  would cut 19x19 light playouts short: they run about 450 moves). Its loop runs exactly N
  playouts (it would stop early only if none of the first 5,000 were lost, which from the
  empty board does not happen; a release build prints no count). The CPU time is its
  process's during that ``genmove`` (``/proc``), so start-up is not counted.

The pairs: mcgo ``random`` against Pachi ``light`` (uniform moves that do not fill an own
eye); against Pachi ``moggy``, mcgo ``auto`` (the search's default policy: on 19x19 the
random fill for the first 40 moves of the game, so the fill from the empty board) and
``pattern`` (what ``auto`` plays after move 40, and on smaller boards). The two programs
take turns, ``--repeat`` times, and the table gives medians and ratios (mcgo over Pachi).

    python benchmarks/speed/pachi_playouts.py --seconds 3 --repeat 5 --json > benchmarks/speed/pachi_playouts.json
"""

import json
import os
import statistics
import sys
import time

import click

from mcgo.apps.bench import machine_facts, run_bench
from mcgo.gtp.controller import GtpEngine
from mcgo.match.opponents import EngineNameError, pachi_binary
from mcgo.playout.common import MOVE_CAP_FACTOR
from search_speed import process_cpu_seconds

# mcgo policy -> the Pachi playout it is compared with.
PAIRS = {"random": "light", "auto": "moggy", "pattern": "moggy"}


class PachiPlayouts:
    """A Pachi montecarlo engine with the playout policy ``playout`` on a ``size`` board,
    playing ``playouts`` playouts from the empty board per :meth:`measure`."""

    def __init__(self, binary, size, playout, playouts):
        self.playouts = playouts
        args = [str(binary), "-D", "-e", "montecarlo", "-t", f"={playouts}",
                f"playout={playout},gamelen={MOVE_CAP_FACTOR * size * size}"]
        self.engine = GtpEngine(args, cwd=str(binary.parent))
        for command in (f"boardsize {size}", "komi 7.5"):
            self.engine.send(command, timeout=60)

    def measure(self):
        """One ``genmove`` on the empty board: a dict of playouts, CPU and wall seconds."""
        self.engine.send("clear_board", timeout=60)
        cpu0 = process_cpu_seconds(self.engine.process.pid)
        t0 = time.perf_counter()
        self.engine.send("genmove b", timeout=600)
        wall = time.perf_counter() - t0
        cpu = process_cpu_seconds(self.engine.process.pid) - cpu0
        return dict(playouts=self.playouts, cpu_seconds=cpu, seconds=wall,
                    playouts_per_second=self.playouts / wall,
                    playouts_per_cpu_second=self.playouts / max(cpu, 1e-9))

    def close(self):
        self.engine.close()


def pachi_engine(binary, size, playout, seconds):
    """A :class:`PachiPlayouts` sized from a short calibration run to about ``seconds``."""
    guess = max(100, int(2000 * 361 / (size * size)))
    probe = PachiPlayouts(binary, size, playout, guess if playout == "light" else guess // 4)
    try:
        rate = probe.measure()["playouts_per_cpu_second"]
    finally:
        probe.close()
    return PachiPlayouts(binary, size, playout, max(100, int(rate * seconds)))


def median(rows, key):
    return statistics.median(r[key] for r in rows)


@click.command()
@click.option("--size", "sizes", multiple=True, type=int, default=[19, 9], show_default=True)
@click.option("--policy", "policies", multiple=True, type=click.Choice(sorted(PAIRS)),
              default=["random", "auto", "pattern"], show_default=True,
              help="mcgo policies, each beside its Pachi playout.")
@click.option("--seconds", type=float, default=3.0, show_default=True,
              help="About how long each measurement runs.")
@click.option("--repeat", type=int, default=5, show_default=True)
@click.option("--json", "as_json", is_flag=True)
def main(sizes, policies, seconds, repeat, as_json):
    try:
        binary = pachi_binary()
    except EngineNameError as exc:
        raise click.ClickException(str(exc))
    rows = []
    for size in sizes:
        engines = {p: pachi_engine(binary, size, p, seconds)
                   for p in dict.fromkeys(PAIRS[policy] for policy in policies)}
        mcgo_runs = {policy: [] for policy in policies}
        pachi_runs = {p: [] for p in engines}
        try:
            for i in range(repeat):
                for policy in policies:            # each Pachi playout right after its first pair
                    mcgo_runs[policy].append(run_bench(policy, size, seconds, 1, "empty",
                                                       seed=1 + i))
                    pachi = PAIRS[policy]
                    if len(pachi_runs[pachi]) == i:
                        pachi_runs[pachi].append(engines[pachi].measure())
                print(f"{size}x{size} repeat {i + 1}/{repeat}: " + ", ".join(
                    f"{p} {runs[-1]['playouts_per_cpu_second']:,.0f}"
                    for p, runs in list(mcgo_runs.items()) + [(f"pachi {k}", v) for k, v
                                                                in pachi_runs.items()]),
                      file=sys.stderr)
        finally:
            for engine in engines.values():
                engine.close()
        for policy in policies:
            mine, theirs = mcgo_runs[policy], pachi_runs[PAIRS[policy]]
            mcgo_rate = median(mine, "playouts_per_cpu_second")
            pachi_rate = median(theirs, "playouts_per_cpu_second")
            rows.append(dict(
                size=size, mcgo_policy=policy, pachi_playout=PAIRS[policy], repeats=repeat,
                mcgo_playouts_per_cpu_second=round(mcgo_rate, 1),
                mcgo_playouts_per_second=round(median(mine, "playouts_per_second"), 1),
                mcgo_moves_per_playout=round(median(mine, "moves_per_playout"), 1),
                pachi_playouts_per_cpu_second=round(pachi_rate, 1),
                pachi_playouts_per_second=round(median(theirs, "playouts_per_second"), 1),
                pachi_playouts_per_measure=theirs[0]["playouts"],
                ratio_per_cpu_second=round(mcgo_rate / pachi_rate, 3),
                mcgo_runs=[r["playouts_per_cpu_second"] for r in mine],
                pachi_runs=[round(r["playouts_per_cpu_second"], 1) for r in theirs]))
    load = [round(x, 2) for x in os.getloadavg()]
    if as_json:
        print(json.dumps(dict(machine=machine_facts(), load_average=load, pachi=str(binary.name),
                              rows=rows), indent=2))
        return
    print(f"playouts per CPU-second from the empty board, medians of {repeat}; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"{'size':>5} {'mcgo':8} {'mcgo/cpu-s':>11} {'moves/po':>9} {'pachi':6} "
          f"{'pachi/cpu-s':>11} {'ratio':>6}")
    for r in rows:
        print(f"{r['size']:>2}x{r['size']:<2} {r['mcgo_policy']:8} "
              f"{r['mcgo_playouts_per_cpu_second']:>11,.0f} {r['mcgo_moves_per_playout']:>9.1f} "
              f"{r['pachi_playout']:6} {r['pachi_playouts_per_cpu_second']:>11,.0f} "
              f"{r['ratio_per_cpu_second']:>6.2f}")


if __name__ == "__main__":
    main()
