"""The GTP engine: ``mcgo gtp`` (GTP version 2 and the extensions GUIs and servers use).

Each command is a method ``cmd_<name>`` (dashes as underscores) taking the argument words
and returning the answer text, or raising :class:`GtpError` with the failure message. The
loop in :meth:`Engine.serve` does the protocol: preprocessing, ids, ``=``/``?`` replies,
and guarantees that no input ends the process except ``quit`` or the end of input.

Case-base seam: ``engine.opening_advisor`` (default None) may be any object with a method
``advise(board) -> (root_bonus, labels)``: ``root_bonus`` a float array over internal point
indices (or None for no bonus), ``labels`` a dict point -> text shown by ``mcgo-tree`` as
``cbr[...]`` (or None). It is asked before every ``genmove``-like search.
"""

import os
import sys
import threading
import time
import traceback

from .. import __version__, options
from ..board import coords
from ..board.board import Board, IllegalMove, result_text
from ..board.kernels import BLACK, PASS, WHITE
from ..playout import ownership
from ..search import STRONG, Search
from ..search.search import DEFAULT_PARALLEL
from ..search.decide import estimate, pick_move, score_without, should_resign
from ..search.timecontrol import MIN_THINK, TimeControl
from . import analysis
from .protocol import (NAME, PROTOCOL_VERSION, GtpError, Quit, format_reply, is_number, log,
                       need, parse_float, parse_int, preprocess, split_command)

DEFAULT_SIZE = options.DEFAULT_GTP_SIZE
DEFAULT_KOMI = options.DEFAULT_KOMI
DEFAULT_SECONDS = 1.0          # thinking time when no limit and no time control is given
DEFAULT_RESIGN = options.DEFAULT_RESIGN
ANALYZE_INTERVAL = 1.0         # seconds between lz-analyze lines when none is given
OWNERSHIP_PLAYOUTS = 1000
STREAMING = object()           # a handler that wrote its own answer
MAX_STATUS_PLAYOUTS = 2000
PASS_CHECK_SHARE = 0.25        # a check that passing is safe gets this part of the move's simulations
PASS_CHECK_MIN_PLAYOUTS = 300  # and at least this many, else it does not count
PASS_CHECK_MIN_SECONDS = 0.1   # with less of the move's time left there is no check
PASS_CHECK_HOPELESS = 0.1      # passing holds when the opponent's win rate after it is below this
WARM_UP_SIZE = 9
WARM_UP_PLAYOUTS = 32
SLOW_WARM_UP = 5.0             # seconds: a warm-up this slow compiled (a cold cache)
HANDICAP_MIN_SIZE = 7
MAX_SGF_BYTES = 16 * 1024 * 1024  # loadsgf refuses bigger files (and devices, fifos)
COLOR_WORDS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
COLOR_LETTER = {BLACK: "b", WHITE: "w"}


def parse_color(word):
    try:
        return COLOR_WORDS[word.lower()]
    except KeyError:
        raise GtpError("invalid color") from None


# --------------------------------------------------------------------------- handicap
def handicap_points(size, stones):
    """Fixed handicap placement (GTP 2 section 4.1.1): corners on the 3-3 points below 13x13
    and the 4-4 points from 13x13, then the centre and the side midpoints; at most 9 stones on
    odd boards from 9x9, 4 on even boards and on 7x7."""
    if size < HANDICAP_MIN_SIZE or stones < 2:
        raise GtpError("invalid number of stones")
    odd_big = size % 2 == 1 and size >= 9
    if stones > (9 if odd_big else 4):
        raise GtpError("invalid number of stones")
    low = 2 if size < 13 else 3
    high = size - 1 - low
    mid = size // 2

    def at(row, col):
        return coords.point(row, col, size)

    corners = [at(low, low), at(high, high), at(high, low), at(low, high)]
    points = corners[:min(stones, 4)]
    if stones in (5, 7, 9):
        points.append(at(mid, mid))
    if stones >= 6:
        points += [at(mid, low), at(mid, high)]
    if stones >= 8:
        points += [at(low, mid), at(high, mid)]
    return points


def spread_stones(points, stones, size):
    """``points`` plus further stones up to ``stones``, each as far (Manhattan) from the
    stones already placed as possible, off the first two lines where it can, the lowest
    index among equals. Keeps every free point's distance to the nearest stone, so the cost
    is O(points x stones)."""
    points = list(points)
    rc = {p: coords.row_col(p, size) for p in coords.all_points(size)}
    nearest = {p: 2 * size for p in rc if p not in points}
    for q in points:
        _closer(nearest, rc, q)

    def key(p):
        r, c = rc[p]
        return (nearest[p], min(r, c, size - 1 - r, size - 1 - c) >= 2, -p)

    while len(points) < stones and nearest:
        best = max(nearest, key=key)
        points.append(best)
        del nearest[best]
        _closer(nearest, rc, best)
    return points


def _closer(nearest, rc, q):
    qr, qc = rc[q]
    for p in nearest:
        r, c = rc[p]
        d = abs(r - qr) + abs(c - qc)
        if d < nearest[p]:
            nearest[p] = d


# --------------------------------------------------------------------------- engine
class Engine:
    """One GTP session: a board, a search and a clock."""

    def __init__(self, size=DEFAULT_SIZE, komi=DEFAULT_KOMI, preset=STRONG, policy="auto",
                 threads=1, seed=0, playouts=None, seconds=None, resign=DEFAULT_RESIGN,
                 max_memory_mb=256, out=None, verbose=True, parallel=DEFAULT_PARALLEL):
        self.out = out if out is not None else sys.stdout
        self.playouts = playouts
        self.seconds = seconds
        self.resign = resign
        self.seed = seed
        self.policy = policy
        self.threads = threads
        self.verbose = verbose
        self.search = Search(preset=preset, policy=policy, threads=threads, seed=seed,
                             max_memory_mb=max_memory_mb, parallel=parallel)
        self.clock = TimeControl()
        self.opening_advisor = None
        self.last_labels = None
        self.received_at = None      # when the command being answered arrived
        self._out_lock = threading.Lock()
        self._analysis = None
        self._new_board(size, komi)

    def warm_up(self):
        """Load the search and scoring kernels now (compile them, with a cold Numba cache),
        so that the first ``genmove`` spends its time searching. Kernels do not depend on the
        board size, so a small board does."""
        start = time.perf_counter()
        board = Board(WARM_UP_SIZE, komi=self.board.komi)
        Search(preset=self.search.preset, policy=self.policy, seed=self.seed,
               parallel=self.search.parallel).run(board, playouts=WARM_UP_PLAYOUTS)
        estimate(board, playouts=WARM_UP_PLAYOUTS, policy="pattern", seed=self.seed)
        if self.opening_advisor is not None:
            self.opening_advisor.advise(Board(self.opening_advisor.casebase.size))
        seconds = time.perf_counter() - start
        if self.verbose and seconds > SLOW_WARM_UP:
            log(f"kernels compiled in {seconds:.0f} s (kept in Numba's cache for next time)")
        return seconds

    # ------------------------------------------------------------ game state
    def _new_board(self, size, komi):
        self.board = Board(size, komi=komi)
        self.handicap = 0
        self.setups = {}           # moves played -> (black points, white points) set up then
        self.search.clear()

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
        a stopped analysis) is not thought on top."""
        self.received_at = time.monotonic() if received_at is None else received_at
        try:
            return self._handle(raw)
        finally:
            self.received_at = None

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
        self.board.komi = parse_float(args[0])
        return ""

    def _place_handicap(self, points):
        if self.board.moves or self.board.stones(BLACK) or self.board.stones(WHITE):
            raise GtpError("board not empty")
        self.board.setup(black=points)
        self.board.to_move = WHITE
        self.handicap = len(points)
        self.setups[len(self.board.moves) - 1] = (list(points), [])
        return " ".join(coords.to_gtp(p, self.board.size) for p in points)

    def cmd_fixed_handicap(self, args):
        need(args, 1, 1)
        stones = parse_int(args[0], "invalid number of stones")
        return self._place_handicap(handicap_points(self.board.size, stones))

    def cmd_place_free_handicap(self, args):
        need(args, 1, 1)
        stones = parse_int(args[0], "invalid number of stones")
        size = self.board.size
        if stones < 2 or stones >= size * size:
            raise GtpError("invalid number of stones")
        try:
            points = handicap_points(size, min(stones, 9 if size % 2 and size >= 9 else 4))
        except GtpError:
            points = []
        return self._place_handicap(spread_stones(points, stones, size))

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
        self.setups.pop(len(self.board.moves), None)
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
    def _verdict(self):
        return estimate(self.board, playouts=MAX_STATUS_PLAYOUTS, policy="pattern",
                        seed=self.seed, threads=self.threads)

    def cmd_final_score(self, args):
        return result_text(score_without(self.board, self._verdict().dead))

    def cmd_final_status_list(self, args):
        need(args, 1, 1)
        status = args[0].lower()
        if status not in ("alive", "dead", "seki"):
            raise GtpError("invalid status")
        verdict = self._verdict()
        points = getattr(verdict, status)
        # One line per chain, as GNU Go answers.
        lines, seen = [], set()
        for p in points:
            if p in seen:
                continue
            chain = self.board.chain(p)
            seen.update(chain)
            lines.append(" ".join(coords.to_gtp(q, self.board.size) for q in chain))
        return "\n".join(lines)

    # ------------------------------------------------------------ files
    def cmd_loadsgf(self, args):
        need(args, 1, 2)
        from .. import sgf
        try:
            if not os.path.isfile(args[0]) or os.path.getsize(args[0]) > MAX_SGF_BYTES:
                raise GtpError("cannot load file")    # /dev/zero, fifos, huge files
            record = sgf.read_game(args[0])
        except GtpError:
            raise
        except Exception:  # noqa: BLE001 - any unreadable file is the same failure
            raise GtpError("cannot load file") from None
        limit = None
        if len(args) == 2:
            limit = max(0, parse_int(args[1]) - 1)
        try:
            board = sgf.replay(record, max_moves=limit)
        except Exception:  # noqa: BLE001
            raise GtpError("cannot load file") from None
        played = len(record.moves) if limit is None else min(limit, len(record.moves))
        if played < len(record.moves):
            board.to_move = record.moves[played][0]
        komi = self.board.komi if record.komi is None else record.komi
        board.komi = komi
        self.board = board
        self.handicap = len(record.setup.black) if record.handicap else 0
        self.setups = {}
        self.search.clear()
        return "black" if board.to_move == BLACK else "white"

    def cmd_printsgf(self, args):
        from .. import sgf
        record = sgf.GameRecord(size=self.board.size, komi=self.board.komi,
                                handicap=self.handicap)
        moves = []
        for color, point in self.board.moves:
            if color is None:
                black, white = self.setups.get(len(moves), ([], []))
                prior = record.setups.get(len(moves), sgf.Setup())
                record.setups[len(moves)] = prior.then(
                    sgf.Setup(black=tuple(sorted(black)), white=tuple(sorted(white))))
            else:
                moves.append((color, point))
        record.moves = moves
        text = sgf.write_sgf(record)
        if isinstance(text, bytes):
            text = text.decode("utf-8", errors="replace")
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
        need(args, 1, 1)
        self.seed = parse_int(args[0])
        self.search.set_seed(self.seed)
        return ""

    def cmd_kgs_game_over(self, args):
        self.stop_analysis()
        return ""

    # ------------------------------------------------------------ thinking
    def _board_for(self, color):
        board = self.board.copy()
        board.to_move = color
        return board

    def _limits(self, color):
        budget = self.clock.budget(self.board, color)
        seconds = self.seconds
        if budget is not None:
            seconds = budget if seconds is None else min(seconds, budget)
        if seconds is None and self.playouts is None:
            seconds = DEFAULT_SECONDS
        if seconds is not None and self.received_at is not None:
            waited = time.monotonic() - self.received_at
            seconds = max(MIN_THINK, seconds - waited)
        return self.playouts, seconds

    def _advice(self, board):
        if self.opening_advisor is None:
            return None, None
        try:
            return self.opening_advisor.advise(board)
        except Exception as e:  # noqa: BLE001 - a broken advisor costs the bonus, not the game
            log(f"opening advisor failed: {e!r}")
            return None, None

    def _search(self, board, on_progress=None, interval=None):
        playouts, seconds = self._limits(board.to_move)
        bonus, labels = self._advice(board)
        self.last_labels = labels
        result = self.search.run(board, playouts=playouts, seconds=seconds, root_bonus=bonus,
                                 on_progress=on_progress, progress_interval=interval,
                                 early_stop=self.clock.can_bank(board.to_move))
        if self.verbose:
            log(f"{result.simulations} simulations in {result.seconds:.2f}s "
                f"({result.simulations_per_second:.0f}/s), best "
                f"{coords.to_gtp(result.best_move, board.size)} win rate {result.winrate:.3f}")
        return result

    def _genmove(self, args, cleanup=False, on_progress=None, interval=None):
        need(args, 1, 1)
        color = parse_color(args[0])
        move, answer = self._choose(color, cleanup, on_progress, interval)
        if move is not None:
            self.board.play(move, color)
        return answer

    def _choose(self, color, cleanup=False, on_progress=None, interval=None):
        """Search and decide ``color``'s move: (move, its GTP text); (None, "resign")."""
        board = self._board_for(color)
        result = self._search(board, on_progress, interval)
        if should_resign(board, result, self.resign, self.handicap) and not cleanup:
            return None, "resign"
        move = pick_move(board, result, cleanup=cleanup,
                         pass_holds=lambda position: self._pass_holds(position, result))
        return move, coords.to_gtp(move, board.size)

    def _pass_holds(self, board, result):
        """Search the position after ``board.to_move`` passes: True when the opponent's best
        there still loses (it has no vital point or invasion that turns the game).

        The check gets a share of the move's simulations, within the time this move has
        left; with too little time left there is no check, and so no such pass."""
        playouts, seconds = self._limits(board.to_move)
        if seconds is not None and seconds < PASS_CHECK_MIN_SECONDS:
            return False
        playouts = max(PASS_CHECK_MIN_PLAYOUTS, int(result.simulations * PASS_CHECK_SHARE))
        after = board.copy()
        after.pass_move()
        reply = self.search.run(after, playouts=playouts, seconds=seconds)
        return reply.simulations >= PASS_CHECK_MIN_PLAYOUTS and reply.winrate < PASS_CHECK_HOPELESS

    # ------------------------------------------------------------ analysis
    def _lz_args(self, args):
        """``[color] [interval] [key value...]`` as Leela Zero and Sabaki send them."""
        color = self.board.to_move
        interval = ANALYZE_INTERVAL
        rest = list(args)
        if rest and rest[0].lower() in COLOR_WORDS:
            color = COLOR_WORDS[rest.pop(0).lower()]
        if rest and is_number(rest[0].lstrip("-")):
            interval = int(rest.pop(0)) / 100.0
        while rest:
            key = rest.pop(0).lower()
            if key == "interval" and rest:
                interval = parse_int(rest.pop(0)) / 100.0
            elif rest:
                rest.pop(0)   # minmoves, maxmoves, avoid, allow...: accepted and ignored
        return color, interval

    def cmd_lz_analyze(self, args, ident=""):
        color, interval = self._lz_args(args)
        board = self._board_for(color)
        self.write(f"={ident}\n")
        stop = threading.Event()

        def report(result):
            if result.simulations:
                self.write(analysis.lz_info_line(self.search, result, board.size) + "\n")

        bonus, self.last_labels = self._advice(board)

        def run():
            try:
                self.search.run(board, stop=stop, on_progress=report, root_bonus=bonus,
                                progress_interval=interval if interval > 0 else None,
                                early_stop=False)
            except Exception as e:  # noqa: BLE001
                log(f"analysis failed: {e!r}")

        thread = threading.Thread(target=run, daemon=True)
        self._analysis = (thread, stop)
        thread.start()
        return STREAMING

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
        """End a running ``lz-analyze`` (any new input does) and close its answer."""
        if self._analysis is None:
            return
        thread, stop = self._analysis
        stop.set()
        thread.join()
        self._analysis = None
        self.write("\n")

    def cmd_gogui_analyze_commands(self, args):
        return "\n".join([
            "gfx/Ownership/mcgo-ownership",
            "gfx/Best moves/mcgo-best_moves",
            "string/Search tree/mcgo-tree",
            "gfx/Case base match/mcgo-casebase",
            "gfx/Influence map/mcgo-influence",
            "string/Final score/final_score",
            "plist/Dead stones/final_status_list dead",
        ])

    def cmd_mcgo_ownership(self, args):
        owner = ownership(self.board, playouts=OWNERSHIP_PLAYOUTS, policy=self.policy,
                          seed=self.seed, threads=self.threads)
        return analysis.gfx_ownership(owner, self.board.size)

    def cmd_mcgo_best_moves(self, args):
        board = self.board.copy()
        result = self._search(board)
        return analysis.gfx_best_moves(self.search, result, board.size,
                                       COLOR_LETTER[board.to_move])

    def cmd_mcgo_casebase(self, args):
        """GoGui gfx: the professional's move in the best-matching case and the game's name."""
        advisor = self.opening_advisor
        if advisor is None or not hasattr(advisor, "gogui_gfx"):
            return "TEXT no case base (mcgo gtp --casebase FILE)"
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
                                         bonus_label=self.last_labels)


    def _last_search_fits(self):
        """True when the last search was of this position, or was the genmove whose answer
        is the last move played (the thesis prints the tree of the move just chosen)."""
        last, result = self.search.last_board, self.search.last_result
        if last is None or result is None:
            return False
        if last.moves == self.board.moves and last.to_move == self.board.to_move:
            return True
        return self.board.moves == last.moves + [(last.to_move, result.best_move)] \
            or (len(self.board.moves) == len(last.moves) + 1
                and self.board.moves[:-1] == last.moves
                and self.board.moves[-1][0] == last.to_move)


STREAMING_COMMANDS = {"lz-analyze", "lz-genmove_analyze"}


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
        if n.startswith(("kgs_", "lz_", "gogui_", "mcgo_")):
            prefix, rest = n.split("_", 1)
            spelled.append(f"{prefix}-{rest}")
        else:
            spelled.append(n)
    return sorted(spelled)
