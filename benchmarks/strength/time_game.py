"""One game of mcgo against GNU Go under a game clock, kept by a small GTP referee as a
server keeps it: does mcgo spend its time as planned, and does anyone lose on time?

The referee tells both engines the time settings, sends ``time_left`` before every
``genmove`` (the seconds left and, in byo-yomi, the stones of the period, or with
``--byoyomi`` the periods left, as KGS sends them), times each ``genmove`` by the wall clock
and charges it to the mover's clock: absolute time, Canadian byo-yomi (``time_settings MAIN
BYO STONES``) or, with ``--byoyomi``, Japanese byo-yomi (mcgo gets ``kgs-time_settings
byoyomi MAIN BYO PERIODS``; GNU Go, which has no such command, ``time_settings MAIN BYO 1``).
A side whose clock runs out loses on time and the game ends there; so does an engine that
fails, hangs or answers an illegal move (checked on mcgo's board, positional superko). A
finished game is scored by GNU Go's ``final_score``.

    python benchmarks/strength/time_game.py --size 19 --time-settings "300 30 1" --out runs/time-300-30-1
    python benchmarks/strength/time_game.py --size 19 --time-settings "600 60 10" --out runs/time-600-60-10
    python benchmarks/strength/time_game.py --size 9 --time-settings "20 2 1" --out runs/time-9x9

The folder gets ``game.sgf`` (each move's comment: its seconds and the clock after it),
``moves.json`` (every move: number, colour, engine, move, seconds, the clock after it, and
for mcgo its plan and how its search stopped, read from its log) and ``mcgo.log`` (mcgo's
stderr). The summary is printed as JSON on stdout and a table of seconds by move number on
stderr.
"""

import datetime
import json
import pathlib
import re
import shlex
import sys
import time

import click

from mcgo.board import BLACK, WHITE, Board, coords
from mcgo.gtp.controller import GtpEngine, GtpClientError
from mcgo.match.scoring import parse_score, referee_score, result_text
from mcgo.match.settings import DEFAULT_REFEREE, GNUGO, MatchSettings, recorded_command
from mcgo.sgf import record_from_board, write_sgf

MCGO = f"{shlex.quote(sys.executable)} -m mcgo gtp"
MCGO_RECORDED = "python -m mcgo gtp"    # the summary names the interpreter, not where it is
OPPONENT = f"{GNUGO} --mode gtp --chinese-rules --capture-all-dead --positional-superko --level 10"
LETTER = {BLACK: "b", WHITE: "w"}
HANG_MARGIN = 60.0      # a genmove this long past the time its clock allows is a hang
PLAN = re.compile(r"simulations in ([\d.]+)s .*plan ([\d.]+)s up to ([\d.]+)s, ([\w+]+)")


class Clock:
    """One side's clock by the rules of its time system (``japanese``: ``count`` periods of
    ``byo`` seconds; else Canadian, ``count`` stones a period; ``byo`` 0: absolute)."""

    def __init__(self, main, byo, count, japanese=False):
        self.byo, self.count, self.japanese = float(byo), int(count), japanese
        self.main_left = float(main)
        self.in_byoyomi = main == 0 and byo > 0
        self.period_left, self.count_left = self.byo, self.count
        self.lost = False

    def time_left(self, letter):
        """The ``time_left`` command a server sends before this side's move."""
        if self.in_byoyomi:
            return f"time_left {letter} {int(self.period_left)} {self.count_left}"
        return f"time_left {letter} {int(self.main_left)} 0"

    def allowed(self):
        """The most the next move may take without losing on time."""
        main = 0.0 if self.in_byoyomi else self.main_left
        if self.byo == 0:
            return main
        period = self.period_left if self.in_byoyomi else self.byo
        if not self.japanese:
            return main + period
        periods = self.count_left if self.in_byoyomi else self.count
        return main + period + (periods - 1) * self.byo

    def charge(self, seconds):
        if not self.in_byoyomi:
            if seconds < self.main_left or self.byo == 0:
                self.main_left -= seconds
                self.lost = self.main_left < 0
                return
            seconds -= self.main_left
            self.main_left, self.in_byoyomi = 0.0, True
            self.period_left, self.count_left = self.byo, self.count
        if not self.japanese:
            self.period_left -= seconds
            self.lost = self.period_left < 0
            self.count_left -= 1
            if self.count_left == 0:
                self.period_left, self.count_left = self.byo, self.count
            return
        while seconds > self.period_left:
            seconds -= self.period_left
            self.count_left -= 1
            if self.count_left == 0:
                self.lost = True
                return
            self.period_left = self.byo
        self.period_left = self.byo

    def state(self):
        if not self.in_byoyomi:
            return {"main_left": round(max(self.main_left, 0.0), 2)}
        key = "periods_left" if self.japanese else "stones_left"
        return {"period_left": round(max(self.period_left, 0.0), 2), key: self.count_left}


def settings_commands(main, byo, count, japanese):
    """(mcgo's time command, GNU Go's)."""
    if japanese:
        return f"kgs-time_settings byoyomi {main} {byo} {count}", f"time_settings {main} {byo} 1"
    command = f"time_settings {main} {byo} {count}"
    return command, command


def play(engines, names, clocks, board, move_cap):
    """Alternate genmove and play until two passes, a resignation, a loss on time or the
    cap; returns (how it ended, the moves' records)."""
    moves = []
    while True:
        if board.consecutive_passes >= 2:
            return "two passes", moves
        if len(board.moves) >= move_cap:
            return "move cap", moves
        color = board.to_move
        engine, clock = engines[color], clocks[color]
        try:
            engine.send(clock.time_left(LETTER[color]))
            started = time.monotonic()
            answer = engine.send(f"genmove {LETTER[color]}",
                                 timeout=clock.allowed() + HANG_MARGIN)
        except GtpClientError as fault:
            moves.append({"number": len(moves) + 1, "color": LETTER[color],
                          "engine": names[color], "move": None, "fault": str(fault)})
            return "fault", moves
        used = time.monotonic() - started
        clock.charge(used)
        entry = {"number": len(moves) + 1, "color": LETTER[color], "engine": names[color],
                 "move": answer.strip().lower(), "seconds": round(used, 3), **clock.state()}
        moves.append(entry)
        if clock.lost:
            return "time", moves
        if entry["move"] == "resign":
            return "resignation", moves
        try:
            point = coords.from_gtp(entry["move"], board.size)
        except ValueError:
            point, reason = None, "not a move"
        else:
            reason = board.legality(point, color)
        if reason is not None:
            entry["fault"] = f"{answer!r}: {reason}"
            return "fault", moves
        board.play(point, color)
        engines[3 - color].send(f"play {LETTER[color]} {coords.to_gtp(point, board.size)}")


def attach_plans(moves, log_text):
    """mcgo's plan of each of its moves, from its log's lines (one a genmove, in order)."""
    plans = [m.groups() for m in PLAN.finditer(log_text)]
    ours = [m for m in moves if m["engine"] == "mcgo"]
    if len(plans) != len(ours):
        return False
    for move, (searched, desired, worst, how) in zip(ours, plans):
        move.update(searched=float(searched), desired=float(desired), worst=float(worst),
                    stopped=how)
    return True


def stop_counts(moves):
    """How many of mcgo's searches stopped as planned, were extended, were settled early."""
    hows = [m["stopped"].split("+") for m in moves if "stopped" in m]
    return {how: sum(how in h for h in hows) for how in ("planned", "extended", "settled")}


def result_of(end, moves, board, settings):
    if end in ("time", "fault"):
        return ("W" if moves[-1]["color"] == "b" else "B") + ("+T" if end == "time" else "+F"), \
            moves[-1].get("fault")
    if end == "resignation":
        return ("W" if moves[-1]["color"] == "b" else "B") + "+R", None
    score, problem = referee_score(DEFAULT_REFEREE, settings, board.moves)
    margin = parse_score(score)
    if margin is None:
        return result_text(board.score()), f"referee failed ({problem}): Tromp-Taylor count"
    return result_text(margin), None


def table(moves, bucket):
    """Mean seconds a move of each engine, by ``bucket`` moves, and the clocks after."""
    lines = [f"{'moves':>9} {'mcgo s':>8} {'gnugo s':>8}  mcgo clock after"]
    for first in range(1, len(moves) + 1, bucket):
        part = moves[first - 1:first - 1 + bucket]
        cells = []
        for name in ("mcgo", "gnugo"):
            own = [m["seconds"] for m in part if m["engine"] == name and "seconds" in m]
            cells.append(f"{sum(own) / len(own):8.2f}" if own else f"{'':>8}")
        last = [m for m in part if m["engine"] == "mcgo"][-1:]
        clock = " ".join(f"{k} {v}" for k, v in last[0].items()
                         if k.endswith("_left")) if last else ""
        lines.append(f"{first:>4}-{first + len(part) - 1:<4} {cells[0]} {cells[1]}  {clock}")
    return "\n".join(lines)


@click.command()
@click.option("--size", type=int, default=19, show_default=True)
@click.option("--komi", type=float, default=7.5, show_default=True)
@click.option("--time-settings", "time_text", default="300 30 1", show_default=True,
              help="GTP time_settings MAIN BYO STONES (whole seconds; BYO 0: absolute)")
@click.option("--byoyomi", is_flag=True,
              help="Japanese byo-yomi: the third number is the periods (kgs-time_settings)")
@click.option("--mcgo-color", type=click.Choice(["black", "white"]), default="black",
              show_default=True)
@click.option("--engine", default=MCGO, show_default=True, help="mcgo's GTP command")
@click.option("--opponent", default=OPPONENT, show_default=True)
@click.option("--move-cap", type=int, default=None, help="default: 3 x size^2 moves")
@click.option("--bucket", type=int, default=20, show_default=True, help="moves a table row")
@click.option("--out", type=click.Path(file_okay=False), required=True)
def main(size, komi, time_text, byoyomi, mcgo_color, engine, opponent, move_cap, bucket, out):
    try:
        main_time, byo, count = (int(w) for w in time_text.split())
    except ValueError:
        raise click.BadParameter("three whole numbers: MAIN BYO STONES",
                                 param_hint="--time-settings") from None
    folder = pathlib.Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    settings = MatchSettings(size=size, komi=komi)
    ours = BLACK if mcgo_color == "black" else WHITE
    names = {ours: "mcgo", 3 - ours: "gnugo"}
    log_path = folder / "mcgo.log"
    with open(log_path, "wb") as log:
        engines = {ours: GtpEngine(shlex.split(engine), stderr=log),
                   3 - ours: GtpEngine(shlex.split(opponent))}
        board = Board(size, komi=komi)
        clocks = {c: Clock(main_time, byo, count, byoyomi) for c in (BLACK, WHITE)}
        commands = dict(zip((ours, 3 - ours), settings_commands(main_time, byo, count, byoyomi)))
        started = time.time()
        try:
            for color, gtp in engines.items():
                for command in (f"boardsize {size}", "clear_board", f"komi {komi:g}",
                                commands[color]):
                    gtp.send(command, timeout=300)
            end, moves = play(engines, names, clocks, board, move_cap or 3 * size * size)
        finally:
            for gtp in engines.values():
                try:
                    gtp.close()
                except (GtpClientError, OSError):
                    pass
    plans_read = attach_plans(moves, log_path.read_text(errors="replace"))
    result, note = result_of(end, moves, board, settings)
    played = moves[:len(board.moves)]       # not a resignation, nor a move past the clock
    comments = {i + 1: f"{m['seconds']:.2f} s, " + ", ".join(
        f"{k} {v}" for k, v in m.items() if k.endswith("_left")) for i, m in enumerate(played)}
    names_by_color = {"black": names[BLACK], "white": names[WHITE]}
    write_sgf(record_from_board(board, black=names_by_color["black"],
                                white=names_by_color["white"], result=result,
                                date=datetime.date.today().isoformat(), comments=comments),
              folder / "game.sgf")
    (folder / "moves.json").write_text(json.dumps(moves, indent=1) + "\n")
    time_system = "japanese byo-yomi" if byoyomi else "absolute" if byo == 0 else "canadian"
    summary = {"size": size, "komi": komi, "time_settings": time_text,
               "time_system": time_system, "mcgo": mcgo_color,
               "engine": MCGO_RECORDED if engine == MCGO else recorded_command(engine),
               "opponent": recorded_command(opponent), "end": end, "result": result, "moves": len(moves),
               "lost_on_time": [names[c] for c in (BLACK, WHITE) if clocks[c].lost],
               "seconds": {n: round(sum(m.get("seconds", 0) for m in moves if m["engine"] == n), 1)
                           for n in ("mcgo", "gnugo")},
               "mcgo_stopped": stop_counts(moves) if plans_read else None,
               "wall_seconds": round(time.time() - started, 1), "out": str(folder)}
    if note:
        summary["note"] = note
    print(table(moves, bucket), file=sys.stderr)
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
