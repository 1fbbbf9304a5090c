"""Game records: GTP 2's ``loadsgf FILE [MOVE_NUMBER]`` and GNU Go's ``printsgf [FILE]``.

A record is read by the SGF package (:func:`mcgo.sgf.read_game`, :func:`mcgo.sgf.replay`);
whatever makes a file unreadable is one ``? cannot load file: why`` answer on one line."""

import os

from .. import sgf
from ..board.kernels import BLACK
from .arguments import one_line
from .protocol import GtpError, need, parse_int

MAX_SGF_BYTES = 16 * 1024 * 1024  # loadsgf refuses bigger files (and devices, fifos)


def loadsgf(engine, args):
    """The position of the record ``args[0]`` before move ``args[1]`` (all its moves without
    one); answers the colour to move. Komi is the record's (the engine's without KM[]), the
    rules stay the engine's, as GNU Go's (not RU[]); the handicap is the record's, counted
    as KataGo counts it (:func:`mcgo.sgf.handicap_stones`), White's compensation by the
    engine's rules."""
    need(args, 1, 2)
    path = args[0]
    if not os.path.exists(path):
        raise GtpError("cannot load file: no such file")
    if not os.path.isfile(path):
        raise GtpError("cannot load file: not a file")      # folders, /dev/zero, fifos
    if os.path.getsize(path) > MAX_SGF_BYTES:
        raise GtpError(f"cannot load file: larger than {MAX_SGF_BYTES >> 20} MB")
    try:
        record = sgf.read_game(path)
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
    board.komi = engine.game.board.komi if record.komi is None else record.komi
    engine.game.set_position(board, sgf.handicap_stones(record, sgf.replay(record, max_moves=0)))
    return "black" if board.to_move == BLACK else "white"


def printsgf(engine, args):
    """The game as an SGF record: the answer, or (with a file name) written to that file."""
    record = sgf.record_from_board(engine.game.board, handicap=engine.game.handicap)
    text = sgf.write_sgf(record).decode("utf-8", errors="replace")
    if args:
        try:
            with open(args[0], "w", encoding="utf-8") as f:
                f.write(text)
        except OSError:
            raise GtpError("cannot write file") from None
        return ""
    return text.strip().replace("\n\n", "\n")


COMMANDS = {"loadsgf": loadsgf, "printsgf": printsgf}
