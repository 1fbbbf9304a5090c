# SPDX-License-Identifier: GPL-3.0-or-later
"""Seed 004's experiment 3: is a corner group alive or dead? (Chan 1996, section 5.4.)

A *corner group* is a chain whose stones all lie in one 7x7 corner of the board. The net sees
the 8x8 corner around it, standardized as the thesis has it: the corner point at the top left
(row 0, column 0 of the pattern, whichever corner of the board it is) and the group's colour
as black. Its 128 inputs are two 8x8 maps, row by row: the *board map* (+1 a stone of the
group's colour, -1 the other colour, 0 empty) and the *location map* (1 on the group's
stones).

The net is the thesis's 128-150-70-40-30-2 perceptron. The first hidden layer has two groups
of units: 90 that each see one square window of both maps (Table 5.4: every 3x3 to 7x7
window of the 8x8 corner, 36 + 25 + 16 + 9 + 4, with 18 to 98 inputs a unit) and 60 that
see all 128 inputs. Hidden units are ``tanh``; the two outputs are logistic, the first for
alive and the second for dead. The group is called alive when the first output exceeds the
second, and the verdict is *confident* when the summed square error against the nearer
target, (1, 0) or (0, 1), is at most :data:`CONFIDENT_SSE` (the thesis's test counts a pattern
as wrong above 0.3).

This module is the playing side (NumPy); training is in :mod:`mcgo.train.corner_train` (the
``train`` extra's JAX).

>>> mask = window_mask()
>>> mask.shape, int(mask[:, :90].sum(axis=0).min()), int(mask[:, :90].sum(axis=0).max())
((128, 150), 18, 98)
"""

import json

import numpy as np

from . import weights_file

# mcgo.board (and with it Numba) is imported inside the functions that need it: the command
# line (``mcgo learn corner``'s registration) imports this module, and ``mcgo --help`` must
# answer without Numba.

CORNER = 7                          # a corner group lies in a 7x7 corner ...
PATTERN = 8                         # ... and the net sees the 8x8 corner around it
WINDOW_SIZES = (3, 4, 5, 6, 7)      # Table 5.4
FULL_UNITS = 60                     # the first hidden layer's fully connected group
LAYERS = (2 * PATTERN * PATTERN, 150, 70, 40, 30, 2)
CONFIDENT_SSE = 0.3                 # the thesis's test: a pattern is wrong above 0.3
FORMAT = "mcgo-corner-net"
MIN_SIZE = 2 * CORNER - 1           # the corners may touch (13x13) but not overlap


def windows():
    """The first group's windows, in Table 5.4's order: ``(size, row, col)`` of their top-left
    corner in the 8x8 pattern, 3x3 windows first."""
    return [(s, r, c) for s in WINDOW_SIZES
            for r in range(PATTERN - s + 1) for c in range(PATTERN - s + 1)]


def window_mask():
    """The first layer's connections, ``(128, 150)``: which inputs feed which unit (the
    windowed units see their window in both maps; the last 60 see everything)."""
    wins = windows()
    mask = np.zeros((LAYERS[0], len(wins) + FULL_UNITS))
    for unit, (s, r, c) in enumerate(wins):
        for dr in range(s):
            for dc in range(s):
                cell = (r + dr) * PATTERN + (c + dc)
                mask[cell, unit] = mask[PATTERN * PATTERN + cell, unit] = 1.0
    mask[:, len(wins):] = 1.0
    return mask


def corner_cell(board_size, corner, r, c, transpose=False):
    """The board's ``(row, col)`` of pattern cell ``(r, c)`` in corner 0-3 (0 top left,
    1 top right, 2 bottom left, 3 bottom right; rows of the board count from the bottom).
    ``transpose`` reflects the pattern in its diagonal (the other standard orientation)."""
    if transpose:
        r, c = c, r
    top = corner in (0, 1)
    left = corner in (0, 2)
    row = board_size - 1 - r if top else r
    col = c if left else board_size - 1 - c
    return row, col


def corner_of(board_size, points):
    """The corner (0-3) whose 7x7 region holds every point, or None."""
    from ..board import coords
    rows_cols = [coords.row_col(p, board_size) for p in points]
    for corner in range(4):
        top, left = corner in (0, 1), corner in (0, 2)
        if all((board_size - 1 - row if top else row) < CORNER
               and (col if left else board_size - 1 - col) < CORNER for row, col in rows_cols):
            return corner
    return None


def corner_groups(board):
    """``(corner, colour, chain points)`` of every chain that lies in a 7x7 corner."""
    from ..board import BLACK, WHITE
    if board.size < MIN_SIZE:
        return []
    out, seen = [], set()
    for color in (BLACK, WHITE):
        for p in board.stones(color):
            if p in seen:
                continue
            chain = board.chain(p)
            seen.update(chain)
            corner = corner_of(board.size, chain)
            if corner is not None:
                out.append((corner, color, sorted(chain)))
    return out


def pattern_inputs(board, corner, color, chain, transpose=False):
    """The 128 inputs for one corner group (see the module's docstring)."""
    from ..board import BLACK, WHITE, coords
    x = np.zeros(LAYERS[0])
    size = board.size
    members = set(chain)
    for r in range(PATTERN):
        for c in range(PATTERN):
            p = coords.point(*corner_cell(size, corner, r, c, transpose), size)
            stone = board.color_at(p)
            cell = r * PATTERN + c
            if stone == color:
                x[cell] = 1.0
            elif stone in (BLACK, WHITE):
                x[cell] = -1.0
            if p in members:
                x[PATTERN * PATTERN + cell] = 1.0
    return x


class CornerNet:
    """The trained net (weights as NumPy arrays) and its metadata.

    ``w[0]`` is stored already multiplied by :func:`window_mask` (absent connections are 0).
    """

    def __init__(self, weights, biases, metadata=None):
        self.w = [np.asarray(w, dtype=np.float64) for w in weights]
        self.b = [np.asarray(b, dtype=np.float64) for b in biases]
        self.metadata = dict(metadata or {})

    def outputs(self, x):
        """``(n, 2)`` outputs (alive, dead) for ``(n, 128)`` inputs (or one row)."""
        y = np.atleast_2d(np.asarray(x, dtype=np.float64))
        for w, b in zip(self.w[:-1], self.b[:-1]):
            y = np.tanh(y @ w + b)
        return 1.0 / (1.0 + np.exp(-(y @ self.w[-1] + self.b[-1])))

    def verdicts(self, board):
        """``[(chain, alive, confident)]`` for every corner group of ``board``: the net's
        outputs averaged over the pattern and its diagonal reflection."""
        groups = corner_groups(board)
        if not groups:
            return []
        rows = [pattern_inputs(board, corner, color, chain, t)
                for corner, color, chain in groups for t in (False, True)]
        out = self.outputs(np.array(rows)).reshape(len(groups), 2, 2).mean(axis=1)
        result = []
        for (_, _, chain), (alive, dead) in zip(groups, out):
            lives = alive > dead
            target = np.array([1.0, 0.0]) if lives else np.array([0.0, 1.0])
            sse = float(((np.array([alive, dead]) - target) ** 2).sum())
            result.append((chain, bool(lives), sse <= CONFIDENT_SSE))
        return result

    def save(self, path):
        arrays = {f"w{i}": w for i, w in enumerate(self.w)} | {f"b{i}": b for i, b in enumerate(self.b)}
        meta = dict(self.metadata, format=FORMAT, layers=list(LAYERS))
        with open(path, "wb") as f:
            np.savez_compressed(f, metadata=np.frombuffer(json.dumps(meta, sort_keys=True).encode(),
                                                          dtype=np.uint8), **arrays)

    @classmethod
    def load(cls, path):
        """A net written by :meth:`save`; ValueError naming the file when it is not one."""
        arrays, meta = weights_file.read(path, FORMAT, "corner net")
        n = len(LAYERS) - 1
        missing = [name for i in range(n) for name in (f"w{i}", f"b{i}") if name not in arrays]
        if missing:
            raise ValueError(f"{path}: not a corner net file (no {', '.join(missing)})")
        net = cls([arrays[f"w{i}"] for i in range(n)], [arrays[f"b{i}"] for i in range(n)], meta)
        for i, w in enumerate(net.w):
            if w.shape != (LAYERS[i], LAYERS[i + 1]):
                raise ValueError(f"{path}: layer {i} is {w.shape}, not {(LAYERS[i], LAYERS[i + 1])}")
        return net


SHIPPED = "corner.npz"


def shipped_corner_net():
    """The net that ships with the package (``mcgo/models/weights/corner.npz``)."""
    from ..resources import package_file
    return CornerNet.load(package_file("mcgo.models", "weights", SHIPPED))


def open_corner_net(choice):
    """The net of ``--corner-net``: None for ``none``, the shipped one for ``corner``, else
    the file; ValueError naming what was wrong."""
    if choice == "none":
        return None
    if choice == "corner":
        return shipped_corner_net()
    return CornerNet.load(choice)
