"""What mcgo keeps of a game record: :class:`GameRecord`, :class:`Setup` (the board's own
set-up entry, :class:`mcgo.board.history.Setup`), :class:`SgfError`, and the record of a
:class:`mcgo.Board`'s game (:func:`record_from_board`).

Points are mcgo's internal indices (see :mod:`mcgo.board.coords`), colours are
``mcgo.BLACK`` and ``mcgo.WHITE``, exactly as :class:`mcgo.Board` takes them.

>>> from mcgo import BLACK, WHITE, from_gtp
>>> record = GameRecord(size=9, komi=7.0, moves=[(BLACK, from_gtp("E5", 9)), (WHITE, from_gtp("C3", 9))])
>>> record.gtp_moves()
[('B', 'E5'), ('W', 'C3')]
>>> record.winner is None
True
"""

from dataclasses import dataclass, field

from ..board import BLACK, WHITE
from ..board import coords
from ..board.history import Move, Setup


@dataclass
class GameRecord:
    """One game: its header, setup stones and main line of moves.

    * ``size``: board size (square boards only).
    * ``komi``: points, or None when the file gives no ``KM``; scaled values such as Fox's
      ``KM[650]`` are already converted (see :func:`mcgo.sgf.reading.parse_komi`).
    * ``handicap``: the ``HA`` number as written (0 when absent). The stones themselves are in
      ``setups[0]`` when the file has them as ``AB``; without them, :func:`mcgo.sgf.replay`
      places the fixed handicap.
    * ``black``, ``white``, ``black_rank``, ``white_rank``, ``result``, ``date``, ``event``,
      ``rules``, ``name``: the ``PB PW BR WR RE DT EV RU GN`` texts, stripped ("" when absent).
    * ``moves``: ``(color, point)`` pairs of the main line in order; a pass is ``mcgo.PASS``.
    * ``setups``: ``{n: Setup}``, stones set up after the first ``n`` moves (``0``: before any
      move, the usual place for handicap stones). Several setup nodes between the same two
      moves are merged in order.
    * ``comments``: ``{n: text}``, the comment on the node of move ``n`` (``0``: before any
      move, such as the root's).
    * ``player_to_move``: colour of the root's ``PL``, or None.
    * ``properties``: every root property as decoded text lists, so nothing of the header is lost.
    * ``source``, ``game_index``: where the record came from (file and 0-based game number).
    * ``warnings``: what was odd but recoverable (unknown charset, scaled komi, ...).
    """

    size: int = 19
    komi: float | None = None
    handicap: int = 0
    black: str = ""
    white: str = ""
    black_rank: str = ""
    white_rank: str = ""
    result: str = ""
    date: str = ""
    event: str = ""
    rules: str = ""
    name: str = ""
    moves: list = field(default_factory=list)
    setups: dict = field(default_factory=dict)
    comments: dict = field(default_factory=dict)
    player_to_move: int | None = None
    properties: dict = field(default_factory=dict)
    source: str = ""
    game_index: int = 0
    warnings: list = field(default_factory=list)

    @property
    def setup(self):
        """The stones on the board before the first move (handicap and other ``AB``/``AW``)."""
        return self.setups.get(0, Setup())

    @property
    def winner(self):
        """``BLACK`` or ``WHITE`` from ``RE`` (``B+...``/``W+...``), else None (jigo, void, unknown).

        >>> GameRecord(result="W+R").winner == WHITE
        True
        >>> GameRecord(result="0").winner is None
        True
        """
        text = self.result.strip().upper()
        if text.startswith("B+"):
            return BLACK
        if text.startswith("W+"):
            return WHITE
        return None

    def turn_repeats(self):
        """Move numbers (1-based) where a colour plays twice in a row, setup nodes not counting.

        Such records are legal input for :func:`mcgo.sgf.replay` (it plays each move with its
        own colour, as GTP ``play`` does) unless it is asked to insist on alternation.

        >>> from mcgo import BLACK, WHITE
        >>> GameRecord(moves=[(BLACK, 41), (BLACK, 42), (WHITE, 43)]).turn_repeats()
        [2]
        """
        return [n for n in range(2, len(self.moves) + 1)
                if self.moves[n - 1][0] == self.moves[n - 2][0]]

    def gtp_moves(self):
        """The moves as ``("B"|"W", GTP vertex)`` pairs, handy to print or send to a GTP engine."""
        return [("B" if c == BLACK else "W", coords.to_gtp(p, self.size)) for c, p in self.moves]

    def __str__(self):
        where = f"{self.source} game {self.game_index + 1}" if self.source else "game"
        return (f"{where}: {self.black or '?'} (B) vs {self.white or '?'} (W), {self.size}x{self.size}, "
                f"{len(self.moves)} moves, {self.result or 'no result'}")


def record_from_board(board, **headers):
    """The game that led to ``board``'s position, as a :class:`GameRecord` that
    :func:`mcgo.sgf.write_sgf` writes (python-chess's ``pgn.Game.from_board`` is the model).

    Size and komi are the board's (and the rules, ``RU[Japanese]``, under territory scoring);
    the moves are its moves, and each set-up of its history
    stands where it was made (``setups[n]``: after the first ``n`` moves; several in a row
    are merged). ``headers`` are further :class:`GameRecord` fields: ``handicap``, ``black``,
    ``white``, ``result``, ``date``, ``comments``... When no move has been played and white
    is to move (after handicap stones), the record says so in ``player_to_move``.

    >>> from mcgo import Board
    >>> board = Board(9, komi=0.5)
    >>> board.setup(black=["C3", "G7"])
    >>> board.to_move = Board.WHITE
    >>> board.play("E5")
    >>> record = record_from_board(board, handicap=2, result="W+R")
    >>> record.handicap, record.komi, record.gtp_moves(), record.result
    (2, 0.5, [('W', 'E5')], 'W+R')
    >>> [coords.to_gtp(p, 9) for p in record.setup.black]
    ['C3', 'G7']
    """
    setups, moves = {}, []
    for entry in board.history:
        if isinstance(entry, Move):
            moves.append(entry)
        else:
            before = setups.get(len(moves))
            setups[len(moves)] = entry if before is None else before.then(entry)
    fields = dict(size=board.size, komi=board.komi, moves=moves, setups=setups)
    if board.scoring == "territory":
        fields["rules"] = "Japanese"    # area scoring is the default and goes unsaid
    if not moves and board.to_move != BLACK:
        fields["player_to_move"] = board.to_move
    fields.update(headers)
    return GameRecord(**fields)


class SgfError(ValueError):
    """A game (or a whole file) that could not be read; ``reason`` says why.

    ``source`` is the file name (or ``"<bytes>"``) and ``game_index`` the 0-based game number
    in a collection, or None when the file as a whole failed.
    """

    def __init__(self, reason, source="<bytes>", game_index=None):
        self.reason = reason
        self.source = source
        self.game_index = game_index
        where = source if game_index is None else f"{source} game {game_index + 1}"
        super().__init__(f"{where}: {reason}")
