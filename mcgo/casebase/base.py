"""The :class:`CaseBase`: stored professional positions, retrieved by influence similarity.

>>> import mcgo
>>> from mcgo.casebase import CaseBase
>>> from mcgo.sgf import read_game
>>> game = read_game(b"(;SZ[9];B[ee];W[cc];B[gg];W[cg];B[gc])")
>>> cb = CaseBase.from_records([game], max_moves=40)
>>> len(cb), cb.size
(5, 9)
>>> board = mcgo.Board(9)
>>> board.play("E5")
>>> match = cb.best(board)
>>> mcgo.to_gtp(match.move, 9), match.score, match.move_number
('C7', 81, 2)
>>> board = mcgo.Board(9)
>>> board.play("E5"); board.play("G3")       # white took the mirror image of C7
>>> match = cb.best(board, symmetries=True)    # so black answers the mirror image of G3
>>> mcgo.to_gtp(match.stored_move, 9), mcgo.to_gtp(match.move, 9), match.score
('G3', 'C7', 81)
"""

import functools
import os
from dataclasses import dataclass

import numpy as np

from ..board import BLACK, WHITE
from .codes import code_words
from .encoder import PositionEncoder
from .indexing import DEFAULT_MAX_MOVES, game_name, index_game
from .influence import DEFAULT_THRESHOLD, FLOW_STEPS
from .retrieval import best_matches, top_matches
from .storage import CaseBaseError, load, save_arrays
from ..board.symmetry import IDENTITY, inverse, map_point

DEFAULT_TOP_K = 8        # cases that vote with method "vote"


@dataclass(frozen=True)
class Match:
    """One retrieved case.

    ``move`` is the professional's move mapped into the frame of the query position (the
    move to suggest); ``stored_move`` is where it was played in the stored game; ``score`` is
    the number of points classified alike (``size * size`` at most).
    """

    score: int
    move: int
    stored_move: int
    game: str
    move_number: int
    symmetry: int
    index: int

    @property
    def game_file(self):
        """The base name of the source file, as the search tree shows it."""
        return os.path.basename(self.game.split("#")[0].rstrip("/"))


class CaseBase:
    """Cases of one board size: codes (rows with black to move first), the professionals'
    moves, their move numbers and the games they come from.

    Build one with :meth:`from_records` (or ``mcgo build-casebase``), store it with
    :meth:`save`, open it with :meth:`load` (memory-mapped).
    """

    def __init__(self, header, arrays, names, path=None):
        self.header = header
        self.path = path
        self.size = int(header["size"])
        self.threshold = float(header["threshold"])
        self.steps = int(header["steps"])
        self.max_moves = int(header["max_moves"])
        self.codes = arrays["codes"]
        self.moves = arrays["moves"]
        self.move_numbers = arrays["move_numbers"]
        self.games = arrays["games"]
        self.names = names
        self.black_cases = int(header["black_cases"])
        if self.codes.ndim != 2 or self.codes.shape[1] != code_words(self.size):
            raise CaseBaseError(f"{path or 'case base'}: codes have shape {self.codes.shape}, "
                                f"a {self.size}x{self.size} board needs {code_words(self.size)} words")

    # ------------------------------------------------------------------ making
    @classmethod
    def load(cls, path):
        """Open a case-base file (memory-mapped); :class:`CaseBaseError` if it is unusable."""
        header, arrays, names = load(path)
        return cls(header, arrays, names, path=os.fspath(path))

    def save(self, path):
        save_arrays(path, {k: v for k, v in self.header.items() if k != "arrays"},
                    codes=self.codes, moves=self.moves, move_numbers=self.move_numbers,
                    games=self.games, names=self.names)

    @classmethod
    def from_arrays(cls, size, *, codes, colors, moves, move_numbers, games, names,
                    threshold=DEFAULT_THRESHOLD, steps=FLOW_STEPS, max_moves=DEFAULT_MAX_MOVES,
                    **extra):
        """A case base from per-case arrays in any order (``colors``: side to move)."""
        colors = np.asarray(colors)
        order = np.argsort(colors != BLACK, kind="stable")   # black to move first
        header = dict(extra, size=size, threshold=float(threshold), steps=int(steps),
                      max_moves=int(max_moves), black_cases=int(np.sum(colors == BLACK)),
                      format=None, arrays=None)
        arrays = {"codes": np.ascontiguousarray(np.asarray(codes, dtype=np.uint64).reshape(-1, code_words(size))[order]),
                  "moves": np.asarray(moves, dtype=np.int16)[order],
                  "move_numbers": np.asarray(move_numbers, dtype=np.uint16)[order],
                  "games": np.asarray(games, dtype=np.uint32)[order]}
        return cls(header, arrays, list(names))

    @classmethod
    def from_records(cls, records, size=None, max_moves=DEFAULT_MAX_MOVES,
                     threshold=DEFAULT_THRESHOLD, steps=FLOW_STEPS):
        """A case base from :class:`mcgo.sgf.GameRecord` objects (in memory; a record that
        cannot be indexed raises its :class:`mcgo.sgf.SgfError`)."""
        records = list(records)
        size = size or (records[0].size if records else 19)
        encoder = PositionEncoder(size, threshold, steps)
        parts = [index_game(r, encoder, max_moves, min_moves=0) for r in records]
        names = [game_name(r) for r in records]
        return cls.from_arrays(
            size, codes=_concat([p.codes for p in parts], (0, encoder.words), np.uint64),
            colors=_concat([p.colors for p in parts], (0,), np.int8),
            moves=_concat([p.moves for p in parts], (0,), np.int16),
            move_numbers=_concat([p.move_numbers for p in parts], (0,), np.uint16),
            games=_concat([np.full(len(p.moves), i, np.uint32) for i, p in enumerate(parts)],
                          (0,), np.uint32),
            names=names, threshold=threshold, steps=steps, max_moves=max_moves)

    # ----------------------------------------------------------------- reading
    def __len__(self):
        return self.codes.shape[0]

    def __repr__(self):
        return (f"<CaseBase {self.size}x{self.size} cases={len(self)} games={len(self.names)} "
                f"threshold={self.threshold:g}{' ' + self.path if self.path else ''}>")

    def rows(self, color):
        """(start, stop): the rows of cases with ``color`` to move."""
        if color == BLACK:
            return 0, self.black_cases
        if color == WHITE:
            return self.black_cases, len(self)
        raise ValueError(f"side to move must be BLACK or WHITE, got {color!r}")

    @functools.cached_property
    def encoder(self):
        return PositionEncoder(self.size, self.threshold, self.steps)

    def query_codes(self, board, symmetries=False):
        """The code of a position (1, words), or of its 8 images (8, words)."""
        self._check_board(board)
        if symmetries:
            return self.encoder.symmetric_codes(board.pts)
        return self.encoder.code(board.pts).reshape(1, -1)

    def _check_board(self, board):
        if board.size != self.size:
            raise ValueError(f"this case base is for {self.size}x{self.size}, the board is "
                             f"{board.size}x{board.size}")

    def match(self, index, score, symmetry=IDENTITY):
        """The :class:`Match` of row ``index`` seen through ``symmetry``."""
        stored = int(self.moves[index])
        move = stored if symmetry == IDENTITY else map_point(stored, inverse(symmetry), self.size)
        return Match(score=int(score), move=move, stored_move=stored,
                     game=self.names[int(self.games[index])],
                     move_number=int(self.move_numbers[index]), symmetry=symmetry, index=int(index))

    def best(self, board, color=None, symmetries=False, exclude_game=None):
        """The most similar case with the same side to move (``color``, default the board's),
        or None if there is none. With ``symmetries`` the position's 8 images are matched and
        the best wins (ties: the lower symmetry, then the earlier case)."""
        if exclude_game is not None:
            top = self.top(board, 1, color, symmetries, exclude_game)
            return top[0] if top else None
        queries = self.query_codes(board, symmetries)
        start, stop = self.rows(board.to_move if color is None else color)
        index = np.empty(len(queries), np.int64)
        score = np.empty(len(queries), np.int64)
        best_matches(self.codes, start, stop, queries, index, score)
        s = int(np.argmax(score))
        if index[s] < 0:
            return None
        return self.match(index[s], score[s], s)

    def top(self, board, k=DEFAULT_TOP_K, color=None, symmetries=False, exclude_game=None):
        """The ``k`` most similar distinct cases, best first (each case once, under its best
        symmetry). ``exclude_game`` (a game index) leaves one game out."""
        queries = self.query_codes(board, symmetries)
        start, stop = self.rows(board.to_move if color is None else color)
        want = k if exclude_game is None else k + self.max_moves
        index = np.empty((len(queries), want), np.int64)
        score = np.empty((len(queries), want), np.int64)
        top_matches(self.codes, start, stop, queries, index, score)
        found = sorted((-int(score[s, t]), s, int(index[s, t]))
                       for s in range(len(queries)) for t in range(want) if index[s, t] >= 0)
        out, seen = [], set()
        for negative, s, i in found:
            if i in seen or (exclude_game is not None and self.games[i] == exclude_game):
                continue
            seen.add(i)
            out.append(self.match(i, -negative, s))
            if len(out) == k:
                break
        return out

    def vote(self, board, k=DEFAULT_TOP_K, color=None, symmetries=False, exclude_game=None):
        """The move most of the top ``k`` cases agree on: each case votes its similarity
        score for its move; returns the best-scoring :class:`Match` among the winning move's
        voters (its ``move`` is the winner), or None."""
        matches = self.top(board, k, color, symmetries, exclude_game)
        if not matches:
            return None
        votes = {}
        for m in matches:
            votes[m.move] = votes.get(m.move, 0) + m.score
        winner = max(votes, key=lambda p: (votes[p], -next(i for i, m in enumerate(matches) if m.move == p)))
        return next(m for m in matches if m.move == winner)

    def suggest(self, board, method="best", k=DEFAULT_TOP_K, symmetries=False, exclude_game=None):
        """The case whose move to suggest, by ``method`` ``"best"`` (the thesis) or ``"vote"``."""
        if method == "best":
            return self.best(board, symmetries=symmetries, exclude_game=exclude_game)
        if method == "vote":
            return self.vote(board, k, symmetries=symmetries, exclude_game=exclude_game)
        raise ValueError(f"method must be 'best' or 'vote', not {method!r}")

    def game_index(self, name):
        """Index of a game name (for ``exclude_game``)."""
        return self.names.index(name)


def _concat(parts, empty_shape, dtype):
    parts = [p for p in parts if len(p)]
    return np.concatenate(parts).astype(dtype, copy=False) if parts else np.zeros(empty_shape, dtype)


__all__ = ["CaseBase", "Match", "CaseBaseError", "game_name", "DEFAULT_MAX_MOVES", "DEFAULT_TOP_K"]
