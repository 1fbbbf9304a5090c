"""What many test files share: positions from text rows, and an in-process GTP session.

Imported as ``helpers`` (``pythonpath = ["tests"]`` in pyproject.toml). Rows are the top
row first, ``X`` black, ``O`` white, ``.`` empty, with or without spaces between points.
"""

import io
import re

import numpy as np

from sgfmill import boards

import mcgo
from mcgo.board import coords
from mcgo.gtp.controller import GtpFailure
from mcgo.config import EngineConfig
from mcgo.gtp.engine import Engine

SESSION_PLAYOUTS = 200
RESPONSE = re.compile(r"^([=?])(\d*)(?: (.*))?$", re.S)


def stones_of_rows(rows):
    """``(colour, point)`` of every stone of the rows, in reading order."""
    size = len(rows)
    for i, line in enumerate(rows):
        for col, ch in enumerate(line.replace(" ", "")):
            if ch in "XO":
                yield (mcgo.BLACK if ch == "X" else mcgo.WHITE), coords.point(size - 1 - i, col, size)


def board_from_rows(rows, to_move=mcgo.BLACK, komi=0.0, superko=True):
    """A :class:`mcgo.Board` set up from the rows, ``to_move`` to play."""
    board = mcgo.Board(len(rows), komi=komi, superko=superko)
    stones = list(stones_of_rows(rows))
    board.setup(black=[p for c, p in stones if c == mcgo.BLACK],
                white=[p for c, p in stones if c == mcgo.WHITE])
    board.to_move = to_move
    return board


def load_rows(engine, rows, komi, passes=0):
    """Set up the rows' position on a GTP engine (anything with ``send``: a :class:`Session`,
    GNU Go through :class:`mcgo.gtp.controller.GtpEngine`) by playing its stones in, then
    ``passes`` passes (black first)."""
    size = len(rows)
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    engine.send(f"komi {komi}")
    for color, p in stones_of_rows(rows):
        engine.send(f"play {'b' if color == mcgo.BLACK else 'w'} {coords.to_gtp(p, size)}")
    for color in "bw"[:passes]:
        engine.send(f"play {color} pass")


class Session:
    """The GTP engine in-process, with a ``send`` like :class:`GtpEngine`'s: the answer
    text, or :class:`GtpFailure` for a ``?`` answer. ``raw`` gives the whole reply."""

    def __init__(self, verbose=False, **options):
        """``options``: the fields of the engine's :class:`mcgo.config.EngineConfig`."""
        self.out = io.StringIO()
        options.setdefault("playouts", SESSION_PLAYOUTS)
        self.engine = Engine(EngineConfig.of(**options), out=self.out, verbose=verbose)

    def raw(self, line):
        start = self.out.tell()
        self.engine.handle(line + "\n")
        self.out.seek(start)
        return self.out.read()

    def send(self, command):
        text = self.raw(command)
        match = RESPONSE.match(text[:-2])
        assert text.endswith("\n\n") and match, text
        status, _, body = match.groups()
        if status == "?":
            raise GtpFailure(command, body or "")
        return (body or "").strip()


def fails(session, command):
    """The failure message of ``command``, or None when it succeeds."""
    try:
        session.send(command)
    except GtpFailure as e:
        return e.message
    return None


SGF_COLOR = {mcgo.BLACK: "b", mcgo.WHITE: "w"}


def sgfmill_board(board):
    """sgfmill's board with the stones of a :class:`mcgo.Board`."""
    ref = boards.Board(board.size)
    for c in (mcgo.BLACK, mcgo.WHITE):
        for q in board.stones(c):
            ref.play(*coords.row_col(q, board.size), SGF_COLOR[c])
    return ref


def sgfmill_group(ref, size, row, col):
    """(stones, liberties) of the chain of sgfmill's board ``ref`` at (row, col), as sets of
    (row, col): a flood fill of sgfmill's stones."""
    colour = ref.get(row, col)
    stack, chain, libs = [(row, col)], {(row, col)}, set()
    while stack:
        r, c = stack.pop()
        for a, b in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= a < size and 0 <= b < size:
                here = ref.get(a, b)
                if here is None:
                    libs.add((a, b))
                elif here == colour and (a, b) not in chain:
                    chain.add((a, b))
                    stack.append((a, b))
    return chain, libs


def sgfmill_allows(board, p, color):
    """sgfmill's own rules: ``color`` may play ``p`` and its stone stays (no suicide)."""
    ref = sgfmill_board(board)
    row, col = coords.row_col(p, board.size)
    if ref.get(row, col) is not None:
        return False
    ref.play(row, col, SGF_COLOR[color])
    return ref.get(row, col) == SGF_COLOR[color]


def central_differences(f, array, eps=1e-6):
    """d f() / d array by central differences, changing ``array`` in place and putting each
    entry back: shape ``array.shape + f().shape``. The reference for hand-written gradients."""
    out = None
    for idx in np.ndindex(array.shape):
        keep = array[idx]
        array[idx] = keep + eps
        up = np.asarray(f(), dtype=np.float64)
        array[idx] = keep - eps
        down = np.asarray(f(), dtype=np.float64)
        array[idx] = keep
        if out is None:
            out = np.zeros(array.shape + up.shape)
        out[idx] = (up - down) / (2 * eps)
    return out
