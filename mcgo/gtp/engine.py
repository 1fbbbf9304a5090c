"""The GTP engine: ``mcgo gtp`` (GTP version 2 and the extensions GUIs and servers use).

The engine is the protocol front: it parses each line, answers it by the command table
(:mod:`mcgo.gtp.commands`), and runs the analysis and pondering threads. The game (board,
komi, handicap, rules, the player that thinks, its clock, the judge, the configuration) is a
:class:`mcgo.engine.game.Game` of its own, which the terminal game drives too: the commands
read the game's state and make its requests through ``engine.game`` (the one door: the
engine itself holds only the protocol's state, the threads and the thinking that is
timed from a command's arrival), and a request the game refuses (:class:`~mcgo.engine.game.GameError`) is answered
``? message``.

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

Case-base seam: ``engine.game.opening_advisor`` (the player's, default None) may be any object
with a method ``advise(board) -> (root_bonus, labels)`` (see :mod:`mcgo.engine.player`). It is
asked before every ``genmove``-like search.
"""

import sys
import threading
import time
import traceback

from ..config import EngineConfig
from ..engine.game import Game, GameError
from .commands import COMMANDS, command_names
from .analysis_text import chat_line
from .protocol import STREAMING, GtpError, Quit, format_reply, log, preprocess, split_command


# --------------------------------------------------------------------------- engine
class Engine:
    """One GTP session: the protocol around a :class:`~mcgo.engine.game.Game`."""

    _ident = ""                  # the id of the command being answered

    def __init__(self, config=None, out=None, verbose=True, chat=False):
        """``config``: the :class:`mcgo.config.EngineConfig` (default: the defaults);
        ``out``: where the answers go (stdout); ``verbose``: search summaries on stderr;
        ``chat``: a chat line for OGS's gtp2ogs on stderr after each genmove
        (:func:`~mcgo.gtp.analysis_text.chat_line`)."""
        config = EngineConfig() if config is None else config
        self.game = Game(config, verbose)
        self.out = out if out is not None else sys.stdout
        self.verbose = verbose
        self.chat = chat
        self.ponder = config.ponder   # search on after our move, for the opponent's reply
        self.received_at = None      # when the command being answered arrived
        self._out_lock = threading.Lock()
        self._analysis = None        # (thread, stop event, closes an answer) running now
        self._ponder_position = None  # the board to ponder on while it stays the position

    # ------------------------------------------------------------ thinking
    def think(self, board, on_progress=None, interval=None):
        """The game's search of ``board`` within the limits, timed from the command's
        arrival (no move is chosen)."""
        return self.game.think(board, self.received_at, on_progress, interval)

    def genmove(self, color, cleanup=False, on_progress=None, interval=None):
        """Choose ``color``'s move and play it; its GTP text (``resign`` plays nothing).
        ``cleanup``: ``kgs-genmove_cleanup`` (take the dead stones off before passing)."""
        move, answer = self.game.genmove(color, cleanup, self.received_at, on_progress, interval)
        if self.chat:
            line = chat_line(self.game.player.search, color)
            if line:
                log(line)
        self._ponder_position = self.game.board.copy() if self.ponder and move is not None else None
        return answer

    def choose_move(self, color, cleanup=False, on_progress=None, interval=None):
        """Search and decide ``color``'s move: (move, its GTP text); (None, "resign")."""
        return self.game.choose_move(color, cleanup, self.received_at, on_progress, interval)

    def search_of_position(self):
        """The last search's result when it was of this position, else a search of it now."""
        return self.game.search_of_position(self.received_at)

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
            self.game.search.move_filter = None       # allow/avoid hold for one command
            keep_going = self._handle(raw)
            self.game.search.move_filter = None
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
        try:
            return handler(self, args)
        except GameError as e:
            raise GtpError(str(e)) from None

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

        run = self.game.player.analysis(board, stop, report, interval, self.game.search.move_filter)
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
        b = self.game.board
        if (b.counting(), b.to_move) != (position.counting(), position.to_move) \
                or b.history != position.history:
            self._ponder_position = None
            return
        board = b.copy()
        stop = threading.Event()
        self._start_background(
            _logging_failures(lambda: self.game.player.ponder(board, stop), "pondering"), stop,
            closes_answer=False)


def _logging_failures(run, what):
    """``run`` for a background thread: a failure of ``what`` is logged, the session goes
    on."""
    def logged():
        try:
            run()
        except Exception as e:  # noqa: BLE001
            log(f"{what} failed: {e!r}")
    return logged
