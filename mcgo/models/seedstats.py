"""The seed papers' 3x3 pattern statistics, learned from games with their final ownership
(gathered from files of games by :mod:`mcgo.train.seedstats`).

**Seed 003 (Wu & Baldi 2006), section 3.3, propensity.** For a located pattern ``p`` (its
window's location class, :mod:`.patterns3`) and each of its nine cells ``ij``,
``NB_ij(p)`` (``NW_ij(p)``) is the number of times ``p`` occurs in a position of a game whose
point ``ij`` ends black (white), and ``S^w_ij(p) = (NB - NW) / (NB + NW + C)``, ``C = 1``
(eq. 3). The propensity ``S_ij`` of a point of a position is the mean of ``S^w_ij`` over the
windows ``w`` that cover it (1 in a corner, 9 away from the edge).

**Seed 002 (Ralaivola, Wu & Baldi 2005), section 3.1, eq. (1).** ``stab(p) = (bedge(p) -
wedge(p)) / occ(p)`` and ``imp(p) = (win(p) - loss(p)) / occ(p)``: ``occ`` the number of
occurrences of the located pattern in all positions of all games, ``bedge`` (``wedge``) the
number of those occurrences after which black (white) has "a larger territory at loc(p)" at
the end, ``win`` (``loss``) the number of occurrences in games black won (lost).

Choices where the papers are vague (each named in the stored metadata):

* *Positions*: every position of every game, after each move (moves 1..N; the empty start
  holds no information). Both papers count pattern occurrences over the games' positions.
* *Ends black*: the final **area** owner (+1 black, -1 white, 0 dame or seki), dead stones
  removed, not the final stones alone ("ends with a black stone" read as "black's at the end";
  :data:`OWNERSHIP_METHOD`). The stones-only reading is the measured alternative.
* *Larger territory at loc(p)*: black owns more of the window's 9 points than white at the end
  (``territory="window"``); the alternative, ``territory="centre"``, asks who owns the
  window's centre point (measured beside it).
* *Win or loss*: the record's ``RE``; without one (or jigo), the sign of the final area score
  with the record's komi; a draw counts in ``occ`` only.
* *Colours in seed 002*: the paper normalises every position so that black is to move (its
  section 4). ``to_move_view=True`` (the default) does the same for stab and imp: a position
  with white to move has its colours, its final owners and its result exchanged. Seed 003 says
  nothing of the kind: the propensity tables keep the real colours.
* *Symmetries*: an occurrence is split evenly over its window's canonical frames
  (:mod:`.patterns3`), so each counts once and the tables are invariant under the board's 8
  symmetries; counts are therefore multiples of 1/8, not integers.
* *Unseen patterns*: ``S = 0`` (the formula gives 0/1), ``stab = imp = 0`` (occ = 0).

>>> from mcgo.sgf import read_game
>>> import numpy as np
>>> record = read_game(b"(;SZ[5];B[cc];W[bb];B[dd])")
>>> owner = np.ones((5, 5), dtype=np.int8)            # say black owns everything at the end
>>> stats = SeedStats(5)
>>> stats.add_game(record, owner)
3
>>> plane = stats.propensity(replay_positions(record)[-1][0])
>>> bool((plane > 0).all())                            # every point leans black
True
"""

import hashlib
import io
import json
import pathlib

import numpy as np

from .. import __version__
from ..board import BLACK, WHITE, Board, coords
from ..board import kernels as K
from . import patterns3 as P
from . import weights_file

FORMAT = "mcgo-seedstats"
FORMAT_VERSION = 1
REGULARIZER = 1.0                      # seed 003's C
OWNERSHIP_METHOD = "area after removing the dead stones of mcgo.judge.status.estimate"
TERRITORY = ("window", "centre")     # seed 002's "larger territory at loc(p)": see above
COUNT_TABLES = ("nb", "nw", "occ", "bedge", "wedge", "won", "lost")


class SeedStatsError(ValueError):
    """A statistics file that cannot be used (wrong format, version, shapes or checksum)."""


def colors_of(board):
    """(size, size) int8 colours of a :class:`mcgo.Board` (0 empty, 1 black, 2 white), row 0
    at the bottom as :mod:`mcgo.board.coords` has it."""
    w = board.size + 2
    return np.ascontiguousarray(board.pts[K.COLOR].reshape(w, w)[1:-1, 1:-1], dtype=np.int8)


def owner_plane(owner_by_point, size):
    """(size, size) int8 +1 black / -1 white / 0 from :meth:`mcgo.Board.owner`'s array."""
    w = size + 2
    grid = np.asarray(owner_by_point).reshape(w, w)[1:-1, 1:-1]
    return (np.where(grid == BLACK, 1, 0) - np.where(grid == WHITE, 1, 0)).astype(np.int8)


def replay_positions(record):
    """``(colors, to_move)`` after each move of the record (moves 1..N), as a list of pairs:
    colours (size, size) int8 and the side to move next. Setups are placed where they stand."""
    board = Board(record.size, komi=record.komi or 0.0, superko=False)
    out = []
    for number in range(len(record.moves) + 1):
        setup = record.setups.get(number)
        if setup is not None:
            board.setup(black=setup.black, white=setup.white, empty=setup.empty)
        if number == len(record.moves):
            break
        color, point = record.moves[number]
        board.play(point, color)
        out.append((colors_of(board), WHITE if color == BLACK else BLACK))
    return out


def outcome_of(record, owner):
    """+1 black won, -1 white won, 0 draw: ``RE`` first, else the area of ``owner`` - komi."""
    if record.winner == BLACK:
        return 1
    if record.winner == WHITE:
        return -1
    score = float(owner.sum()) - (record.komi or 0.0)
    return int(np.sign(score))


class SeedStats:
    """Pattern counts of seeds 002 and 003 for one board size, and what they give.

    ``cap``: the distance-to-edge cap of the location classes (:mod:`.patterns3`).
    Tables (float64): ``nb``, ``nw`` (classes, 3**9, 9); ``occ``, ``bedge``, ``wedge``, ``won``,
    ``lost`` (classes, 3**9). ``metadata``: a dict saved with them.
    """

    def __init__(self, size, cap=P.DEFAULT_CAP, to_move_view=True, territory="window",
                 metadata=None):
        coords.check_size(size)
        if size < 3:
            raise ValueError("3x3 windows need a board of size 3 or more")
        self.size = size
        self.cap = int(cap)
        self.to_move_view = bool(to_move_view)
        if territory not in TERRITORY:
            raise ValueError(f"territory must be one of {TERRITORY}, not {territory!r}")
        self.territory = territory
        self.metadata = dict(metadata or {})
        classes = P.class_count(self.cap)
        self.nb = np.zeros((classes, P.CODES, P.CELLS))
        self.nw = np.zeros((classes, P.CODES, P.CELLS))
        for name in COUNT_TABLES[2:]:
            setattr(self, name, np.zeros((classes, P.CODES)))
        self.games = 0
        self.positions = 0
        self.dropped = ()           # tables left out of a shipped file (see reduced)
        self._s_table = None

    # --------------------------------------------------------------------- learning
    def _tables(self):
        return P.window_tables(self.size, self.cap)

    def add_position(self, colors, owner, outcome, white_to_move=False):
        """Count one position (``colors`` (size, size) int8) of a game whose final owner is
        ``owner`` ((size, size) int8) and outcome ``outcome`` (+1, -1, 0, black's view)."""
        classes, nframes, frames = self._tables()
        swap = self.to_move_view and white_to_move
        P.accumulate_position(np.ascontiguousarray(colors, dtype=np.int8),
                              np.ascontiguousarray(owner, dtype=np.int8), swap,
                              self.territory == "centre",
                              classes, nframes, frames, P.cell_maps(), P.POW3,
                              self.nb, self.nw, self.occ, self.bedge, self.wedge,
                              int(outcome), self.won, self.lost)
        self.positions += 1
        self._s_table = None

    def add_game(self, record, owner, outcome=None):
        """Count every position of ``record`` (after each move) with its final ``owner``.
        Returns the number of positions counted."""
        if record.size != self.size:
            raise ValueError(f"a {record.size}x{record.size} game in {self.size}x{self.size} statistics")
        owner = np.asarray(owner, dtype=np.int8)
        if owner.shape != (self.size, self.size):
            raise ValueError(f"ownership of shape {owner.shape}, expected {(self.size, self.size)}")
        if outcome is None:
            outcome = outcome_of(record, owner)
        positions = replay_positions(record)
        for colors, to_move in positions:
            self.add_position(colors, owner, outcome, white_to_move=to_move == WHITE)
        self.games += 1
        return len(positions)

    def merge(self, other, sign=1):
        """Add ``other``'s counts (statistics of the same size and settings) to these, or with
        ``sign=-1`` take them away (a game's own counts, for a leave-one-out reading)."""
        if (other.size, other.cap, other.to_move_view, other.territory) != \
                (self.size, self.cap, self.to_move_view, self.territory):
            raise ValueError("statistics of another size or other settings")
        for name in COUNT_TABLES:
            getattr(self, name)[...] += sign * getattr(other, name)
        self.games += sign * other.games
        self.positions += sign * other.positions
        self._s_table = None

    def add_games(self, games):
        """Count an iterable of ``(record, final_owner)``. Returns the number of games."""
        n = 0
        for record, owner in games:
            self.add_game(record, owner)
            n += 1
        return n

    # ------------------------------------------------------------------ the statistics
    def s_table(self, regularizer=REGULARIZER):
        """Seed 003's ``S^w_ij(p)`` for every (class, code, cell): (NB - NW) / (NB + NW + C)."""
        self._require("nb", "nw")
        if regularizer == REGULARIZER and self._s_table is not None:
            return self._s_table
        table = (self.nb - self.nw) / (self.nb + self.nw + regularizer)
        if regularizer == REGULARIZER:
            self._s_table = table
        return table

    def stability(self):
        """Seed 002's stab(p) for every (class, code); 0 where the pattern never occurred."""
        self._require("occ", "bedge", "wedge")
        return _ratio(self.bedge - self.wedge, self.occ)

    def impact(self):
        """Seed 002's imp(p) for every (class, code); 0 where the pattern never occurred."""
        self._require("occ", "won", "lost")
        return _ratio(self.won - self.lost, self.occ)

    def propensity(self, colors):
        """Seed 003's S_ij of every point of a position ((size, size) float64). ``colors``:
        a :class:`mcgo.Board` or a (size, size) array of 0/1/2."""
        colors = self._colors(colors)
        classes, nframes, frames = self._tables()
        return P.propensity_plane(colors, self.s_table(), classes, nframes, frames,
                                  P.cell_maps(), P.POW3)

    def _require(self, *tables):
        missing = [name for name in tables if name in self.dropped]
        if missing:
            raise SeedStatsError(f"these statistics were saved without {', '.join(missing)} "
                                 "(a file shipped for one use); use the full file")

    def reduced(self, keep):
        """A copy with only the tables named in ``keep`` (the others zero and marked dropped),
        so that a model that reads one statistic ships a file of that size: seed 002's
        stability needs ``occ``, ``bedge`` and ``wedge``, not the per-cell counts."""
        unknown = set(keep) - set(COUNT_TABLES)
        if unknown:
            raise ValueError(f"unknown tables {sorted(unknown)}; choose from {COUNT_TABLES}")
        out = SeedStats(self.size, cap=self.cap, to_move_view=self.to_move_view,
                        territory=self.territory, metadata=self.metadata)
        for name in keep:
            setattr(out, name, getattr(self, name).copy())
        out.dropped = tuple(name for name in COUNT_TABLES if name not in keep)
        out.games, out.positions = self.games, self.positions
        return out

    def stability_plane(self, colors, to_move=BLACK):
        """stab of the pattern centred on each point not on the edge (0 on the edge), seen
        from black or, with ``to_move_view``, from the side to move ``to_move``."""
        return self._centre(colors, self.stability(), to_move)

    def impact_plane(self, colors, to_move=BLACK):
        """imp of the pattern centred on each point not on the edge, as :meth:`stability_plane`."""
        return self._centre(colors, self.impact(), to_move)

    def _centre(self, colors, value, to_move):
        colors = self._colors(colors)
        if self.to_move_view and to_move == WHITE:
            colors = np.where(colors == 0, 0, 3 - colors).astype(np.int8)
        classes, nframes, frames = self._tables()
        return P.centre_plane(colors, value, classes, nframes, frames, P.cell_maps(), P.POW3)

    def _colors(self, colors):
        if hasattr(colors, "pts"):
            colors = colors_of(colors)
        colors = np.ascontiguousarray(colors, dtype=np.int8)
        if colors.shape != (self.size, self.size):
            raise ValueError(f"a position of shape {colors.shape} for {self.size}x{self.size} statistics")
        return colors

    def distinct_patterns(self, seed=2):
        """Number of located patterns (class, canonical code) with counts: ``seed=2``, seen
        at least once in seed 002's view; ``seed=3``, with a cell owned by a side at the end
        in seed 003's tables (real colours)."""
        if seed == 2:
            return int(np.count_nonzero(self.occ))
        return int(np.count_nonzero((self.nb + self.nw).sum(axis=-1)))

    # ------------------------------------------------------------------------ storage
    def save(self, path, **metadata):
        """Write the tables and metadata (with ``metadata`` added) to ``path`` (.npz).

        Only the (class, code) rows that occurred are stored; the JSON header carries the
        format, version, settings, counts, the given metadata and a checksum of the arrays."""
        # Rows any table uses (seed 002's may hold colour-swapped codes the others lack).
        used = (self.occ.reshape(-1) != 0) | (self.nb + self.nw).reshape(-1, P.CELLS).any(axis=1)
        rows = np.flatnonzero(used).astype(np.int64)
        arrays = {"rows": rows,
                  "nb": self.nb.reshape(-1, P.CELLS)[rows],
                  "nw": self.nw.reshape(-1, P.CELLS)[rows]}
        for name in COUNT_TABLES[2:]:
            arrays[name] = getattr(self, name).reshape(-1)[rows]
        header = dict(self.metadata, **metadata)
        header.update(format=FORMAT, format_version=FORMAT_VERSION, mcgo_version=__version__,
                      size=self.size, cap=self.cap, to_move_view=self.to_move_view,
                      territory=self.territory,
                      regularizer=REGULARIZER, games=self.games, positions=self.positions,
                      patterns=len(rows), dropped=list(self.dropped),
                      checksum=_checksum(arrays))
        header.setdefault("commit", "unknown")     # mcgo.train.seedstats.build records it
        header.setdefault("ownership", OWNERSHIP_METHOD)
        self.metadata = header
        buffer = io.BytesIO()
        np.savez_compressed(buffer, header=np.frombuffer(json.dumps(header).encode(), np.uint8),
                            **arrays)
        pathlib.Path(path).write_bytes(buffer.getvalue())

    @classmethod
    def load(cls, path):
        """Read a file written by :meth:`save`; raises :class:`SeedStatsError` when it is not
        one, is of another version, or its arrays do not match their checksum."""
        arrays, header = weights_file.read(path, FORMAT, "seed statistics", SeedStatsError,
                                           entry="header")
        if header.get("format_version") != FORMAT_VERSION:
            raise SeedStatsError(f"{path}: format version {header.get('format_version')}, this mcgo "
                                 f"reads {FORMAT_VERSION}: rebuild it with `mcgo learn patterns`")
        expected = {"rows", *COUNT_TABLES}
        if set(arrays) != expected:
            raise SeedStatsError(f"{path}: arrays {sorted(arrays)}, expected {sorted(expected)}")
        if _checksum(arrays) != header.get("checksum"):
            raise SeedStatsError(f"{path}: checksum mismatch (the file is damaged)")
        stats = cls(header["size"], cap=header["cap"], to_move_view=header["to_move_view"],
                    territory=header.get("territory", "window"), metadata=header)
        rows = arrays["rows"]
        n = len(rows)
        if (rows.ndim != 1 or n != header.get("patterns") or (n and (rows.min() < 0 or rows.max()
                >= stats.occ.size)) or arrays["nb"].shape != (n, P.CELLS)
                or any(arrays[name].shape != (n,) for name in COUNT_TABLES[2:])):
            raise SeedStatsError(f"{path}: arrays of inconsistent shapes")
        stats.nb.reshape(-1, P.CELLS)[rows] = arrays["nb"]
        stats.nw.reshape(-1, P.CELLS)[rows] = arrays["nw"]
        for name in COUNT_TABLES[2:]:
            getattr(stats, name).reshape(-1)[rows] = arrays[name]
        stats.games, stats.positions = header["games"], header["positions"]
        stats.dropped = tuple(header.get("dropped", ()))
        return stats


def _ratio(num, den):
    out = np.zeros_like(num)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _checksum(arrays):
    digest = hashlib.blake2b(digest_size=16)
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        digest.update(name.encode() + str(a.dtype).encode() + str(a.shape).encode() + a.tobytes())
    return digest.hexdigest()
