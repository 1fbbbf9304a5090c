"""The GTP engine: ``mcgo gtp`` (GTP version 2 and the extensions GUIs and servers use).

The engine is the protocol front: it parses commands, keeps the game state (board, komi,
handicap) and answers through a command table. The thinking is the player's
(:class:`mcgo.search.player.Player`: limits, advice, search, pass and resign), chain status
the status module's (:class:`mcgo.search.status.Status`), handicap placement the board
package's (:mod:`mcgo.board.handicap`) and game records the SGF package's
(:func:`mcgo.sgf.record_from_board`).

Each command is a method ``cmd_<name>`` (dashes as underscores) taking the argument words
and returning the answer text, or raising :class:`GtpError` with the failure message. The
loop in :meth:`Engine.serve` does the protocol: preprocessing, ids, ``=``/``?`` replies,
and guarantees that no input ends the process except ``quit`` or the end of input.

KataGo's GTP extensions (its docs/GTP_Extensions.md), for the GUIs built on them: Lizzie's
KataGo builds and Sabaki (which picks ``kata-analyze`` when the engine lists it, before
``lz-analyze``) send ``kata-analyze``/``kata-genmove_analyze`` and read KataGo's float
scales. KaTrain talks to KataGo's JSON analysis engine instead, not GTP. ``kata-get-param``,
``kata-set-param`` and ``kata-list-params`` reach the named search settings and the limits;
``kata-get-rules`` names the rules mcgo plays (area or territory scoring, positional superko,
no suicide, no handicap compensation); ``kata-set-rules``, KGS's ``kgs-rules`` and Fuego's
``go_rules`` choose them by name (Japanese and Korean rules count territory).

Pondering (``mcgo gtp --ponder``, :attr:`Engine.ponder`): after a ``genmove``-like answer the
engine goes on searching the new position (the opponent's move) in a background thread,
stopped as soon as the next line arrives, as a running ``lz-analyze`` is; the player keeps
its tree, so a ``genmove`` after the opponent's move starts from what was pondered. Commands
that leave the position as it was (``time_left``, ``name``...) let it ponder on afterwards;
``stop`` (KataGo's) ends it until the next ``genmove``.

Case-base seam: ``engine.opening_advisor`` (the player's, default None) may be any object
with a method ``advise(board) -> (root_bonus, labels)`` (see :mod:`mcgo.search.player`). It is
asked before every ``genmove``-like search.
"""

import json
import math
import os
import sys
import threading
import time
import traceback

from .. import __version__, options
from ..board import coords, handicap
from ..board.board import Board, IllegalMove, result_text
from ..board.history import Move
from ..board.kernels import BLACK, PASS, WHITE
from ..config import EngineConfig
from ..playout import ownership
from ..search.player import Player
from ..search.playout_player import PlayoutPlayer
from ..search.status import STATUS_PLAYOUTS, STATUSES, Status
from . import analysis
from .protocol import (NAME, PROTOCOL_VERSION, GtpError, Quit, format_reply, is_number, log,
                       need, parse_float, parse_int, preprocess, split_command)

DEFAULT_SIZE = options.DEFAULT_GTP_SIZE
DEFAULT_KOMI = options.DEFAULT_KOMI
DEFAULT_RESIGN = options.DEFAULT_RESIGN
ANALYZE_INTERVAL = 1.0         # seconds between lz-analyze lines when none is given
OWNERSHIP_PLAYOUTS = 1000
STREAMING = object()           # a handler that wrote its own answer
SLOW_WARM_UP = 5.0             # seconds: a warm-up this slow compiled (a cold cache)
MAX_SGF_BYTES = 16 * 1024 * 1024  # loadsgf refuses bigger files (and devices, fifos)
COLOR_WORDS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
COLOR_LETTER = {BLACK: "b", WHITE: "w"}


def one_line(text):
    """``text`` on one line (an answer must not hold an empty line)."""
    return " ".join(str(text).split())


def parse_color(word):
    try:
        return COLOR_WORDS[word.lower()]
    except KeyError:
        raise GtpError("invalid color") from None


# --------------------------------------------------------------------------- engine
class Engine:
    """One GTP session: a board (the game state), a player and the chain status."""

    def __init__(self, config=None, out=None, verbose=True):
        """``config``: the :class:`mcgo.config.EngineConfig` (default: the defaults);
        ``out``: where the answers go (stdout); ``verbose``: search summaries on stderr."""
        self.config = config = EngineConfig() if config is None else config
        self.out = out if out is not None else sys.stdout
        self.verbose = verbose
        self.ponder = config.ponder   # search on after our move, for the opponent's reply
        # A player that chooses without search (--player cfg, td, playout), or None.
        self.move_player = config.move_player
        self.player = Player(config.search, playouts=config.playouts, seconds=config.seconds,
                             resign=config.resign, verbose=verbose,
                             opening_advisor=config.opening_advisor,
                             move_prior=(config.move_scorer, config.cfg_prior)
                             if config.cfg_prior else None)
        self.status = Status(playouts=STATUS_PLAYOUTS, policy="pattern", seed=config.seed,
                             threads=config.threads, ownership_model=config.ownership_net,
                             corner_net=config.corner_net, search=config.status_search)
        self.received_at = None      # when the command being answered arrived
        self._out_lock = threading.Lock()
        self._analysis = None        # (thread, stop event, closes an answer) running now
        self._ponder_position = None  # the board to ponder on while it stays the position
        self._shown_net = None       # the shipped network, loaded when mcgo-ownership asks
        self.scoring = options.rules_scoring(config.rules)   # the board's: "area" or "territory"
        self.every_stone_counts = options.counts_every_stone(config.rules)   # Tromp-Taylor, CGOS
        self.capture_dead = False    # Fuego's go_param_rules capture_dead: every genmove cleans up
        if config.playout_player:
            self.use_playout_player()
        self._new_board(config.size, config.komi)

    def configure(self, **changes):
        """Play with ``changes`` to the configuration from now on (:meth:`EngineConfig.replace`:
        ``settings`` are added to the named settings changed so far): the searches' settings
        keep their trees, a thread count starts new ones."""
        self.config = self.config.replace(**changes)
        self.player.reconfigure(**changes)

    @property
    def policy(self):
        return self.config.policy

    @property
    def seed(self):
        return self.config.seed

    @seed.setter
    def seed(self, seed):
        self.config = self.config.replace(seed=seed)

    @property
    def threads(self):
        return self.config.threads

    def warm_up(self):
        """Load the search and scoring kernels now (compile them, with a cold Numba cache),
        so that the first ``genmove`` spends its time searching. Kernels do not depend on the
        board size, so a small board does."""
        seconds = self.player.warm_up(self.board.komi)
        if self.verbose and seconds > SLOW_WARM_UP:
            log(f"kernels compiled in {seconds:.0f} s (kept in Numba's cache for next time)")
        return seconds

    @property
    def search(self):
        """The player's main search (``mcgo-tree`` and the analysis commands show it)."""
        return self.player.search

    @property
    def clock(self):
        return self.player.clock

    @property
    def ownership_model(self):
        """Seed 003's network (:class:`mcgo.ownership.model.OwnershipModel`) or None: it
        settles the chains the playouts leave unsure, and ``mcgo-ownership net`` shows it."""
        return self.status.ownership_model

    @ownership_model.setter
    def ownership_model(self, model):
        self.status.ownership_model = model

    @property
    def opening_advisor(self):
        return self.player.opening_advisor

    @opening_advisor.setter
    def opening_advisor(self, advisor):
        self.player.opening_advisor = advisor

    # ------------------------------------------------------------ game state
    def _new_board(self, size, komi):
        self.board = Board(size, komi=komi, scoring=self.scoring)
        self.handicap = 0
        self.player.new_game()

    def _color_and_vertex(self, args):
        need(args, 2, 2)
        color = parse_color(args[0])
        try:
            point = coords.from_gtp(args[1], self.board.size)
        except coords.CoordinateError:
            raise GtpError("invalid coordinate") from None
        return color, point

    # ------------------------------------------------------------ protocol loop
    def write(self, text):
        with self._out_lock:
            self.out.write(text)
            self.out.flush()

    def serve(self, infile):
        """Answer commands from ``infile`` until ``quit`` or end of input."""
        for raw in iter(infile.readline, ""):
            received_at = time.monotonic()
            self.stop_analysis()
            if not self.handle(raw, received_at):
                break
        self.stop_analysis()

    def handle(self, raw, received_at=None):
        """Answer one input line; False after ``quit``.

        ``received_at`` (``time.monotonic()``) is when the line arrived: a move's thinking
        time runs from then, so a wait before the engine could start on it (a cold start-up,
        a stopped analysis) is not thought on top. A running analysis or pondering stops
        first (``serve`` has stopped it already); pondering goes on afterwards while the
        position is still the one it was for."""
        self.received_at = time.monotonic() if received_at is None else received_at
        try:
            self.stop_analysis()
            self.search.move_filter = None       # allow/avoid hold for one command
            keep_going = self._handle(raw)
            self.search.move_filter = None
        finally:
            self.received_at = None
        if keep_going:
            self._resume_ponder()
        return keep_going

    def _handle(self, raw):
        try:
            text = preprocess(raw)
        except Exception:  # noqa: BLE001 - nothing in a line may kill the engine
            text = ""
        if not text:
            return True
        ident, name, args = split_command(text)
        if not name:
            self.write(f"?{ident} syntax error\n\n")
            return True
        handler = getattr(self, command_table().get(name, ""), None)
        keep_going = True
        try:
            if handler is None:
                raise GtpError("unknown command")
            answer = handler(args, ident) if name in STREAMING_COMMANDS else handler(args)
            if answer is STREAMING:
                return True
            reply = f"={ident} {answer}" if answer else f"={ident}"
        except Quit:
            reply = f"={ident}"
            keep_going = False
        except GtpError as e:
            reply = f"?{ident} {e}"
        except Exception as e:  # noqa: BLE001 - report, never die
            log(f"internal error in {name!r}: {e!r}\n{traceback.format_exc()}")
            reply = f"?{ident} internal error: {type(e).__name__}"
        self.write(format_reply(reply))
        return keep_going

    # ------------------------------------------------------------ GTP 2 core
    def cmd_protocol_version(self, args):
        return PROTOCOL_VERSION

    def cmd_name(self, args):
        return NAME

    def cmd_version(self, args):
        return __version__

    def cmd_known_command(self, args):
        need(args, 1, 1)
        return "true" if args[0] in command_names() else "false"

    def cmd_list_commands(self, args):
        return "\n".join(command_names())

    def cmd_quit(self, args):
        raise Quit()

    def cmd_boardsize(self, args):
        need(args, 1, 1)
        size = parse_int(args[0])
        if not coords.MIN_SIZE <= size <= coords.MAX_SIZE:
            raise GtpError("unacceptable size")
        self._new_board(size, self.board.komi)
        return ""

    def cmd_clear_board(self, args):
        self._new_board(self.board.size, self.board.komi)
        return ""

    def cmd_komi(self, args):
        need(args, 1, 1)
        komi = parse_float(args[0])
        if komi != self.board.komi:
            self.player.search.clear()     # its win rates were for the other komi
        self.board.komi = komi
        return ""

    def _place_handicap(self, points):
        if self.board.history or self.board.stones(BLACK) or self.board.stones(WHITE):
            raise GtpError("board not empty")
        self.board.setup(black=points)
        self.board.to_move = WHITE
        self.handicap = len(points)
        return " ".join(coords.to_gtp(p, self.board.size) for p in points)

    def _handicap_stones(self, args, place):
        need(args, 1, 1)
        stones = parse_int(args[0], "invalid number of stones")
        try:
            points = place(self.board.size, stones)
        except ValueError:
            raise GtpError("invalid number of stones") from None
        return self._place_handicap(points)

    def cmd_fixed_handicap(self, args):
        return self._handicap_stones(args, handicap.fixed_points)

    def cmd_place_free_handicap(self, args):
        return self._handicap_stones(args, handicap.free_points)

    def cmd_set_free_handicap(self, args):
        size = self.board.size
        if len(args) < 2 or len(args) >= size * size:
            raise GtpError("bad vertex list")
        try:
            points = [coords.from_gtp(a, size) for a in args]
        except coords.CoordinateError:
            raise GtpError("bad vertex list") from None
        if PASS in points or len(set(points)) != len(points):
            raise GtpError("bad vertex list")
        try:
            self._place_handicap(points)
        except ValueError:
            raise GtpError("bad vertex list") from None
        return ""

    def cmd_play(self, args):
        color, point = self._color_and_vertex(args)
        try:
            self.board.play(point, color)
        except IllegalMove:
            raise GtpError("illegal move") from None
        return ""

    def cmd_undo(self, args):
        try:
            self.board.undo()
        except IndexError:
            raise GtpError("cannot undo") from None
        return ""

    def cmd_genmove(self, args):
        return self._genmove(args)

    def cmd_kgs_genmove_cleanup(self, args):
        return self._genmove(args, cleanup=True)

    def cmd_reg_genmove(self, args):
        """As ``genmove`` (GTP 2, 6.3.4), but the move is not played."""
        need(args, 1, 1)
        return self._choose(parse_color(args[0]))[1]

    def cmd_showboard(self, args):
        b = self.board
        text = str(b)
        return (f"\n{text}\nblack captured {b.captures(BLACK)}, "
                f"white captured "
                f"{b.captures(WHITE)}, komi {b.komi:g}, "
                f"{'black' if b.to_move == BLACK else 'white'} to move")

    # ------------------------------------------------------------ time
    def cmd_time_settings(self, args):
        need(args, 3, 3)
        main, byo, stones = parse_int(args[0]), parse_int(args[1]), parse_int(args[2])
        try:
            self.clock.set(main, byo, stones)
        except ValueError:
            raise GtpError("syntax error") from None
        return ""

    def cmd_kgs_time_settings(self, args):
        need(args, 1)
        kind = args[0].lower()
        numbers = [parse_int(a) for a in args[1:]]
        try:
            if kind == "none" and not numbers:
                self.clock.clear()
            elif kind == "absolute" and len(numbers) == 1:
                self.clock.set(numbers[0], 0, 0)
            elif kind == "byoyomi" and len(numbers) == 3:
                self.clock.set(numbers[0], numbers[1], 1, periods=numbers[2])
            elif kind == "canadian" and len(numbers) == 3:
                self.clock.set(numbers[0], numbers[1], numbers[2])
            else:
                raise GtpError("syntax error")
        except ValueError:
            raise GtpError("syntax error") from None
        return ""

    def cmd_time_left(self, args):
        need(args, 3, 3)
        color = parse_color(args[0])
        try:
            self.clock.time_left(color, parse_float(args[1]), parse_int(args[2]))
        except ValueError:
            raise GtpError("syntax error") from None
        return ""

    # ------------------------------------------------------------ scoring
    def cmd_final_score(self, args):
        return result_text(self.status.score(self.board))

    def cmd_final_status_list(self, args):
        need(args, 1, 1)
        status = args[0].lower()
        if status not in STATUSES:
            raise GtpError("invalid status")
        # One line per chain, as GNU Go answers.
        return "\n".join(" ".join(coords.to_gtp(q, self.board.size) for q in chain)
                         for chain in self.status.chains(self.board, status))

    # ------------------------------------------------------------ files
    def cmd_loadsgf(self, args):
        need(args, 1, 2)
        from .. import sgf
        if not os.path.exists(args[0]):
            raise GtpError("cannot load file: no such file")
        if not os.path.isfile(args[0]):
            raise GtpError("cannot load file: not a file")      # folders, /dev/zero, fifos
        if os.path.getsize(args[0]) > MAX_SGF_BYTES:
            raise GtpError(f"cannot load file: larger than {MAX_SGF_BYTES >> 20} MB")
        try:
            record = sgf.read_game(args[0])
        except sgf.SgfError as e:
            raise GtpError(f"cannot load file: {one_line(e.reason)}") from None
        except Exception as e:  # noqa: BLE001 - any unreadable file is the same failure
            raise GtpError(f"cannot load file: {one_line(str(e))}") from None
        limit = None
        if len(args) == 2:
            limit = max(0, parse_int(args[1]) - 1)
        try:
            board = sgf.replay(record, max_moves=limit)
        except sgf.ReplayError as e:
            raise GtpError(f"cannot load file: {one_line(e.args[0])}") from None
        except Exception as e:  # noqa: BLE001
            raise GtpError(f"cannot load file: {one_line(str(e))}") from None
        played = len(record.moves) if limit is None else min(limit, len(record.moves))
        if played < len(record.moves):
            board.to_move = record.moves[played][0]
        komi = self.board.komi if record.komi is None else record.komi
        board.komi = komi
        board.scoring = self.scoring       # the rules are the engine's, as GNU Go's (not RU[])
        self.board = board
        self.handicap = (len(record.setup.black) or record.handicap) if record.handicap >= 2 else 0
        self.player.new_game()
        return "black" if board.to_move == BLACK else "white"

    def cmd_printsgf(self, args):
        from .. import sgf
        record = sgf.record_from_board(self.board, handicap=self.handicap)
        text = sgf.write_sgf(record).decode("utf-8", errors="replace")
        if args:
            try:
                with open(args[0], "w", encoding="utf-8") as f:
                    f.write(text)
            except OSError:
                raise GtpError("cannot write file") from None
            return ""
        return text.strip().replace("\n\n", "\n")

    # ------------------------------------------------------------ queries
    def cmd_is_legal(self, args):
        color, point = self._color_and_vertex(args)
        return "1" if self.board.is_legal(point, color) else "0"

    def cmd_all_legal(self, args):
        need(args, 1, 1)
        color = parse_color(args[0])
        return " ".join(coords.to_gtp(p, self.board.size) for p in self.board.legal_moves(color))

    def cmd_list_stones(self, args):
        need(args, 1, 1)
        color = parse_color(args[0])
        return " ".join(coords.to_gtp(p, self.board.size) for p in self.board.stones(color))

    def cmd_captures(self, args):
        need(args, 1, 1)
        return str(self.board.captures(parse_color(args[0])))

    def cmd_set_random_seed(self, args):
        """Any integer, reduced modulo 2^64 (:func:`mcgo.options.normalize_seed`)."""
        need(args, 1, 1)
        self.seed = parse_int(args[0])
        self.player.set_seed(self.seed)
        self.status.seed = self.seed
        if isinstance(self.move_player, PlayoutPlayer):
            self.move_player.seed = self.seed
        return ""

    def cmd_kgs_game_over(self, args):
        self.stop_analysis()
        self._ponder_position = None
        return ""

    def cmd_stop(self, args):
        """KataGo's ``stop``: end pondering (until the next ``genmove``); a running analysis
        has stopped already, as at any command."""
        self._ponder_position = None
        return ""

    # ------------------------------------------------------------ thinking
    def _board_for(self, color):
        board = self.board.copy()
        board.to_move = color
        return board

    def _search(self, board, on_progress=None, interval=None):
        return self.player.think(board, self.received_at, on_progress, interval)

    def _genmove(self, args, cleanup=False, on_progress=None, interval=None):
        need(args, 1, 1)
        color = parse_color(args[0])
        move, answer = self._choose(color, cleanup, on_progress, interval)
        if move is not None:
            self.board.play(move, color)
        self._ponder_position = self.board.copy() if self.ponder and move is not None else None
        return answer

    def _choose(self, color, cleanup=False, on_progress=None, interval=None):
        """Search and decide ``color``'s move: (move, its GTP text); (None, "resign")."""
        board = self._board_for(color)
        if self.move_player is not None and self.move_player.plays(board):   # no search
            return self._as_answer(self.move_player.choose(board, self.search.move_filter),
                                   board)
        move = self.player.choose(board, self.handicap, cleanup or self.capture_dead,
                                  self.received_at, on_progress, interval,
                                  every_stone_counts=self.every_stone_counts)
        return self._as_answer(move, board)

    @staticmethod
    def _as_answer(move, board):
        if move is None:
            return None, "resign"
        return move, coords.to_gtp(move, board.size)

    # ------------------------------------------------------------ analysis
    def _lz_args(self, args):
        """``[color] [interval] [key value...]`` as Leela Zero and Sabaki send them: keys
        ``interval N`` (centiseconds), ``minmoves N`` and ``maxmoves N`` (accepted; every
        searched move is listed), and ``allow|avoid PLAYER VERTEX,... UNTILDEPTH`` (the
        search's :class:`~mcgo.search.movefilter.MoveFilter`). Anything else is an error,
        never ignored. Sets the search's move filter for this command."""
        color = self.board.to_move
        interval = ANALYZE_INTERVAL
        rest = list(args)
        if rest and rest[0].lower() in COLOR_WORDS:
            color = COLOR_WORDS[rest.pop(0).lower()]
        if rest and is_number(rest[0].lstrip("-")):
            interval = int(rest.pop(0)) / 100.0
        clauses = []
        while rest:
            key = rest.pop(0)
            lower = key.lower()
            if lower in ("allow", "avoid"):
                clauses += [lower] + rest[:3]
                del rest[:3]
            elif lower in ("interval", "minmoves", "maxmoves") and rest:
                value = parse_int(rest.pop(0))
                if value < 0:
                    raise GtpError("syntax error")
                if lower == "interval":
                    interval = value / 100.0
            else:
                raise GtpError(f"unknown argument {key}")
        self._set_move_filter(clauses)
        return color, interval

    def _set_move_filter(self, clauses):
        """The search's move filter from ``allow``/``avoid`` words, or a GTP error."""
        from ..search.movefilter import MoveFilter, MoveFilterError
        try:
            self.search.move_filter = MoveFilter.parse(clauses, self.board.size) or None
        except MoveFilterError as e:
            raise GtpError(str(e)) from None

    def cmd_lz_analyze(self, args, ident=""):
        color, interval = self._lz_args(args)
        board = self._board_for(color)
        self.write(f"={ident}\n")
        self._analyze_in_background(
            board, interval, lambda result: analysis.lz_info_line(self.search, result, board.size))
        return STREAMING

    def _analyze_in_background(self, board, interval, line):
        """Search ``board`` in a thread until the next line arrives, writing ``line(result)``
        every ``interval`` seconds (none for 0 or None); :meth:`stop_analysis` ends it and
        the answer."""
        stop = threading.Event()

        def report(result):
            if result.simulations:
                text = line(result)
                if text:                 # an empty line would end the answer
                    self.write(text + "\n")

        bonus, self.player.last_labels = self.player.advice(board)
        move_filter = self.search.move_filter      # this command's; cleared after it

        def run():
            try:
                self.search.run(board, stop=stop, on_progress=report, root_bonus=bonus,
                                progress_interval=interval if interval and interval > 0 else None,
                                early_stop=False, move_filter=move_filter)
            except Exception as e:  # noqa: BLE001
                log(f"analysis failed: {e!r}")

        self._start_background(run, stop, closes_answer=True)

    def _start_background(self, target, stop, closes_answer):
        thread = threading.Thread(target=target, daemon=True)
        self._analysis = (thread, stop, closes_answer)
        thread.start()

    def cmd_lz_genmove_analyze(self, args, ident=""):
        color, interval = self._lz_args(args)
        if not args or args[0].lower() not in COLOR_WORDS:
            raise GtpError("syntax error")
        self.write(f"={ident}\n")
        board_size = self.board.size

        def report(result):
            if result.simulations:
                self.write(analysis.lz_info_line(self.search, result, board_size) + "\n")

        try:
            move = self._genmove([args[0]], on_progress=report,
                                 interval=interval if interval > 0 else None)
        except GtpError as e:
            log(f"lz-genmove_analyze: {e}")
            move = "pass"
        self.write(f"play {move}\n\n")
        return STREAMING

    def stop_analysis(self):
        """End a running ``lz-analyze`` or ``kata-analyze`` (any new input does) and close its
        answer; or end pondering (which has no answer to close)."""
        if self._analysis is None:
            return
        thread, stop, closes_answer = self._analysis
        stop.set()
        thread.join()
        self._analysis = None
        if closes_answer:
            self.write("\n")

    # ------------------------------------------------------------ pondering
    def _resume_ponder(self):
        """Ponder on :attr:`_ponder_position` (the position after our last move) while it is
        still the game's position and nothing else runs; forget it once the game moved on."""
        position = self._ponder_position
        if position is None or self._analysis is not None:
            return
        b = self.board
        if (b.size, b.komi, b.scoring, b.to_move) != (position.size, position.komi,
                                                      position.scoring, position.to_move) \
                or b.history != position.history:
            self._ponder_position = None
            return
        board = b.copy()
        stop = threading.Event()

        def run():
            try:
                self.player.ponder(board, stop)
            except Exception as e:  # noqa: BLE001
                log(f"pondering failed: {e!r}")

        self._start_background(run, stop, closes_answer=False)

    # ------------------------------------------------------------ KataGo's extensions
    def _kata_args(self, args):
        """``[player] [interval] [KEY VALUE ...]`` as KataGo's ``kata-analyze`` takes them
        (docs/GTP_Extensions.md): the interval in centiseconds (positional or ``interval``),
        ``minmoves N``, ``maxmoves N``, ``ownership``, ``ownershipStdev``, ``pvVisits``,
        ``rootInfo``, ``movesOwnership`` and ``movesOwnershipStdev`` ``true|false``, and
        ``avoid|allow PLAYER VERTEX,... UNTILDEPTH`` (the search's
        :class:`~mcgo.search.movefilter.MoveFilter`, until that depth). ``movesOwnership``
        is accepted but not given (the search keeps no ownership per move). Any other key is
        an error, never ignored."""
        request = analysis.KataRequest(color=self.board.to_move, interval=ANALYZE_INTERVAL)
        rest = list(args)
        clauses = []
        if rest and rest[0].lower() in COLOR_WORDS:
            request.color = COLOR_WORDS[rest.pop(0).lower()]
        if rest and _is_float(rest[0]):
            request.interval = _centiseconds(rest.pop(0))
        while rest:
            key = rest.pop(0)
            lower = key.lower()
            if not rest:
                raise GtpError(f"no value for {key}")
            if lower in ("avoid", "allow"):
                clauses += [lower] + rest[:3]
                del rest[:3]
                continue
            value = rest.pop(0)
            if lower == "interval":
                request.interval = _centiseconds(value)
            elif lower in ("minmoves", "maxmoves"):
                n = parse_int(value)
                if n < 0:
                    raise GtpError("syntax error")
                setattr(request, "min_moves" if lower == "minmoves" else "max_moves", n)
            elif lower in KATA_FLAGS:
                setattr(request, KATA_FLAGS[lower], _parse_bool(value))
            else:
                raise GtpError(f"unknown argument {key}")
        self._set_move_filter(clauses)
        if request.moves_ownership and self.verbose:
            log("kata-analyze: movesOwnership is not available (no ownership per move)")
        return request

    def _kata_line(self, board, request):
        return lambda result: analysis.kata_info_line(self.search, result, board, request)

    def cmd_kata_analyze(self, args, ident=""):
        """KataGo's ``kata-analyze``: search the position for the colour (default the side
        to move) until the next line arrives, writing a :func:`analysis.kata_info_line` every
        interval; the answer ends with an empty line when it stops."""
        request = self._kata_args(args)
        board = self._board_for(request.color)
        self.write(f"={ident}\n")
        self._analyze_in_background(board, request.interval, self._kata_line(board, request))
        return STREAMING

    def cmd_kata_genmove_analyze(self, args, ident=""):
        """KataGo's ``kata-genmove_analyze``: ``genmove`` for the colour (default the side to
        move) with ``kata-analyze`` lines while it searches, then ``play VERTEX`` (or
        ``play pass``, ``play resign``) and the empty line. Not stopped by later input."""
        request = self._kata_args(args)
        self.write(f"={ident}\n")
        report = self._kata_line(self._board_for(request.color), request)

        def on_progress(result):
            if result.simulations:
                text = report(result)
                if text:
                    self.write(text + "\n")

        try:
            answer = self._genmove([COLOR_LETTER[request.color]], on_progress=on_progress,
                                   interval=request.interval or None)
        except Exception as e:  # noqa: BLE001 - the answer is open: close it
            log(f"kata-genmove_analyze failed: {e!r}\n{traceback.format_exc()}")
            answer = "pass"
            try:
                self.board.play(PASS, request.color)
            except IllegalMove:
                pass
        self.write(f"play {answer}\n\n")
        return STREAMING

    def _param_names(self):
        return list(options.NAMED_SETTINGS) + list(LIMIT_PARAMS) + ["numSearchThreads"]

    def cmd_kata_list_params(self, args):
        """The parameters ``kata-get-param``/``kata-set-param`` know, on one line: the named
        search settings (``mcgo gtp --list-settings``), the limits (``playouts`` and
        KataGo's ``maxVisits``/``maxPlayouts``; ``seconds`` and KataGo's ``maxTime``) and
        ``numSearchThreads``."""
        return " ".join(self._param_names())

    def cmd_kata_get_param(self, args):
        need(args, 1, 1)
        name = args[0]
        if name in options.NAMED_SETTINGS:
            value = self._setting(name)
            return str(int(value)) if options.NAMED_SETTINGS[name].kind is int else f"{value:g}"
        if name in LIMIT_PARAMS:
            value = getattr(self.player, LIMIT_PARAMS[name])
            return "none" if value is None else f"{value:g}"
        if name == "numSearchThreads":
            return str(self.search.threads)
        raise GtpError(f"unknown parameter {name}")

    def _setting(self, name):
        s = self.search
        if name in ("model_prior", "model_depth", "model_prior_shape"):
            # What the search will use on this board (no prior where the model gives none).
            if name == "model_prior" and not s.uses_model_prior(self.board):
                return 0.0
            return s.model_setting(self.board, name)
        return s.settings[name]

    def cmd_kata_set_param(self, args):
        """Change a parameter for the next searches (the tree is kept; a thread count
        starts new trees). Limits take a positive number or ``none``."""
        need(args, 2, 2)
        name, value = args
        if name in options.NAMED_SETTINGS:
            try:
                number = options.parse_settings([f"{name}={value}"])[name]
            except ValueError as e:
                raise GtpError(f"invalid value: {e}") from None
            self.configure(settings={name: number})
        elif name in LIMIT_PARAMS:
            limit = LIMIT_PARAMS[name]
            setattr(self.player, limit, _parse_limit(value, integer=limit == "playouts"))
        elif name == "numSearchThreads":
            threads = parse_int(value, "invalid value")
            if not 1 <= threads <= MAX_THREADS:
                raise GtpError(f"invalid value: numSearchThreads is 1 to {MAX_THREADS}")
            self.configure(threads=threads)
        else:
            raise GtpError(f"unknown parameter {name}")
        return ""

    def cmd_kata_get_rules(self, args):
        """The rules mcgo plays, in ``kata-get-rules``'s JSON: area or territory scoring,
        positional superko, suicide illegal, no tax, no button, no compensation for handicap
        stones (the score is area, or territory and prisoners, minus komi), and passing with
        dead stones on the board is fine (``final_status_list`` judges them)."""
        rules = dict(RULES, scoring=self.scoring.upper())
        return json.dumps(rules, separators=(",", ":"))

    def set_rules(self, name):
        """Play rule set ``name`` from now on (:data:`mcgo.options.RULES_SCORING`); the
        position stays, its score changes with the scoring."""
        try:
            self.scoring = options.rules_scoring(name)
        except ValueError:
            raise GtpError(f"unknown rules {name}") from None
        self.every_stone_counts = options.counts_every_stone(name)
        self.board.scoring = self.scoring      # the search starts a new tree for it

    def cmd_kgs_rules(self, args):
        """KGS's ``kgs-rules japanese|chinese|aga|new_zealand``, sent before a game."""
        need(args, 1, 1)
        self.set_rules(args[0])
        return ""

    def cmd_kata_set_rules(self, args):
        """KataGo's ``kata-set-rules NAME``, by the short names (``japanese``, ``chinese``,
        ``tromp-taylor``...; :data:`mcgo.options.RULES_SCORING`), not its JSON."""
        need(args, 1, 1)
        self.set_rules(args[0])
        return ""

    def cmd_go_param_rules(self, args):
        """Fuego's ``go_param_rules [KEY VALUE]``, two of its keys: ``japanese_scoring 0|1``
        (territory or area scoring) and ``capture_dead 0|1`` (take the dead stones before
        passing: every ``genmove`` is then a ``kgs-genmove_cleanup``). Without arguments,
        both with their values, as Fuego lists its own."""
        need(args, 0, 2)
        if not args:
            return (f"capture_dead {int(self.capture_dead)}\n"
                    f"japanese_scoring {int(self.scoring == 'territory')}")
        need(args, 2, 2)
        key, value = args[0].lower(), args[1]
        if key not in ("japanese_scoring", "capture_dead"):
            raise GtpError(f"unknown parameter {args[0]}")
        if value not in ("0", "1"):
            raise GtpError(f"{key} must be 0 or 1")
        if key == "capture_dead":
            self.capture_dead = value == "1"
        else:
            self.set_rules("japanese" if value == "1" else "chinese")
        return ""

    def use_playout_player(self, on=True):
        """Let the playout policy choose ``genmove``'s answer without search
        (:class:`mcgo.search.playout_player.PlayoutPlayer`), or (``on=False``) the search."""
        self.move_player = PlayoutPlayer(self.policy, self.search.playout_model, self.seed) \
            if on else None

    def cmd_uct_param_player(self, args):
        """Fuego's ``uct_param_player [KEY VALUE]``, two of its keys: ``resign_threshold X``
        (resign below this win rate, 0 never: ``--resign``) and ``search_mode
        uct|playout_policy`` (``genmove`` searches, or plays the playout policy's move, as
        Fuego's ``playout_*.tst`` regression files ask). Without arguments, the keys with
        their values, as Fuego lists its own."""
        need(args, 0, 2)
        mode = "playout_policy" if isinstance(self.move_player, PlayoutPlayer) else "uct"
        if not args:
            return f"resign_threshold {self.player.resign:g}\nsearch_mode {mode}"
        need(args, 2, 2)
        key = args[0].lower()
        if key == "resign_threshold":
            threshold = parse_float(args[1])
            if not 0.0 <= threshold <= 1.0:
                raise GtpError(f"resign_threshold must be a win rate from 0 to 1, not {args[1]}")
            self.player.resign = threshold
            return ""
        if key != "search_mode":
            raise GtpError(f"unsupported parameter {args[0]}")
        if args[1] not in ("uct", "playout_policy"):
            raise GtpError(f"search_mode must be uct or playout_policy, not {args[1]}")
        self.use_playout_player(args[1] == "playout_policy")
        return ""

    def cmd_go_rules(self, args):
        """Fuego's ``go_rules japanese|chinese|cgos|kgs``, as its regression suites send it:
        the scoring, and under ``cgos`` a count of every stone alive at two passes
        (Tromp-Taylor); ``kgs`` is area scoring with the dead stones taken off, as
        ``chinese``. (Fuego's cgos also makes capturing the dead stones a duty, which
        ``go_param_rules capture_dead 1`` asks for here.) Without an argument, the rule set
        of the scoring, as Fuego names it."""
        need(args, 0, 1)
        if not args:
            return "japanese" if self.scoring == "territory" else "chinese"
        self.set_rules(args[0])
        return ""

    def cmd_gogui_analyze_commands(self, args):
        return "\n".join([
            "gfx/Ownership/mcgo-ownership",
            "gfx/Ownership (network)/mcgo-ownership net",
            "gfx/Best moves/mcgo-best_moves",
            "string/Search tree/mcgo-tree",
            "gfx/Case base match/mcgo-casebase",
            "gfx/Influence map/mcgo-influence",
            "string/Final score/final_score",
            "plist/Dead stones/final_status_list dead",
        ])

    def cmd_mcgo_ownership(self, args):
        """GoGui gfx: who owns each point, by the playouts (``playouts``, the default) or by
        seed 003's network (``net``: the engine's, else the shipped one)."""
        need(args, 0, 1)
        source = args[0].lower() if args else "playouts"
        if source == "playouts":
            owner = ownership(self.board, playouts=OWNERSHIP_PLAYOUTS, policy=self.policy,
                              seed=self.seed, threads=self.threads)
        elif source == "net":
            owner = 2.0 * self._ownership_net().ownership(self.board) - 1.0
        else:
            raise GtpError(f"unknown ownership source {args[0]!r}: playouts or net")
        return analysis.gfx_ownership(owner, self.board.size)

    def _ownership_net(self):
        if self.ownership_model is None:
            from ..ownership.model import SHIPPED, open_ownership
            from ..ownership.network import NetworkError
            if self._shown_net is None:
                try:
                    self._shown_net = open_ownership(SHIPPED)
                except NetworkError as e:
                    raise GtpError(str(e)) from None
            return self._shown_net
        return self.ownership_model

    def cmd_mcgo_best_moves(self, args):
        board = self.board.copy()
        result = self._search(board)
        return analysis.gfx_best_moves(self.search, result, board.size,
                                       COLOR_LETTER[board.to_move])

    def cmd_mcgo_casebase(self, args):
        """GoGui gfx: the professional's move in the best-matching case and the game's name."""
        advisor = self.opening_advisor
        if advisor is None or not hasattr(advisor, "gogui_gfx"):
            return "TEXT no case base (mcgo gtp --casebase default or FILE)"
        return advisor.gogui_gfx(self.board)

    def cmd_mcgo_influence(self, args):
        """GoGui gfx: the flow influence map the case base matches positions by."""
        from ..casebase.advisor import gogui_influence
        advisor = self.opening_advisor
        casebase = getattr(advisor, "casebase", None)
        return gogui_influence(self.board, None if casebase is None else casebase.threshold)

    def cmd_mcgo_tree(self, args):
        """The top ``N`` root moves of the last search (searching now if there was none for
        this position), printed as in the thesis."""
        need(args, 0, 1)
        top = parse_int(args[0]) if args else 7
        if top < 1:
            raise GtpError("syntax error")
        if not self._last_search_fits():
            self._search(self.board.copy())
        result = self.search.last_result
        return "\n" + analysis.tree_text(self.search, result, self.board.size, top=top,
                                         bonus_label=self.player.last_labels)

    def _last_search_fits(self):
        """True when the last search was of this position, or was the genmove whose answer
        (or any move of that colour) is the last move played: the thesis prints the tree of
        the move just chosen."""
        last, result = self.search.last_board, self.search.last_result
        if last is None or result is None:
            return False
        if (last.size, last.komi, last.scoring) != (self.board.size, self.board.komi,
                                                    self.board.scoring):
            return False
        now, before = self.board.history, last.history
        if now == before and last.to_move == self.board.to_move:
            return True
        return len(now) == len(before) + 1 and now[:-1] == before \
            and isinstance(now[-1], Move) and now[-1].color == last.to_move


STREAMING_COMMANDS = {"lz-analyze", "lz-genmove_analyze", "kata-analyze", "kata-genmove_analyze"}
KATA_FLAGS = {"ownership": "ownership", "ownershipstdev": "ownership_stdev",
              "pvvisits": "pv_visits", "rootinfo": "root_info",
              "movesownership": "moves_ownership", "movesownershipstdev": "moves_ownership"}
LIMIT_PARAMS = {"playouts": "playouts", "maxVisits": "playouts", "maxPlayouts": "playouts",
                "seconds": "seconds", "maxTime": "seconds"}
MAX_THREADS = 256
RULES = {"hasButton": False, "ko": "POSITIONAL", "scoring": "AREA", "suicide": False,
         "tax": "NONE", "whiteHandicapBonus": "0", "friendlyPassOk": True}
# KataGo's names whose words after the prefix are joined by dashes, not underscores.
SPELLED_AS = {"kata_get_param": "kata-get-param", "kata_set_param": "kata-set-param",
              "kata_set_rules": "kata-set-rules",
              "kata_list_params": "kata-list-params", "kata_get_rules": "kata-get-rules"}


def _is_float(word):
    try:
        return math.isfinite(float(word))
    except ValueError:
        return False


def _centiseconds(word):
    """An interval in centiseconds as seconds (None for 0: no lines)."""
    if not _is_float(word) or float(word) < 0:
        raise GtpError("syntax error")
    return float(word) / 100.0 or None


def _parse_bool(word):
    lower = word.lower()
    if lower in ("true", "1"):
        return True
    if lower in ("false", "0"):
        return False
    raise GtpError(f"expected true or false, got {word}")


def _parse_limit(word, integer):
    """A search limit: a positive number (whole for playouts) or ``none``."""
    if word.lower() == "none":
        return None
    try:
        value = int(word) if integer else float(word)
    except ValueError:
        raise GtpError("invalid value") from None
    if not math.isfinite(value) or value <= 0:
        raise GtpError("invalid value: a limit is positive (or none)")
    return value


_COMMAND_TABLE = {}


def command_table():
    """GTP name -> method name, made once."""
    if not _COMMAND_TABLE:
        for n in command_names():
            _COMMAND_TABLE[n] = "cmd_" + n.replace("-", "_")
    return _COMMAND_TABLE


def command_names():
    """Every command the engine knows, in GTP spelling."""
    names = [n[4:] for n in dir(Engine) if n.startswith("cmd_")]
    spelled = []
    for n in names:
        if n in SPELLED_AS:
            spelled.append(SPELLED_AS[n])
        elif n.startswith(("kgs_", "lz_", "gogui_", "mcgo_", "kata_")):
            prefix, rest = n.split("_", 1)
            spelled.append(f"{prefix}-{rest}")
        else:
            spelled.append(n)
    return sorted(spelled)
