"""Moves a search may not try: the ``allow`` and ``avoid`` clauses GUIs send with Leela Zero's
``lz-analyze`` and KataGo's ``kata-analyze`` to study a region of the board (KaTrain's and
Lizzie's "region of interest").

``avoid PLAYER VERTEX,VERTEX,... UNTILDEPTH``: the player's moves at those vertices are not
searched at the first ``UNTILDEPTH`` plies from the root (1: the root's own move only).
``allow PLAYER VERTEX,... UNTILDEPTH``: only those of the player's moves are searched there
(a pass stays possible unless a clause avoids it). Several clauses add up.

>>> f = MoveFilter.parse(["allow", "b", "A1,B1", "1", "avoid", "w", "pass,C3", "20"], 9)
>>> f.allows(BLACK, coords.from_gtp("A1", 9), 1), f.allows(BLACK, coords.from_gtp("C3", 9), 1)
(True, False)
>>> f.allows(BLACK, coords.from_gtp("C3", 9), 3), f.allows(WHITE, PASS, 20)
(True, False)
"""

from dataclasses import dataclass

import numpy as np

from ..board import BLACK, WHITE, coords
from ..board.kernels import PASS

KINDS = ("allow", "avoid")
COLORS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}


class MoveFilterError(ValueError):
    """A clause that cannot be read; the message says what is wrong."""


@dataclass(frozen=True)
class Clause:
    kind: str          # allow or avoid
    color: int
    points: frozenset  # internal point indices, PASS for pass
    until: int         # plies from the root, >= 1


@dataclass(frozen=True)
class MoveFilter:
    size: int
    clauses: tuple = ()

    @classmethod
    def parse(cls, words, size):
        """The clauses of ``words`` (``KIND PLAYER VERTICES DEPTH`` repeated)."""
        clauses, words = [], list(words)
        while words:
            kind = words.pop(0).lower()
            if kind not in KINDS:
                raise MoveFilterError(f"{kind}: expected allow or avoid")
            if len(words) < 3:
                raise MoveFilterError(f"{kind} needs PLAYER VERTEX,VERTEX,... UNTILDEPTH")
            player, vertices, depth = words.pop(0), words.pop(0), words.pop(0)
            clauses.append(cls.clause(kind, player, vertices, depth, size))
        return cls(size, tuple(clauses))

    @staticmethod
    def clause(kind, player, vertices, depth, size):
        color = COLORS.get(player.lower())
        if color is None:
            raise MoveFilterError(f"{player}: not a player (b or w)")
        points = set()
        for vertex in (v for v in vertices.split(",") if v):
            try:
                points.add(coords.from_gtp(vertex, size))
            except coords.CoordinateError:
                raise MoveFilterError(f"{vertex}: not a vertex of the {size}x{size} board") from None
        if not points:
            raise MoveFilterError(f"{kind}: no vertices")
        try:
            until = int(depth)
        except ValueError:
            raise MoveFilterError(f"{depth}: the depth must be a whole number") from None
        if until < 1:
            raise MoveFilterError(f"{depth}: the depth must be 1 or more")
        return Clause(kind, color, frozenset(points), until)

    def __bool__(self):
        return bool(self.clauses)

    def forbidden_until(self, color, move):
        """The plies (from 1) up to which ``color`` may not play ``move`` (0: never barred)."""
        until = 0
        for c in self.clauses:
            if c.color != color:
                continue
            barred = move in c.points if c.kind == "avoid" else (move != PASS and move not in c.points)
            if barred:
                until = max(until, c.until)
        return until

    def allows(self, color, move, depth=1):
        return self.forbidden_until(color, move) < depth

    def forbid_array(self):
        """``forbid[colour, p]``: the plies up to which the move is barred, as the search's
        kernels read it (all zero without clauses)."""
        w = self.size + 2
        out = np.zeros((3, w * w), dtype=np.int32)
        points = [PASS] + list(coords.all_points(self.size))
        for color in (BLACK, WHITE):
            if any(c.color == color for c in self.clauses):
                for p in points:
                    out[color, p] = self.forbidden_until(color, p)
        return out
