"""The opening bonus (thesis 9.7) and the advisor the search asks before each move.

The bonus of a candidate move depends on its Euclidean distance to the professional's move in
the best-matching case: 0.4 on it, 0.3 at distance 1, 0.2 at a diagonal neighbour (sqrt 2),
0.1 within distance 4, else 0. The search adds it to a root child's value both when exploring
and when choosing the move.

>>> import mcgo
>>> [bonus_for(d2) for d2 in (0, 1, 2, 4, 5, 16, 17)]
[0.4, 0.3, 0.2, 0.1, 0.1, 0.1, 0.0]
>>> bonus = bonus_map(mcgo.from_gtp("R14", 19), 19)
>>> [float(bonus[mcgo.from_gtp(v, 19)]) for v in ("R14", "P13", "P11", "O12", "O15", "N14")]
[0.4, 0.1, 0.1, 0.1, 0.1, 0.1]
>>> float(bonus[mcgo.from_gtp("N13", 19)])   # sqrt(17) > 4
0.0
"""

import os
import pathlib

import numpy as np

from ..board import coords
from ..resources import package_file
from .base import DEFAULT_TOP_K, CaseBase
from .influence import DEFAULT_THRESHOLD, influence_map

BONUS_EXACT = 0.4
BONUS_ADJACENT = 0.3      # distance 1
BONUS_DIAGONAL = 0.2      # distance sqrt 2
BONUS_NEAR = 0.1          # distance up to NEAR_DISTANCE
NEAR_DISTANCE = 4
DEFAULT_BONUS_MOVES = 20  # the bonus applies to moves 1..20 of a game (thesis 9.6)
DEFAULT_METHOD = "best"   # the thesis's single best case: top-k voting lost (benchmarks/journal/)
DEFAULT_SYMMETRIES = True  # matching the 8 images won on both test sets (benchmarks/journal/)

DEFAULT_CASEBASE_NAME = "goban-original-games.mcgocb"
CASEBASE_ENV = "MCGO_CASEBASE"


def bonus_for(distance_squared):
    """The bonus at a squared Euclidean distance from the professional's move."""
    if distance_squared == 0:
        return BONUS_EXACT
    if distance_squared == 1:
        return BONUS_ADJACENT
    if distance_squared == 2:
        return BONUS_DIAGONAL
    if distance_squared <= NEAR_DISTANCE * NEAR_DISTANCE:
        return BONUS_NEAR
    return 0.0


def bonus_map(pro_move, size):
    """float64 array over internal indices (length W*W): the bonus of each point."""
    w = size + 2
    out = np.zeros(w * w, dtype=np.float64)
    pr, pc = coords.row_col(pro_move, size)
    for p in coords.all_points(size):
        r, c = coords.row_col(p, size)
        out[p] = bonus_for((r - pr) ** 2 + (c - pc) ** 2)
    return out


def moves_played(board):
    """Moves played so far (passes count, set-ups do not)."""
    return len(board.moves)


class OpeningAdvisor:
    """Asks the case base about a position and turns the answer into the search's bonus.

    ``advise(board)`` returns ``(root_bonus, labels)``: a float64 array over internal point
    indices (0 where there is no bonus) and ``{point: "R14: 0.1 Jud-1982-4.sgf"}`` for the
    points that get one; ``(None, None)`` after the first ``bonus_moves`` moves, on another
    board size, or when no case matches. ``method`` is ``"best"`` (the thesis) or ``"vote"``
    (top ``k``); ``symmetries`` matches the position's 8 images (the default: it predicted
    professional moves better than the plain thesis method).
    """

    def __init__(self, casebase, bonus_moves=DEFAULT_BONUS_MOVES, method=DEFAULT_METHOD,
                 k=DEFAULT_TOP_K, symmetries=DEFAULT_SYMMETRIES):
        self.casebase = casebase
        self.bonus_moves = bonus_moves
        self.method = method
        self.k = k
        self.symmetries = symmetries
        self.last_match = None

    def match(self, board):
        """The case the bonus comes from, or None when the advisor has nothing to say."""
        if board.size != self.casebase.size or moves_played(board) >= self.bonus_moves:
            return None
        return self.casebase.suggest(board, self.method, self.k, self.symmetries)

    def advise(self, board):
        match = self.match(board)
        self.last_match = match
        if match is None:
            return None, None
        bonus = bonus_map(match.move, board.size)
        pro = coords.to_gtp(match.move, board.size)
        labels = {int(p): f"{pro}: {bonus[p]:g} {match.game_file}" for p in np.flatnonzero(bonus)}
        return bonus, labels

    __call__ = advise

    def gogui_gfx(self, board):
        """GoGui ``gfx`` text marking the professional's move and naming the matched game."""
        match = self.match(board)
        if match is None:
            return "TEXT no case-base match"
        vertex = coords.to_gtp(match.move, board.size)
        return (f"LABEL {vertex} cbr\nMARK {vertex}\n"
                f"TEXT {match.game_file} move {match.move_number}: {coords.to_gtp(match.stored_move, board.size)}"
                f" (similarity {match.score}/{board.size * board.size})")


def gogui_influence(board, threshold=None):
    """GoGui ``gfx`` text of the influence map: INFLUENCE 1 for black points, -1 for white."""
    classes = influence_map(board, DEFAULT_THRESHOLD if threshold is None else threshold)
    parts = []
    for p in coords.all_points(board.size):
        if classes[p] == 1:
            parts.append(f"{coords.to_gtp(p, board.size)} 1")
        elif classes[p] == 2:
            parts.append(f"{coords.to_gtp(p, board.size)} -1")
    return "INFLUENCE " + " ".join(parts) if parts else "TEXT no influence"


def default_casebase_path():
    """Where the shipped case base is: ``$MCGO_CASEBASE`` if set, else the package data file
    ``mcgo/casebase/data/goban-original-games.mcgocb`` (in a wheel's install as in a checkout).

    >>> default_casebase_path().name
    'goban-original-games.mcgocb'
    """
    override = os.environ.get(CASEBASE_ENV)
    if override:
        return pathlib.Path(override)
    return package_file("mcgo.casebase", "data", DEFAULT_CASEBASE_NAME)


def open_casebase(choice, size=None):
    """The case base for ``--casebase``: ``"none"`` gives None; ``"default"`` (or None) the
    shipped 19x19 one (None if it is not installed, or if ``size`` is given and not 19); else
    the file. A bad file raises :class:`mcgo.casebase.CaseBaseError`."""
    if choice is not None and str(choice).lower() == "none":
        return None
    if choice is None or str(choice).lower() == "default":
        path = default_casebase_path()
        if (size is not None and size != 19) or not path.is_file():
            return None
        return CaseBase.load(path)
    return CaseBase.load(choice)
