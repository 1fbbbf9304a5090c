"""One playout of any policy, and batches of them: the narrow door between the policies
(one file each) and their users (the search, ``mcgo bench``, ownership maps).

The registry is :data:`mcgo.options.PLAYOUT_POLICIES`: policy number ``i`` is the ``i``-th
name there, and the policy ``NAME`` lives in ``mcgo/playout/NAME_policy.py``, whose
``play_out(pts, info, zob, pat3, work, rng, owner, record)`` plays one playout to the end.
:func:`run_playout`'s chain of ``if policy == i`` is generated from the registry when this
module is imported: the same code as if written by hand (no function pointers, so Numba
inlines and caches it as usual), but nothing to edit here when a policy is added. (Numba's
cache does not see a change of the registry or of a policy's file from here: clear it after
one, as :mod:`mcgo.playout` says.)
"""

import importlib

import numpy as np

from .. import options
from ..board.kernels import BOARDSIZE, copy_position
from ..jit import allocating_kernel, kernel
from .common import RECORD_COLORS, seed_rng
from ..tactics.ladder import new_ladder_space
from .fill_policy import SCRATCH_ROWS
from .scoring import add_owner, black_win_value

NO_RECORD = np.zeros(0, dtype=np.int32)  # keep no moves
NO_POLICY = -1                           # run_playout's answer to an unknown number

POLICY_NAMES = {name: number for number, name in enumerate(options.PLAYOUT_POLICIES)}
POLICY_MODULES = {name: importlib.import_module(f".{name}_policy", __package__)
                  for name in options.PLAYOUT_POLICIES}


@allocating_kernel
def new_work(size):
    """A playout's work arrays for a ``size`` board, made once per thread: ``(rows,
    ladder)``: the int32 scratch rows of the policies (``SCRATCH_ROWS`` x ``W*W``) and the
    ladder reader's space (:func:`mcgo.tactics.ladder.new_ladder_space`)."""
    w = size + 2
    return np.zeros((SCRATCH_ROWS, w * w), dtype=np.int32), new_ladder_space(size)


def _run_playout_source(names):
    """The source of :func:`run_playout` for the policies ``names``, in number order."""
    lines = ["def run_playout(policy, pts, info, zob, pat3, work, rng, owner, record):"]
    for number, name in enumerate(names):
        lines += [f"    if policy == {number}:",
                  f"        return {name}_policy.play_out(pts, info, zob, pat3, work, rng, "
                  "owner, record)"]
    lines.append("    return NO_POLICY")
    return "\n".join(lines) + "\n"


# The generated function sees the policy modules as globals of this module, and is compiled
# under this file's name: Numba caches only functions whose source file it can find.
globals().update({f"{name}_policy": module for name, module in POLICY_MODULES.items()})
exec(compile(_run_playout_source(options.PLAYOUT_POLICIES), __file__, "exec"))
run_playout.__doc__ = """Play one playout of the policy numbered ``policy`` in place and write
    the final owner of every point into ``owner``; returns the number of moves (for fill:
    points filled), or ``NO_POLICY`` for an unknown number (``owner`` then untouched). The
    score is ``area_of(owner)``.

    ``work``: the thread's work arrays (:func:`new_work`).
    ``record`` (int32) receives the moves, ``point * RECORD_COLORS + colour``, as far as it
    is long: the search's AMAF statistics need them; pass ``NO_RECORD`` to keep none."""
run_playout = kernel(run_playout)  # noqa: F821 (defined by the exec above)


@allocating_kernel
def run_batch(policy, pts0, info0, zob, pat3, seed, n, komi, owner_sum):
    """``n`` playouts from the position ``(pts0, info0)``, seeded by ``seed``.

    Returns ``(black_wins, moves)``: wins count a jigo as half. When ``owner_sum`` is not
    empty, adds +1 for every point black owns at the end and -1 for every white point."""
    pts = np.empty_like(pts0)
    info = np.empty_like(info0)
    size = info0[BOARDSIZE]
    work = new_work(size)
    owner = np.zeros(pts0.shape[1], dtype=np.int8)
    record = np.zeros(0, dtype=np.int32)
    rng = seed_rng(seed)
    accumulate = owner_sum.shape[0] == pts0.shape[1]
    black_wins = 0.0
    moves = 0
    for _ in range(n):
        copy_position(pts0, info0, pts, info)
        moves += run_playout(policy, pts, info, zob, pat3, work, rng, owner, record)
        black_wins += black_win_value(owner, komi)
        if accumulate:
            add_owner(owner_sum, owner)
    return black_wins, moves


@allocating_kernel
def first_move_counts(policy, pts0, info0, zob, pat3, seed, n):
    """How often each point was the first move of ``n`` playouts of ``policy`` from the
    position ``(pts0, info0)``, seeded by ``seed``: an int32 array indexed by point (index
    ``PASS``, 0, counts the passes). The playout policy as a player (Fuego's
    ``search_mode playout_policy``, Pachi's replay engine) plays the most frequent one."""
    pts = np.empty_like(pts0)
    info = np.empty_like(info0)
    work = new_work(info0[BOARDSIZE])
    owner = np.zeros(pts0.shape[1], dtype=np.int8)
    record = np.zeros(1, dtype=np.int32)
    counts = np.zeros(pts0.shape[1], dtype=np.int32)
    rng = seed_rng(seed)
    for _ in range(n):
        copy_position(pts0, info0, pts, info)
        record[0] = 0                       # PASS * RECORD_COLORS: a playout that ends at once
        run_playout(policy, pts, info, zob, pat3, work, rng, owner, record)
        counts[record[0] // RECORD_COLORS] += 1
    return counts
