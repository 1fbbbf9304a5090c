"""``mcgo review``: every position of a game searched, the value of each move measured
as KaTrain and Lizzie report it, and what the review finds kept for the SGF, the pictures,
the page and scripts.

A position's review (:func:`analyse_position`) is a search of it by the default engine
(:class:`mcgo.engine.player.Player`) with a seed of its own, so that its numbers do not
depend on which process or Ray worker searched it, nor in what order. Its values are those
``kata-analyze`` reports (:mod:`mcgo.gtp.analysis_text`), turned to Black's side as Sabaki keeps
them: the win rate of the search's best move, the value the tree backs up to the root
(:func:`~mcgo.gtp.analysis_text.winrate_for`), and the score lead, the playouts' mean final
margin (:func:`~mcgo.gtp.analysis_text.score_lead_for`).

A move's loss (:func:`move_reviews`) is the value of the position before it minus the value
of the position after it, both from the mover's side (KaTrain's ``points_lost`` and
``winrate_lost``): positive when the move made things worse, negative when the search
found the position better after it than before (a search is noisy, and a short one more).

>>> from mcgo import sgf
>>> record = sgf.read_game(b"(;SZ[9]KM[7];B[ee];W[cc])")
>>> settings = ReviewSettings(visits=64, recipe=Recipe(seed=1))
>>> analyser = Analyser(settings)
>>> positions = [analyser.analyse(record, n) for n in range(3)]
>>> [p["to_move"] for p in positions], all(0 <= p["winrate"] <= 1 for p in positions)
(['B', 'W', 'B'], True)
>>> moves = move_reviews(record, positions)
>>> [(m["number"], m["color"], m["move"]) for m in moves]
[(1, 'B', 'E5'), (2, 'W', 'C7')]
>>> moves[0]["winrate_loss"] == positions[0]["winrate"] - positions[1]["winrate"]
True
"""

import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Optional

from .. import options
from ..board import coords, symmetry
from ..board.kernels import BLACK
from ..engine.player import Player
from ..engine.recipe import Recipe
from ..gtp.analysis_text import principal_variation_visits, score_lead_for, winrate_for
from ..sgf import replay

DEFAULT_VISITS = 1000          # simulations a position when neither --visits nor --seconds
DEFAULT_MISTAKE = 10.0         # win-rate loss, in percentage points, that makes a mistake
DIAGRAM_MISTAKES = 3           # each side's biggest mistakes drawn on the page
PV_SHOWN = 10                  # moves of a best line kept in the review
STORE_VERSION = 1


@dataclass(frozen=True)
class ReviewSettings:
    """How each position is searched: ``visits`` simulations or ``seconds`` (one of them;
    neither: :data:`DEFAULT_VISITS`) by the engine of ``recipe`` (a
    :class:`~mcgo.engine.recipe.Recipe`: the search's choices, as mcgo gtp's; its seed is
    the one the positions' seeds are drawn from)."""
    visits: Optional[int] = None
    seconds: Optional[float] = None
    recipe: Recipe = field(default_factory=Recipe)

    def __post_init__(self):
        if self.visits is not None and self.seconds is not None:
            raise ValueError("give visits or seconds a position, not both")
        if self.visits is None and self.seconds is None:
            object.__setattr__(self, "visits", DEFAULT_VISITS)

    @property
    def seed(self):
        return self.recipe.seed

    @property
    def threads(self):
        return self.recipe.threads

    def as_dict(self):
        """The settings as a review's store keeps them (a rerun goes on only from positions
        searched alike): the limits, the seed, threads, move model and memory, and the
        recipe's other choices where they are not the defaults."""
        recipe = self.recipe
        more = {k: dict(v) if k == "settings" else v for k, v in recipe.changed().items()
                if k not in ("seed", "threads", "model", "max_memory")}
        return {"visits": self.visits, "seconds": self.seconds, "seed": recipe.seed,
                "threads": recipe.threads, "model": recipe.model,
                "max_memory_mb": recipe.max_memory, **more}

    def limit_text(self):
        return f"{self.visits} simulations" if self.visits else f"{self.seconds:g} s"


def position_seed(seed, number):
    """The seed of the search of the position after ``number`` moves: the same whichever
    worker searches it, different from its neighbours'."""
    return options.derive_seed(seed, "position", number)


class Analyser:
    """Searches positions of games with one :class:`~mcgo.engine.player.Player` (its
    kernels and move model loaded once). The board of the last game is kept, so that the
    positions of a game, searched in order, are not replayed from the start each time."""

    def __init__(self, settings):
        self.settings = settings
        self.player = Player(settings.recipe.search_config(), playouts=settings.visits,
                             seconds=settings.seconds, verbose=False)
        # The kernels load on the first search: not in the first position's seconds.
        self.player.warm_up(options.DEFAULT_KOMI)
        self._board = None           # (record fingerprint, moves played, board)

    def board_after(self, record, number):
        """The board of ``record`` after ``number`` moves (a copy the caller may keep)."""
        key = fingerprint(record)
        if self._board is not None and self._board[0] == key and self._board[1] <= number:
            board = self._board[2]
            for color, point in record.moves[self._board[1]:number]:
                board.play(point, color, repetition=False)
        else:
            board = replay(record, max_moves=number).copy()
        self._board = (key, number, board)
        return board.copy()

    def analyse(self, record, number):
        """The review of the position after ``number`` moves of ``record``: a dict of plain
        values (JSON), Black's win rate (0-1) and score lead, the search's best move for the
        side to move with its win rate (that side's) and line."""
        board = self.board_after(record, number)
        if number < len(record.moves):
            # The side the game says moved next (a record with handicap stones set up
            # and no PL still has white move first).
            board.to_move = record.moves[number][0]
        self.player.new_game()
        self.player.set_seed(position_seed(self.settings.seed, number))
        result = self.player.think(board)
        search = self.player.search
        size = board.size
        winrate = winrate_for(search, result, board, BLACK)
        best = next((m for m in result.moves if m.move == result.best_move and m.visits), None)
        pv = principal_variation_visits(search, result.best_move, PV_SHOWN)[0] if best else []
        return {"number": number, "to_move": "B" if board.to_move == BLACK else "W",
                "winrate": 0.5 if winrate is None else float(winrate),
                "score_lead": score_lead_for(result, board, BLACK),
                "simulations": int(result.simulations),
                "best": coords.to_gtp(result.best_move, size),
                "best_winrate": float(best.winrate) if best else None,
                "pv": [coords.to_gtp(p, size) for p in pv],
                "seconds": round(result.seconds, 3)}


_analysers = {}


def analyse_position(settings, record, number):
    """:meth:`Analyser.analyse` on this process's analyser for ``settings`` (made on the
    first call: a pool's or a Ray worker's process keeps it for its next positions)."""
    analyser = _analysers.get(settings)
    if analyser is None:
        analyser = _analysers[settings] = Analyser(settings)
    return analyser.analyse(record, number)


# --------------------------------------------------------------------------- the moves
def move_reviews(record, positions):
    """One dict per move whose position before and after are both in ``positions`` (a list
    or a dict by number): its number, colour and vertex, Black's win rate and score lead
    after it, its losses from the mover's side (win rate 0-1, points; None where a score is
    missing) and the best move of the position before it with its line. A move counts as the
    best when it is the best move or, in a position that a symmetry of the board maps onto
    itself (the empty board), one the symmetry makes the same move."""
    by_number = positions if isinstance(positions, dict) else {p["number"]: p for p in positions}
    size = record.size
    out = []
    board = replay(record, max_moves=0).copy()
    for number, (color, point) in enumerate(record.moves, start=1):
        before, after = by_number.get(number - 1), by_number.get(number)
        same = _same_moves(board, before["best"]) if before is not None else set()
        board.play(point, color, repetition=False)
        if before is None or after is None:
            continue
        sign = 1.0 if color == BLACK else -1.0
        played = coords.to_gtp(point, size)
        score_loss = None
        if before["score_lead"] is not None and after["score_lead"] is not None:
            score_loss = sign * (before["score_lead"] - after["score_lead"])
        out.append({"number": number, "color": "B" if color == BLACK else "W", "move": played,
                    "winrate": after["winrate"], "score_lead": after["score_lead"],
                    "winrate_loss": sign * (before["winrate"] - after["winrate"]),
                    "score_loss": score_loss,
                    "best": before["best"], "best_winrate": before["best_winrate"],
                    "pv": before["pv"], "is_best": played in same})
    return out


def _same_moves(board, vertex):
    """``vertex`` and the moves the position's symmetries make the same, as GTP vertices."""
    if vertex.lower() in ("pass", "resign"):
        return {vertex}
    points = symmetry.equivalent_points(board, coords.from_gtp(vertex, board.size))
    return {coords.to_gtp(p, board.size) for p in points}


def mistakes(moves, color, threshold=0.0, top=None):
    """The moves of ``color`` (``"B"``/``"W"``) whose win-rate loss is above ``threshold``
    (0-1) and that were not the best move, biggest loss first, at most ``top``."""
    found = [m for m in moves if m["color"] == color and not m["is_best"]
             and m["winrate_loss"] > threshold]
    found.sort(key=lambda m: (-m["winrate_loss"], m["number"]))
    return found if top is None else found[:top]


def review_document(game, record, settings, positions, first, last):
    """Everything the review found of one game, as plain values (``--json`` and the
    page read it): the game's header, the settings, every reviewed position and move."""
    moves = move_reviews(record, positions)
    return {"game": game, "source": record.source, "game_index": record.game_index,
            "size": record.size, "komi": record.komi, "black": record.black,
            "white": record.white, "result": record.result, "moves_in_game": len(record.moves),
            "reviewed_moves": [first, last], "settings": settings.as_dict(),
            "positions": sorted(positions.values(), key=lambda p: p["number"]),
            "moves": moves}


# --------------------------------------------------------------------------- games
def fingerprint(record):
    """A short digest of what a review depends on in a record: size, komi, set-ups, moves."""
    setups = {n: [sorted(s.black), sorted(s.white), sorted(s.empty)]
              for n, s in sorted(record.setups.items())}
    text = json.dumps([record.size, record.komi, record.handicap, record.player_to_move,
                       setups, [list(m) for m in record.moves]], default=str)
    return hashlib.sha1(text.encode()).hexdigest()[:16]


def game_names(records):
    """A file name for each record's outputs (same order): the source file's name without
    its folder and suffix, ``-N`` added for game N > 1 of a collection, odd characters
    replaced, and a number added where two would be the same.

    >>> from mcgo.sgf import GameRecord
    >>> game_names([GameRecord(source="a/x.sgf"), GameRecord(source="b/x.sgf"),
    ...             GameRecord(source="c.sgf", game_index=1), GameRecord(source="d é.sgf")])
    ['x', 'x-2', 'c-2', 'd_é']
    """
    names, seen = [], set()
    for record in records:
        stem = re.split(r"[\\/]", record.source or "game")[-1]
        stem = re.sub(r"\.(sgf|mgt)$", "", stem, flags=re.IGNORECASE) or "game"
        stem = re.sub(r"[^\w.-]+", "_", stem).strip("._") or "game"
        if record.game_index:
            stem += f"-{record.game_index + 1}"
        name, k = stem, 2
        while name in seen:
            name, k = f"{stem}-{k}", k + 1
        seen.add(name)
        names.append(name)
    return names


def reviewed_positions(record, moves_range):
    """The position numbers a review of moves ``moves_range`` (``(first, last)``, 1-based,
    inclusive; None: every move) needs: from the one before the first move to the one
    after the last, and the range as it applies to this game."""
    total = len(record.moves)
    first, last = (1, total) if moves_range is None else moves_range
    last = min(last, total)
    if first > last:
        return [], (first, last)
    return list(range(first - 1, last + 1)), (first, last)


__all__ = ["ReviewSettings", "Analyser", "analyse_position", "move_reviews", "mistakes",
           "review_document", "fingerprint", "game_names", "reviewed_positions",
           "DEFAULT_MISTAKE"]
