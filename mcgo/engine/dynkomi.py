# SPDX-License-Identifier: GPL-3.0-or-later
"""Dynamic komi in handicap games (Baudis, "Balancing MCTS by dynamically adjusting komi
value", ICGA Journal 2011; Pachi's linear dynamic komi).

An MCTS engine that gives White's side of a big handicap sees every move lost, and one that
takes Black's sees every move won: the win rates no longer tell moves apart, and it plays
desperate or slack moves. So in a handicap game the search counts White extra komi, most
at the start and linearly less until it is gone after a number of moves: White then plays as
if the game were close, Black as if it had to keep a large lead. Pachi's constants (facts of
its linear dynamic komi, not code): each handicap stone is worth 8 points when the engine is
White and 12 when it is Black ("the real value of one stone is about 15 points, a lower
value to avoid being too pessimistic as Black or too optimistic as White"); the extra falls
to 0 at move 200 (Black) or 150 (White) on boards of 15x15 and more (100 on 15x15), 50 on
10x10 to 14x14 and 15 on 9x9 and less.

The extra at move m (the handicap stones counted as moves, as Pachi counts them) is
``(N * value + 0.5 - komi) * (moves - m) / moves``, the game's komi alone subtracted (what
the rules give White for the stones comes on top, in both engines' counts). Only the
search's count changes (the ``dynamic_komi`` setting): the game's
count, ``final_score`` and the analysis commands keep the real komi. Off by default, as it has shown no gain: mcgo giving GNU Go level 10 nine stones on 19x19
at 2 s a move won 15 of 24 games with it and 16 of 23 without (an early look, 9-9 against
14-3, had seemed to say it lost). Taking a handicap is measured apart
(``benchmarks/RESULTS.md``).

>>> from mcgo.board import Board, WHITE
>>> board = Board(19, komi=0.5, handicap_bonus=9)      # nine stones, Chinese rules
>>> round(extra_komi(board, 9, WHITE), 2)              # (9 x 8 + 0.5 - 0.5) x 141 / 150
67.68
>>> for _ in range(75):
...     board.play("pass")
>>> round(extra_komi(board, 9, WHITE), 2), extra_komi(board, 0, WHITE)
(31.68, 0.0)
"""

from ..board.kernels import BLACK

STONE_VALUE = {True: 12, False: 8}     # points a handicap stone is worth: engine Black, White


def fading_moves(size, black):
    """The move by which the extra komi has fallen to 0 (Pachi's table)."""
    if size <= 9:
        return 15
    if size == 15:
        return 100
    if size >= 15:
        return 200 if black else 150
    return 50


def extra_komi(board, handicap, color):
    """The points of komi the search adds to White's when ``color`` is to think in a game of
    ``handicap`` stones on ``board`` (0 in an even game and once it has faded)."""
    if handicap < 2:
        return 0.0
    black = color == BLACK
    moves = fading_moves(board.size, black)
    played = handicap + len(board.moves)
    if played >= moves:
        return 0.0
    start = handicap * STONE_VALUE[black] + 0.5 - board.komi
    return max(0.0, start * (moves - played) / moves)
