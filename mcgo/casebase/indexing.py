"""One game as cases: every position before moves 1 to ``max_moves``, its influence code,
the side to move, the professional's move and the move number (thesis 9.6). Passes are
played but not stored as cases (a pass is not a point to steer towards). Used by
:mod:`.build` (many files) and :meth:`.CaseBase.from_records` (records in memory).

>>> from mcgo.sgf import read_game
>>> from mcgo.casebase.encoder import PositionEncoder
>>> game = index_game(read_game(b"(;SZ[9];B[ee];W[];B[cc])"), PositionEncoder(9), 40, min_moves=0)
>>> game.move_numbers.tolist(), game.colors.tolist()
([1, 3], [1, 1])
"""

from dataclasses import dataclass

import numpy as np

from ..board import PASS, Move
from ..sgf import SgfError, replay
from ..sgf.sources import game_name  # noqa: F401 (the case base names its games so)

DEFAULT_MAX_MOVES = 40   # positions indexed per game (thesis 9.6)


@dataclass
class IndexedGame:
    """The cases of one game, in move order."""

    codes: np.ndarray         # uint64 (n, words)
    colors: np.ndarray        # int8 (n,): side to move
    moves: np.ndarray         # int16 (n,): the move played
    move_numbers: np.ndarray  # uint16 (n,)


def index_game(record, encoder, max_moves=DEFAULT_MAX_MOVES, min_moves=None):
    """The cases of the first ``max_moves`` moves of ``record``.

    Raises :class:`mcgo.sgf.SgfError` (or its :class:`mcgo.sgf.ReplayError`) when the game
    cannot be indexed. ``min_moves`` defaults to ``max_moves`` (shorter games are skipped).
    """
    if record.size != encoder.size:
        raise SgfError(f"board size {record.size} (the case base is {encoder.size}x{encoder.size})",
                       record.source or "<bytes>", record.game_index)
    min_moves = max_moves if min_moves is None else min_moves
    board = replay(record, max_moves=max_moves, min_moves=min_moves, superko=False)
    # Walk back from the end: after each undo the board is the position the move was played in.
    cases = []
    number = len(board.moves)
    for entry in reversed(board.history):
        board.undo()
        if not isinstance(entry, Move):    # a set-up: no move to index
            continue
        if entry.point != PASS:
            cases.append((encoder.code(board.pts), entry.color, entry.point, number))
        number -= 1
    cases.reverse()
    n = len(cases)
    codes = np.empty((n, encoder.words), dtype=np.uint64)
    for i, case in enumerate(cases):
        codes[i] = case[0]
    return IndexedGame(codes=codes, colors=np.array([c[1] for c in cases], dtype=np.int8),
                       moves=np.array([c[2] for c in cases], dtype=np.int16),
                       move_numbers=np.array([c[3] for c in cases], dtype=np.uint16))
