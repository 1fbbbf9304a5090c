"""Life-and-death and tesuji problems: positions, their regions, their correct first moves,
and the split by collection.

The problems come as one JSON object a line (``problems.jsonl.gz``, KaTrain's collection:
``collection``, ``problem``, ``SZ``, ``AB``/``AW`` as SGF points, ``C`` saying who plays,
``SOL`` the correct first moves as ``[colour, point, comment, warning]``). A problem whose
solution carries a warning, or names no point, is *doubtful* and left out of scores and
training.

The **region** of a problem is the bounding box of its stones grown by :data:`REGION_MARGIN`
points on every side (clipped to the board): the moves a solver considers, as GNU Go's
``restricted_genmove`` is asked. Problems are split **by collection** (:func:`split_of_collection`),
so no score is taken on a book that was trained on.

>>> problem = Problem.from_json({"collection": "c", "problem": "1", "SZ": "19",
...     "AB": ["qb", "rb"], "AW": ["qc"], "C": "White to play", "SOL": [["W", "sb", "", ""]]})
>>> problem.player == WHITE, coords.to_gtp(problem.solutions[0], 19), problem.doubtful
(True, 'T18', False)
>>> sorted(coords.to_gtp(p, 19) for p in problem.region())[:3]
['P15', 'P16', 'P17']
"""

import gzip
import hashlib
import json
from dataclasses import dataclass

from ..board import BLACK, WHITE, Board, coords
from .split import TEST, TRAIN, VALIDATION

REGION_MARGIN = 2
TEST_PERCENT = 20          # of the collections (by a hash of the name), not of the problems
VALIDATION_PERCENT = 15


class ProblemError(ValueError):
    """A problem that cannot be set up (a bad point, a chain without liberties)."""


def split_of_collection(name):
    """``train``, ``validation`` or ``test`` for a collection, by a hash of its name."""
    value = int.from_bytes(hashlib.sha256(name.encode("utf-8")).digest()[:8], "big") % 100
    if value < TEST_PERCENT:
        return TEST
    if value < TEST_PERCENT + VALIDATION_PERCENT:
        return VALIDATION
    return TRAIN


@dataclass
class Problem:
    collection: str
    name: str
    size: int
    black: tuple          # internal point indices
    white: tuple
    player: int
    solutions: tuple      # correct first moves (internal indices)
    doubtful: bool

    @classmethod
    def from_json(cls, row):
        size = int(row.get("SZ", 19))
        try:
            black = tuple(coords.from_sgf(p, size) for p in row.get("AB", []))
            white = tuple(coords.from_sgf(p, size) for p in row.get("AW", []))
        except coords.CoordinateError as e:
            raise ProblemError(f"{row.get('collection')} {row.get('problem')}: {e}") from None
        comment = row.get("C", "").lower()
        player = WHITE if comment.startswith("white") else BLACK
        solutions, doubtful = [], False
        for entry in row.get("SOL", []):
            colour, point = entry[0], entry[1]
            warning = entry[3] if len(entry) > 3 else ""
            if warning or not point or colour.upper() != ("W" if player == WHITE else "B"):
                doubtful = True
                continue
            try:
                solutions.append(coords.from_sgf(point, size))
            except coords.CoordinateError:
                doubtful = True
        return cls(row.get("collection", ""), row.get("problem", ""), size, black, white,
                   player, tuple(solutions), doubtful or not solutions)

    @property
    def split(self):
        return split_of_collection(self.collection)

    def board(self):
        """The position, the player to move; :class:`ProblemError` if it cannot be set up."""
        board = Board(self.size, komi=0.0)
        try:
            board.setup(black=self.black, white=self.white)
        except ValueError as e:
            raise ProblemError(f"{self.collection} {self.name}: {e}") from None
        board.to_move = self.player
        return board

    def region(self, margin=REGION_MARGIN):
        """The points of the stones' bounding box grown by ``margin``."""
        stones = self.black + self.white
        if not stones:
            return set(coords.all_points(self.size))
        rows, cols = zip(*(coords.row_col(p, self.size) for p in stones))
        top, bottom = max(0, min(rows) - margin), min(self.size - 1, max(rows) + margin)
        left, right = max(0, min(cols) - margin), min(self.size - 1, max(cols) + margin)
        return {coords.point(r, c, self.size) for r in range(top, bottom + 1)
                for c in range(left, right + 1)}

    def candidates(self, board=None, margin=REGION_MARGIN):
        """The player's legal moves in the region, from the top left row by row (ko is not
        looked at: a problem has none)."""
        board = self.board() if board is None else board
        region = self.region(margin)
        order = sorted(region, key=lambda p: (-coords.row_col(p, self.size)[0],
                                               coords.row_col(p, self.size)[1]))
        return [p for p in order if board.legality(p, self.player) is None]


def load_problems(path):
    """Every problem of a ``.jsonl`` or ``.jsonl.gz`` file, in file order; problems that
    cannot be read are left out and returned as ``(problems, [(name, reason)])``."""
    opener = gzip.open if str(path).endswith(".gz") else open
    problems, skipped = [], []
    with opener(path, "rt", encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                problems.append(Problem.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError, IndexError) as e:
                skipped.append((f"line {number}", str(e)))
    return problems, skipped
