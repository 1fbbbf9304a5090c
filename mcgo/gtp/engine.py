"""The GTP engine: ``mcgo gtp`` (GTP version 2 and the extensions GUIs and servers use).

The engine is the protocol front: it keeps the game state (board, komi, handicap, rules),
answers each line by the command table (:mod:`mcgo.gtp.commands`), and offers the commands
a narrow door to the thinking. The thinking is the player's
(:class:`mcgo.engine.player.Player`: limits, advice, search, pass and resign), chain status
the status module's (:class:`mcgo.judge.status.Status`), handicap placement the board
package's (:mod:`mcgo.board.handicap`) and game records the SGF package's.

The commands live by family: GTP 2 itself (:mod:`~mcgo.gtp.core`, with time control in
:mod:`~mcgo.gtp.clock` and game records in :mod:`~mcgo.gtp.files`), KGS
(:mod:`~mcgo.gtp.kgs`), Leela Zero's and KataGo's analysis (:mod:`~mcgo.gtp.analyze`),
KataGo's parameters and rules (:mod:`~mcgo.gtp.katago`), Fuego's regression commands
(:mod:`~mcgo.gtp.fuego`) and GoGui's analyze commands (:mod:`~mcgo.gtp.gogui`). The loop in
:meth:`Engine.serve` does the protocol: preprocessing, ids, ``=``/``?`` replies, and
guarantees that no input ends the process except ``quit`` or the end of input.

Pondering (``mcgo gtp --ponder``, :attr:`Engine.ponder`): after a ``genmove``-like answer the
engine goes on searching the new position (the opponent's move) in a background thread,
stopped as soon as the next line arrives, as a running ``lz-analyze`` is; the player keeps
its tree, so a ``genmove`` after the opponent's move starts from what was pondered. Commands
that leave the position as it was (``time_left``, ``name``...) let it ponder on afterwards;
``stop`` (KataGo's) ends it until the next ``genmove``.

Case-base seam: ``engine.opening_advisor`` (the player's, default None) may be any object
with a method ``advise(board) -> (root_bonus, labels)`` (see :mod:`mcgo.engine.player`). It is
asked before every ``genmove``-like search.
"""

import sys
import threading
import time
import traceback

from .. import options
from ..board import coords
from ..board.board import Board
from ..board.history import Move
from ..board.kernels import BLACK, WHITE
from ..config import SEARCH_FIELDS, EngineConfig
from ..models.ownership.model import SHIPPED, open_ownership
from ..models.ownership.network import NetworkError
from ..search.movefilter import MoveFilter, MoveFilterError
from ..engine.player import Player
from ..engine.playout_player import PlayoutPlayer
from ..judge.status import STATUS_PLAYOUTS, Status
from .commands import COMMANDS, command_names
from .protocol import STREAMING, GtpError, Quit, format_reply, log, preprocess, split_command

DEFAULT_RESIGN = options.DEFAULT_RESIGN
SLOW_WARM_UP = 5.0             # seconds: a warm-up this slow compiled (a cold cache)


# --------------------------------------------------------------------------- engine
class Engine:
    """One GTP session: a board (the game state), a player and the chain status."""

    _ident = ""                  # the id of the command being answered

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
        self.status = Status(playouts=STATUS_PLAYOUTS, policy="pattern", seed=config.search.seed,
                             threads=config.search.threads, ownership_model=config.ownership_net,
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
        self.new_board(config.size, config.komi)

    def configure(self, **changes):
        """Play with ``changes`` to the configuration from now on: the one way a setting
        changes at run time (``--set`` and ``kata-set-param``'s named settings and limits,
        ``set_random_seed``, ``numSearchThreads``). The configuration checks them first
        (:meth:`EngineConfig.replace`: a bad value raises ValueError and changes nothing);
        then what depends on them follows: the searches' named settings keep their trees, a
        thread count starts new ones, a seed reseeds the search, the chain status and the
        playout player, a limit is the player's next move's."""
        config = self.config.replace(**changes)
        self.config = config
        search = {k: v for k, v in changes.items() if k in SEARCH_FIELDS and k != "seed"}
        if search:
            self.player.reconfigure(**search)
        if "threads" in changes:
            self.status.threads = config.search.threads
        if "seed" in changes:
            seed = config.search.seed
            self.player.set_seed(seed)
            self.status.seed = seed
            if self.plays_playout_policy:
                self.move_player.seed = seed
        for limit in ("playouts", "seconds", "resign"):
            if limit in changes:
                setattr(self.player, limit, getattr(config, limit))

    @property
    def policy(self):
        return self.config.search.policy

    @property
    def seed(self):
        return self.config.search.seed

    @property
    def threads(self):
        return self.config.search.threads

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
        """Seed 003's network (:class:`mcgo.models.ownership.model.OwnershipModel`) or None: it
        settles the chains the playouts leave unsure, and ``mcgo-ownership net`` shows it."""
        return self.status.ownership_model

    @ownership_model.setter
    def ownership_model(self, model):
        self.status.ownership_model = model

    def ownership_network(self):
        """:attr:`ownership_model`, or without one the shipped network (loaded once)."""
        if self.ownership_model is not None:
            return self.ownership_model
        if self._shown_net is None:
            try:
                self._shown_net = open_ownership(SHIPPED)
            except NetworkError as e:
                raise GtpError(str(e)) from None
        return self._shown_net

    @property
    def opening_advisor(self):
        return self.player.opening_advisor

    @opening_advisor.setter
    def opening_advisor(self, advisor):
        self.player.opening_advisor = advisor

    def use_playout_player(self, on=True):
        """Let the playout policy choose ``genmove``'s answer without search
        (:class:`mcgo.engine.playout_player.PlayoutPlayer`), or (``on=False``) the search."""
        self.move_player = PlayoutPlayer(self.policy, self.seed) \
            if on else None

    @property
    def plays_playout_policy(self):
        """True when ``genmove`` plays the playout policy's move (:meth:`use_playout_player`)."""
        return isinstance(self.move_player, PlayoutPlayer)

    # ------------------------------------------------------------ game state
    def new_board(self, size, komi):
        """An empty board: a new game, of ``size`` with ``komi``, under the engine's rules."""
        self.board = Board(size, komi=komi, scoring=self.scoring)
        self.handicap = 0
        self.player.new_game()

    def set_position(self, board, handicap=0):
        """Go on from ``board`` (a loaded record's), under the engine's rules: a new game."""
        board.scoring = self.scoring
        self.board = board
        self.handicap = handicap
        self.player.new_game()

    def set_komi(self, komi):
        if komi != self.board.komi:
            self.player.search.clear()     # its win rates were for the other komi
        self.board.komi = komi

    def place_handicap(self, points):
        """Black's handicap stones on ``points`` of the empty board, white to move; answers
        the points in GTP spelling."""
        if self.board.history or self.board.stones(BLACK) or self.board.stones(WHITE):
            raise GtpError("board not empty")
        self.board.setup(black=points)
        self.board.to_move = WHITE
        self.handicap = len(points)
        return " ".join(coords.to_gtp(p, self.board.size) for p in points)

    def set_rules(self, name):
        """Play rule set ``name`` from now on (:data:`mcgo.options.RULES_SCORING`); the
        position stays, its score changes with the scoring."""
        try:
            self.scoring = options.rules_scoring(name)
        except ValueError:
            raise GtpError(f"unknown rules {name}") from None
        self.every_stone_counts = options.counts_every_stone(name)
        self.board.scoring = self.scoring      # the search starts a new tree for it

    def set_seed(self, seed):
        """Any integer, reduced modulo 2^64 (:func:`mcgo.options.normalize_seed`), for the
        search, the chain status and the playout player."""
        self.configure(seed=seed)

    def board_for(self, color):
        """A copy of the board with ``color`` to move."""
        board = self.board.copy()
        board.to_move = color
        return board

    # ------------------------------------------------------------ search settings
    def setting(self, name):
        """The named search setting ``name`` as a search of this board uses it."""
        return self.player.setting(name, self.board)

    def set_setting(self, name, value):
        """The named search setting ``name`` for the next searches (the trees are kept)."""
        self.configure(settings={name: value})

    def set_threads(self, threads):
        """Search (and judge ownership, ``mcgo-ownership``) with ``threads`` threads."""
        self.configure(threads=threads)

    def set_move_filter(self, clauses):
        """The search's move filter for this command from ``allow``/``avoid`` words
        (:class:`~mcgo.search.movefilter.MoveFilter`), or a GTP error."""
        try:
            self.search.move_filter = MoveFilter.parse(clauses, self.board.size) or None
        except MoveFilterError as e:
            raise GtpError(str(e)) from None

    # ------------------------------------------------------------ protocol loop
    def command_names(self):
        return command_names()

    def write(self, text):
        with self._out_lock:
            self.out.write(text)
            self.out.flush()

    def open_answer(self):
        """Start the answer of a command that streams it (``=id`` and its first line end)."""
        self.write(f"={self._ident}\n")

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

    def execute(self, name, args):
        """The answer's text of command ``name`` with argument words ``args``, or
        :class:`~mcgo.gtp.protocol.GtpError` with the failure message (a streaming command
        writes its answer to :attr:`out` and returns :data:`~mcgo.gtp.protocol.STREAMING`)."""
        handler = COMMANDS.get(name)
        if handler is None:
            raise GtpError("unknown command")
        return handler(self, args)

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
        self._ident = ident
        keep_going = True
        try:
            answer = self.execute(name, args)
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

    # ------------------------------------------------------------ thinking
    def think(self, board, on_progress=None, interval=None):
        """The player's search of ``board`` within the limits (no move is chosen)."""
        return self.player.think(board, self.received_at, on_progress, interval)

    def genmove(self, color, cleanup=False, on_progress=None, interval=None):
        """Choose ``color``'s move and play it; its GTP text (``resign`` plays nothing).
        ``cleanup``: ``kgs-genmove_cleanup`` (take the dead stones off before passing)."""
        move, answer = self.choose_move(color, cleanup, on_progress, interval)
        if self.received_at is not None:     # the clock runs on until the next time_left
            self.clock.used(color, time.monotonic() - self.received_at)
        if move is not None:
            self.board.play(move, color)
        self._ponder_position = self.board.copy() if self.ponder and move is not None else None
        return answer

    def choose_move(self, color, cleanup=False, on_progress=None, interval=None):
        """Search and decide ``color``'s move: (move, its GTP text); (None, "resign")."""
        board = self.board_for(color)
        if self.move_player is not None and self.move_player.plays(board):   # no search
            return _as_answer(self.move_player.choose(board, self.search.move_filter), board)
        move = self.player.choose(board, self.handicap, cleanup or self.capture_dead,
                                  self.received_at, on_progress, interval,
                                  every_stone_counts=self.every_stone_counts)
        return _as_answer(move, board)

    def search_of_position(self):
        """The last search's result when it was of this position, or was the genmove whose
        answer (or any move of that colour) is the last move played (the thesis prints the
        tree of the move just chosen); else a search of the position now."""
        if not self._last_search_fits():
            self.think(self.board.copy())
        return self.search.last_result

    def _last_search_fits(self):
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

    # ------------------------------------------------------------ background searches
    def analyze_in_background(self, board, interval, line):
        """Search ``board`` in a thread until the next line arrives, writing ``line(result)``
        every ``interval`` seconds (none for 0 or None); :meth:`stop_analysis` ends it and
        the answer."""
        stop = threading.Event()

        def report(result):
            if result.simulations:
                text = line(result)
                if text:                 # an empty line would end the answer
                    self.write(text + "\n")

        run = self.player.analysis(board, stop, report, interval, self.search.move_filter)
        self._start_background(_logging_failures(run, "analysis"), stop, closes_answer=True)

    def _start_background(self, target, stop, closes_answer):
        thread = threading.Thread(target=target, daemon=True)
        self._analysis = (thread, stop, closes_answer)
        thread.start()

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

    def stop_pondering(self):
        """No more pondering until the next ``genmove`` (``stop``, ``kgs-game_over``)."""
        self.stop_analysis()
        self._ponder_position = None

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
        self._start_background(
            _logging_failures(lambda: self.player.ponder(board, stop), "pondering"), stop,
            closes_answer=False)


def _as_answer(move, board):
    if move is None:
        return None, "resign"
    return move, coords.to_gtp(move, board.size)


def _logging_failures(run, what):
    """``run`` for a background thread: a failure of ``what`` is logged, the session goes
    on."""
    def logged():
        try:
            run()
        except Exception as e:  # noqa: BLE001
            log(f"{what} failed: {e!r}")
    return logged
