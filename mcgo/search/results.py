"""What a search found: each root move's statistics (:class:`MoveStats`) and the search's
result (:class:`SearchResult`)."""

from dataclasses import dataclass, field
from typing import Optional

import numpy as np

from ..stats import wilson_interval
from .presets import THESIS_EXPLORATION
from .tree import (AMAF_VISITS, AMAF_WINS, BLOCKED, BONUS, MOVE, PRIOR_VISITS, PRIOR_WINS,
                   SCORE, VISITS, WINS)


@dataclass
class MoveStats:
    """What the search knows about one root move (root side's view)."""
    move: int
    visits: float
    wins: float
    prior_visits: float
    prior_wins: float
    amaf_visits: float
    amaf_wins: float
    bonus: float
    score_sum: float = 0.0      # Black's final margins over the move's playouts, summed
    pv: list = field(default_factory=list)
    # The value net's judgement of the move's node (:mod:`.netprior`), as the search mixes it
    # in: its virtual visits, those visits times its win chance, and times Black's margin by
    # its score head (all 0 when the net did not value the node).
    net_visits: float = 0.0
    net_wins: float = 0.0
    net_score_sum: float = 0.0

    @property
    def score(self):
        """Black's mean final margin (area minus komi) over the move's playouts, mixed with the
        value net's score as the win rate is (0 unvisited)."""
        if not self.visits:
            return 0.0
        return (self.score_sum + self.net_score_sum) / (self.visits + self.net_visits)

    @property
    def winrate(self):
        """The move's win rate for the root's side: its playouts' wins, mixed with the value
        net's chance as the search mixes them (its virtual visits beside the playouts'), so
        that the net's share shrinks as the move's visits grow (0 unvisited)."""
        if not self.visits:
            return 0.0
        return (self.wins + self.net_wins) / (self.visits + self.net_visits)

    @property
    def prior(self):
        return self.prior_wins / self.prior_visits if self.prior_visits else 0.0

    @property
    def lcb(self):
        """Lower end of the Wilson 95% interval of the win rate (0 when unvisited)."""
        if self.visits <= 0:
            return 0.0
        return wilson_interval(self.wins, self.visits)[0]

    def uct(self, parent_visits, exploration=THESIS_EXPLORATION):
        """Eq. 8.1 plus the bonus (the thesis's printed ``uct[...]``)."""
        if not self.visits:
            return float("inf")
        explore = exploration * (np.log(max(parent_visits, 1)) / self.visits) ** 0.5
        return self.winrate + explore + self.bonus


@dataclass
class SearchResult:
    best_move: int
    moves: list                 # MoveStats, most visited first
    simulations: int
    playout_moves: int
    seconds: float
    cpu_seconds: float
    root_visits: float
    owner_sum: Optional[np.ndarray] = None
    stopped_early: bool = False     # the best move was settled before the time was up
    extended: bool = False          # ran past the clock's desired time, the best move unsure

    @property
    def winrate(self):
        """Win rate of the best move for the side to move (0.5 when nothing was searched)."""
        for m in self.moves:
            if m.move == self.best_move and m.visits:
                return m.winrate
        return 0.5

    @property
    def simulations_per_second(self):
        return self.simulations / self.seconds if self.seconds else float("nan")


def root_move_stats(trees, net_values):
    """The root moves' :class:`MoveStats` summed over ``trees`` (a search's threads), most
    visited first; ``net_values(i)`` is tree ``i``'s value net judgements
    (:meth:`mcgo.search.Search.net_values`). Moves a filter or superko blocked are left out."""
    merged = {}
    for i, t in enumerate(trees):
        valued = net_values(i)
        for c in t.children(t.root):
            if t.ints[BLOCKED, c]:
                continue
            move = int(t.ints[MOVE, c])
            f = t.floats[:, c]
            m = merged.get(move)
            if m is None:
                m = merged[move] = MoveStats(move, f[VISITS], f[WINS], f[PRIOR_VISITS],
                                             f[PRIOR_WINS], f[AMAF_VISITS], f[AMAF_WINS],
                                             f[BONUS], score_sum=f[SCORE])
            else:
                m.visits += f[VISITS]
                m.wins += f[WINS]
                m.score_sum += f[SCORE]
                m.amaf_visits += f[AMAF_VISITS]
                m.amaf_wins += f[AMAF_WINS]
            if c in valued:
                visits, wins, score = valued[c]
                m.net_visits += visits
                m.net_wins += wins
                m.net_score_sum += score
    return sorted(merged.values(), key=lambda m: (-m.visits, -m.winrate))
