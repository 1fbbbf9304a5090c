"""``mcgo solve``: the answer to a life-and-death or tesuji problem, inside the problem's
region, as GNU Go's ``restricted_genmove`` is asked.

A problem is an SGF file: its setup stones (and moves, with ``--move N``), the player from
``PL`` (or ``--color``, or whoever is to move). The region is the stones' bounding box grown by
2 points (``REGION_MARGIN``), or ``--region A1:G7``. Two solvers:

* ``search`` (default): the UCT search with every move outside the region barred at the
  root (:class:`mcgo.search.movefilter.MoveFilter`), on the problem set in a *tsumego frame*
  (:func:`framed`: the rest of the board filled by the attacker, komi set so that the
  defender wins when its stones live), so that the playouts read the problem and not the
  empty board around it; the answer, its win rate and main line;
* ``cfg``: seed 000's move scorer (:mod:`mcgo.models.cfg_scorer`), the best-scored legal move
  of the region, in a few milliseconds.

>>> from mcgo import Board
>>> board = Board(9)
>>> board.setup(black=["A2", "B2", "C2", "C1"], white=["A3", "B3", "C3", "D2", "D1"])
>>> board.to_move = board.WHITE
>>> answer = solve(board, region_points(board, None), method="cfg")
>>> answer.move in answer.region
True
"""

import functools
import pathlib
from dataclasses import dataclass, field

import click
import numpy as np

from .. import options
from ..board import BLACK, PASS, WHITE, coords
from ..models.cfg_scorer import open_scorer
from ..search.movefilter import MoveFilter
from ..search.search import Search
from ..sgf import ReplayError, SgfError, read_game, replay

REGION_MARGIN = 2
DEFAULT_PLAYOUTS = options.SOLVE_PLAYOUTS
METHODS = options.SOLVE_METHODS


@dataclass
class Answer:
    move: int                 # internal index, PASS when nothing in the region is legal
    method: str
    region: list
    winrate: float = None     # search: for the player
    simulations: int = 0
    line: list = field(default_factory=list)
    score: float = None       # cfg: the scorer's value

    def as_dict(self, size):
        name = lambda p: coords.to_gtp(p, size)  # noqa: E731
        return {"move": name(self.move), "method": self.method, "winrate": self.winrate,
                "simulations": self.simulations, "line": [name(p) for p in self.line],
                "score": self.score, "region": [name(p) for p in sorted(self.region)]}


def region_points(board, text, margin=REGION_MARGIN):
    """The points of ``A1:G7`` (two corners), or of the stones' bounding box grown by
    ``margin``; ValueError for a bad text."""
    size = board.size
    if text:
        try:
            a, b = (coords.from_gtp(v.strip(), size) for v in text.split(":"))
        except (ValueError, coords.CoordinateError):
            raise ValueError(f"{text!r}: give two corners, as A1:G7") from None
        if PASS in (a, b):
            raise ValueError(f"{text!r}: give two corners, as A1:G7")
        (r1, c1), (r2, c2) = coords.row_col(a, size), coords.row_col(b, size)
        rows, cols = (min(r1, r2), max(r1, r2)), (min(c1, c2), max(c1, c2))
    else:
        stones = board.stones(BLACK) + board.stones(WHITE)
        if not stones:
            return list(coords.all_points(size))
        rc = [coords.row_col(p, size) for p in stones]
        rows = (max(0, min(r for r, _ in rc) - margin), min(size - 1, max(r for r, _ in rc) + margin))
        cols = (max(0, min(c for _, c in rc) - margin), min(size - 1, max(c for _, c in rc) + margin))
    return [coords.point(r, c, size) for r in range(rows[0], rows[1] + 1)
            for c in range(cols[0], cols[1] + 1)]


FRAME_MARGIN = 0.5        # half a point: no jigo in a framed problem
FRAME_GAP = 1             # the frame stands one line outside the stones' bounding box
SCORER_PRIOR = options.SOLVE_SCORER_PRIOR


def attacker_of(board, region):
    """The colour surrounding the problem: the one with more stones next to the sides of
    the stones' bounding box that face the open board (not the board's edges)."""
    size = board.size
    stones = {c: [coords.row_col(p, size) for p in board.stones(c)] for c in (BLACK, WHITE)}
    every = stones[BLACK] + stones[WHITE]
    if not every:
        return WHITE if board.to_move == BLACK else BLACK
    top, bottom = min(r for r, _ in every), max(r for r, _ in every)
    left, right = min(c for _, c in every), max(c for _, c in every)

    def outer(r, c):
        return ((r <= top + 1 and top > 0) or (r >= bottom - 1 and bottom < size - 1)
                or (c <= left + 1 and left > 0) or (c >= right - 1 and right < size - 1))

    count = {c: sum(outer(r, col) for r, col in stones[c]) for c in (BLACK, WHITE)}
    if count[BLACK] == count[WHITE]:
        count = {c: len(stones[c]) for c in (BLACK, WHITE)}
    return BLACK if count[BLACK] > count[WHITE] else WHITE


def framed(board, region):
    """A copy of ``board`` in a tsumego frame: every point outside ``region`` and outside the
    stones' bounding box grown by :data:`FRAME_GAP` holds an attacker's stone, but for
    single-point eyes away from the problem, so the outside is
    settled; komi is set so that the defender wins exactly when it keeps some of the region
    (its stones live, or a seki), and loses when the attacker takes all of it. The search
    then reads the problem, not the empty board around it."""
    size = board.size
    inside = set(region) & set(region_points(board, None, FRAME_GAP))
    attacker = attacker_of(board, region)
    outside = [p for p in coords.all_points(size) if p not in inside]
    w = size + 2
    near = {q for p in inside for q in (p - 1, p + 1, p - w, p + w)}
    eyes = {p for p in outside if p not in near
            and (coords.row_col(p, size)[0] + 2 * coords.row_col(p, size)[1]) % 5 == 0}
    walls = [p for p in outside if p not in eyes]
    out = board.copy()
    out.setup(**({"black": walls} if attacker == BLACK else {"white": walls}))
    out.to_move = board.to_move
    # The defender wins when it ends with more points of the region than it has stones
    # now: a living group keeps its stones and its eyes, a dead one nothing.
    defender = BLACK + WHITE - attacker
    total, keep = len(outside) + len(inside), len(board.stones(defender)) + 1
    if attacker == BLACK:      # black - white - komi < 0 exactly when white has keep or more
        out.komi = total - 2 * keep + FRAME_MARGIN
    else:                      # white + komi - black < 0 exactly when black has keep or more
        out.komi = 2 * keep - total - FRAME_MARGIN
    return out


@functools.lru_cache(maxsize=8)
def _open_scorer(name):
    return open_scorer(name)


def scorer_of(scorer):
    """A :class:`~mcgo.models.cfg_scorer.Scorer`, or the one a name gives (``cfg``, a file),
    loaded once per process: a benchmark solves hundreds of problems."""
    return _open_scorer(str(scorer)) if isinstance(scorer, (str, pathlib.PurePath)) else scorer


def solve(board, region, method="search", playouts=DEFAULT_PLAYOUTS, seed=0, scorer="cfg",
          threads=1, frame=True, policy=options.DEFAULT_POLICY, prior=None):
    """The :class:`Answer` for ``board.to_move`` inside ``region`` (points)."""
    player = board.to_move
    legal = [p for p in region if board.is_legal(p, player)]
    if method == "cfg":
        model = scorer_of(scorer)
        if not legal:
            return Answer(PASS, method, list(region))
        scores = model.score_moves(board, legal, player)
        best = int(scores.argmax())
        return Answer(legal[best], method, list(region), score=float(scores[best]))
    if method != "search":
        raise ValueError(f"method must be one of {', '.join(METHODS)}")
    vertices = ",".join(coords.to_gtp(p, board.size) for p in region)
    search = Search(seed=seed, threads=threads, policy=policy)
    search.move_filter = MoveFilter.parse(
        ["allow", "b" if player == BLACK else "w", vertices, "1"], board.size)
    position = framed(board, region) if frame else board
    prior = SCORER_PRIOR if prior is None else prior
    bonus = None
    if prior and legal:
        bonus = np.zeros(board.pts.shape[1])
        bonus[legal] = prior * scorer_of(scorer).score_moves(board, legal, player)
    result = search.run(position, playouts=playouts, early_stop=False, root_bonus=bonus)
    return Answer(result.best_move, method, list(region), winrate=result.winrate,
                  simulations=result.simulations,
                  line=search.principal_variation(result.best_move))


def problem_board(path, move_number, color):
    """The position of an SGF problem: its setup (and first ``move_number`` moves), the
    player from ``color``, else ``PL``, else whoever is to move."""
    try:
        record = read_game(path)
        board = replay(record, max_moves=move_number)
    except (ReplayError, SgfError) as e:
        raise click.BadParameter(str(e), param_hint="PROBLEM") from None
    if color:
        board.to_move = BLACK if color == "black" else WHITE
    elif record.player_to_move is not None and not board.moves:
        board.to_move = record.player_to_move
    return board
