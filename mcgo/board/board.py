"""The Python face of the board: a game position with its history, for real games.

>>> from mcgo import Board
>>> board = Board(9, komi=7.0)
>>> board.play("E5")
>>> board.play("D5")
>>> board.to_move == Board.BLACK, board.color_at("E5") == Board.BLACK
(True, True)
>>> board.undo()
>>> board.is_legal("E5")
False
>>> board.play("E5")
Traceback (most recent call last):
...
mcgo.board.board.IllegalMove: white E5 is illegal (occupied)

The kernels in :mod:`mcgo.board.kernels` do the work; this class adds what a real game needs
and a playout does not: positional superko through the set of earlier hashes, a history of
moves and set-ups (:mod:`mcgo.board.history`) that undo walks back, and names of points.
"""

import numpy as np

from .. import options
from . import coords
from . import kernels as K
from .history import Move, Setup

BLACK = K.BLACK
WHITE = K.WHITE
EMPTY = K.EMPTY
PASS = K.PASS

ZOBRIST_SEED = 0x6D63676F  # "mcgo": one fixed table per size, so hashes are reproducible
_zobrist_tables = {}

# Komi of a board made without one: the engine's default (GTP's komi before a komi command).
DEFAULT_KOMI = options.DEFAULT_KOMI
REASONS = {K.OCCUPIED: "occupied", K.KO: "ko", K.SUICIDE: "suicide"}

AREA = "area"             # Chinese, AGA, New Zealand, Tromp-Taylor: stones plus surrounded points
TERRITORY = "territory"   # Japanese, Korean: surrounded points plus prisoners
SCORINGS = (AREA, TERRITORY)


class IllegalMove(ValueError):
    """A move the rules forbid; ``reason`` is occupied, ko, superko, suicide or off-board."""

    def __init__(self, message, reason):
        super().__init__(message)
        self.reason = reason


def zobrist(size):
    """The Zobrist table of a board size, made once and shared (read-only)."""
    table = _zobrist_tables.get(size)
    if table is None:
        table = K.zobrist_table(size, ZOBRIST_SEED)
        table.setflags(write=False)
        _zobrist_tables[size] = table
    return table


def color_name(color):
    return {BLACK: "black", WHITE: "white"}[color]


def opponent(color):
    return 3 - color


def check_scoring(scoring):
    """``scoring`` if it is ``"area"`` or ``"territory"``; else ValueError."""
    if scoring not in SCORINGS:
        raise ValueError(f"scoring must be 'area' or 'territory', got {scoring!r}")
    return scoring


def result_text(score):
    """A score from black's side as an SGF result: ``B+3.5``, ``W+0.5`` or ``0`` (jigo).

    >>> result_text(3.5), result_text(-0.5), result_text(0)
    ('B+3.5', 'W+0.5', '0')
    """
    if score == 0:
        return "0"
    return f"B+{score:g}" if score > 0 else f"W+{-score:g}"


class Board:
    """A Go position with its history: suicide illegal, positional superko, and area
    scoring unless ``scoring`` is ``"territory"`` (Japanese and Korean counting).

    Moves are internal indices (see :mod:`mcgo.board.coords`) or GTP vertices such as
    ``"D4"`` and ``"pass"``. ``color`` defaults to the side to move; naming it lets either
    side play out of turn, as GTP's ``play`` does.

    ``history`` holds every change in order, :class:`~mcgo.board.history.Move` and
    :class:`~mcgo.board.history.Setup` entries (as python-chess's ``move_stack``); ``moves``
    the moves alone, passes included; ``undo`` takes back the last entry of either kind.
    """

    BLACK = BLACK
    WHITE = WHITE
    EMPTY = EMPTY
    PASS = PASS

    def __init__(self, size=19, komi=DEFAULT_KOMI, superko=True, scoring=AREA, handicap_bonus=0):
        coords.check_size(size)
        self.size = size
        self.komi = float(komi)
        self.handicap_bonus = handicap_bonus
        self.superko = superko
        self.scoring = check_scoring(scoring)
        self.zob = zobrist(size)
        self.pts, self.info = K.new_position(size)
        self.history = []  # Move and Setup entries, in order
        self.moves = []    # the Moves alone: (color, point), passes included
        self._undo_stack = []  # (pts, info) before each history entry
        self._seen_hashes = {int(self.info[K.HASH]): 1}

    # ----------------------------------------------------------------- reading
    @property
    def handicap_bonus(self):
        """White's points for Black's handicap stones, as the rules give them (Chinese rules:
        N for N stones; :func:`mcgo.options.handicap_bonus`), counted as komi is."""
        return self._handicap_bonus

    @handicap_bonus.setter
    def handicap_bonus(self, points):
        self._handicap_bonus = float(points)

    @property
    def to_move(self):
        return int(self.info[K.TO_MOVE])

    @to_move.setter
    def to_move(self, color):
        if color not in (BLACK, WHITE):
            raise ValueError(f"side to move must be BLACK or WHITE, got {color!r}")
        self.info[K.TO_MOVE] = color

    @property
    def hash(self):
        """64-bit Zobrist hash of the stones (not of the side to move)."""
        return int(self.info[K.HASH])

    @property
    def ko_point(self):
        """The point the side to move may not take back at once, or None."""
        ko = int(self.info[K.KO_POINT])
        if ko == PASS or int(self.info[K.KO_COLOR]) != self.to_move:
            return None
        return ko

    @property
    def consecutive_passes(self):
        return int(self.info[K.PASSES])

    @property
    def last_move(self):
        """The point of the last move played (``PASS`` for a pass), or None before any move.
        Set-ups are not moves: after one, this is still the move before it."""
        return self.moves[-1][1] if self.moves else None

    def captures(self, color):
        """Stones captured so far by ``color``."""
        return int(self.info[K.CAPTURES + color - 1])

    def point(self, move):
        """Internal index of a move given as an index or a GTP vertex."""
        if isinstance(move, str):
            return coords.from_gtp(move, self.size)
        if isinstance(move, (int, np.integer)):
            move = int(move)
            if move != PASS:
                coords.row_col(move, self.size)
            return move
        raise TypeError(f"a move is a point index or a GTP vertex, not {move!r}")

    def color_at(self, move):
        return int(self.pts[K.COLOR, self.point(move)])

    def stones(self, color):
        """Points holding ``color``'s stones, in index order."""
        return [p for p in coords.all_points(self.size) if self.pts[K.COLOR, p] == color]

    def chain(self, move):
        """Points of the chain at ``move`` (empty list for an empty point)."""
        p = self.point(move)
        if self.pts[K.COLOR, p] not in (BLACK, WHITE):
            return []
        head = int(self.pts[K.HEAD, p])
        out, s = [], head
        while True:
            out.append(s)
            s = int(self.pts[K.NEXT, s])
            if s == head:
                return sorted(out)

    def liberties(self, move):
        """Liberty count of the chain at ``move``."""
        p = self.point(move)
        if self.pts[K.COLOR, p] not in (BLACK, WHITE):
            raise ValueError(f"{coords.to_gtp(p, self.size)} is empty")
        return int(self.pts[K.LIBS, self.pts[K.HEAD, p]])

    # ------------------------------------------------------------------- rules
    def legality(self, move, color=None):
        """None when legal, else the reason: occupied, ko, superko or suicide."""
        p = self.point(move)
        color = self.to_move if color is None else color
        if p == PASS:
            return None
        r = K.legality(self.pts, self.info, p, color)
        if r != K.LEGAL:
            return REASONS[r]
        if self.superko and K.hash_after(self.pts, self.info, self.zob, p, color) in self._seen_hashes:
            return "superko"
        return None

    def is_legal(self, move, color=None):
        try:
            return self.legality(move, color) is None
        except coords.CoordinateError:
            return False

    def legal_moves(self, color=None):
        """Every legal point for ``color`` (pass not included)."""
        color = self.to_move if color is None else color
        out = np.empty(self.size * self.size, dtype=np.int32)
        n = K.legal_moves(self.pts, self.info, color, out)
        moves = [int(p) for p in out[:n]]
        if self.superko:
            moves = [p for p in moves
                     if K.hash_after(self.pts, self.info, self.zob, p, color) not in self._seen_hashes]
        return moves

    def play(self, move, color=None, repetition=True):
        """Play a move (``PASS`` or ``"pass"`` to pass); raises IllegalMove with the reason.

        ``repetition=False`` plays a ko or superko retake as well (a game record is a fact:
        its rules may have allowed it, as a triple ko under Japanese rules); occupied points and
        suicide stay errors."""
        p = self.point(move)
        color = self.to_move if color is None else color
        if color not in (BLACK, WHITE):
            raise ValueError(f"colour must be BLACK or WHITE, got {color!r}")
        reason = self.legality(p, color)
        if not repetition and reason in ("ko", "superko"):
            reason = None
        if reason is not None:
            raise IllegalMove(
                f"{color_name(color)} {coords.to_gtp(p, self.size)} is illegal ({reason})", reason)
        self._undo_stack.append((self.pts.copy(), self.info.copy()))
        K.play_legal(self.pts, self.info, self.zob, p, color)
        move = Move(color, p)
        self.history.append(move)
        self.moves.append(move)
        h = self.hash
        self._seen_hashes[h] = self._seen_hashes.get(h, 0) + 1

    def pass_move(self, color=None):
        self.play(PASS, color)

    def undo(self):
        """Take back the last entry of the history, a move or a set-up; raises IndexError
        when there is none."""
        if not self._undo_stack:
            raise IndexError("no move to undo")
        h = self.hash
        self._seen_hashes[h] -= 1
        if not self._seen_hashes[h]:
            del self._seen_hashes[h]
        self.pts, self.info = self._undo_stack.pop()
        if isinstance(self.history.pop(), Move):
            self.moves.pop()

    def setup(self, black=(), white=(), empty=()):
        """Add or remove stones outside the move sequence (SGF AB/AW/AE, handicap).

        The side to move is kept. Raises ValueError if a chain would be left without
        liberties. The history gets one :class:`~mcgo.board.history.Setup` entry (where a
        point is named twice, the later list wins: black, then white, then empty); undo takes
        the whole set-up back.
        """
        lists = []
        for points in (black, white, empty):
            lists.append([self.point(move) for move in points])
            if PASS in lists[-1]:
                raise coords.CoordinateError("pass is not a setup point")
        entry = Setup.of(*lists)
        # Placed in the order given (the order of the kernels' lists follows it).
        board = {p: c for c in (BLACK, WHITE) for p in self.stones(c)}
        for points, c in zip(lists, (BLACK, WHITE, EMPTY)):
            for p in points:
                board[p] = c
        pts, info = K.new_position(self.size)
        for p, c in board.items():
            if c != EMPTY:
                K.play_legal(pts, info, self.zob, p, c)
        if info[K.CAPTURES] or info[K.CAPTURES + 1] or any(
                pts[K.LIBS, pts[K.HEAD, p]] == 0 for p, c in board.items() if c != EMPTY):
            raise ValueError("setup leaves a chain without liberties")
        for slot in (K.TO_MOVE, K.CAPTURES, K.CAPTURES + 1, K.MOVE_COUNT):
            info[slot] = self.info[slot]
        info[K.KO_POINT] = PASS
        info[K.PASSES] = 0
        info[K.LAST_MOVE] = -1
        info[K.PREVIOUS_MOVE] = -1
        self._undo_stack.append((self.pts, self.info))
        self.pts, self.info = pts, info
        self.history.append(entry)
        h = self.hash
        self._seen_hashes[h] = self._seen_hashes.get(h, 0) + 1

    # ----------------------------------------------------------------- scoring
    def owner(self):
        """Tromp-Taylor owner of every point as an int8 array over internal indices."""
        out = np.zeros(self.pts.shape[1], dtype=np.int8)
        K.owner_map(self.pts, self.info, out)
        return out

    def area(self):
        """Black's area minus white's (stones plus surrounded empty points), no komi."""
        return int(K.area_score(self.pts, self.info))

    def placed_difference(self):
        """The stones black has put on the board minus white's: the ones standing, the ones
        captured since, and set-up stones (handicap included)."""
        black = len(self.stones(BLACK)) + self.captures(WHITE)
        white = len(self.stones(WHITE)) + self.captures(BLACK)
        return black - white

    def scoring_offset(self):
        """What the rules take from black's area score besides komi: White's handicap
        compensation (:attr:`handicap_bonus`) and, under territory scoring,
        :meth:`placed_difference`. Territory plus prisoners equals area minus the stones each
        side placed, since every placed stone is either on the board (counted in area, not in
        territory) or a prisoner of the other side; a stone played inside one's own territory
        costs a point, a dame none. One difference is left out: under Japanese rules the
        empty points of a seki are nobody's, while this counts them as area does.

        >>> board = Board(9, komi=0.5, handicap_bonus=2)    # two stones, Chinese rules
        >>> board.setup(black=["C3", "G7"])
        >>> board.scoring_offset(), board.result()
        (2.0, 'B+78.5')
        """
        placed = self.placed_difference() if self.scoring == TERRITORY else 0
        return placed + self.handicap_bonus

    def counting(self):
        """What the count depends on besides the stones: ``(size, komi, scoring,
        handicap_bonus)``; a search's win rates hold while it stays the same."""
        return self.size, self.komi, self.scoring, self.handicap_bonus

    def score(self, komi=None):
        """The score from black's side, komi included, every stone counted alive: positive
        means black wins. Area or territory, as :attr:`scoring` says.

        >>> board = Board(5, komi=0.5)
        >>> board.play("C3")                # black's area is the whole board
        >>> board.score(), board.result()
        (24.5, 'B+24.5')
        >>> board.scoring = TERRITORY       # 24 points of territory
        >>> board.score()
        23.5
        """
        return self.area() - (self.komi if komi is None else komi) - self.scoring_offset()

    def result(self, komi=None):
        """The score as an SGF result: ``B+3.5``, ``W+0.5`` or ``0`` (jigo)."""
        return result_text(self.score(komi))

    # ------------------------------------------------------------------- other
    def copy(self):
        other = Board.__new__(Board)
        other.size, other.komi, other.superko, other.zob = self.size, self.komi, self.superko, self.zob
        other.scoring, other._handicap_bonus = self.scoring, self._handicap_bonus
        other.pts, other.info = self.pts.copy(), self.info.copy()
        other.history = list(self.history)  # entries are immutable
        other.moves = list(self.moves)
        other._undo_stack = list(self._undo_stack)  # snapshots are never written in place
        other._seen_hashes = dict(self._seen_hashes)
        return other

    def __str__(self):
        cols = coords.GTP_COLUMNS[:self.size]
        glyph = {EMPTY: ".", BLACK: "X", WHITE: "O"}
        lines = ["   " + " ".join(cols)]
        for row in range(self.size - 1, -1, -1):
            cells = [glyph[int(self.pts[K.COLOR, coords.point(row, c, self.size)])]
                     for c in range(self.size)]
            lines.append(f"{row + 1:2d} " + " ".join(cells) + f" {row + 1:2d}")
        lines.append(lines[0])
        return "\n".join(lines)

    def __repr__(self):
        return f"<Board {self.size}x{self.size} moves={len(self.moves)} to_move={color_name(self.to_move)}>"
