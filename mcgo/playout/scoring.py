"""Who won a playout and who owns each point: one rule each, for the search's simulations
and for plain batches of playouts (:func:`.dispatch.run_batch`), plus the ownership grid
Python shows (``mcgo.playout.ownership``, the search's dead-stone judgement).

An owner map (int8, one entry per internal point) holds BLACK, WHITE or EMPTY for every
point at the end of a playout; an owner sum (int32) adds +1 per black and -1 per white end.
"""

import numpy as np

from ..board.kernels import BLACK, WHITE, area_of
from ..jit import kernel


@kernel
def black_margin(owner, komi):
    """Black's final margin of a finished playout with final owners ``owner``: its area
    score minus ``komi``."""
    return area_of(owner) - komi


@kernel
def win_value(margin):
    """Black's result of a final margin: 1 for a win, 0.5 for a jigo, 0 for a loss."""
    return 1.0 if margin > 0 else (0.5 if margin == 0 else 0.0)


@kernel
def black_win_value(owner, komi):
    """Black's result of a finished playout with final owners ``owner``: 1 for a win,
    0.5 for a jigo, 0 for a loss (area score minus ``komi``)."""
    return win_value(black_margin(owner, komi))


@kernel
def add_owner(owner_sum, owner):
    """Add a playout's final owners to ``owner_sum``: +1 per black point, -1 per white one."""
    for p in range(owner.shape[0]):
        if owner[p] == BLACK:
            owner_sum[p] += 1
        elif owner[p] == WHITE:
            owner_sum[p] -= 1


def board_array(values, size):
    """Values over internal point indices as a ``(size, size)`` array, ``[row, col]`` with
    row 0 at the bottom (as GTP and :mod:`mcgo.board.coords` count rows)."""
    w = size + 2
    return np.asarray(values).reshape(w, w)[1:size + 1, 1:size + 1].copy()


def mean_ownership(owner_sum, count, size):
    """An owner sum over ``count`` playouts as the mean owner of every point: a ``(size,
    size)`` float array indexed ``[row, col]``, row 0 at the bottom, +1 black, -1 white."""
    return board_array(owner_sum, size).astype(np.float64) / max(count, 1)
