"""Training examples for the ownership network, from a :class:`mcgo.train.dataset.Dataset`.

An example is one position of a game: the network's inputs (:func:`.features.features`,
with the propensity plane of seed 003's 3x3 statistics) and the target of the paper's
eq. (1), section 3.1::

    T_ij(t) = (1 - w) A_ij(end) + w A_ij(t + k)

``A(end)`` is the game's final ownership (1 black, 0 white, 0.5 neither: dame or seki);
``A(t + k)`` is the position ``k`` moves later read the same way with an empty point 0.5
("the same scheme with 0.5 for empty intersections", the paper), the final position when
the game ends sooner. The paper's headline net: ``w = 0.25``, ``k = 2``.

Positions are drawn per game, never split across the dataset's parts: the examples of the
``train`` part come from train games only (the learning discipline: split by game).

>>> import numpy as np
>>> from mcgo.board import Board
>>> board = Board(5)
>>> board.play("C3")
>>> float(stone_plane(board)[2, 2]), float(stone_plane(board)[0, 0])
(1.0, 0.5)
>>> final = np.ones((5, 5), dtype=np.int8)           # black owns everything at the end
>>> float(target(final, board, w=0.25)[0, 0])        # 0.75 * 1 + 0.25 * 0.5
0.875
"""

import contextlib
import random

import numpy as np

from ..board import BLACK, WHITE
from ..models.seedstats import colors_of

HEADLINE_W = 0.25   # the paper's headline net (section 4)
HEADLINE_K = 2
EMPTY_VALUE = 0.5   # A_ij of an empty point, and of a point nobody owns at the end


def stone_plane(board):
    """``A_ij(t)`` of a position: 1 black stone, 0 white stone, 0.5 empty ((size, size),
    ``[row, col]``, row 0 at the bottom)."""
    colors = colors_of(board)
    return np.where(colors == BLACK, 1.0, np.where(colors == WHITE, 0.0, EMPTY_VALUE))


def final_plane(ownership):
    """``A_ij(end)`` of a game's final ownership (+1 black, -1 white, 0 neither)."""
    own = np.asarray(ownership)
    return np.where(own > 0, 1.0, np.where(own < 0, 0.0, EMPTY_VALUE))


def target(ownership, future_board, w=HEADLINE_W):
    """Eq. (1): ``(1 - w) A(end) + w A(t + k)``, float32 ``(size, size)``."""
    return ((1.0 - w) * final_plane(ownership) + w * stone_plane(future_board)).astype(np.float32)


def game_examples(game, stats, numbers, radius, w=HEADLINE_W, k=HEADLINE_K):
    """``(inputs, target, move_number)`` for the positions of ``game`` before the moves
    ``numbers`` (1-based move numbers; the position after ``n - 1`` moves). ``stats``: the
    :class:`mcgo.models.seedstats.SeedStats` giving the propensity plane."""
    from .dataset import replay_game
    from ..models.ownership.features import features

    wanted = set(numbers)
    boards = {}
    for board, color, _, number in replay_game(game):
        if number in wanted or any(number == n + k for n in wanted):
            boards[number] = board.copy()
        final = board
    out = []
    for n in sorted(wanted):
        if n not in boards:
            continue
        later = boards.get(n + k, final)   # the game ended sooner: its final position
        board = boards[n]
        inputs = features(board, stats.propensity(board), radius=radius)
        out.append((inputs, target(game.ownership, later, w), n))
    return out


def sample_numbers(game, per_game, rng, first=1):
    """Up to ``per_game`` distinct move numbers of ``game`` (positions before those moves),
    drawn uniformly from ``first`` to its last move."""
    last = len(game.moves)
    choices = list(range(first, last + 1))
    if len(choices) <= per_game:
        return choices
    return sorted(rng.sample(choices, per_game))


@contextlib.contextmanager
def leaving_out(stats, game):
    """``stats`` without the counts of ``game`` while the block runs (then restored): the
    propensity of a game's positions must not know that game's own final ownership, or the
    net learns to trust it on its training games more than it can on any other (the
    statistics of the train games are gathered from those very games)."""
    from ..models.seedstats import SeedStats
    own = SeedStats(stats.size, cap=stats.cap, to_move_view=stats.to_move_view,
                    territory=stats.territory)
    own.add_game(game.record(), game.ownership)
    stats.merge(own, sign=-1)
    try:
        yield stats
    finally:
        stats.merge(own)


def build_arrays(dataset, split, stats, radius, per_game=None, seed=0, w=HEADLINE_W,
                 k=HEADLINE_K, symmetries=True, progress=None, leave_out=False):
    """The examples of the games of ``split``: ``(inputs (n, size, size, F) float32,
    targets (n, size, size) float32, move numbers (n,) int32, game indices (n,) int32)``.

    ``per_game``: positions drawn per game (None: every position); ``symmetries``: each
    game shown under one random symmetry of the board (the examples stay one game's);
    ``progress``: called with the number of games done; ``leave_out``: the games' own
    counts are in ``stats`` (gathered from them): read each game's propensity without them
    (:func:`leaving_out`)."""
    rng = random.Random(seed)
    inputs, targets, numbers, games = [], [], [], []
    for done, index in enumerate(dataset.game_indices(split), 1):
        original = game = dataset.game(index)
        if symmetries:
            game = game.transformed(rng.randrange(8))
        chosen = range(1, len(game.moves) + 1) if per_game is None else \
            sample_numbers(game, per_game, rng)
        if leave_out and not original.setups:    # (a game with set-ups is not counted)
            with leaving_out(stats, original):
                examples = game_examples(game, stats, chosen, radius, w, k)
        else:
            examples = game_examples(game, stats, chosen, radius, w, k)
        for x, t, n in examples:
            inputs.append(x)
            targets.append(t)
            numbers.append(n)
            games.append(index)
        if progress is not None:
            progress(done)
    size = dataset.size
    if not inputs:
        return (np.zeros((0, size, size, 0), np.float32), np.zeros((0, size, size), np.float32),
                np.zeros(0, np.int32), np.zeros(0, np.int32))
    return (np.stack(inputs).astype(np.float32), np.stack(targets), np.asarray(numbers, np.int32),
            np.asarray(games, np.int32))
