"""SGF game records: robust reading (on sgfmill), replay on :class:`mcgo.Board`, writing, and
games in bulk from files, folders and archives (:mod:`.sources`).

>>> from mcgo import sgf
>>> record = sgf.read_game(b"(;GM[1]SZ[9]KM[7]PB[Black]PW[White];B[ee];W[gc];B[])")
>>> record.size, record.komi, record.gtp_moves()
(9, 7.0, [('B', 'E5'), ('W', 'G7'), ('B', 'pass')])
>>> board = sgf.replay(record)
>>> print(board.result())
W+7
>>> sgf.read_game(sgf.write_sgf(record)).moves == record.moves
True
>>> sgf.record_from_board(board).gtp_moves() == record.gtp_moves()
True

Reading a folder of files, skipping bad ones with their reason::

    for item in sgf.read_directory("games/"):
        if isinstance(item, sgf.SgfError):
            print("skipped:", item)
            continue
        try:
            board = sgf.replay(item, max_moves=40)
        except sgf.ReplayError as e:
            print("skipped:", e)   # e.move_number, e.vertex, e.color, e.reason, e.board
"""

from .reading import SGF_SUFFIXES, choose_codec, parse_komi, read_directory, read_game, read_games
from .record import GameRecord, Setup, SgfError, record_from_board
from .replaying import ReplayError, handicap_stones, replay
from .writing import today, write_sgf

__all__ = ["GameRecord", "Setup", "SgfError", "ReplayError", "read_game", "read_games",
           "read_directory", "replay", "handicap_stones", "write_sgf", "record_from_board",
           "parse_komi", "choose_codec", "today", "SGF_SUFFIXES"]
