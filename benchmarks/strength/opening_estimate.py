#!/usr/bin/env python
"""Who came out of the opening ahead, by GNU Go's judgement (issue 12).

For each game of a ``mcgo match --out`` folder, GNU Go 3.8's ``estimate_score`` of the
position after each of ``--at`` moves (a game that ended sooner is left out there), seen
from the engine named by ``--player`` (a substring of PB/PW): points ahead, komi included.
Also how the engine used the empty corners: of its moves played while some corner's 7x7 square
was empty, how many went into one (:mod:`mcgo.match.openings`; professionals: 88-100% of
moves 1-4). ``--katago COMMAND`` judges by KataGo's raw score lead instead (one visit of its
net, ``benchmarks/yardstick.py``), a stronger judge than ``estimate_score``. Prints JSON (per
game and the mean and median at each move) and a short table.
Two matches of two versions against one opponent compare their openings with much less
noise than their wins and losses do.

    python benchmarks/strength/opening_estimate.py benchmarks/matches/19x19-vs-pachi-fd0ddd7 \\
        --player mcgo --at 20,40,60
"""

import json
import pathlib
import re
import shutil
import statistics
import subprocess
import sys

import click

from mcgo.board.kernels import BLACK, WHITE
from mcgo.match.archive import extracted_games
from mcgo.match.openings import corner_openings
from mcgo.sgf import ReplayError, SgfError, read_game, replay

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
import yardstick  # noqa: E402

GNUGO_LEVEL = 8         # estimate_score reads less at lower levels; 8 is quick and stable
ESTIMATE = re.compile(r"^= ([BW])\+([0-9.]+)")


class GnuGo:
    """GNU Go over GTP, for ``loadsgf`` and ``estimate_score``."""

    def __init__(self, command):
        self.process = subprocess.Popen(command + ["--mode", "gtp", "--level", str(GNUGO_LEVEL)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        lines = []
        while True:
            text = self.process.stdout.readline()
            if not text:
                raise RuntimeError(f"GNU Go stopped after {line!r}")
            if text.strip() == "" and lines:
                return " ".join(lines)
            if text.strip():
                lines.append(text.strip())

    def black_lead(self, path, moves):
        """Black's lead by ``estimate_score`` after the first ``moves`` moves of a file."""
        answer = self.send(f"loadsgf {path} {moves + 1}")
        if not answer.startswith("="):
            raise RuntimeError(f"loadsgf {path}: {answer}")
        answer = self.send("estimate_score")
        found = ESTIMATE.match(answer)
        if not found:
            return 0.0 if answer.startswith("= 0") else None
        lead = float(found.group(2))
        return lead if found.group(1) == "B" else -lead

    def black_leads(self, wanted):
        """:meth:`black_lead` of each ``(path, moves)`` in ``wanted``."""
        return [self.black_lead(path, moves) for path, moves in wanted]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


class KataGo:
    """KataGo's raw score lead (one visit of its net), every position in one process."""

    def __init__(self, command):
        self.command = command

    def black_leads(self, wanted):
        """Black's lead after the first ``moves`` moves of each ``(path, moves)`` in ``wanted``
        (None where the game cannot be replayed or KataGo refuses it)."""
        queries, records = [], {}
        for i, (path, moves) in enumerate(wanted):
            try:
                if path not in records:     # each game read once, whatever its move numbers
                    records[path] = read_game(path)
                q = yardstick.board_query(i, replay(records[path], max_moves=moves))
            except (SgfError, ReplayError, ValueError):
                q = None
            if q is not None:
                queries.append(q)
        found = yardstick.evaluate(queries, self.command)
        return [found[str(i)]["scoreLead"] if str(i) in found else None
                for i in range(len(wanted))]

    def close(self):
        pass


def judge_openings(paths, player, points, judge):
    """({game: colour, result, leads by move, corner moves}, skipped games) of the engine
    named ``player`` in the games at ``paths``, judged by ``judge`` (:class:`GnuGo` or
    :class:`KataGo`)."""
    games, skipped, wanted, signs = {}, [], [], []
    for path in paths:
        try:
            record = read_game(path)
        except SgfError as e:
            skipped.append(f"{path.name}: {e}")
            continue
        if (player in record.black) == (player in record.white):
            skipped.append(f"{path.name}: {player!r} is not one side")
            continue
        sign = 1.0 if player in record.black else -1.0
        for n in points:
            if n <= len(record.moves):
                wanted.append((path.resolve(), n))
                signs.append((path.name, n, sign))
        by_move, _ = corner_openings([record], moves=len(record.moves),
                                     color=BLACK if sign > 0 else WHITE)
        corner_moves = [sum(v[i] for v in by_move.values()) for i in (0, 1)]
        games[path.name] = dict(color="B" if sign > 0 else "W", result=record.result,
                                lead={}, corner_moves=corner_moves)
    try:
        leads = judge.black_leads(wanted)
    finally:
        judge.close()
    for (name, n, sign), lead in zip(signs, leads):
        if lead is not None:
            games[name]["lead"][n] = sign * lead
    return games, skipped


@click.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False))
@click.option("--player", required=True, help="A substring of the engine's name in PB/PW.")
@click.option("--at", "at", default="20,40,60", show_default=True,
              help="Comma-separated move numbers after which to ask GNU Go.")
@click.option("--gnugo", default="gnugo", show_default=True, help="The GNU Go command.")
@click.option("--katago", metavar="COMMAND", default=None,
              help="Judge by a KataGo analysis engine's raw score lead instead (its config "
                   "reporting as Black).")
def main(folder, player, at, gnugo, katago):
    try:
        points = sorted({int(x) for x in at.split(",")})
    except ValueError:
        raise click.BadParameter(f"{at!r}: give move numbers such as 20,40,60", param_hint="--at")
    if not points or points[0] < 1:
        raise click.BadParameter("move numbers start at 1", param_hint="--at")
    command = shutil.which(gnugo) or shutil.which("gnugo", path="/usr/games")
    if command is None and not katago:
        raise click.UsageError(f"GNU Go not found ({gnugo!r}); install gnugo")
    with extracted_games(folder) as named:
        paths = [path for _, path in named]
        if not paths:
            raise click.UsageError(f"{folder}: no games (games.zip, or games/*.sgf)")
        judge = KataGo(katago) if katago else GnuGo([command])
        games, skipped = judge_openings(paths, player, points, judge)
    summary = {}
    for n in points:
        leads = [g["lead"][n] for g in games.values() if n in g["lead"]]
        if leads:
            summary[n] = dict(games=len(leads), mean=round(statistics.fmean(leads), 1),
                              median=round(statistics.median(leads), 1),
                              ahead=sum(x > 0 for x in leads))
    corner = [sum(g["corner_moves"][i] for g in games.values()) for i in (0, 1)]
    print(json.dumps(dict(folder=str(folder), player=player,
                          judge="KataGo's raw score lead" if katago else f"GNU Go level {GNUGO_LEVEL}",
                          games=games, summary=summary, corner_moves=corner, skipped=skipped),
                     indent=1))
    click.echo(f"{'after move':>10} {'games':>6} {'mean lead':>10} {'median':>8} {'ahead':>6}",
               err=True)
    for n, s in summary.items():
        click.echo(f"{n:>10} {s['games']:>6} {s['mean']:>10} {s['median']:>8} {s['ahead']:>6}",
                   err=True)
    click.echo(f"moves while a corner was empty: {corner[0]}, into an empty corner: {corner[1]}",
               err=True)


if __name__ == "__main__":
    main()
