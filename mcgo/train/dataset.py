"""Training data from game records: a folder of memory-mapped arrays, read as games and positions.

A dataset is what ``mcgo learn extract`` (:mod:`.extraction`) writes: every game once (the same
moves under any of the 8 symmetries count once, :func:`mcgo.train.split.game_key`), its part
of the split (:func:`mcgo.train.split.split_of`), result and **final ownership**, and one row
per move played. Boards are not stored: a position is rebuilt by replaying its game, which is
cheap (well under a millisecond a move) next to anything a learner does with it.

Reading (python-chess style)::

    from mcgo.train.dataset import Dataset
    ds = Dataset.open("datasets/goban")
    len(ds), ds.size, ds.position_count
    for game in ds.games(split="train"):
        game.moves, game.setups, game.komi, game.result, game.ownership, game.key, game.split
    for board, color, move, number, game in ds.positions(split="train", symmetries="random"):
        ...   # board: the position before ``move`` (a live mcgo.Board: copy() to keep it)

Points are mcgo's internal indices (:mod:`mcgo.board.coords`) in games and positions, as in
:class:`mcgo.sgf.GameRecord`; ``ownership`` is a ``(size, size)`` int8 array indexed
``[row, col]``, row 0 at the bottom, +1 black, -1 white, 0 neither, like
:func:`mcgo.playout.ownership`.

The format (``FORMAT``, version ``VERSION``), a folder of ``.npy`` files opened with
``np.load(mmap_mode="r")`` and ``meta.json``:

=====================  ===========  ===========================================================
array                  dtype        per
=====================  ===========  ===========================================================
game_key               uint64       game: :func:`game_key`
game_split             int8         game: index into :data:`mcgo.train.split.SPLITS`
game_komi              float32      game: NaN when the record has none
game_winner            int8         game: 1 black, 2 white, 0 none (jigo, void, unknown)
game_margin            float32      game: points of the counted result, NaN otherwise
game_method            int8         game: index into :data:`OWNERSHIP_METHODS`
game_move_start        int64        game + 1: its moves are rows start[g]:start[g+1]
game_setup_start       int64        game + 1: its set-up stones, likewise
game_ownership         int8         game x size*size (row-major ``row * size + col``)
position_game          uint32       move: the game's index
position_number        uint16       move: 1-based move number (passes count)
position_color         int8         move: the colour to move (and that played)
position_move          int16        move: row-major point, -1 for a pass
setup_after            uint16       set-up stone: placed after this many moves (0: handicap)
setup_color            int8         set-up stone: 1 black, 2 white, 0 emptied
setup_point            int16        set-up stone: row-major point
=====================  ===========  ===========================================================

``games.json`` holds the texts: ``sources`` (file and game number) and ``results`` (``RE``
as recorded). ``meta.json`` has the format name and version, the counts, the sources, the
split rule, the ownership methods, the creation date, the mcgo version and git commit;
:meth:`Dataset.open` checks all of it and raises :class:`DatasetError` with the reason.
"""

import functools
import json
import math
import pathlib
import random
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ..board import BLACK, EMPTY, PASS, WHITE, Board, coords
from ..board.symmetry import SYMMETRIES, images
from ..sgf import GameRecord, Setup
from .split import SPLITS

FORMAT = "mcgo-dataset"
VERSION = 1
META = "meta.json"
TEXTS = "games.json"

# How the final ownership of a game was found (the values of ``game_method``).
COUNTED = "count"          # area after removing the dead stones mcgo.judge.status.estimate finds
PLAYOUTS = "playouts"      # sign of mcgo.playout.ownership from the final position
OWNERSHIP_METHODS = (COUNTED, PLAYOUTS)

# Every array: (dtype, axis-0 length as a function of the counts, second axis or None).
ARRAYS = {
    "game_key": ("uint64", "games"),
    "game_split": ("int8", "games"),
    "game_komi": ("float32", "games"),
    "game_winner": ("int8", "games"),
    "game_margin": ("float32", "games"),
    "game_method": ("int8", "games"),
    "game_move_start": ("int64", "games+1"),
    "game_setup_start": ("int64", "games+1"),
    "game_ownership": ("int8", "games", "points"),
    "position_game": ("uint32", "positions"),
    "position_number": ("uint16", "positions"),
    "position_color": ("int8", "positions"),
    "position_move": ("int16", "positions"),
    "setup_after": ("uint16", "setups"),
    "setup_color": ("int8", "setups"),
    "setup_point": ("int16", "setups"),
}


class DatasetError(ValueError):
    """A dataset that cannot be read: missing, corrupt, of another format or version."""


# ----------------------------------------------------------------------------- points
@functools.lru_cache(maxsize=None)
def row_major(size):
    """int32 array (read-only): ``row_major(size)[i]`` is the internal index of row-major point ``i``."""
    out = np.array([coords.point(r, c, size) for r in range(size) for c in range(size)],
                   dtype=np.int32)
    out.setflags(write=False)
    return out


def to_row_major(p, size):
    """Row-major index of an internal point, -1 for a pass."""
    rc = coords.row_col(p, size)
    return -1 if rc is None else rc[0] * size + rc[1]


def from_row_major(i, size):
    """Internal point of a row-major index, PASS for -1."""
    return PASS if i < 0 else coords.point(int(i) // size, int(i) % size, size)


# ----------------------------------------------------------------------------- records
@dataclass
class Game:
    """One game of a dataset.

    ``moves``: ``(color, point)`` pairs (internal points, ``PASS`` for a pass); ``setups``:
    ``{n: Setup}`` placed after the first ``n`` moves, as in :class:`mcgo.sgf.GameRecord`;
    ``komi``: None when the record had none; ``result``: ``RE`` as recorded; ``winner``:
    ``BLACK``, ``WHITE`` or None; ``margin``: the counted margin or None (resignation, time,
    unknown); ``ownership``: ``(size, size)`` int8 ``[row, col]``, +1 black; ``method``: how
    it was found (:data:`OWNERSHIP_METHODS`); ``symmetry``: the symmetry the game is shown
    under (0: as recorded; see :meth:`transformed`).
    """

    index: int
    key: int
    split: str
    size: int
    komi: float | None
    result: str
    winner: int | None
    margin: float | None
    method: str
    source: str
    moves: list
    setups: dict
    ownership: np.ndarray
    symmetry: int = 0

    def record(self):
        """The game as a :class:`mcgo.sgf.GameRecord` (for :func:`mcgo.sgf.replay`, SGF writing)."""
        return GameRecord(size=self.size, komi=self.komi, result=self.result, moves=list(self.moves),
                          setups=dict(self.setups), source=self.source)

    def transformed(self, s):
        """The same game under symmetry ``s`` of :mod:`mcgo.board.symmetry` (applied to the game
        as it is shown now): moves, set-ups and ownership mapped.

        >>> game = Game(0, 1, "train", 9, 7.0, "B+R", BLACK, None, PLAYOUTS, "",
        ...             [(BLACK, coords.from_gtp("A1", 9))], {}, np.zeros((9, 9), np.int8))
        >>> [coords.to_gtp(p, 9) for _, p in game.transformed(1).moves]   # A1 mirrored
        ['J1']
        """
        if s == 0:
            return self
        size = self.size
        table = images(size)[s]
        inside = row_major(size)

        def move(p):
            return p if p == PASS else int(inside[table[to_row_major(p, size)]])

        setups = {n: Setup.of(map(move, st.black), map(move, st.white), map(move, st.empty))
                  for n, st in self.setups.items()}
        flat = np.empty(size * size, dtype=self.ownership.dtype)
        flat[table] = self.ownership.reshape(-1)
        return Game(self.index, self.key, self.split, size, self.komi, self.result, self.winner,
                    self.margin, self.method, self.source, [(c, move(p)) for c, p in self.moves],
                    setups, flat.reshape(size, size), _combined(size, self.symmetry, s))

    def replay(self):
        """The final :class:`mcgo.Board` (simple ko, as the games were played)."""
        board = None
        for board, *_ in replay_game(self):
            pass
        return board


def _combined(size, first, then):
    """The symmetry equal to ``first`` followed by ``then``."""
    table = images(size)
    want = table[then][table[first]]
    for s in range(SYMMETRIES):
        if np.array_equal(table[s], want):
            return s
    raise AssertionError("the symmetries form a group")


class Position(NamedTuple):
    """One move of a game and the position it was played in (see :meth:`Dataset.positions`)."""
    board: Board          # before the move; live while iterating: copy() to keep it
    color: int            # the colour to move, that played ``move``
    move: int             # internal point, PASS for a pass
    move_number: int      # 1-based, passes counted
    game: Game            # the game, under the same symmetry as the board


def replay_game(game):
    """Yield ``(board before move n, color, point, n)`` for every move n (1-based) of
    ``game``, then ``(final board, None, None, len(moves) + 1)``."""
    board = Board(game.size, komi=0.0 if game.komi is None else game.komi, superko=False)
    for n, (color, point) in enumerate(game.moves):
        setup = game.setups.get(n)
        if setup is not None:
            board.setup(black=setup.black, white=setup.white, empty=setup.empty)
        board.to_move = color
        yield board, color, point, n + 1
        board.play(point, color)
    setup = game.setups.get(len(game.moves))
    if setup is not None:
        board.setup(black=setup.black, white=setup.white, empty=setup.empty)
    yield board, None, None, len(game.moves) + 1


# ----------------------------------------------------------------------------- writing
@dataclass
class GameRows:
    """One game as the rows it adds to a dataset (what extraction hands to :func:`write`)."""

    key: int
    komi: float | None
    result: str
    winner: int            # 0, BLACK or WHITE
    margin: float | None
    method: str
    source: str
    colors: np.ndarray     # int8 (moves,)
    moves: np.ndarray      # int16 (moves,), row-major, -1 pass
    setup_after: np.ndarray = field(default_factory=lambda: np.zeros(0, np.uint16))
    setup_color: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int8))
    setup_point: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int16))
    ownership: np.ndarray = None   # int8 (size*size,), row-major

    @classmethod
    def from_record(cls, record, key, method, ownership, source=None):
        """The rows of a :class:`mcgo.sgf.GameRecord` (ownership: int8, row-major)."""
        from .results import parse_result

        size = record.size
        winner, margin, _ = parse_result(record.result)
        after, color, point = [], [], []
        for n in sorted(record.setups):
            st = record.setups[n]
            for c, points in ((BLACK, st.black), (WHITE, st.white), (EMPTY, st.empty)):
                for p in points:
                    after.append(n)
                    color.append(c)
                    point.append(to_row_major(p, size))
        return cls(key=key, komi=record.komi, result=record.result, winner=winner or 0,
                   margin=margin, method=method, source=source or record.source,
                   colors=np.array([c for c, _ in record.moves], dtype=np.int8),
                   moves=np.array([to_row_major(p, size) for _, p in record.moves], dtype=np.int16),
                   setup_after=np.array(after, dtype=np.uint16),
                   setup_color=np.array(color, dtype=np.int8),
                   setup_point=np.array(point, dtype=np.int16),
                   ownership=np.asarray(ownership, dtype=np.int8).reshape(-1))


def _nan(x):
    return np.nan if x is None else x


def arrays_of(games, size):
    """The dataset's arrays (a dict by name, see the module docstring) from :class:`GameRows`."""
    from .split import split_of

    n = len(games)
    move_counts = np.array([len(g.moves) for g in games], dtype=np.int64)
    setup_counts = np.array([len(g.setup_point) for g in games], dtype=np.int64)

    def concat(parts, dtype):
        return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

    def starts(counts):
        out = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=out[1:])
        return out

    return {
        "game_key": np.array([g.key for g in games], dtype=np.uint64),
        "game_split": np.array([SPLITS.index(split_of(g.key)) for g in games], dtype=np.int8),
        "game_komi": np.array([_nan(g.komi) for g in games], dtype=np.float32),
        "game_winner": np.array([g.winner for g in games], dtype=np.int8),
        "game_margin": np.array([_nan(g.margin) for g in games], dtype=np.float32),
        "game_method": np.array([OWNERSHIP_METHODS.index(g.method) for g in games], dtype=np.int8),
        "game_move_start": starts(move_counts),
        "game_setup_start": starts(setup_counts),
        "game_ownership": (np.stack([g.ownership for g in games]).astype(np.int8) if games
                           else np.zeros((0, size * size), np.int8)),
        "position_game": np.repeat(np.arange(n, dtype=np.uint32), move_counts),
        "position_number": concat([np.arange(1, len(g.moves) + 1) for g in games], np.uint16),
        "position_color": concat([g.colors for g in games], np.int8),
        "position_move": concat([g.moves for g in games], np.int16),
        "setup_after": concat([g.setup_after for g in games], np.uint16),
        "setup_color": concat([g.setup_color for g in games], np.int8),
        "setup_point": concat([g.setup_point for g in games], np.int16),
    }


def write(path, games, size, meta):
    """Write :class:`GameRows` as a dataset folder ``path`` (created; its parent must exist).

    ``meta`` is merged into the metadata (sources, options, reports); the format, version,
    counts, split rule and the array table are filled in here.
    """
    from .split import SPLIT_SALT, TEST_PERCENT, VALIDATION_PERCENT

    path = pathlib.Path(path)
    arrays = arrays_of(games, size)
    path.mkdir()
    for name, array in arrays.items():
        np.save(path / f"{name}.npy", array)
    with open(path / TEXTS, "w", encoding="utf-8") as f:
        json.dump({"sources": [g.source for g in games], "results": [g.result for g in games]},
                  f, ensure_ascii=False)
    splits = arrays["game_split"]
    positions_of = np.diff(arrays["game_move_start"])
    counts = {
        "games": len(games),
        "positions": int(len(arrays["position_move"])),
        "setups": int(len(arrays["setup_point"])),
        "points": size * size,
        "split_games": {name: int(np.sum(splits == i)) for i, name in enumerate(SPLITS)},
        "split_positions": {name: int(positions_of[splits == i].sum()) for i, name in enumerate(SPLITS)},
        "ownership_methods": {name: int(np.sum(arrays["game_method"] == i))
                              for i, name in enumerate(OWNERSHIP_METHODS)},
    }
    document = {
        "format": FORMAT,
        "version": VERSION,
        "size": size,
        "counts": counts,
        "split": {"by": "mcgo.train.split.split_of(game_key)", "salt": SPLIT_SALT.decode(),
                  "test_percent": TEST_PERCENT, "validation_percent": VALIDATION_PERCENT,
                  "train_percent": 100 - TEST_PERCENT - VALIDATION_PERCENT, "names": list(SPLITS)},
        "arrays": {name: {"dtype": str(a.dtype), "shape": list(a.shape)} for name, a in arrays.items()},
    }
    document.update(meta)
    with open(path / META, "w", encoding="utf-8") as f:
        json.dump(document, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return document


# ----------------------------------------------------------------------------- reading
class Dataset:
    """A dataset opened for reading; its arrays are memory-mapped (see the module docstring).

    ``ds.meta`` is the metadata, ``ds.size`` the board size, ``len(ds)`` the number of games,
    ``ds.position_count`` the number of moves; ``ds.array(name)`` gives a raw array.
    """

    def __init__(self, path, meta, arrays, texts):
        self.path = pathlib.Path(path)
        self.meta = meta
        self.size = int(meta["size"])
        self._arrays = arrays
        self._texts = texts

    @classmethod
    def open(cls, path):
        """Open and check a dataset folder; raises :class:`DatasetError` with the reason."""
        path = pathlib.Path(path)
        if not path.is_dir():
            raise DatasetError(f"{path}: no such dataset folder")
        try:
            meta = json.loads((path / META).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise DatasetError(f"{path}: not an mcgo dataset (no {META})") from None
        except (OSError, ValueError) as e:
            raise DatasetError(f"{path}: unreadable {META} ({e})") from None
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise DatasetError(f"{path}: not an mcgo dataset (format {meta.get('format')!r}, "
                               f"expected {FORMAT!r})" if isinstance(meta, dict)
                               else f"{path}: not an mcgo dataset")
        if meta.get("version") != VERSION:
            raise DatasetError(f"{path}: dataset format version {meta.get('version')!r}, this mcgo "
                               f"reads version {VERSION} (extract it again)")
        try:
            size = int(meta["size"])
            counts = meta["counts"]
            lengths = {"games": int(counts["games"]), "games+1": int(counts["games"]) + 1,
                       "positions": int(counts["positions"]), "setups": int(counts["setups"])}
        except (KeyError, TypeError, ValueError) as e:
            raise DatasetError(f"{path}: {META} lacks {e}") from None
        arrays = {}
        for name, (dtype, length, *rest) in ARRAYS.items():
            file = path / f"{name}.npy"
            try:
                array = np.load(file, mmap_mode="r", allow_pickle=False)
            except FileNotFoundError:
                raise DatasetError(f"{path}: array {name} is missing ({file.name})") from None
            except (OSError, ValueError, EOFError) as e:
                raise DatasetError(f"{path}: array {name} is corrupt ({e})") from None
            shape = (lengths[length],) + ((size * size,) if rest else ())
            if str(array.dtype) != dtype or array.shape != shape:
                raise DatasetError(f"{path}: array {name} is {array.dtype} {array.shape}, "
                                   f"expected {dtype} {shape}")
            arrays[name] = array
        try:
            texts = json.loads((path / TEXTS).read_text(encoding="utf-8"))
            if any(len(texts[k]) != lengths["games"] for k in ("sources", "results")):
                raise ValueError("one entry per game expected")
        except FileNotFoundError:
            raise DatasetError(f"{path}: {TEXTS} is missing") from None
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise DatasetError(f"{path}: {TEXTS} is corrupt ({e})") from None
        starts = arrays["game_move_start"]
        if len(starts) and (starts[0] != 0 or starts[-1] != lengths["positions"]
                            or np.any(np.diff(starts) < 0)):
            raise DatasetError(f"{path}: game_move_start does not cover the positions")
        return cls(path, meta, arrays, texts)

    def __len__(self):
        return len(self._arrays["game_key"])

    def __repr__(self):
        return f"<Dataset {self.path} {self.size}x{self.size} games={len(self)} positions={self.position_count}>"

    @property
    def position_count(self):
        return len(self._arrays["position_move"])

    def array(self, name):
        """The memory-mapped array ``name`` (see the table in the module docstring)."""
        return self._arrays[name]

    def game_indices(self, split=None):
        """Indices of the games of ``split`` (``"train"``, ``"validation"``, ``"test"``; None: all)."""
        if split is None:
            return np.arange(len(self))
        if split not in SPLITS:
            raise ValueError(f"split must be one of {', '.join(SPLITS)} or None, got {split!r}")
        return np.flatnonzero(self._arrays["game_split"] == SPLITS.index(split))

    def game(self, index):
        """Game ``index`` as a :class:`Game`."""
        a, size = self._arrays, self.size
        g = int(index)
        if not 0 <= g < len(self):
            raise IndexError(f"game {index} out of range (0..{len(self) - 1})")
        m0, m1 = int(a["game_move_start"][g]), int(a["game_move_start"][g + 1])
        s0, s1 = int(a["game_setup_start"][g]), int(a["game_setup_start"][g + 1])
        inside = row_major(size)

        def point(i):
            return PASS if i < 0 else int(inside[i])

        moves = [(int(c), point(i)) for c, i in zip(a["position_color"][m0:m1], a["position_move"][m0:m1])]
        lists = {}
        for n, c, i in zip(a["setup_after"][s0:s1], a["setup_color"][s0:s1], a["setup_point"][s0:s1]):
            lists.setdefault(int(n), {BLACK: [], WHITE: [], EMPTY: []})[int(c)].append(point(i))
        setups = {n: Setup.of(d[BLACK], d[WHITE], d[EMPTY]) for n, d in lists.items()}
        komi, margin = float(a["game_komi"][g]), float(a["game_margin"][g])
        winner = int(a["game_winner"][g])
        return Game(index=g, key=int(a["game_key"][g]), split=SPLITS[int(a["game_split"][g])],
                    size=size, komi=None if math.isnan(komi) else komi,
                    result=self._texts["results"][g], winner=winner or None,
                    margin=None if math.isnan(margin) else margin,
                    method=OWNERSHIP_METHODS[int(a["game_method"][g])],
                    source=self._texts["sources"][g], moves=moves, setups=setups,
                    ownership=np.array(a["game_ownership"][g]).reshape(size, size))

    def games(self, split=None):
        """Yield the games of ``split`` (None: all) in order, as :class:`Game` objects."""
        for g in self.game_indices(split):
            yield self.game(g)

    def positions(self, split=None, symmetries=False, seed=0):
        """Yield a :class:`Position` ``(board, color, move, move_number, game)`` for every
        move of the games of ``split``, passes included (``move == PASS``), by replaying.

        ``symmetries``: False (as recorded), ``"random"`` (each game under one symmetry drawn
        from ``random.Random(seed)``, a new draw per game, so the positions of a game stay one
        game), or ``"all"`` (each game 8 times, under every symmetry in turn). ``game`` is the
        game under the board's symmetry (its moves and ownership mapped alike).

        The board is the live replay board: valid until the next item; ``copy()`` it to keep it.
        """
        if symmetries not in (False, None, "random", "all"):
            raise ValueError(f"symmetries must be False, 'random' or 'all', got {symmetries!r}")
        rng = random.Random(seed)
        for g in self.game_indices(split):
            game = self.game(g)
            if symmetries == "all":
                chosen = range(SYMMETRIES)
            elif symmetries == "random":
                chosen = [rng.randrange(SYMMETRIES)]
            else:
                chosen = [0]
            for s in chosen:
                shown = game.transformed(s)
                for board, color, move, number in replay_game(shown):
                    if color is None:
                        break
                    yield Position(board, color, move, number, shown)
