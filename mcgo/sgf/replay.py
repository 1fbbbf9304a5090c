"""Replaying a :class:`GameRecord` on :class:`mcgo.Board`, with the first illegal move reported.

:func:`replay` returns the board after the moves, or raises :class:`ReplayError` carrying the
move number (1-based, passes counted), the move, its colour, the reason and the board just
before the bad move, so a caller can still use the legal part of the game.

Rules of replay (mcgo's choices):

* Setup stones (``record.setups``) are placed where they stand in the main line.
* Each move is played with its own colour. A colour moving twice in a row is accepted, as GTP
  ``play`` accepts it, unless ``alternate=True`` is asked (the case base does, since such a
  record is a transcription error); :meth:`GameRecord.turn_repeats` lists them.
* Illegal moves are those of :class:`mcgo.Board`: ``occupied``, ``ko``, ``superko``
  (positional, only with ``superko=True``; historical games were played under simple ko) and
  ``suicide``. Other reasons raised here: ``same player twice``, ``too short`` (fewer moves
  than ``min_moves``) and ``setup leaves a chain without liberties``.

>>> from mcgo.sgf import read_game
>>> board = replay(read_game(b"(;SZ[9]KM[7];B[ee];W[dd];B[];W[ee])"))
Traceback (most recent call last):
...
mcgo.sgf.replay.ReplayError: <bytes> game 1: move 4 (white E5) is illegal: occupied
>>> board = replay(read_game(b"(;SZ[9]KM[7];B[ee];W[dd])"))
>>> board.komi, board.color_at("D6") == board.WHITE, board.to_move == board.BLACK
(7.0, True, True)
"""

from ..board import BLACK, WHITE, Board, IllegalMove, color_name, coords  # noqa: F401 (doctests)
from .record import SgfError


class ReplayError(SgfError):
    """A record that cannot be replayed legally.

    ``move_number`` is the 1-based number of the offending move (for a bad setup, the number
    of moves played before it; for ``too short``, the number of moves the record has);
    ``move`` (internal point index) and ``color`` are None for errors that are not one move.
    ``board`` is the position just before the problem.
    """

    def __init__(self, reason, record, move_number, move=None, color=None, board=None):
        self.move_number = move_number
        self.move = move
        self.color = color
        self.board = board
        self.record = record
        if move is not None:
            vertex = coords.to_gtp(move, record.size)
            text = f"move {move_number} ({color_name(color)} {vertex}) is illegal: {reason}"
        else:
            text = f"after move {move_number}: {reason}"
        super().__init__(text, record.source or "<record>", record.game_index)
        self.reason = reason  # the bare reason, as IllegalMove.reason has it

    @property
    def vertex(self):
        """The offending move as a GTP vertex, or None."""
        return None if self.move is None else coords.to_gtp(self.move, self.record.size)


def replay(record, *, max_moves=None, min_moves=0, alternate=False, superko=True):
    """The :class:`mcgo.Board` after the first ``max_moves`` moves (all by default).

    Setup stones that stand before move ``max_moves + 1`` are placed too, so the board is the
    position in which that move was played (``max_moves=0``: the start, handicap included).

    ``komi`` of the board is the record's (0 when unknown). Raises :class:`ReplayError` at the
    first move that cannot be played, when the record has fewer than ``min_moves`` moves, and,
    with ``alternate=True``, when a colour moves twice in a row.

    >>> from mcgo.sgf import read_game
    >>> record = read_game(b"(;SZ[9];B[aa];W[ba];B[ee];W[ab])")
    >>> replay(record).captures(WHITE)
    1
    >>> replay(record, max_moves=1).color_at("A9") == BLACK
    True
    >>> replay(record, min_moves=10)
    Traceback (most recent call last):
    ...
    mcgo.sgf.replay.ReplayError: <bytes> game 1: after move 4: too short (4 moves, 10 wanted)
    """
    moves = record.moves
    komi = 0.0 if record.komi is None else record.komi
    board = Board(record.size, komi=komi, superko=superko)
    if record.player_to_move is not None:
        board.to_move = record.player_to_move
    if len(moves) < min_moves:
        raise ReplayError(f"too short ({len(moves)} moves, {min_moves} wanted)", record, len(moves),
                          board=board)
    count = len(moves) if max_moves is None else min(max_moves, len(moves))
    previous = None
    for number in range(count + 1):
        setup = record.setups.get(number)
        if setup is not None:
            before = board.copy()
            try:
                board.setup(black=setup.black, white=setup.white, empty=setup.empty)
            except ValueError as e:
                raise ReplayError(f"setup {e}", record, number, board=before) from None
        if number == count:
            break
        color, point = moves[number]
        if alternate and color == previous:
            raise ReplayError("same player twice", record, number + 1, point, color, board)
        try:
            board.play(point, color)
        except IllegalMove as e:
            raise ReplayError(e.reason, record, number + 1, point, color, board) from None
        previous = color
    return board
