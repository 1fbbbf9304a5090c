"""Replaying a :class:`GameRecord` on :class:`mcgo.Board`, with the first illegal move reported.

:func:`replay` returns the board after the moves, or raises :class:`ReplayError` carrying the
move number (1-based, passes counted), the move, its colour, the reason and the board just
before the bad move, so a caller can still use the legal part of the game.

Rules of replay: a record is a fact, not a proposal, so it is replayed as recorded.

* Setup stones (``record.setups``: ``AB``/``AW``/``AE``) are placed where they stand in the
  main line. A record with ``HA[n]`` (n >= 2) and no setup stones before its first move gets
  the fixed handicap stones (:func:`mcgo.board.handicap.fixed_points`, as GTP
  ``fixed_handicap`` and GNU Go place them), and white moves first unless ``PL`` says otherwise;
  unless black makes the first move: then the record gives the handicap as black's first
  moves (as some servers write a free placement) and is replayed as it stands.
* Each move is played with its own colour; one colour may move several times in a row
  (teaching games, edited records: SGF allows it). :meth:`GameRecord.turn_repeats` lists them.
* The rules' repetition test is not applied to recorded moves: a ko retake or a position
  repeated by a triple ko is played as recorded. The only illegal moves are a play on an
  occupied point and suicide (the kernels have no rules that allow it). Other reasons raised
  here: ``too short`` (fewer moves than ``min_moves``), a setup that leaves a chain without
  liberties, and ``HA[n]`` with no fixed placement on the board.
* The board counts what the record's rules give White for Black's handicap (``RU``; a
  record naming no rules mcgo knows, mcgo's default, Chinese: N points for N stones), the
  handicap counted as KataGo counts it from the start (:func:`handicap_bonus`).
* ``superko`` is the rule of the board for the moves played on it afterwards (GTP ``play``
  after ``loadsgf``), not a test of the record.

>>> from mcgo.sgf import read_game
>>> board = replay(read_game(b"(;SZ[9]KM[7];B[ee];W[dd];B[];W[ee])"))
Traceback (most recent call last):
...
mcgo.sgf.replaying.ReplayError: <bytes> game 1: move 4 (white E5) is illegal: occupied
>>> board = replay(read_game(b"(;SZ[9]KM[7];B[ee];W[dd])"))
>>> board.komi, board.color_at("D6") == board.WHITE, board.to_move == board.BLACK
(7.0, True, True)
"""

from .. import options
from ..board import BLACK, WHITE, Board, IllegalMove, color_name, coords  # noqa: F401 (doctests)
from ..board.handicap import black_first_moves, fixed_points, stones_given
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


def replay(record, *, max_moves=None, min_moves=0, superko=True):
    """The :class:`mcgo.Board` after the first ``max_moves`` moves (all by default).

    Setup stones that stand before move ``max_moves + 1`` are placed too, so the board is the
    position in which that move was played (``max_moves=0``: the start, handicap included).

    ``komi`` of the board is the record's (0 when unknown). Raises :class:`ReplayError` at the
    first move that cannot be played (an occupied point, suicide) and when the record has fewer
    than ``min_moves`` moves.

    >>> from mcgo.sgf import read_game
    >>> record = read_game(b"(;SZ[9];B[aa];W[ba];B[ee];W[ab])")
    >>> replay(record).captures(WHITE)
    1
    >>> replay(record, max_moves=1).color_at("A9") == BLACK
    True
    >>> replay(record, min_moves=10)
    Traceback (most recent call last):
    ...
    mcgo.sgf.replaying.ReplayError: <bytes> game 1: after move 4: too short (4 moves, 10 wanted)
    >>> board = replay(read_game(b"(;SZ[9]HA[2];W[ee];W[dd])"))   # no AB: fixed handicap
    >>> [coords.to_gtp(p, 9) for p in board.stones(BLACK)], board.to_move == BLACK
    (['C3', 'G7'], True)
    """
    if len(record.moves) < min_moves:
        raise ReplayError(f"too short ({len(record.moves)} moves, {min_moves} wanted)", record,
                          len(record.moves), board=_start(record, superko))
    count = len(record.moves) if max_moves is None else min(max_moves, len(record.moves))
    for number, board in positions(record, superko=superko):
        if number == count:
            return board


def positions(record, *, superko=True):
    """``(n, board)`` after each number of moves ``n`` from 0 to the end, in one pass: the
    boards of :func:`replay` (the same board object, changed in place: copy what you keep).

    >>> from mcgo.sgf import read_game
    >>> [(n, len(b.stones(BLACK))) for n, b in positions(read_game(b"(;SZ[9];B[aa];W[ba];B[ee])"))]
    [(0, 0), (1, 1), (2, 1), (3, 2)]
    """
    moves = record.moves
    board = _start(record, superko)
    place_missing_handicap(board, record)
    for number in range(len(moves) + 1):
        setup = record.setups.get(number)
        if setup is not None:
            before = board.copy()
            try:
                board.setup(black=setup.black, white=setup.white, empty=setup.empty)
            except ValueError as e:
                raise ReplayError(f"setup {e}", record, number, board=before) from None
        if number == 0:
            board.handicap_bonus = handicap_bonus(record, board)
        yield number, board
        if number == len(moves):
            return
        color, point = moves[number]
        try:
            board.play(point, color, repetition=False)
        except IllegalMove as e:
            raise ReplayError(e.reason, record, number + 1, point, color, board) from None


def handicap_stones(record, start):
    """The handicap of ``record`` whose first position is ``start``: none unless its ``HA``
    says there is one (stones set up without it are a position, as a problem's); then
    counted as KataGo counts it, Black's stones at the start, or Black's first moves, when
    more than one and White has no stone (:func:`mcgo.board.handicap.stones_given`)."""
    if record.handicap < 2:
        return 0
    return stones_given(len(start.stones(BLACK)), len(start.stones(WHITE)),
                        black_first_moves(record.moves))


def handicap_bonus(record, start):
    """White's points for the handicap of ``record`` whose first position is ``start``
    (:func:`handicap_stones`), by the record's rules (``RU``; unknown or none:
    :data:`mcgo.options.DEFAULT_RULES`).

    >>> from mcgo.sgf import read_game
    >>> [replay(read_game(b"(;SZ[9]HA[3]RU[%s]KM[0.5])" % ru)).handicap_bonus
    ...  for ru in (b"Chinese", b"AGA", b"Japanese", b"NZ")]
    [3.0, 2.0, 0.0, 0.0]
    """
    name = options.rules_name(record.rules or "") or options.DEFAULT_RULES
    return options.handicap_bonus(options.handicap_bonus_rule(name),
                                  handicap_stones(record, start))


def _start(record, superko):
    komi = 0.0 if record.komi is None else record.komi
    board = Board(record.size, komi=komi, superko=superko)
    if record.player_to_move is not None:
        board.to_move = record.player_to_move
    return board


def place_missing_handicap(board, record):
    """``HA[n]`` without setup stones before the first move, which is white's (or there is
    none): the fixed handicap, white to move (unless the record's ``PL`` says otherwise)."""
    if record.handicap < 2 or (record.moves and record.moves[0][0] == BLACK):
        return
    start = record.setups.get(0)
    if start is not None and (start.black or start.white):
        return
    try:
        points = fixed_points(record.size, record.handicap)
    except ValueError as e:
        raise ReplayError(f"HA[{record.handicap}] without setup stones: {e}", record, 0,
                          board=board) from None
    board.setup(black=points)
    if record.player_to_move is None:
        board.to_move = WHITE
