# SPDX-License-Identifier: GPL-3.0-or-later
"""The match runner: play N games between two GTP engines and measure who is stronger.

    mcgo match --engine "mcgo:--seconds 1" --opponent gnugo:1 \\
        --games 40 --size 9 --komi 7 --jobs 2 --out runs/mcgo-vs-gnugo1

Every move an engine answers is checked on an :class:`mcgo.Board` (positional superko,
suicide illegal); an illegal move, a crash, a hang past the timeout or a reply that is not a
move loses that game, the reason is recorded and the engine is restarted for the next game.
Finished games are scored by a referee engine (GNU Go ``final_score`` by default) or by
both players' ``final_score``; disagreements are recorded. After every game the results table
is rewritten (JSON and CSV) and the game added as SGF to the folder's ``games.zip``
(:mod:`mcgo.match.archive`), so an interrupted match loses nothing and ``resume=True``
(``--resume``) carries on where it stopped.

Games run on ``jobs`` local threads (``--jobs``; each drives its own engine processes) or as
Ray tasks (``--ray``, :mod:`mcgo.match.cluster`); both play through
:meth:`GameSetup.play` and keep a finished game with :meth:`Match.save`. A game that never
finished (a bug of ours, a Ray worker that died twice) is not recorded: it stays pending,
and ``--resume`` plays it.

With ``sprt`` (``--sprt ELO0 ELO1``, :mod:`mcgo.match.sprt`) the games are a test: after
every saved game the log-likelihood ratio is computed anew, and once it leaves its bounds
no new game starts (the games already under way are finished and kept); ``--games`` is then
the most the test may take. A resumed test that has already decided plays nothing.
"""

import datetime
import pathlib
import queue
import threading
import time
import traceback

from .. import options
from ..board import BLACK, WHITE, Board, CoordinateError, coords
from ..board.handicap import fixed_points
from ..sgf import record_from_board, write_sgf
from .archive import add_game
from .cluster import run_on_ray
from .engines import COLOR_LETTER, COLOR_NAME, EngineFault, Seat
from .results import RESULTS_JSON, MatchError, as_recorded, check_same_match, load_results, write_results
from .scoring import score_game
from .settings import DEFAULT_REFEREE
from .sprt import match_sprt


# ------------------------------------------------------------------------------ games
GAME_SEED_BASE = 1000   # game N's seed is GAME_SEED_BASE + N (engines without a seed command keep their own)


def play_game(game_id, black, white, settings, referee_command=None, scorer="referee",
              ask_engines=True):
    """Play one game between two seats; returns (record, board, move_times).

    Faults never escape: the faulty seat is killed (it restarts on next use) and the game
    is lost by it.
    """
    seats = {BLACK: black, WHITE: white}
    board = Board(settings.size, komi=settings.komi)
    if settings.handicap:       # the referee's rules (Chinese): White gets N points for N stones
        board.setup(black=fixed_points(settings.size, settings.handicap))
        board.to_move = WHITE
        board.handicap_bonus = options.handicap_bonus("N", settings.handicap)
    move_times = []
    record = {"game": game_id, "black": black.label, "white": white.label,
              "date": datetime.date.today().isoformat(), "started": time.time(), "fault_engine": None,
              "fault_reason": None, "scores": {}, "disagreement": False,
              "time": {black.label: 0.0, white.label: 0.0},
              "moves_by": {black.label: 0, white.label: 0}}
    if settings.handicap:
        record["handicap"] = settings.handicap
    try:
        for seat in (black, white):
            prepare_engine(seat, settings, game_id)
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


def prepare_engine(seat, settings, game_id=0):
    """Board size, a clear board, komi and the clock; and, for an engine that takes one
    (GoGui's ``set_random_seed``: mcgo, GNU Go), the game's own seed: game N is the same game
    whichever process plays it, so that a resumed match plays new games rather than the
    first ones again from freshly started engines' seeds."""
    seat.send(f"boardsize {settings.size}")
    seat.send("clear_board")
    seat.send(f"komi {settings.komi:g}")
    if settings.handicap:
        seat.send(f"fixed_handicap {settings.handicap}")
    command = settings.time_settings_command()
    if command:
        seat.send(command)
    if seat.knows("set_random_seed"):
        seat.send(f"set_random_seed {GAME_SEED_BASE + game_id}")


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


# ------------------------------------------------------------------------------- SGF
def game_record(record, board, move_times, commands):
    """The game as a :class:`mcgo.sgf.GameRecord` (from the referee's board): players,
    result, date, its name, how it ended (root comment) and the time used on every move
    (each move's comment)."""
    comments = {0: root_comment(record, commands)}
    played = 0
    for color, point, used in move_times:
        if point is None:  # resignation: no move, a note on the last node
            note = f"{COLOR_LETTER[color]} resigns after {used:.2f} s"
            comments[played] = f"{comments.get(played, '')}\n{note}".lstrip("\n")
            continue
        played += 1
        comments[played] = f"time {used:.2f} s"
    return record_from_board(board, black=record["black"], white=record["white"],
                             result=record["result"], date=record["date"],
                             handicap=record.get("handicap", 0),
                             name=f"game {record['game']}", comments=comments)


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


# ------------------------------------------------------------------------------ match
def colours_of_game(game_id, labels, alternate):
    """(black label, white label): the first engine takes black in even games if alternating."""
    first, second = labels
    if alternate and game_id % 2 == 1:
        return second, first
    return first, second


class GameSetup:
    """Everything one game of the match needs, and nothing of the match's files.

    Plain data, so a copy travels to a Ray worker (:mod:`mcgo.match.cluster`); the local
    threads and the Ray tasks play through the same :meth:`play`.
    """

    def __init__(self, labels, commands, alternate, settings, referee, scorer, ask_engines, cwds=None,
                 shown=None):
        self.labels = list(labels)
        self.commands = dict(commands)
        self.shown = dict(shown or commands)   # the commands as the SGF's root comment shows them
        self.cwds = dict(cwds or {})
        self.alternate = alternate
        self.settings = settings
        self.referee = referee
        self.scorer = scorer
        self.ask_engines = ask_engines

    def seats(self):
        """A fresh seat for each engine (its process starts on first use)."""
        return {label: Seat(label, self.commands[label], self.cwds.get(label)) for label in self.labels}

    def play(self, game_id, seats):
        """Play game ``game_id`` on ``seats``; returns (record, SGF bytes). Engine faults are
        in the record; anything else raised is a bug of ours (the game stays pending)."""
        black, white = colours_of_game(game_id, self.labels, self.alternate)
        record, board, move_times = play_game(game_id, seats[black], seats[white], self.settings,
                                              self.referee, self.scorer, self.ask_engines)
        return record, write_sgf(game_record(record, board, move_times, self.shown))


# The seats of this process's earlier games, by engines: a Ray worker runs task after task,
# and keeps its engines between them as a local worker thread does (they die with it).
_worker_seats = {}


def play_on_worker_seats(setup, game_id):
    """One game on this process's engines for ``setup`` (started on the first game): a Ray
    task's work. After anything but a finished game they are stopped and forgotten."""
    key = repr(sorted((label, setup.commands[label], setup.cwds.get(label)) for label in setup.labels))
    seats = _worker_seats.pop(key, None) or setup.seats()
    try:
        result = setup.play(game_id, seats)
    except BaseException:
        for seat in seats.values():
            seat.kill()
        raise
    _worker_seats[key] = seats
    return result


class Match:
    """Runs the games of a match and keeps its results files.

    The games run on ``jobs`` local worker threads, each with its own engine processes, or,
    with ``ray`` (``"auto"`` or a cluster's address), each game as a Ray task
    (:mod:`mcgo.match.cluster`). Either way every finished game is saved at once (its SGF
    into games.zip, then results.json and results.csv rewritten), so an interrupted match resumes where
    it stopped.
    """

    def __init__(self, out_dir, commands, labels, settings, games, alternate=True,
                 referee=DEFAULT_REFEREE, scorer="referee", ask_engines=True, jobs=1,
                 resume=False, log=print, cwds=None, engines=None, ray=None, plot=None,
                 sprt=None):
        self.out_dir = pathlib.Path(out_dir)
        self.labels = list(labels)
        if len(set(self.labels)) != 2:
            raise MatchError("the two engines need different labels")
        self.commands = dict(zip(self.labels, commands))
        # The records (results.json, the SGFs' root comments) name the engines and the
        # referee without this machine's paths (as_recorded); the games run the commands as given.
        self.config = as_recorded({"commands": self.commands, "labels": self.labels, "alternate": alternate,
                                   "settings": settings.as_dict(), "scorer": scorer,
                                   "referee": referee, "games": games})
        if sprt is not None:
            self.config["sprt"] = sprt.as_dict()
        self.sprt = sprt
        self.alternate = alternate
        self.setup = GameSetup(self.labels, self.commands, alternate, settings, referee, scorer,
                               ask_engines, dict(zip(self.labels, cwds)) if cwds else None,
                               shown=self.config["commands"])
        self.settings = settings
        self.games = games
        self.jobs = max(1, jobs)
        self.ray = ray
        self.plot = plot
        self.log = log
        if engines:  # how each engine was named and resolved (short names)
            self.config["engines"] = dict(zip(self.labels, engines))
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
        """The games still to play: none once the SPRT has decided."""
        if self.decided():
            return []
        done = {r["game"] for r in self.records}
        return [g for g in range(self.games) if g not in done]

    def sprt_result(self):
        """Where the match's SPRT stands (None without one)."""
        if self.sprt is None:
            return None
        with self._lock:
            records = list(self.records)
        return match_sprt(records, self.labels[0], self.alternate, self.sprt)

    def decided(self):
        """True once the SPRT has left its bounds: no new game starts."""
        result = self.sprt_result()
        return result is not None and result.decided

    def run(self):
        """Play the pending games; returns the results document (also in results.json)."""
        self.out_dir.mkdir(parents=True, exist_ok=True)
        pending = self.pending_games()
        if self.records:
            self.log(f"resuming: {len(self.records)} games already played, {len(pending)} to go")
        if self.ray is not None:
            run_on_ray(self, pending, self.ray, play_on_worker_seats, stop=self.decided)
        else:
            self._run_local(pending)
        document = write_results(self.out_dir, self.config, self.records)
        result = self.sprt_result()
        if result is not None:
            self.log(result.describe())
        if self.plot:
            from .plot import write_plot
            write_plot(self.plot, document["games"], self.labels)
        return document

    def _run_local(self, pending):
        work = queue.Queue()
        for game_id in pending:
            work.put(game_id)
        workers = [threading.Thread(target=self._worker, args=(work,), daemon=True)
                   for _ in range(min(self.jobs, len(pending)))]
        for w in workers:
            w.start()
        for w in workers:
            while w.is_alive():  # join with a timeout so Ctrl-C reaches the main thread
                w.join(0.5)

    def _worker(self, work):
        seats = self.setup.seats()
        try:
            while not self.decided():
                try:
                    game_id = work.get_nowait()
                except queue.Empty:
                    return
                try:
                    record, sgf_bytes = self.setup.play(game_id, seats)
                except Exception:  # a bug of ours: keep the other games, leave this one for --resume
                    self.not_played(game_id, traceback.format_exc())
                    for seat in seats.values():
                        seat.kill()
                    continue
                self.save(record, sgf_bytes)
        finally:
            for seat in seats.values():
                seat.kill()

    def not_played(self, game_id, why):
        self.log(f"game {game_id} not recorded (it stays pending for --resume):\n{why}")

    def save(self, record, sgf_bytes):
        """Keep a finished game: its SGF into the archive, then the results files rewritten
        (thread-safe)."""
        with self._lock:
            record["sgf"] = add_game(self.out_dir, record["game"], sgf_bytes)
            self.records.append(record)
            write_results(self.out_dir, self.config, self.records)
            fault = f" ({record['fault_engine']}: {record['fault_reason']})" if record["fault_engine"] else ""
            self.log(f"game {record['game']}: {record['black']} (B) vs {record['white']} (W): "
                     f"{record['result']} after {record['moves']} moves, {record['end']}{fault}")
        result = self.sprt_result()
        if result is not None:
            self.log(f"  {result.describe()}")


def engines_from_options(engine, opponent, black, white):
    """Two commands and whether they alternate colours, from either pair of options
    (None when the options mix the pairs or leave one half out)."""
    if engine and opponent and not (black or white):
        return [engine, opponent], True
    if black and white and not (engine or opponent):
        return [black, white], False
    return None
