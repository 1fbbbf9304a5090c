#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Match runner: play N games between two GTP engines and measure who is stronger.

    python tools/match.py --engine "mcgo gtp" --opponent "gnugo --mode gtp --level 1" \\
        --games 40 --size 9 --komi 7 --out runs/mcgo-vs-gnugo1

Every move an engine answers is checked on an :class:`mcgo.Board` (positional superko,
suicide illegal); an illegal move, a crash, a hang past the timeout or a reply that is not a
move loses that game, the reason is recorded and the engine is restarted for the next game.
Finished games are scored by a referee engine (GNU Go ``final_score`` by default) or by
both players' ``final_score``; disagreements are recorded. After every game the results table
is rewritten (JSON and CSV) and the game saved as SGF, so an interrupted match loses
nothing and ``--resume`` carries on where it stopped.
"""

import csv
import datetime
import json
import math
import os
import pathlib
import queue
import shlex
import shutil
import sys
import threading
import time
import traceback

import click
from sgfmill import sgf

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(ROOT))

from mcgo import BLACK, WHITE, Board, CoordinateError  # noqa: E402
from mcgo.board import coords  # noqa: E402
from mcgo import options  # noqa: E402
from mcgo.stats import wilson_interval  # noqa: E402,F401  (tests and benchmarks use it here)
from mcgo.gtp.controller import (GtpEngine, GtpEngineDied, GtpFailure,  # noqa: E402
                                 GtpProtocolError, GtpTimeout)

GNUGO = shutil.which("gnugo") or "/usr/games/gnugo"
DEFAULT_REFEREE = f"{GNUGO} --mode gtp --chinese-rules --capture-all-dead --positional-superko"
Z_95 = 1.959963984540054           # two-sided 95% normal quantile
SETUP_TIMEOUT = 30.0               # boardsize, komi, play: quick commands
SCORE_TIMEOUT = 180.0              # final_score: GNU Go thinks long on unsettled positions
DEFAULT_MOVE_TIMEOUT = 120.0       # genmove limit when no time control is given
TIMEOUT_MARGIN = 10.0              # slack over the time control before a move counts as a hang
MOVE_TIMEOUT_FACTOR = 3.0          # per-move time control: allow this many times the budget
RESULTS_JSON = "results.json"
RESULTS_CSV = "results.csv"
GAMES_DIR = "games"
COLOR_LETTER = {BLACK: "b", WHITE: "w"}
COLOR_NAME = {BLACK: "black", WHITE: "white"}
CSV_FIELDS = ["game", "black", "white", "winner", "winner_color", "result", "end", "moves",
              "fault_engine", "fault_reason", "referee_score", "black_engine_score",
              "white_engine_score", "tromp_taylor_score", "disagreement", "black_time",
              "black_moves", "white_time", "white_moves", "date", "sgf"]


class MatchError(click.ClickException):
    """A match that cannot start or resume as asked (clear message, nothing overwritten)."""


# --------------------------------------------------------------------------- settings
class MatchSettings:
    """What both engines are told and how long they may think."""

    def __init__(self, size=9, komi=7.5, move_time=None, game_time=None, move_cap=None,
                 move_timeout=None):
        if move_time is not None and game_time is not None:
            raise ValueError("give a per-move time or a per-game time, not both")
        self.size = size
        self.komi = komi
        self.move_time = move_time
        self.game_time = game_time
        self.move_cap = move_cap if move_cap is not None else 3 * size * size
        self.move_timeout = move_timeout

    def as_dict(self):
        return {"size": self.size, "komi": self.komi, "move_time": self.move_time,
                "game_time": self.game_time, "move_cap": self.move_cap,
                "move_timeout": self.move_timeout}

    def time_settings_command(self):
        """GTP ``time_settings``: per move is byo-yomi of 1 stone, per game is absolute."""
        if self.move_time is not None:
            return f"time_settings 0 {self.move_time:g} 1"
        if self.game_time is not None:
            return f"time_settings {self.game_time:g} 0 0"
        return None

    def genmove_timeout(self, time_left):
        """How long a genmove may take before the engine counts as hung."""
        if self.move_timeout is not None:
            return self.move_timeout
        if self.move_time is not None:
            return MOVE_TIMEOUT_FACTOR * self.move_time + TIMEOUT_MARGIN
        if self.game_time is not None:
            return max(time_left, 0.0) + TIMEOUT_MARGIN
        return DEFAULT_MOVE_TIMEOUT


# ---------------------------------------------------------------------------- engines
class EngineFault(Exception):
    """An engine did something that loses it the game; ``reason`` says what."""

    def __init__(self, label, reason, answered=False):
        super().__init__(f"{label}: {reason}")
        self.label = label
        self.reason = reason
        self.answered = answered  # the engine gave a proper ``?`` answer: it is still in step


class Seat:
    """One engine of the match, started on first use and restarted after a fault."""

    def __init__(self, label, command):
        self.label = label
        self.command = command
        self.engine = None

    def start(self):
        if self.engine is None:
            try:
                self.engine = GtpEngine(shlex.split(self.command))
            except OSError as exc:
                raise EngineFault(self.label, f"cannot start {self.command!r}: {exc}") from exc
        return self.engine

    def send(self, command, timeout=SETUP_TIMEOUT):
        """Send a command; any GTP trouble becomes an EngineFault naming this engine."""
        engine = self.start()
        try:
            return engine.send(command, timeout=timeout)
        except GtpTimeout as exc:
            raise EngineFault(self.label, f"hang: no answer to {command!r} within {timeout:g} s") from exc
        except GtpEngineDied as exc:
            raise EngineFault(self.label, f"crash during {command!r}: {exc}") from exc
        except GtpProtocolError as exc:
            raise EngineFault(self.label, f"garbage reply: {exc}") from exc
        except GtpFailure as exc:
            raise EngineFault(self.label, f"{command!r} failed: {exc.message}", answered=True) from exc

    def kill(self):
        """Stop the process at once: after a fault there is no point asking it to quit."""
        if self.engine is not None:
            if self.engine.process.poll() is None:
                self.engine.process.kill()
                self.engine.process.wait()
            self.engine.close()
            self.engine = None

    def close(self):
        if self.engine is not None:
            self.engine.close()
            self.engine = None


# ----------------------------------------------------------------------------- scores
def parse_score(text):
    """Black's margin from a ``final_score`` answer ("B+3.5", "W+0.5", "0"); None if unreadable."""
    if text is None:
        return None
    text = text.strip().upper()
    if text in ("0", "JIGO", "DRAW"):
        return 0.0
    if len(text) > 2 and text[0] in "BW" and text[1] == "+":
        try:
            margin = float(text[2:])
        except ValueError:
            return None
        return margin if text[0] == "B" else -margin
    return None


def score_to_result(score):
    """SGF result of black's margin: "B+3.5", "W+0.5" or "0"."""
    if score == 0:
        return "0"
    return f"B+{score:g}" if score > 0 else f"W+{-score:g}"


def winner_color_of(score):
    if score is None or score == 0:
        return None
    return BLACK if score > 0 else WHITE


def ask_final_score(seat):
    """A seat's own ``final_score`` (None when it cannot say), never a fault.

    An engine that hung or died here is killed, so the next game starts it afresh
    instead of reading its late answer.
    """
    try:
        return seat.send("final_score", timeout=SCORE_TIMEOUT)
    except EngineFault as fault:
        if not fault.answered:
            seat.kill()
        return None


def referee_score(referee_command, settings, moves):
    """Replay the game on a fresh referee engine and return its ``final_score`` answer."""
    referee = Seat("referee", referee_command)
    try:
        referee.send(f"boardsize {settings.size}")
        referee.send("clear_board")
        referee.send(f"komi {settings.komi:g}")
        for color, point in moves:
            vertex = coords.to_gtp(point, settings.size)
            referee.send(f"play {COLOR_LETTER[color]} {vertex}")
        return referee.send("final_score", timeout=SCORE_TIMEOUT), None
    except EngineFault as exc:
        return None, exc.reason
    finally:
        referee.kill()


# ------------------------------------------------------------------------------ games
def play_game(game_id, black, white, settings, referee_command=None, scorer="referee",
              ask_engines=True):
    """Play one game between two seats; returns (record, board, move_times).

    Faults never escape: the faulty seat is killed (it restarts on next use) and the game
    is lost by it.
    """
    seats = {BLACK: black, WHITE: white}
    board = Board(settings.size, komi=settings.komi)
    move_times = []
    record = {"game": game_id, "black": black.label, "white": white.label,
              "date": datetime.date.today().isoformat(), "started": time.time(), "fault_engine": None,
              "fault_reason": None, "scores": {}, "disagreement": False,
              "time": {black.label: 0.0, white.label: 0.0},
              "moves_by": {black.label: 0, white.label: 0}}
    try:
        for seat in (black, white):
            prepare_engine(seat, settings)
        record.update(play_moves(seats, board, settings, record, move_times))
    except EngineFault as fault:
        seat = black if fault.label == black.label else white
        loser = BLACK if seat is black else WHITE
        seat.kill()
        record.update(end="fault", fault_engine=fault.label, fault_reason=fault.reason,
                      winner_color=COLOR_NAME[3 - loser],
                      result=f"{'B' if loser == WHITE else 'W'}+F")
    if record["end"] in ("two passes", "move cap"):
        record.update(score_game(board, settings, seats, referee_command, scorer, ask_engines))
    record["winner"] = {"black": black.label, "white": white.label}.get(record["winner_color"])
    record["moves"] = len(board.moves)
    record["finished"] = time.time()
    return record, board, move_times


def prepare_engine(seat, settings):
    seat.send(f"boardsize {settings.size}")
    seat.send("clear_board")
    seat.send(f"komi {settings.komi:g}")
    command = settings.time_settings_command()
    if command:
        seat.send(command)


def play_moves(seats, board, settings, record, move_times):
    """Alternate genmove/play until two passes, a resignation or the move cap."""
    time_left = {c: settings.game_time for c in (BLACK, WHITE)}
    while True:
        if board.consecutive_passes >= 2:
            return {"end": "two passes"}
        if len(board.moves) >= settings.move_cap:
            return {"end": "move cap"}
        color = board.to_move
        seat, other = seats[color], seats[3 - color]
        answer, used = generate_move(seat, color, settings, time_left[color])
        record["time"][seat.label] += used
        record["moves_by"][seat.label] += 1
        if settings.game_time is not None:
            time_left[color] -= used
        if answer.lower() == "resign":
            move_times.append((color, None, used))
            return {"end": "resignation", "winner_color": COLOR_NAME[3 - color],
                    "result": f"{'W' if color == BLACK else 'B'}+R"}
        point = checked_move(seat, board, color, answer)
        board.play(point, color)
        move_times.append((color, point, used))
        other.send(f"play {COLOR_LETTER[color]} {coords.to_gtp(point, settings.size)}")


def generate_move(seat, color, settings, time_left):
    """Ask for a move; returns (answer text, seconds used)."""
    if settings.game_time is not None:
        seat.send(f"time_left {COLOR_LETTER[color]} {max(int(time_left), 0)} 0")
    started = time.monotonic()
    answer = seat.send(f"genmove {COLOR_LETTER[color]}", timeout=settings.genmove_timeout(time_left))
    return answer.strip(), time.monotonic() - started


def checked_move(seat, board, color, answer):
    """The point of an engine's answer, or a fault if it is not a legal move."""
    try:
        point = coords.from_gtp(answer, board.size)
    except CoordinateError as exc:
        raise EngineFault(seat.label, f"garbage reply to genmove: {answer[:80]!r}") from exc
    reason = board.legality(point, color)
    if reason is not None:
        raise EngineFault(seat.label, f"illegal move {answer} ({reason})")
    return point


def score_game(board, settings, seats, referee_command, scorer, ask_engines):
    """Score a finished game; every opinion is kept and a split on the winner is flagged."""
    scores = {"tromp_taylor": score_to_result(board.score())}
    notes = []
    if ask_engines or scorer == "engines":
        scores["black_engine"] = ask_final_score(seats[BLACK])
        scores["white_engine"] = ask_final_score(seats[WHITE])
    if referee_command and scorer == "referee":
        scores["referee"], problem = referee_score(referee_command, settings, board.moves)
        if problem:
            notes.append(f"referee failed: {problem}")
    decided = decide_score(scores, scorer)
    if decided is None and scorer == "referee":
        notes.append("no referee score: Tromp-Taylor count used")
        decided = parse_score(scores["tromp_taylor"])
    winners = {winner_color_of(parse_score(v)) for k, v in scores.items()
               if k != "tromp_taylor" and parse_score(v) is not None}
    out = {"scores": scores, "disagreement": len(winners) > 1,
           "result": "?" if decided is None else score_to_result(decided),
           "winner_color": COLOR_NAME.get(winner_color_of(decided))}
    if notes:
        out["notes"] = notes
    return out


def decide_score(scores, scorer):
    """Black's margin by the chosen scorer; engines must agree on the winner or it is unknown."""
    if scorer == "referee":
        return parse_score(scores.get("referee"))
    if scorer == "engines":
        b, w = parse_score(scores.get("black_engine")), parse_score(scores.get("white_engine"))
        if b is None or w is None or winner_color_of(b) != winner_color_of(w):
            return None
        return b
    if scorer == "tromp-taylor":
        return parse_score(scores["tromp_taylor"])
    raise ValueError(f"unknown scorer {scorer!r}")


# ------------------------------------------------------------------------------- SGF
def game_to_sgf(record, board, move_times, settings, commands):
    """The game as SGF bytes: players, result, komi, date, and time used on every move."""
    game = sgf.Sgf_game(settings.size)
    root = game.get_root()
    root.set("PB", record["black"])
    root.set("PW", record["white"])
    root.set("KM", settings.komi)
    root.set("DT", record["date"])
    root.set("RE", record["result"] if record["result"] != "?" else "?")
    root.set("GN", f"game {record['game']}")
    root.set("C", root_comment(record, commands))
    for color, point, used in move_times:
        node = game.extend_main_sequence()
        colour = COLOR_LETTER[color]
        if point is None:  # resignation: no move, just the comment
            node.set("C", f"{colour} resigns after {used:.2f} s")
            continue
        node.set_move(colour, coords.row_col(point, settings.size))
        node.set("C", f"time {used:.2f} s")
    return game.serialise()


def root_comment(record, commands):
    lines = [f"black: {record['black']}: {commands[record['black']]}",
             f"white: {record['white']}: {commands[record['white']]}",
             f"end: {record['end']}"]
    if record["fault_engine"]:
        lines.append(f"fault: {record['fault_engine']}: {record['fault_reason']}")
    for name, value in record.get("scores", {}).items():
        lines.append(f"score by {name}: {value}")
    if record.get("disagreement"):
        lines.append("scorers disagree on the winner")
    lines.extend(record.get("notes", []))
    return "\n".join(lines)


# ------------------------------------------------------------------------- statistics
def elo_difference(p):
    """Elo difference for a score rate p (logistic model); infinite at 0 and 1."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0) + 0.0  # + 0.0 turns -0.0 into 0.0


def finite_or_none(x):
    """JSON has no infinity: an unbounded Elo becomes null."""
    return None if math.isinf(x) else round(x, 1)


def summarize(records, labels):
    """Wins per engine and colour, win rate with Wilson interval, Elo, mean time per move."""
    first, second = labels
    decided = [r for r in records if r.get("result") not in (None, "?")]
    wins = {label: sum(r["winner"] == label for r in decided) for label in labels}
    draws = sum(r["winner"] is None for r in decided)
    n = len(decided)
    points = wins[first] + 0.5 * draws
    rate = points / n if n else None
    low, high = wilson_interval(points, n) if n else (None, None)
    summary = {
        "games": len(records), "decided": n, "unknown": len(records) - n, "draws": draws,
        "wins": wins,
        "wins_by_color": {label: {c: sum(r["winner"] == label and r["winner_color"] == c
                                         for r in decided) for c in ("black", "white")}
                          for label in labels},
        "color_wins": {c: sum(r["winner_color"] == c for r in decided) for c in ("black", "white")},
        "faults": {label: sum(r.get("fault_engine") == label for r in records) for label in labels},
        "disagreements": sum(bool(r.get("disagreement")) for r in records),
        "win_rate": {"engine": first, "rate": rate, "wilson95": [low, high]},
        "mean_time_per_move": mean_move_times(records, labels),
    }
    if n:
        summary["elo"] = {"engine": first, "difference": finite_or_none(elo_difference(rate)),
                          "interval95": [finite_or_none(elo_difference(low)),
                                         finite_or_none(elo_difference(high))]}
    return summary


def mean_move_times(records, labels):
    out = {}
    for label in labels:
        total = sum(r["time"].get(label, 0.0) for r in records)
        moves = sum(r["moves_by"].get(label, 0) for r in records)
        out[label] = total / moves if moves else None
    return out


def format_summary(summary, labels):
    first, second = labels
    lines = [f"games {summary['games']} (decided {summary['decided']}, unknown {summary['unknown']}, "
             f"draws {summary['draws']}, scorer disagreements {summary['disagreements']})"]
    for label in labels:
        by_color = summary["wins_by_color"][label]
        t = summary["mean_time_per_move"][label]
        lines.append(f"  {label}: {summary['wins'][label]} wins ({by_color['black']} as black, "
                     f"{by_color['white']} as white), {summary['faults'][label]} faults, "
                     f"mean time per move {'-' if t is None else f'{t:.3f} s'}")
    lines.append(f"  black won {summary['color_wins']['black']}, white won {summary['color_wins']['white']}")
    rate = summary["win_rate"]
    if rate["rate"] is not None:
        low, high = rate["wilson95"]
        lines.append(f"  {first} win rate {rate['rate']:.3f}, 95% Wilson [{low:.3f}, {high:.3f}]")
        elo = summary["elo"]
        show = lambda x: "inf" if x is None else f"{x:+.0f}"  # noqa: E731
        lines.append(f"  Elo {first} - {second}: {show(elo['difference'])} "
                     f"[{show(elo['interval95'][0])}, {show(elo['interval95'][1])}]")
    return "\n".join(lines)


# ---------------------------------------------------------------------- results files
def write_atomically(path, text):
    """Write via a temporary file and rename, so a kill mid-write never leaves half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def csv_row(record):
    scores = record.get("scores", {})
    black, white = record["black"], record["white"]
    return {"game": record["game"], "black": black, "white": white, "winner": record["winner"],
            "winner_color": record["winner_color"], "result": record["result"],
            "end": record["end"], "moves": record["moves"],
            "fault_engine": record["fault_engine"], "fault_reason": record["fault_reason"],
            "referee_score": scores.get("referee"), "black_engine_score": scores.get("black_engine"),
            "white_engine_score": scores.get("white_engine"),
            "tromp_taylor_score": scores.get("tromp_taylor"),
            "disagreement": record.get("disagreement"),
            "black_time": round(record["time"][black], 3), "black_moves": record["moves_by"][black],
            "white_time": round(record["time"][white], 3), "white_moves": record["moves_by"][white],
            "date": record["date"], "sgf": record.get("sgf")}


def write_results(out_dir, config, records):
    records = sorted(records, key=lambda r: r["game"])
    labels = config["labels"]
    document = {"config": config, "summary": summarize(records, labels), "games": records}
    write_atomically(out_dir / RESULTS_JSON, json.dumps(document, indent=1) + "\n")
    tmp = out_dir / (RESULTS_CSV + ".tmp")
    with open(tmp, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for record in records:
            writer.writerow(csv_row(record))
    os.replace(tmp, out_dir / RESULTS_CSV)
    return document


def load_results(out_dir):
    path = out_dir / RESULTS_JSON
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise MatchError(f"cannot read {path}: {exc}") from exc


def check_same_match(old, new):
    """--resume must continue the same match: same engines, colours, size, komi, time."""
    keys = ("commands", "labels", "alternate", "settings", "scorer", "referee")
    changed = [k for k in keys if old.get(k) != new.get(k)]
    if changed:
        raise MatchError(f"cannot resume: {', '.join(changed)} differ from the saved match "
                         f"(saved {[old.get(k) for k in changed]}, asked {[new.get(k) for k in changed]})")


# ------------------------------------------------------------------------------ match
def colours_of_game(game_id, labels, alternate):
    """(black label, white label): the first engine takes black in even games if alternating."""
    first, second = labels
    if alternate and game_id % 2 == 1:
        return second, first
    return first, second


class Match:
    """Runs the games of a match on K worker threads, each with its own engine processes."""

    def __init__(self, out_dir, commands, labels, settings, games, alternate=True,
                 referee=DEFAULT_REFEREE, scorer="referee", ask_engines=True, parallel=1,
                 resume=False, log=print):
        self.out_dir = pathlib.Path(out_dir)
        self.labels = list(labels)
        if len(set(self.labels)) != 2:
            raise MatchError("the two engines need different labels")
        self.commands = dict(zip(self.labels, commands))
        self.settings = settings
        self.games = games
        self.alternate = alternate
        self.referee = referee
        self.scorer = scorer
        self.ask_engines = ask_engines
        self.parallel = max(1, parallel)
        self.log = log
        self.config = {"commands": self.commands, "labels": self.labels, "alternate": alternate,
                       "settings": settings.as_dict(), "scorer": scorer, "referee": referee,
                       "games": games}
        self.records = self._existing_records(resume)
        self._lock = threading.Lock()

    def _existing_records(self, resume):
        results = self.out_dir / RESULTS_JSON
        if not results.exists():
            return []
        if not resume:
            raise MatchError(f"{results} exists: pass --resume to continue that match, "
                             "or choose another --out")
        old = load_results(self.out_dir)
        check_same_match(old["config"], self.config)
        return list(old["games"])

    def pending_games(self):
        done = {r["game"] for r in self.records}
        return [g for g in range(self.games) if g not in done]

    def run(self):
        (self.out_dir / GAMES_DIR).mkdir(parents=True, exist_ok=True)
        pending = self.pending_games()
        if self.records:
            self.log(f"resuming: {len(self.records)} games already played, {len(pending)} to go")
        work = queue.Queue()
        for game_id in pending:
            work.put(game_id)
        workers = [threading.Thread(target=self._worker, args=(work,), daemon=True)
                   for _ in range(min(self.parallel, len(pending)))]
        for w in workers:
            w.start()
        for w in workers:
            while w.is_alive():  # join with a timeout so Ctrl-C reaches the main thread
                w.join(0.5)
        return write_results(self.out_dir, self.config, self.records)

    def _worker(self, work):
        seats = {label: Seat(label, self.commands[label]) for label in self.labels}
        try:
            while True:
                try:
                    game_id = work.get_nowait()
                except queue.Empty:
                    return
                self._play_and_save(game_id, seats)
        finally:
            for seat in seats.values():
                seat.kill()

    def _play_and_save(self, game_id, seats):
        black, white = colours_of_game(game_id, self.labels, self.alternate)
        try:
            record, board, move_times = play_game(
                game_id, seats[black], seats[white], self.settings, self.referee, self.scorer,
                self.ask_engines)
        except Exception:  # a bug of ours: keep the other games, leave this one for --resume
            self.log(f"game {game_id} not recorded (it stays pending for --resume):\n"
                     f"{traceback.format_exc()}")
            for seat in seats.values():
                seat.kill()
            return
        sgf_path = self.out_dir / GAMES_DIR / f"game-{game_id:04d}.sgf"
        sgf_path.write_bytes(game_to_sgf(record, board, move_times, self.settings, self.commands))
        record["sgf"] = str(sgf_path.relative_to(self.out_dir))
        with self._lock:
            self.records.append(record)
            write_results(self.out_dir, self.config, self.records)
            fault = f" ({record['fault_engine']}: {record['fault_reason']})" if record["fault_engine"] else ""
            self.log(f"game {game_id}: {black} (B) vs {white} (W): {record['result']} "
                     f"after {record['moves']} moves, {record['end']}{fault}")


# -------------------------------------------------------------------------------- CLI
@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--engine", "engine", help="First engine's command (colours alternate with --opponent).")
@click.option("--opponent", help="Second engine's command.")
@click.option("--black", help="Command of the engine that always plays black (with --white).")
@click.option("--white", help="Command of the engine that always plays white (with --black).")
@click.option("--engine-label", default=None, help="Name of the first engine in results [engine/black].")
@click.option("--opponent-label", default=None, help="Name of the second engine [opponent/white].")
@click.option("--games", "-n", type=click.IntRange(min=1), default=10, show_default=True,
              help="Total games in the match (also when resuming).")
@click.option("--size", type=click.IntRange(2, 25), default=9, show_default=True)
@click.option("--komi", type=float, default=options.DEFAULT_KOMI, show_default=True)
@click.option("--move-time", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds per move, sent as time_settings 0 T 1.")
@click.option("--game-time", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds per game for each engine, sent as time_settings T 0 0 (with time_left).")
@click.option("--move-cap", type=click.IntRange(min=1), default=None,
              help="Stop and score a game after this many moves [3 x size^2].")
@click.option("--timeout", "move_timeout", type=click.FloatRange(min=0, min_open=True), default=None,
              help="Seconds a genmove may take before the engine counts as hung "
                   "[3 x move time + 10, time left + 10, or 120].")
@click.option("--referee", default=DEFAULT_REFEREE, show_default=True,
              help="Command of the scoring engine (its final_score decides).")
@click.option("--scorer", type=click.Choice(["referee", "engines", "tromp-taylor"]), default="referee",
              show_default=True, help="Who decides the score of a finished game.")
@click.option("--ask-engines/--no-ask-engines", default=True, show_default=True,
              help="Also ask both players' final_score and record disagreements.")
@click.option("--parallel", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games played at once (each with its own engine processes).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="runs/match", show_default=True,
              help="Directory for results.json, results.csv and games/*.sgf.")
@click.option("--resume", is_flag=True, help="Continue the match saved in --out.")
def main(engine, opponent, black, white, engine_label, opponent_label, games, size, komi,
         move_time, game_time, move_cap, move_timeout, referee, scorer, ask_engines, parallel,
         out_dir, resume):
    """Play a match between two GTP engines and report who won, with a 95% interval."""
    commands, alternate = engines_from_options(engine, opponent, black, white)
    labels = [engine_label or ("engine" if alternate else "black"),
              opponent_label or ("opponent" if alternate else "white")]
    try:
        settings = MatchSettings(size, komi, move_time, game_time, move_cap, move_timeout)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    if scorer == "referee" and not referee:
        raise click.UsageError("--scorer referee needs a --referee command")
    match = Match(out_dir, commands, labels, settings, games, alternate, referee, scorer,
                  ask_engines, parallel, resume)
    document = match.run()
    click.echo(format_summary(document["summary"], labels))


def engines_from_options(engine, opponent, black, white):
    """Two commands and whether they alternate colours, from either pair of options."""
    if engine and opponent and not (black or white):
        return [engine, opponent], True
    if black and white and not (engine or opponent):
        return [black, white], False
    raise click.UsageError("give either --engine and --opponent (alternating colours) "
                           "or --black and --white (fixed colours)")


if __name__ == "__main__":
    main()
