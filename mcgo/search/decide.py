"""Decisions around the search: dead stones, the final score, passing and resigning.

Dead stones come from the ownership map of playouts (the mean final owner of every point):
a chain whose points end up the opponent's in most playouts is dead. The final score is the
area score after removing the dead chains, by the board's own scorer.
"""

from dataclasses import dataclass

import numpy as np

from ..board import coords
from ..board.kernels import BLACK, PASS, PASSES, WHITE
from ..playout import ownership

DEAD_BELOW = -0.5            # a chain is dead when its mean ownership (own view) is below this
ALIVE_ABOVE = 0.5            # and alive above this; in between: seki / unsettled
SETTLED = 0.6                # a stone counts as settled when |ownership| exceeds this
STATUS_PLAYOUTS = 2000       # playouts for final_status_list / final_score
RESIGN_MIN_VISITS = 500      # do not resign on a thin search
HANDICAP_NO_RESIGN = 0.5     # in a handicap game, no resigning before this part of the board


@dataclass
class Verdict:
    """Status of every chain: lists of points."""
    alive: list
    dead: list
    seki: list
    owner: np.ndarray        # (size, size) mean ownership, +1 black


def chains(board):
    seen = set()
    for color in (BLACK, WHITE):
        for p in board.stones(color):
            if p not in seen:
                chain = board.chain(p)
                seen.update(chain)
                yield color, chain


def judge(board, owner):
    """Chain statuses from an ownership map ``owner`` ((size, size), +1 black)."""
    alive, dead, seki = [], [], []
    for color, chain in chains(board):
        sign = 1.0 if color == BLACK else -1.0
        values = [sign * owner[coords.row_col(p, board.size)] for p in chain]
        mean = float(np.mean(values))
        if mean < DEAD_BELOW:
            dead.extend(chain)
        elif mean > ALIVE_ABOVE:
            alive.extend(chain)
        else:
            seki.extend(chain)
    return Verdict(sorted(alive), sorted(dead), sorted(seki), owner)


def estimate(board, playouts=STATUS_PLAYOUTS, policy="pattern", seed=0, threads=1):
    """Chain statuses by playouts from the position. The playouts start as if no one had
    passed: at the end of a game (two passes) they would otherwise stop at once and call
    every stone alive."""
    start = board.copy()
    start.info[PASSES] = 0
    owner = ownership(start, playouts=playouts, policy=policy, seed=seed, threads=threads)
    return judge(board, owner)


def score_without(board, dead):
    """Area score (black's view, komi included) after removing the ``dead`` stones."""
    cleaned = board.copy()
    if dead:
        cleaned.setup(empty=dead)
    return cleaned.score()


def result_text(score):
    if score == 0:
        return "0"
    return f"B+{score:g}" if score > 0 else f"W+{-score:g}"


def owner_from_sum(owner_sum, simulations, size):
    """A search's summed owners as a (size, size) mean ownership map."""
    w = size + 2
    grid = np.asarray(owner_sum, dtype=np.float64).reshape(w, w)[1:size + 1, 1:size + 1]
    return grid / max(simulations, 1)


def is_settled(board, verdict):
    """True when every stone's fate is clear (no chain between alive and dead)."""
    return not verdict.seki and all(
        abs(verdict.owner[coords.row_col(p, board.size)]) > SETTLED
        for _, chain in chains(board) for p in chain)


def pick_move(board, result, verdict, cleanup=False):
    """The move to answer: the search's choice, except that

    * when the opponent has just passed and passing now wins (counting the dead stones as the
      playouts see them, and they are settled), pass and end the game;
    * never pass when passing would lose on the board as it stands, if there is another move;
    * ``cleanup`` (kgs-genmove_cleanup): no pass while dead opponent stones are on the board.
    """
    color = board.to_move
    sign = 1 if color == BLACK else -1
    best = result.best_move
    opponent_passed = bool(board.moves) and board.moves[-1][1] == PASS \
        and board.moves[-1][0] == 3 - color
    win_if_pass = sign * score_without(board, verdict.dead) > 0
    dead_opponent = any(board.color_at(p) == 3 - color for p in verdict.dead)
    if cleanup:
        if best == PASS and dead_opponent:
            return best_non_pass(result, best)
        return best
    if opponent_passed and win_if_pass and is_settled(board, verdict):
        return PASS
    if opponent_passed and sign * board.score() > 0:   # wins even counting every stone alive
        return PASS
    if best == PASS and not win_if_pass:
        return best_non_pass(result, best)
    return best


def best_non_pass(result, fallback):
    for m in result.moves:
        if m.move != PASS and m.visits > 0:
            return m.move
    return fallback


def should_resign(board, result, threshold, handicap=0):
    """Resign when the best move's win rate is below ``threshold`` after a real search, not in
    the opening, and (handicap games) not before half the board is played."""
    if threshold <= 0 or result.root_visits < RESIGN_MIN_VISITS:
        return False
    played = len([m for m in board.moves if m[0] is not None])
    area = board.size * board.size
    if played < area // 4:
        return False
    if handicap and played < area * HANDICAP_NO_RESIGN:
        return False
    return result.winrate < threshold
