"""Chain status: dead stones, seki and the final score, estimated once per position.

:class:`Status` is what an engine asks (``final_score``, ``final_status_list``, the dead
stones of a finished game): it estimates the :class:`Verdict` of a position once and answers
every later question about the same position from it. :func:`estimate` and :func:`judge` are
the steps underneath; the player (:mod:`.player`) judges the search's own ownership map with
:func:`judge` when a pass is in question.

Dead stones come from the ownership map of playouts (the mean final owner of every point):
a chain whose points end up the opponent's in most playouts is dead. Seki comes from the
structure of the position once the dead chains are off the board (:class:`.structure.Structure`),
the way GNU Go 3.8's ``final_status_list`` sees it: its "aftermath" makes every living group
unconditionally alive and fills the liberties it can, and the stones that end up neither
side's are alive in seki. Here:

* a chain is *safe* when it is unconditionally alive by Benson's algorithm (an own territory
  that can be split into two eyes counting as two eyes), or the playouts never lose it, or
  it reaches such a chain through empty points (it can connect);
* a *seki region* is a small empty region touching both colours that no safe chain reaches,
  where every chain around keeps two liberties and neither side can fill a point without
  self-atari while putting the other in atari: shared liberties nobody can fill;
* a group of chains that are not safe (linked through empty regions), in a finished part of
  the board, whose contested regions are all seki regions, that the other side cannot kill
  by sacrificing stones in them (a nakade), and whose partners across them are such groups
  too, is alive in seki.

So a dame point between living groups is no seki (safe chains reach it), and neither is a
capturing race one side wins by filling a liberty, nor a nakade. Playouts break sekis often
(they reject a self-atari into the shared liberties only most of the time), so a seki
chain's ownership can be anything: the structure decides for every chain that is not
clearly dead, a chain the playouts call dead is given back when the structure says seki,
and the chains the playouts leave unsettled are settled by the structure where it can
(:func:`judge`).

The final score is the area score after removing the dead chains, by the board's own scorer.
"""

from dataclasses import dataclass, field

import numpy as np

from ..board import coords
from ..board.kernels import BLACK, EMPTY, PASSES, WHITE
from ..playout import ownership
from ..playout.scoring import mean_ownership
from ..search.search import Search
from .structure import Structure

DEAD_BELOW = -0.5            # a chain is dead when its mean ownership (own view) is below this
ALIVE_ABOVE = 0.5            # and alive above this; in between: unsettled (or seki)
UNSETTLED_SPLIT = 0.0        # an unsettled chain is listed alive at or above this, else dead
RESCUE_FLOOR = -0.9          # a "dead" chain above this may be a seki the playouts broke
SAFE_OWNERSHIP = 0.95        # a chain the playouts (almost) never lose is safe, as a Benson one
MAX_SETTLING = 4             # rounds of taking lost unsettled chains off and looking again
SETTLED = 0.6                # a stone counts as settled when |ownership| exceeds this
STATUS_PLAYOUTS = 2000       # playouts for final_status_list / final_score
STATUS_SEARCH = 0            # simulations of a tree search whose ownership replaces them (0: none)
STATUS_SEARCH_MEMORY_MB = 64 # the tree of that search
STATUSES = ("alive", "dead", "seki")


@dataclass
class Verdict:
    """Status of every chain: lists of points. ``unsettled`` holds the stones whose
    ownership was between alive and dead and that are neither in seki nor safe; they are
    also listed as alive or dead (see :func:`judge`), as GTP wants every stone somewhere."""
    alive: list
    dead: list
    seki: list
    owner: np.ndarray        # (size, size) mean ownership, +1 black
    unsettled: list = field(default_factory=list)


def chains(board):
    seen = set()
    for color in (BLACK, WHITE):
        for p in board.stones(color):
            if p not in seen:
                chain = board.chain(p)
                seen.update(chain)
                yield color, chain


def chain_means(board, owner):
    """(colour, points, mean ownership in the chain's own view) of every chain."""
    out = []
    for color, chain in chains(board):
        sign = 1.0 if color == BLACK else -1.0
        values = [sign * owner[coords.row_col(p, board.size)] for p in chain]
        out.append((color, chain, float(np.mean(values))))
    return out


def judge(board, owner, second_opinion=None):
    """Chain statuses from an ownership map ``owner`` ((size, size), +1 black).

    1. dead: mean own-view ownership below DEAD_BELOW;
    2. with the dead chains off the board, seki by :class:`Structure`;
    3. a dead chain the playouts did not always capture (above RESCUE_FLOOR) is in seki
       after all when, put back, the structure says seki (a seki the playouts broke; a
       dead stone in an eye or a nakade is no seki to it);
    4. an unsettled chain (between DEAD_BELOW and ALIVE_ABOVE, not safe, not in seki) that
       the structure finds lost is dead: the other side wins a liberty race next to it
       (:meth:`Structure.races`), or it is enclosed and down to one liberty with no way to
       fight back (:meth:`Structure.can_fight_back`: a mutual atari or a ko is not lost), or its
       partners kill it by sacrifice (``Structure.doomed``); then the structure is looked
       at again without it, up to MAX_SETTLING times;
    5. the rest: alive when safe or above ALIVE_ABOVE; an unsettled one alive when its
       side wins such a race, else by the sign of its ownership, or, given a
       ``second_opinion`` (another ownership map, +1 black: seed 003's network), by the
       sign of that one's mean over the chain, where the playouts are unsure.
    """
    stats = chain_means(board, owner)
    dead = {i for i, (_, _, mean) in enumerate(stats) if mean < DEAD_BELOW}

    strong = [chain[0] for _, chain, mean in stats if mean >= SAFE_OWNERSHIP]

    def without(chain_ids):
        return Structure(board, [p for i in chain_ids for p in stats[i][1]], strong)

    structure = without(dead)
    candidates = {i for i in dead if stats[i][2] >= RESCUE_FLOOR}
    if candidates:
        trial = without(dead - candidates)
        rescued = set()
        for i in candidates:
            if trial.chain_of[stats[i][1][0]] in trial.seki:
                rescued.add(i)
        if rescued:
            dead -= rescued
            structure = without(dead)
    def outcome(structure):
        """(winners, losers) among the chains the structure settles."""
        winners, losers = structure.races()
        losers = structure.doomed | (losers - winners - structure.saved)
        return (winners | structure.saved) - losers, losers

    settled = set()             # unsettled chains the structure found lost
    for _ in range(MAX_SETTLING):
        # Take them off and look again: their neighbours may have become safe.
        winners, losers = outcome(structure)
        lost = {i for i, (_, chain, mean) in enumerate(stats)
                if i not in dead and mean <= ALIVE_ABOVE
                and structure.chain_of[chain[0]] in losers - structure.safe - structure.seki}
        if not lost:
            break
        dead |= lost
        settled |= lost
        structure = without(dead)
    else:
        winners, losers = outcome(structure)
    alive, dead_points, seki, unsettled = [], [], [], []
    for i, (_, chain, mean) in enumerate(stats):
        ch = structure.chain_of.get(chain[0])
        if i in dead:
            dead_points.extend(chain)
            if i in settled:
                unsettled.extend(chain)
        elif ch in structure.seki:
            seki.extend(chain)
        elif ch in structure.safe or mean > ALIVE_ABOVE:
            alive.extend(chain)
        else:
            unsettled.extend(chain)
            if second_opinion is not None:
                sign = 1.0 if board.color_at(chain[0]) == BLACK else -1.0
                mean = sign * float(np.mean([second_opinion[coords.row_col(p, board.size)]
                                             for p in chain]))
            lives = ch in winners or (ch not in losers and mean >= UNSETTLED_SPLIT)
            (alive if lives else dead_points).extend(chain)
    return Verdict(sorted(alive), sorted(dead_points), sorted(seki), owner, sorted(unsettled))


def estimate(board, playouts=STATUS_PLAYOUTS, policy="pattern", seed=0, threads=1,
             ownership_model=None, corner_net=None, search=STATUS_SEARCH):
    """Chain statuses by playouts from the position. The playouts start as if no one had
    passed: at the end of a game (two passes) they would otherwise stop at once and call
    every stone alive. ``ownership_model`` (an :class:`mcgo.models.ownership.OwnershipModel`)
    settles the chains the playouts leave unsure (:func:`judge`); ``corner_net`` (seed 004's
    :class:`mcgo.models.corner.CornerNet`) then judges the corner groups it is sure of
    (:func:`with_corner_net`). With ``search`` simulations the ownership is the tree
    search's instead (:func:`search_ownership`)."""
    start = board.copy()
    start.info[PASSES] = 0
    if search:
        owner = search_ownership(start, search, seed=seed, threads=threads)
    else:
        owner = ownership(start, playouts=playouts, policy=policy, seed=seed, threads=threads)
    return judge_with(board, owner, ownership_model, corner_net)


def judge_with(board, owner, ownership_model=None, corner_net=None):
    """:func:`judge` of the ownership map ``owner`` with the engine's second judges: seed
    003's network (``ownership_model``) settling the chains the map leaves unsure, then
    seed 004's corner net (:func:`with_corner_net`)."""
    second = None
    if ownership_model is not None:
        second = 2.0 * ownership_model.ownership(board) - 1.0
    verdict = judge(board, owner, second)
    if corner_net is not None:
        verdict = with_corner_net(board, verdict, corner_net)
    return verdict


def search_ownership(board, simulations, seed=0, threads=1):
    """The mean final owner of every point over a tree search's simulations from ``board``
    (a ``(size, size)`` array, +1 black): the tree's moves play the fights near the root
    better than the playouts do, so a capturing race the playouts misread is read."""
    searcher = Search(threads=threads, seed=seed, max_memory_mb=STATUS_SEARCH_MEMORY_MB)
    result = searcher.run(board, playouts=simulations, early_stop=False)
    return mean_ownership(result.owner_sum, result.simulations, board.size)


def with_corner_net(board, verdict, net):
    """``verdict`` with the corner net's confident verdicts on the chains the playouts leave
    unsure (``verdict.unsettled``) inside a 7x7 corner: a second judge of exactly the corners
    that are still unclear. Every other chain keeps the playouts' verdict: used on every
    corner chain, the net's errors (it is right on about 9 in 10 chains, the playouts on
    98 in 100) made the dead-stone lists worse (``benchmarks/journal/``)."""
    unsure = set(verdict.unsettled)
    alive, dead = set(verdict.alive), set(verdict.dead)
    for chain, lives, confident in net.verdicts(board):
        if not confident or chain[0] not in unsure:
            continue
        (alive.update if lives else dead.update)(chain)
        (dead.difference_update if lives else alive.difference_update)(chain)
    return Verdict(sorted(alive), sorted(dead), verdict.seki, verdict.owner, verdict.unsettled)


def score_without(board, dead):
    """The score (black's view, komi included, area or territory as ``board.scoring``
    says) after removing the ``dead`` stones: under territory scoring they are prisoners."""
    cleaned = board.copy()
    if dead:
        cleaned.setup(empty=dead)
    # The board's own offset: the dead stones were placed, and are prisoners now.
    return cleaned.area() - board.komi - board.scoring_offset()


def is_settled(board, verdict):
    """True when every stone's fate is clear: no chain between alive and dead, and every
    stone not in seki settled in the playouts (a seki's stones need not be: the playouts
    break sekis)."""
    seki = set(verdict.seki)
    return not verdict.unsettled and all(
        abs(verdict.owner[coords.row_col(p, board.size)]) > SETTLED
        for _, chain in chains(board) for p in chain if p not in seki)


def dame_left(board, verdict):
    """Neutral points, a seki's shared liberties aside: empty points the playouts give to
    neither side, and every :func:`border_left`. The playouts alone miss a neutral point
    that only one side can fill, such as the liberty of a chain that its owner must then
    connect (a teire): they give it to the side that fills it."""
    seki = set(verdict.seki)
    w = board.size + 2
    for p in coords.all_points(board.size):
        if board.color_at(p) != EMPTY:
            continue
        if abs(verdict.owner[coords.row_col(p, board.size)]) > SETTLED:
            continue
        if not any(q in seki for q in (p - 1, p + 1, p - w, p + w)):
            return True
    return border_left(board, verdict)


def border_left(board, verdict):
    """True when, with the dead stones off the board, an empty region touches living
    stones of both colours and no seki: a dame to fill, whatever the playouts think of the
    empty points elsewhere."""
    seki = set(verdict.seki)
    w = board.size + 2

    def next_to_seki(p):
        return any(q in seki for q in (p - 1, p + 1, p - w, p + w))

    structure = Structure(board, verdict.dead)
    return any(colors == {BLACK, WHITE} and not any(next_to_seki(p) for p in points)
               for points, colors in zip(structure.region_points, structure.region_colors))


class Status:
    """The chain status of an engine's positions, one estimate per position.

    ``verdict(board)`` runs :func:`estimate` the first time it sees a position and returns
    the same :class:`Verdict` while the position, the komi and the settings stay the same
    (the position as the playouts see it: stones, side to move, ko, last move, captures), so
    ``final_score`` followed by ``final_status_list dead``, ``alive`` and ``seki`` runs the
    playouts once. It keeps the last position only.
    """

    def __init__(self, playouts=STATUS_PLAYOUTS, policy="pattern", seed=0, threads=1,
                 ownership_model=None, corner_net=None, search=STATUS_SEARCH):
        self.playouts = playouts
        self.search = search                     # simulations of a search instead (0: none)
        self.policy = policy
        self.seed = seed
        self.threads = threads
        self.ownership_model = ownership_model   # settles what the playouts leave unsure
        self.corner_net = corner_net             # judges the corners it is sure of
        self._key = None
        self._verdict = None

    def _position_key(self, board):
        return (board.size, board.komi, board.pts.tobytes(), board.info.tobytes(),
                self.playouts, self.search, self.policy, self.seed, self.threads,
                id(self.ownership_model), id(self.corner_net))

    def verdict(self, board):
        """The :class:`Verdict` of ``board``'s position (estimated now, or remembered)."""
        key = self._position_key(board)
        if key != self._key:
            self._verdict = estimate(board, playouts=self.playouts, policy=self.policy,
                                     seed=self.seed, threads=self.threads,
                                     ownership_model=self.ownership_model,
                                     corner_net=self.corner_net, search=self.search)
            self._key = key
        return self._verdict

    def score(self, board):
        """The final score (black's view, komi included) with the dead stones removed."""
        return score_without(board, self.verdict(board).dead)

    def chains(self, board, status):
        """The chains of one status (``alive``, ``dead`` or ``seki``), each a sorted list of
        points, in the order of their first point."""
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}; choose from {', '.join(STATUSES)}")
        out, seen = [], set()
        for p in getattr(self.verdict(board), status):
            if p not in seen:
                chain = board.chain(p)
                seen.update(chain)
                out.append(chain)
        return out
