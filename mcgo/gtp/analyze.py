"""The analysis commands of Leela Zero and KataGo, as GUIs send them: ``lz-analyze``,
``lz-genmove_analyze``, ``kata-analyze``, ``kata-genmove_analyze``, and KataGo's ``stop``.

They stream: the answer opens with ``=``, then one info line per interval while the engine
searches, until the next input line (``*-analyze``, searched in the background by
:meth:`mcgo.gtp.engine.Engine.analyze_in_background`) or the move (``*-genmove_analyze``,
which ends with ``play VERTEX``), then the empty line. Lizzie's KataGo builds and Sabaki
(which picks ``kata-analyze`` when the engine lists it, before ``lz-analyze``) read
KataGo's float scales (:func:`mcgo.gtp.analysis_text.kata_info_line`); Leela Zero's lines are
:func:`mcgo.gtp.analysis_text.lz_info_line`.
"""

import traceback

from ..board.board import IllegalMove
from ..board.kernels import PASS
from . import analysis_text
from .arguments import COLOR_WORDS, centiseconds, is_color, is_float, parse_bool, parse_color
from .protocol import STREAMING, GtpError, is_number, log, parse_int

ANALYZE_INTERVAL = 1.0         # seconds between lz-analyze lines when none is given
KATA_FLAGS = {"ownership": "ownership", "ownershipstdev": "ownership_stdev",
              "pvvisits": "pv_visits", "rootinfo": "root_info",
              "movesownership": "moves_ownership", "movesownershipstdev": "moves_ownership"}


# ------------------------------------------------------------------ Leela Zero
def lz_arguments(engine, args):
    """``(color, interval)`` from ``[color] [interval] [key value...]`` as Leela Zero and
    Sabaki send them: keys ``interval N`` (centiseconds), ``minmoves N`` and ``maxmoves N``
    (accepted; every searched move is listed), and ``allow|avoid PLAYER VERTEX,...
    UNTILDEPTH`` (the search's :class:`~mcgo.search.movefilter.MoveFilter`). Anything else
    is an error, never ignored. Sets the engine's move filter for this command."""
    color = engine.game.board.to_move
    interval = ANALYZE_INTERVAL
    rest = list(args)
    if rest and is_color(rest[0]):
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
    engine.game.set_move_filter(clauses)
    return color, interval


def lz_analyze(engine, args):
    color, interval = lz_arguments(engine, args)
    board = engine.game.board_for(color)
    engine.open_answer()
    engine.analyze_in_background(
        board, interval, lambda result: analysis_text.lz_info_line(engine.game.search, result, board.size))
    return STREAMING


def lz_genmove_analyze(engine, args):
    color, interval = lz_arguments(engine, args)
    if not args or not is_color(args[0]):
        raise GtpError("syntax error")
    engine.open_answer()
    board_size = engine.game.board.size

    def report(result):
        if result.simulations:
            engine.write(analysis_text.lz_info_line(engine.game.search, result, board_size) + "\n")

    try:
        move = engine.genmove(parse_color(args[0]), on_progress=report,
                              interval=interval if interval > 0 else None)
    except GtpError as e:
        log(f"lz-genmove_analyze: {e}")
        move = "pass"
    engine.write(f"play {move}\n\n")
    return STREAMING


# ------------------------------------------------------------------ KataGo
def kata_arguments(engine, args):
    """The :class:`~mcgo.gtp.analysis_text.KataRequest` of ``[player] [interval] [KEY VALUE ...]``
    as KataGo's ``kata-analyze`` takes them (docs/GTP_Extensions.md): the interval in
    centiseconds (positional or ``interval``), ``minmoves N``, ``maxmoves N``,
    ``ownership``, ``ownershipStdev``, ``pvVisits``, ``rootInfo``, ``movesOwnership`` and
    ``movesOwnershipStdev`` ``true|false``, and ``avoid|allow PLAYER VERTEX,... UNTILDEPTH``
    (the search's :class:`~mcgo.search.movefilter.MoveFilter`, until that depth).
    ``movesOwnership`` is accepted but not given (the search keeps no ownership per move).
    Any other key is an error, never ignored. Sets the engine's move filter for this
    command."""
    request = analysis_text.KataRequest(color=engine.game.board.to_move, interval=ANALYZE_INTERVAL)
    rest = list(args)
    clauses = []
    if rest and is_color(rest[0]):
        request.color = COLOR_WORDS[rest.pop(0).lower()]
    if rest and is_float(rest[0]):
        request.interval = centiseconds(rest.pop(0))
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
            request.interval = centiseconds(value)
        elif lower in ("minmoves", "maxmoves"):
            n = parse_int(value)
            if n < 0:
                raise GtpError("syntax error")
            setattr(request, "min_moves" if lower == "minmoves" else "max_moves", n)
        elif lower in KATA_FLAGS:
            setattr(request, KATA_FLAGS[lower], parse_bool(value))
        else:
            raise GtpError(f"unknown argument {key}")
    engine.game.set_move_filter(clauses)
    if request.moves_ownership and engine.verbose:
        log("kata-analyze: movesOwnership is not available (no ownership per move)")
    return request


def _kata_line(engine, board, request):
    return lambda result: analysis_text.kata_info_line(engine.game.search, result, board, request)


def kata_analyze(engine, args):
    """KataGo's ``kata-analyze``: search the position for the colour (default the side to
    move) until the next line arrives, writing a :func:`analysis_text.kata_info_line` every
    interval; the answer ends with an empty line when it stops."""
    request = kata_arguments(engine, args)
    board = engine.game.board_for(request.color)
    engine.open_answer()
    engine.analyze_in_background(board, request.interval, _kata_line(engine, board, request))
    return STREAMING


def kata_genmove_analyze(engine, args):
    """KataGo's ``kata-genmove_analyze``: ``genmove`` for the colour (default the side to
    move) with ``kata-analyze`` lines while it searches, then ``play VERTEX`` (or ``play
    pass``, ``play resign``) and the empty line. Not stopped by later input."""
    request = kata_arguments(engine, args)
    engine.open_answer()
    report = _kata_line(engine, engine.game.board_for(request.color), request)

    def on_progress(result):
        if result.simulations:
            text = report(result)
            if text:
                engine.write(text + "\n")

    try:
        answer = engine.genmove(request.color, on_progress=on_progress,
                                interval=request.interval or None)
    except Exception as e:  # noqa: BLE001 - the answer is open: close it
        log(f"kata-genmove_analyze failed: {e!r}\n{traceback.format_exc()}")
        answer = "pass"
        try:
            engine.game.board.play(PASS, request.color)
        except IllegalMove:
            pass
    engine.write(f"play {answer}\n\n")
    return STREAMING


def stop(engine, args):
    """KataGo's ``stop``: end pondering (until the next ``genmove``); a running analysis
    has stopped already, as at any command."""
    engine.stop_pondering()
    return ""


COMMANDS = {"lz-analyze": lz_analyze, "lz-genmove_analyze": lz_genmove_analyze,
            "kata-analyze": kata_analyze, "kata-genmove_analyze": kata_genmove_analyze,
            "stop": stop}
