"""Playouts: simulated games to the end that score a position (thesis 8.4 and 9.5).

Policies, each in a file of its own:

* ``random`` (:mod:`.random_policy`): uniform among legal moves that do not fill an own eye;
* ``pattern`` (:mod:`.pattern_policy`): captures and escapes, MoGo 3x3 shapes, free 3rd/4th
  line points, then random, rejecting most self-ataris;
* ``fill`` (:mod:`.fill_policy`): random fill of every empty point and a life judgement by
  eyespaces;
* ``auto`` (:mod:`.auto_policy`): pattern below 19x19; on 19x19 fill for the first 40 moves
  of the game, then pattern.

Policies that lost their A/Bs at equal time left the package: the playouts that sampled the
learned move model (``learned``, ``guided``) and the pattern playout reading ladders, nakade
and two-liberty fights (``tactical``); git history and benchmarks/journal/ keep them.

What they share: :mod:`.common` (random numbers, the uniform random move, the loop that plays
a move policy to the end), :mod:`.scoring` (who won, who owns each point, the ownership grid)
and the tactics of :mod:`mcgo.tactics`; :mod:`.dispatch` runs a policy by its number.

Adding a policy ``NAME``: one new file and one registry line.

1. Write ``mcgo/playout/NAME_policy.py`` with a kernel
   ``play_out(pts, info, zob, pat3, work, rng, owner, record)`` that plays the
   position to the end in place, writes the final owners into ``owner`` and returns the moves
   played (``work``: the thread's work arrays, :func:`new_work`: its scratch rows and the
   ladder reader's space). A policy that chooses one move at a time writes ``choose_move(pts, info,
   zob, pat3, work, rng, color)`` and returns ``common.play_moves(choose_move, ...)`` (see
   :mod:`.random_policy`).
2. Append ``"NAME"`` to :data:`mcgo.options.PLAYOUT_POLICIES` (its place there is its
   number in the kernels). ``mcgo bench``, ``--policy`` of ``mcgo gtp`` and ``mcgo play``,
   :func:`policy_id` and the kernels' dispatch (:mod:`.dispatch`) all read it from there.

Numba's on-disk cache does not notice that a kernel in *another* file changed: after adding
or changing a policy, clear it (``find mcgo -name '*.nb[ci]' -delete``, or a fresh
``NUMBA_CACHE_DIR``) so that the callers of :func:`run_playout` compile again.

>>> import mcgo
>>> from mcgo import playout
>>> board = mcgo.Board(9, komi=7.0)
>>> stats = playout.simulate(board, playouts=200, policy="random", seed=1)
>>> stats.playouts, 0.0 < stats.black_win_rate < 1.0
(200, True)
>>> owner = playout.ownership(board, playouts=100, policy="pattern", seed=1)
>>> owner.shape, float(owner.min()) >= -1.0, float(owner.max()) <= 1.0
((9, 9), True, True)

A fixed seed reproduces the result exactly on the same build (with ``threads=1``; with more
threads each thread has its own seed derived from it, so results are reproducible as long
as the thread count is the same).
"""

import concurrent.futures
import time
from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from .. import options
from ..board import coords
from .common import RECORD_COLORS
from .dispatch import NO_RECORD, POLICY_NAMES, first_move_counts, new_work, run_batch, run_playout
from .patterns import pattern_table
from .scoring import board_array, mean_ownership

__all__ = ["simulate", "ownership", "first_moves", "policy_id", "shape_table", "PlayoutStats",
           "POLICY_NAMES", "run_batch", "run_playout", "new_work", "NO_RECORD", "RECORD_COLORS",
           "board_array", "mean_ownership"]

_shape_table = None
NO_OWNERSHIP = np.zeros(0, dtype=np.int32)


def shape_table():
    """The MoGo 3x3 shape table, built once."""
    global _shape_table
    if _shape_table is None:
        _shape_table = pattern_table()
        _shape_table.setflags(write=False)
    return _shape_table


def policy_id(name):
    """The kernel's number for a policy name (one of :data:`mcgo.options.PLAYOUT_POLICIES`)."""
    try:
        return POLICY_NAMES[name]
    except KeyError:
        raise ValueError(f"unknown playout policy {name!r}; choose from {', '.join(POLICY_NAMES)}") from None


@dataclass
class PlayoutStats:
    """What a run of playouts measured. ``black_wins`` counts a jigo as half a win."""
    policy: str
    playouts: int = 0
    black_wins: float = 0.0
    moves: int = 0
    seconds: float = 0.0
    owner_sum: Optional[np.ndarray] = field(default=None, repr=False)

    @property
    def black_win_rate(self):
        return self.black_wins / self.playouts if self.playouts else float("nan")

    @property
    def moves_per_playout(self):
        return self.moves / self.playouts if self.playouts else float("nan")

    @property
    def playouts_per_second(self):
        return self.playouts / self.seconds if self.seconds else float("nan")

    @property
    def moves_per_second(self):
        return self.moves / self.seconds if self.seconds else float("nan")

    def add(self, playouts, black_wins, moves):
        self.playouts += playouts
        self.black_wins += black_wins
        self.moves += moves


def thread_seed(seed, thread):
    """The seed of one thread of a multi-threaded run (thread 0 keeps ``seed``)."""
    return options.derive_seed(seed, "thread", thread)


def simulate(board, playouts=1000, policy="auto", seed=0, ownership=False, threads=1, komi=None):
    """Run ``playouts`` playouts from ``board``'s position with the side to move, split over
    ``threads`` threads (the kernels release the GIL). Returns :class:`PlayoutStats`."""
    kind = policy_id(policy)
    komi = board.komi if komi is None else komi
    stats = PlayoutStats(policy)
    shares = [playouts // threads + (1 if i < playouts % threads else 0) for i in range(threads)]
    sums = [np.zeros(board.pts.shape[1], dtype=np.int32) if ownership else NO_OWNERSHIP
            for _ in range(threads)]
    start = time.perf_counter()
    if threads == 1:
        results = [run_batch(kind, board.pts, board.info, board.zob, shape_table(), seed,
                             playouts, komi, sums[0])]
    else:
        with concurrent.futures.ThreadPoolExecutor(threads) as pool:
            futures = [pool.submit(run_batch, kind, board.pts, board.info, board.zob, shape_table(),
                                   thread_seed(seed, i), shares[i], komi, sums[i])
                       for i in range(threads)]
            results = [f.result() for f in futures]
    stats.seconds = time.perf_counter() - start
    for n, (wins, moves) in zip(shares, results):
        stats.add(n, wins, moves)
    if ownership:
        stats.owner_sum = np.sum(sums, axis=0)
    return stats


def first_moves(board, playouts=100, policy="auto", seed=0):
    """How often each move was the first of ``playouts`` playouts from ``board`` with the
    side to move: ``{point: count}`` (``PASS`` for a playout that passed at once), most
    frequent first.

    >>> import mcgo
    >>> board = mcgo.Board(9)
    >>> for vertex in "C4 pass E4 pass D5 D4".split():  # white's D4 is in atari
    ...     board.play(coords.from_gtp(vertex, 9))
    >>> counts = first_moves(board, playouts=50, policy="pattern", seed=1)
    >>> {coords.to_gtp(p, 9): n for p, n in counts.items()}      # every playout takes it
    {'D3': 50}
    """
    counts = first_move_counts(policy_id(policy), board.pts, board.info, board.zob, shape_table(),
                               seed, playouts)
    points = np.flatnonzero(counts)
    order = sorted(points, key=lambda p: (-counts[p], p))
    return {int(p): int(counts[p]) for p in order}


def ownership(board, playouts=1000, policy="auto", seed=0, threads=1):
    """The mean final owner of every point over the playouts: +1 black, -1 white, as a
    ``(size, size)`` float array indexed ``[row, col]``, row 0 at the bottom."""
    stats = simulate(board, playouts, policy, seed, ownership=True, threads=threads)
    return mean_ownership(stats.owner_sum, stats.playouts, board.size)


def point_ownership(owner_map, vertex, size):
    """The ownership value of a GTP vertex in an array from :func:`ownership`."""
    row, col = coords.row_col(coords.from_gtp(vertex, size), size)
    return float(owner_map[row, col])
