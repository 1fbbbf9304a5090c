# SPDX-License-Identifier: GPL-3.0-or-later
"""Levels from beginner to full strength: ``--level N``, ``kata-set-param level N``.

A weak level plays as KaTrain's calibrated rank bots do (their strategy, not their code):
of the legal moves it looks at a few drawn at random and plays the one the policy likes
best, so it plays a weaker player's moves, good shape it happens to see and blunders where it
does not, rather than the random-looking moves of a short search. How many it looks at
follows KaTrain's fit of its bots' games to ranks (:func:`moves_seen`: about 6 of 361 for
25 kyu, 75 for 5 kyu); where the policy is sure (the top move above ``0.8 (1 - filled / 2)``,
or the top two above ``0.85 + 0.02 (kyu - 8)``) it plays its top move, as a weak player
still answers an atari. The policy is the policy net of the board's size (19x19's, on 13x13
too; the 9x9 net), elsewhere the learned move model.

What a person of any rank does is kept: in the opening (the first sixth of the board's
points) a move on the first line is never among those drawn; a level never fills its own
eye; and it knows when the game is over: after the opponent's pass and in the endgame it
passes (or resigns) when the full engine would, and otherwise plays its own move (KaTrain's
bots take the pass from the policy, which mcgo's nets do not give). The ranks beside the levels are measured by games (``benchmarks/RESULTS.md``):
the KaTrain setting a level plays is not the rank it earns with mcgo's policy.

Level 7 plays KaTrain's fit extrapolated to 9 dan (kyu -8), past KaTrain's strongest setting:
with mcgo's policy it plays level with the policy's favourite move (9-11 over 20 games) and far
above 2 kyu (18-2), where KaTrain's 5 kyu and 3 dan settings were not apart from their
neighbours (11-9 against 8 kyu; 3 dan 5-15 against 2 kyu). Above it the levels of
:data:`LEVEL_SIMULATIONS` play the full engine with its simulations a move capped, as a short
think is.

>>> moves_seen(25, 361, 361), moves_seen(5, 361, 361)
(6, 75)
>>> [LEVEL_KYU[n] for n in sorted(LEVEL_KYU)]
[25, 20, 15, 11, 8, 2, -8]
>>> plays_policy(7), plays_policy(8), LEVEL_SIMULATIONS[8], plays_policy(FULL_STRENGTH)
(True, False, 100, False)
"""

import math

import numpy as np

from .. import options
from ..board import coords
from ..board.kernels import PASS
from .cfg_player import own_one_point_eye

# The KaTrain rank setting each policy level plays; then the engine's search capped at a number
# of simulations a move; then full strength.
LEVEL_KYU = {1: 25, 2: 20, 3: 15, 4: 11, 5: 8, 6: 2, 7: -8}
LEVEL_SIMULATIONS = options.LEVEL_SIMULATIONS
FULL_STRENGTH = options.FULL_STRENGTH_LEVEL
assert FULL_STRENGTH == max(LEVEL_SIMULATIONS) + 1 and min(LEVEL_SIMULATIONS) == max(LEVEL_KYU) + 1
LEVELS = tuple(range(1, FULL_STRENGTH + 1))
OPENING_SHARE = 1 / 6          # the opening's moves: this part of the board's points
ENDGAME_SHARE = 0.75           # from this part of the board's points in moves, the endgame


def moves_seen(kyu, legal, points):
    """The moves a ``kyu`` level draws from ``legal`` legal moves on a board of ``points``
    (KaTrain's calibrated fit of its rank bots)."""
    base = 0.063015 + 0.7624 * points / (10 ** (-0.05737 * kyu + 1.9482))
    share = legal / points
    bend = 3.002 * share * share - share - 0.034889 * kyu - 0.5097
    rank = (0.3931 + 0.6559 * share * math.exp(-bend * bend) - 0.01093 * kyu) * base
    return max(1, round(points * share / (1.31165 * (rank + 1) - 0.082653)))


def plays_policy(level):
    """Whether ``level`` chooses from the policy itself (a :class:`LevelPlayer`) rather than
    by the engine's search."""
    return level in LEVEL_KYU


def sure_thresholds(kyu, legal, points):
    """``(top, top two)``: the policy's shares above which a level plays its top move."""
    return 0.8 * (1 - 0.5 * (points - legal) / points), 0.85 + max(0.0, 0.02 * (kyu - 8))


class LevelPlayer:
    """Chooses ``board.to_move``'s move as level ``level`` (one that :func:`plays_policy`),
    from the policy of ``search`` (its policy net for the board's size, else its move
    model); ``seed`` draws the moves it looks at."""

    def __init__(self, level, search, seed=0):
        if not plays_policy(level):
            raise ValueError(f"level {level} is not a policy level: 1 to {max(LEVEL_KYU)}")
        self.level = level
        self.kyu = LEVEL_KYU[level]
        self.search = search
        self.seed = seed

    @property
    def seed(self):
        return self._seed

    @seed.setter
    def seed(self, seed):
        self._seed = seed
        self.rng = np.random.default_rng(seed % (1 << 64))

    def plays(self, board):
        return True

    def asks_the_engine(self, board):
        """True after the opponent's pass and in the endgame (the last quarter of the
        board's points in moves, KaTrain's endgame): the engine decides whether the game
        is over, as the policy's pass would (:meth:`mcgo.engine.game.Game.choose_move`)."""
        passed = bool(board.moves) and board.moves[-1].point == PASS
        return passed or len(board.moves) >= ENDGAME_SHARE * board.size * board.size

    def policy(self, board, color):
        """``(moves, probabilities)`` of ``color``'s legal moves but the pass."""
        net = self.search.policy_net_of(board)[0]
        source = net if net is not None else self.search.model
        if source is None:
            moves = np.array(board.legal_moves(color), dtype=np.int64)
            return moves, np.full(len(moves), 1.0 / max(len(moves), 1))
        moves, scores = source.scores(board.pts, board.info, color)
        keep = moves != PASS
        moves, scores = np.asarray(moves)[keep], np.asarray(scores, np.float64)[keep]
        p = np.exp(scores - scores.max()) if len(scores) else scores
        return moves, p / p.sum() if len(p) else p

    def choose(self, board, move_filter=None):
        color = board.to_move
        moves, p = self.policy(board, color)
        legal = set(board.legal_moves(color))          # superko included
        keep = [int(m) in legal and not own_one_point_eye(board, int(m), color)
                and (move_filter is None or move_filter.allows(color, int(m), 1)) for m in moves]
        moves, p = moves[keep], p[keep]
        if not len(moves):
            return PASS
        order = np.argsort(-p, kind="stable")
        moves, p = moves[order], p[order]
        points = board.size * board.size
        top, pair = sure_thresholds(self.kyu, len(moves), points)
        if p[0] > top or (len(p) > 1 and p[0] + p[1] > pair):
            return int(moves[0])
        pool = np.arange(len(moves))
        if len(board.moves) < OPENING_SHARE * points:
            line = np.array([min(r, c, board.size - 1 - r, board.size - 1 - c)
                             for r, c in (coords.row_col(int(m), board.size) for m in moves)])
            pool = pool[line > 0] if (line > 0).any() else pool
        seen = self.rng.choice(pool, size=min(moves_seen(self.kyu, len(moves), points), len(pool)),
                               replace=False)
        return int(moves[seen.min()])          # the policy's favourite of those seen

    def describe(self, board, move):
        return f"level {self.level}: {coords.to_gtp(move, board.size)}"
