"""The commands of GTP version 2 itself (its section 6.3), with the usual queries beside
them (``is_legal``, ``all_legal``, ``list_stones``, ``captures``, ``showboard``).

Each handler takes the engine and the argument words and returns the answer's text, or
raises :class:`~mcgo.gtp.protocol.GtpError` with the failure message. Handlers read words
and ask the engine (:class:`mcgo.gtp.engine.Engine`); the engine keeps the game and thinks.
"""

from .. import __version__
from ..board import coords, handicap
from ..board.kernels import BLACK, PASS, WHITE
from .arguments import color_and_vertex, parse_color
from .protocol import NAME, PROTOCOL_VERSION, GtpError, Quit, need, parse_float, parse_int


# ------------------------------------------------------------------ administration
def protocol_version(engine, args):
    return PROTOCOL_VERSION


def name(engine, args):
    return NAME


def version(engine, args):
    return __version__


def known_command(engine, args):
    need(args, 1, 1)
    return "true" if args[0] in engine.command_names() else "false"


def list_commands(engine, args):
    return "\n".join(engine.command_names())


def quit_(engine, args):
    raise Quit()


# ------------------------------------------------------------------ setup
def boardsize(engine, args):
    """``boardsize N``; ``boardsize W H`` as OGS's gtp2ogs and KataGo write a board of W
    columns and H rows, refused unless square."""
    need(args, 1, 2)
    size = parse_int(args[0])
    if len(args) == 2 and parse_int(args[1]) != size:
        raise GtpError(f"unacceptable size (mcgo plays square boards only, not {size}x{args[1]})")
    if not coords.MIN_SIZE <= size <= coords.MAX_SIZE:
        raise GtpError("unacceptable size")
    engine.game.new_board(size, engine.game.board.komi)
    return ""


def clear_board(engine, args):
    engine.game.new_board(engine.game.board.size, engine.game.board.komi)
    return ""


def komi(engine, args):
    need(args, 1, 1)
    engine.game.set_komi(parse_float(args[0]))
    return ""


def fixed_handicap(engine, args):
    need(args, 1, 1)
    return engine.game.fixed_handicap(parse_int(args[0], "invalid number of stones"))


def place_free_handicap(engine, args):
    need(args, 1, 1)
    stones = parse_int(args[0], "invalid number of stones")
    try:
        points = handicap.free_points(engine.game.board.size, stones)
    except ValueError:
        raise GtpError("invalid number of stones") from None
    return engine.game.place_handicap(points)


def set_free_handicap(engine, args):
    size = engine.game.board.size
    if len(args) < 2 or len(args) >= size * size:
        raise GtpError("bad vertex list")
    try:
        points = [coords.from_gtp(a, size) for a in args]
    except coords.CoordinateError:
        raise GtpError("bad vertex list") from None
    if PASS in points or len(set(points)) != len(points):
        raise GtpError("bad vertex list")
    try:
        engine.game.place_handicap(points)
    except ValueError:
        raise GtpError("bad vertex list") from None
    return ""


# ------------------------------------------------------------------ moves
def play(engine, args):
    color, point = color_and_vertex(args, engine.game.board.size)
    engine.game.play(color, point)
    return ""


def undo(engine, args):
    engine.game.undo()
    return ""


def genmove(engine, args):
    need(args, 1, 1)
    return engine.genmove(parse_color(args[0]))


def reg_genmove(engine, args):
    """As ``genmove`` (GTP 2, 6.3.4), but the move is not played."""
    need(args, 1, 1)
    return engine.choose_move(parse_color(args[0]))[1]


def set_random_seed(engine, args):
    """Any integer, reduced modulo 2^64 (:func:`mcgo.options.normalize_seed`)."""
    need(args, 1, 1)
    engine.game.set_seed(parse_int(args[0]))
    return ""


# ------------------------------------------------------------------ scoring
def final_score(engine, args):
    return engine.game.final_score()


def final_status_list(engine, args):
    need(args, 1, 1)
    # One line per chain, as GNU Go answers.
    return "\n".join(" ".join(coords.to_gtp(q, engine.game.board.size) for q in chain)
                     for chain in engine.game.chains(args[0].lower()))


# ------------------------------------------------------------------ queries
def showboard(engine, args):
    b = engine.game.board
    return (f"\n{str(b)}\nblack captured {b.captures(BLACK)}, white captured "
            f"{b.captures(WHITE)}, komi {b.komi:g}, "
            f"{'black' if b.to_move == BLACK else 'white'} to move")


def is_legal(engine, args):
    color, point = color_and_vertex(args, engine.game.board.size)
    return "1" if engine.game.board.is_legal(point, color) else "0"


def all_legal(engine, args):
    need(args, 1, 1)
    color = parse_color(args[0])
    return " ".join(coords.to_gtp(p, engine.game.board.size) for p in engine.game.board.legal_moves(color))


def list_stones(engine, args):
    need(args, 1, 1)
    color = parse_color(args[0])
    return " ".join(coords.to_gtp(p, engine.game.board.size) for p in engine.game.board.stones(color))


def captures(engine, args):
    need(args, 1, 1)
    return str(engine.game.board.captures(parse_color(args[0])))


COMMANDS = {
    "protocol_version": protocol_version, "name": name, "version": version,
    "known_command": known_command, "list_commands": list_commands, "quit": quit_,
    "boardsize": boardsize, "clear_board": clear_board, "komi": komi,
    "fixed_handicap": fixed_handicap, "place_free_handicap": place_free_handicap,
    "set_free_handicap": set_free_handicap,
    "play": play, "undo": undo, "genmove": genmove, "reg_genmove": reg_genmove,
    "set_random_seed": set_random_seed,
    "final_score": final_score, "final_status_list": final_status_list,
    "showboard": showboard, "is_legal": is_legal, "all_legal": all_legal,
    "list_stones": list_stones, "captures": captures,
}
