"""The player: how mcgo chooses a move in a game (Pachi's ``uct/uct.c`` engine, seen from
the GTP side).

A :class:`Player` owns everything between "choose a move for this position" and the move:

* the limits: ``playouts``, ``seconds``, the clock's budget under GTP time settings, and the
  rule that thinking time runs from when the command arrived;
* the case-base advice (the ``opening_advisor`` seam: any object with ``advise(board) ->
  (root_bonus, labels)``, ``root_bonus`` a float array over internal point indices or None,
  ``labels`` a dict point -> text shown by ``mcgo-tree`` as ``cbr[...]`` or None);
* the search (:class:`~mcgo.search.Search`, kept between moves so its tree is reused);
* resignation (:func:`should_resign`) and the pass rules (:func:`pick_move`), whose check
  that passing is safe runs on a search of its own, so that a failed check leaves the main
  tree for the next move (and for ``mcgo-tree``).

>>> import mcgo
>>> player = Player(playouts=200, seed=1, verbose=False)
>>> move = player.choose(mcgo.Board(9, komi=7.0))
>>> move != mcgo.PASS and player.search.last_result.simulations >= 200
True
"""

import sys
import time
from typing import NamedTuple, Optional

import numpy as np

from .. import options
from ..board import coords
from ..board.board import AREA, TERRITORY, Board
from ..board.history import Move
from ..board import kernels as K
from ..board.kernels import BLACK, EMPTY, PASS
from ..tactics.atari import is_self_atari
from ..tactics.eyes import is_true_eye
from ..playout import mean_ownership
from ..search.movefilter import MoveFilter
from .dynkomi import extra_komi
from ..search.search import REUSE_LIMIT, Search
from ..judge.status import SETTLED, border_left, dame_left, estimate, is_settled, judge, score_without
from .timecontrol import MIN_THINK, TimeControl

DEFAULT_SECONDS = 1.0          # thinking time when no limit and no time control is given
DEFAULT_RESIGN = options.DEFAULT_RESIGN
RESIGN_MIN_VISITS = 500        # do not resign on a thin search
RESIGN_STREAK = 3              # ... nor before this many own moves in a row found the game lost
HANDICAP_NO_RESIGN = 0.5       # in a handicap game, no resigning before this part of the board
PASS_CHECK_SHARE = 0.25        # a check that passing is safe gets this part of the move's simulations
PASS_CHECK_MIN_PLAYOUTS = 300  # and at least this many, else it does not count
PASS_CHECK_MIN_SECONDS = 0.1   # with less of the move's time left there is no check
PASS_CHECK_HOPELESS = 0.1      # passing holds when the opponent's win rate after it is below this
CLEANUP_MARGIN = 0.02          # cleanup: a move this close to the best win rate may take dead stones
CLEANUP_WON = 0.9              # ... and any such move may, once the game is this surely won
WON_WINRATE = 0.95             # a search this sure of winning no longer tells its moves apart:
WON_MARGIN = 0.03              # among moves this close to its win rate
WON_SHARE = 0.1                # with this part of the top visits, the tree's prior decides
LOST_WINRATE = 0.05            # under territory scoring, a settled game this lost is passed out
PONDER_FULL = 0.9 * REUSE_LIMIT  # pondering stops with the tree this full: a fuller one is not reused
PONDER_CHECK = 0.05            # seconds between the pondering's looks at how full the tree is
WARM_UP_SIZE = 9               # kernels do not depend on the board size: a small board loads them
WARM_UP_PLAYOUTS = 32


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


class Limits(NamedTuple):
    """A move's limits: ``playouts`` and ``seconds`` (None: none), the clock's
    ``desired`` time within ``seconds`` (None without a clock: think ``seconds``), and
    ``early_stop``: time saved is kept, so a settled search stops."""
    playouts: Optional[int]
    seconds: Optional[float]
    desired: Optional[float]
    early_stop: bool


def time_note(limits, result):
    """The log's note on a move under a clock: its plan and why the search stopped
    (``planned``: at the desired time, the deadline or the playouts; ``extended``: past
    the desired time, the best move unsure; ``settled``: the best move could no longer
    change; ``extended+settled`` both), as ``benchmarks/strength/time_game.py`` reads it."""
    if limits.desired is None:
        return ""
    how = "+".join(name for name, flag in (("extended", result.extended),
                                           ("settled", result.stopped_early)) if flag)
    return f", plan {limits.desired:.2f}s up to {limits.seconds:.2f}s, {how or 'planned'}"

# The settings of the policy net's prior a net may carry its own value of.
NET_SETTINGS = ("policy_net_after", "value_prior")

class Player:
    """Chooses moves for one game: limits, advice, search, pass and resign.

    ``choose(board)`` answers for ``board.to_move``: a point, ``PASS``, or None to resign.
    ``search`` is the main search (its ``last_result`` is the last move's search);
    ``clock`` the game's :class:`~mcgo.engine.timecontrol.TimeControl`.
    """

    def __init__(self, config=None, playouts=None, seconds=None, resign=DEFAULT_RESIGN,
                 verbose=True, opening_advisor=None, move_prior=None, **search_fields):
        """``config``: the search's :class:`mcgo.config.SearchConfig`, or its fields as
        ``search_fields``."""
        self.playouts = playouts
        self.seconds = seconds
        self.resign = resign
        self.verbose = verbose
        self.search = Search(config, **search_fields)
        self.clock = TimeControl()
        self.opening_advisor = opening_advisor
        # Seed 000's scorer as a bonus on the root's moves: (Scorer, weight), or None.
        self.move_prior = move_prior
        self.last_labels = None      # the advice's labels for the last search
        self._pass_search = None     # made on the first pass check
        self._lost_at = set()        # move numbers at which the search found the game lost

    @property
    def seed(self):
        return self.search.seed

    def set_seed(self, seed):
        self.search.set_seed(seed)
        self._pass_search = None

    def reconfigure(self, **changes):
        """Search with ``changes`` to the configuration from now on, the pass check too
        (:meth:`mcgo.search.Search.reconfigure`)."""
        self.search.reconfigure(**changes)
        if self._pass_search is not None:
            self._pass_search.reconfigure(**changes)

    def new_game(self):
        """Forget the trees (a new board); the next game's search draws other random numbers."""
        self.search.new_game()
        self._lost_at = set()
        if self._pass_search is not None:
            self._pass_search.clear()

    def warm_up(self, komi):
        """Load the search and scoring kernels now (compile them, with a cold Numba cache)
        and the case base, on a throw-away search; returns the seconds it took."""
        start = time.perf_counter()
        board = Board(WARM_UP_SIZE, komi=komi)
        self.search.copy().run(board, playouts=WARM_UP_PLAYOUTS)
        estimate(board, playouts=WARM_UP_PLAYOUTS, policy="pattern", seed=self.seed)
        if self.search.ownership_prior is not None:          # its kernels, on any size
            self.search.ownership_prior[0].move_areas(board.pts, board.info, board.to_move)
        if self.opening_advisor is not None:
            self.opening_advisor.advise(Board(self.opening_advisor.casebase.size))
        return time.perf_counter() - start

    # ------------------------------------------------------------------ limits
    def limits(self, board, color, received_at=None):
        """The :class:`Limits` of a move of ``color``: the command-line limits, the clock's
        plan, and the time already gone since the command arrived (``received_at``,
        ``time.monotonic()``): a wait before the engine could start on it (a cold start-up,
        a stopped analysis) is not thought on top."""
        plan = self.clock.plan(board, color)
        seconds, desired = self.seconds, None
        playouts = self.playouts
        if plan is not None:
            seconds = plan.worst if seconds is None else min(seconds, plan.worst)
            desired = min(plan.desired, seconds)
        if seconds is None and playouts is None:
            seconds = DEFAULT_SECONDS
        if seconds is not None and received_at is not None:
            waited = time.monotonic() - received_at
            seconds = max(MIN_THINK, seconds - waited)
            if desired is not None:
                desired = min(seconds, max(MIN_THINK, desired - waited))
        return Limits(playouts, seconds, desired, plan is not None and plan.banked)

    def advice(self, board):
        """The root bonus and labels for ``board``: the case base's (None, None without one),
        plus the move scorer's bonus (:attr:`move_prior`) when there is one."""
        bonus, labels = None, None
        if self.opening_advisor is not None:
            try:
                bonus, labels = self.opening_advisor.advise(board)
            except Exception as e:  # noqa: BLE001 - a broken advisor costs the bonus, not the game
                log(f"opening advisor failed: {e!r}")
        if self.move_prior is not None:
            scorer, weight = self.move_prior
            moves = board.legal_moves()
            if moves:
                extra = np.zeros(board.pts.shape[1])
                extra[moves] = weight * scorer.score_moves(board, moves, board.to_move)
                bonus = extra if bonus is None else np.asarray(bonus, dtype=np.float64) + extra
        return bonus, labels

    # ------------------------------------------------------------------ thinking
    def think(self, board, received_at=None, on_progress=None, interval=None):
        """The main search of ``board`` for its side to move, within the limits and with the
        advice; returns the :class:`~mcgo.search.SearchResult`."""
        bonus, labels = self.advice(board)     # first: its time is the move's (limits)
        limits = self.limits(board, board.to_move, received_at)
        self.last_labels = labels
        result = self.search.run(board, playouts=limits.playouts, seconds=limits.seconds,
                                 root_bonus=bonus, on_progress=on_progress,
                                 progress_interval=interval, early_stop=limits.early_stop,
                                 desired=limits.desired)
        if self.verbose:
            log(f"{result.simulations} simulations in {result.seconds:.2f}s "
                f"({result.simulations_per_second:.0f}/s), best "
                f"{coords.to_gtp(result.best_move, board.size)} win rate {result.winrate:.3f}"
                f"{time_note(limits, result)}")
        return result

    def choose(self, board, handicap=0, cleanup=False, received_at=None, on_progress=None,
               interval=None, every_stone_counts=False):
        """Search and decide the move of ``board.to_move``: a point or ``PASS``, or None to
        resign. ``handicap`` (stones) delays resigning; ``cleanup`` is
        ``kgs-genmove_cleanup`` (no resigning, no pass while dead opponent stones stand);
        ``every_stone_counts``: the rules count the board as it stands at two passes
        (Tromp-Taylor, CGOS; :func:`pick_move`). In a handicap game the search counts the
        ``dynamic_komi`` setting's extra komi (:mod:`.dynkomi`)."""
        extra = extra_komi(board, handicap, board.to_move) \
            if self.search.settings["dynamic_komi"] else 0
        if extra:
            board = board.copy()
            board.komi += extra
            if self.verbose:
                log(f"dynamic komi: White's komi {board.komi:.1f} in the search (+{extra:.1f})")
        result = self.think(board, received_at, on_progress, interval)
        if self.resigns(board, should_resign(board, result, self.resign, handicap) and not cleanup):
            return None
        return pick_move(board, result, cleanup=cleanup,
                         pass_holds=lambda position: self.pass_holds(position, result,
                                                                     received_at),
                         position_verdict=self.position_verdict,
                         every_stone_counts=every_stone_counts,
                         without_pass=lambda position: self.search_without_pass(
                             position, result, received_at))

    def ponder(self, board, stop):
        """Search ``board`` (the position after our move, the opponent to move) until
        ``stop`` is set, on the main search, so that the next move's search reuses the tree
        when the opponent's move is in it. Stops early when the trees fill so far that the
        search would no longer keep them (:data:`PONDER_FULL`: on 19x19 with the default
        memory, after a few seconds; more ``max_memory_mb`` ponders longer). Returns the
        result; None, without searching, under a preset that does not keep trees
        (``thesis``) or when the trees are that full already (fuller ones start afresh, and
        are pondered on)."""
        search = self.search

        def check(_result):
            if search.fullest() > PONDER_FULL:
                stop.set()

        if not search.keeps_trees() or PONDER_FULL < search.fullest() <= REUSE_LIMIT:
            return None
        result = self.search.run(board, stop=stop, on_progress=check,
                                 progress_interval=PONDER_CHECK, early_stop=False)
        if self.verbose:
            log(f"pondered {result.simulations} simulations in {result.seconds:.2f}s")
        return result

    def analysis(self, board, stop, on_progress=None, interval=None, move_filter=None):
        """A search of ``board`` with the advice until ``stop`` is set (``lz-analyze``,
        ``kata-analyze``), as a function to run in a thread: no limits, no early stop,
        ``on_progress(result)`` every ``interval`` seconds (none for 0 or None), the moves
        ``move_filter`` leaves. The advice is taken now, before the function returns."""
        bonus, self.last_labels = self.advice(board)

        def run():
            return self.search.run(board, stop=stop, on_progress=on_progress, root_bonus=bonus,
                                   progress_interval=interval if interval and interval > 0
                                   else None, early_stop=False, move_filter=move_filter)
        return run

    # ------------------------------------------------------------------ settings
    def setting(self, name, board):
        """The named search setting ``name`` as a search of ``board`` uses it (the model
        prior's settings where the model gives one on this board; no prior where it
        gives none; the policy net's where its net for this size was measured with its own)."""
        s = self.search
        if name in ("model_prior", "model_depth", "model_prior_shape"):
            if name == "model_prior" and not s.uses_model_prior(board):
                return 0.0
            return s.model_setting(board, name)
        if name in NET_SETTINGS:
            return s.net_setting(s.policy_net_of(board)[0], name)
        return s.settings[name]

    def resigns(self, board, lost):
        """Resign only when the search found the game lost (``lost``) at this move and at the
        ``RESIGN_STREAK - 1`` own moves before it: a misjudged fight rarely looks lost three
        times in a row. Keyed by move number, so asking twice (reg_genmove) counts once."""
        number = len(board.moves)
        if not lost:
            self._lost_at.discard(number)
            return False
        self._lost_at.add(number)
        return all(number - 2 * k in self._lost_at for k in range(RESIGN_STREAK))

    def position_verdict(self, board):
        """The chains' statuses in ``board`` as it stands, by playouts from it (as
        ``final_status_list`` judges them), not by the search's ownership, which is the one
        after the search's own move."""
        return estimate(board, seed=self.seed, threads=self.search.threads)

    def pass_holds(self, board, result, received_at=None):
        """Search the position after ``board.to_move`` passes: True when the opponent's best
        there still loses (it has no vital point or invasion that turns the game).

        The check gets a share of the move's simulations (``result``), within the time this
        move has left; with too little time left there is no check, and so no such pass. It
        runs on a search of its own, made from the main search's settings and seed, so the
        main tree is kept."""
        seconds = self.limits(board, board.to_move, received_at).seconds
        if seconds is not None and seconds < PASS_CHECK_MIN_SECONDS:
            return False
        playouts = max(PASS_CHECK_MIN_PLAYOUTS, int(result.simulations * PASS_CHECK_SHARE))
        after = board.copy()
        after.pass_move()
        reply = self.pass_search.run(after, playouts=playouts, seconds=seconds)
        return reply.simulations >= PASS_CHECK_MIN_PLAYOUTS and reply.winrate < PASS_CHECK_HOPELESS

    def search_without_pass(self, board, result, received_at=None):
        """A search of ``board`` that may not pass at the root, for when the main search
        chose a pass that passing would lose: where the playouts rate a pass highly (often a
        position where whoever moves first must spoil a seki or a shared fight), the tree
        gave it most of the simulations and left the real moves thinly searched. This one
        gets the main search's simulations, within the time the move has left; with too
        little left, the main search's result stands."""
        seconds = self.limits(board, board.to_move, received_at).seconds
        if seconds is not None and seconds < PASS_CHECK_MIN_SECONDS:
            return result
        no_pass = MoveFilter.parse(["avoid", "b" if board.to_move == BLACK else "w", "pass", "1"],
                                   board.size)
        return self.search.run(board, playouts=max(result.simulations, 1), seconds=seconds,
                               move_filter=no_pass, early_stop=False)

    @property
    def pass_search(self):
        """The search of the pass check: the main search's settings and seed, the check's
        share of its memory (it runs that share of the simulations), and none of its
        priors from models (the check reads the playouts' verdict on a pass)."""
        if self._pass_search is None:
            self._pass_search = self.search.copy(
                max_memory_mb=self.search.max_memory_mb * PASS_CHECK_SHARE, model=None,
                ownership_prior=None, evaluator_prior=None, policy_prior=None)
        return self._pass_search


def pick_move(board, result, cleanup=False, pass_holds=None, position_verdict=None,
              every_stone_counts=False, without_pass=None):
    """The move to answer: the search's choice, except that

    * when the opponent has just passed and passing now wins (counting the dead stones as the
      playouts see them, and they are settled; or, under area scoring, counting every stone
      alive but, unless ``every_stone_counts`` (Tromp-Taylor and CGOS rules), our own dead
      ones), pass and end the game; but under area scoring, while an empty region touches
      both colours and the search plays a move, that move comes first, since each dame is a
      point (Fuego's ``uct_pass_basics.tst`` 10 and 20: with its dead stone off, black wins
      by half a point after a pass and by more after A1).
      The count is the board's, area or
      territory (:attr:`Board.scoring`). Under territory scoring, where the last points
      decide close games, the dead stones are those of ``position_verdict(board)`` (the
      position as it stands) when it is given;
    * when the search's move lands in territory already decided (its own, to fill in, or the
      opponent's, where it dies), with every stone settled, no dame and (under area
      scoring) no dead opponent stone left, passing wins, and ``pass_holds(board)`` confirms
      that the opponent cannot turn the game after a pass: pass. Under territory rules, as
      on KGS, such a move costs a point; under area rules it changes nothing. (The search's
      ownership alone cannot tell: it is the ownership after the search's own move, which
      may be the vital one.) Under territory scoring, when such a move is all that is left
      and the game is lost (win rate below ``LOST_WINRATE``), pass too: it would only lose
      a point more;
    * never pass when passing would lose on the board as it stands, if there is another move:
      the best of ``without_pass(board)``'s search, when it is given, since a search that
      chose the pass searched the other moves thinly;
    * ``cleanup`` (kgs-genmove_cleanup): no pass while dead opponent stones are on the board,
      and among the moves within ``CLEANUP_MARGIN`` of the best win rate, one that takes a
      liberty of a dead opponent chain (when every move wins, the search alone does not go
      after them).

    The chains are judged (from the search's ownership) only when a pass is in question.
    The search's choice is first :func:`won_choice`'s.
    """
    color = board.to_move
    sign = 1 if color == BLACK else -1
    best = won_choice(result)
    opponent_passed = board.history[-1:] == [Move(3 - color, PASS)]
    owner = mean_ownership(result.owner_sum, result.simulations, board.size)
    into_territory = best != PASS and abs(owner[coords.row_col(best, board.size)]) > SETTLED
    if not (cleanup or opponent_passed or best == PASS or into_territory):
        return best
    verdict = judge(board, owner)
    win_if_pass = sign * score_without(board, verdict.dead) > 0
    dead_opponent = any(board.color_at(p) == 3 - color for p in verdict.dead)
    if cleanup:
        if dead_opponent:
            return cleanup_move(board, result, verdict.dead) or best_non_pass(result, best)
        return best
    # Under area scoring each dame is a point: while one is left, the search's move comes
    # before a pass.
    fill_first = opponent_passed and board.scoring == AREA and best != PASS \
        and border_left(board, verdict)
    if opponent_passed and board.scoring == TERRITORY and position_verdict is not None:
        # The search's ownership is the one after its own move, which may be the very point
        # the count turns on (Fuego's cleanup_japanese_rules.tst 160): judge the board as is.
        now = position_verdict(board)
        if sign * score_without(board, now.dead) > 0 and is_settled(board, now):
            return PASS
    elif opponent_passed and win_if_pass and is_settled(board, verdict) and not fill_first:
        return PASS
    if opponent_passed and board.scoring == AREA and sign * board.score() > 0:
        if every_stone_counts:
            return PASS     # wins counting every stone alive, as Tromp-Taylor (CGOS) counts
        # Elsewhere the dead stones come off: ours count against us (the opponent's, left
        # alive, only make the count safer).
        ours_dead = [p for p in verdict.dead if board.color_at(p) == color]
        if sign * score_without(board, ours_dead) > 0 and not fill_first:
            return PASS
    # Under territory scoring dead stones stay on the board to the count (a dispute goes to
    # kgs-genmove_cleanup), and taking them inside one's own territory costs a point a move.
    territory = board.scoring == TERRITORY
    nothing_left = not dame_left(board, verdict) and is_settled(board, verdict)
    if into_territory and (territory or not dead_opponent) and nothing_left \
            and win_if_pass and pass_holds is not None and pass_holds(board):
        return PASS
    if territory and (into_territory or best == PASS) and not win_if_pass \
            and result.winrate < LOST_WINRATE and nothing_left:
        return PASS     # lost, and each stone placed would only lose a point more
    if best == PASS and not win_if_pass:
        fallback = spare_eye(board) if board.scoring == AREA else None
        if without_pass is not None and best_non_pass(result, None) is not None:
            result = without_pass(board)
        return best_non_pass(result, PASS if fallback is None else fallback)
    return best


def won_choice(result):
    """The search's move, except in a won game: there, among the moves within
    ``WON_MARGIN`` of the best win rate (at least ``WON_WINRATE``) with at least ``WON_SHARE``
    of the top visits, the one with the most prior wins (the tree's opinion before it
    searched: the move model's, trained on games played under territory rules). Once every
    move wins, the playouts, which count area, cannot tell a needed move from a wasted point
    in one's own territory, and the visits go where the noise sent them (Fuego's
    ``cleanup_japanese_rules.tst``, test 180: G6 rather than a move inside the territory)."""
    best = next((m for m in result.moves if m.move == result.best_move and m.visits), None)
    if best is None or best.winrate < WON_WINRATE:
        return result.best_move
    top = max(m.visits for m in result.moves)
    peers = [m for m in result.moves if m.visits >= WON_SHARE * top
             and m.winrate >= best.winrate - WON_MARGIN]
    return max(peers, key=lambda m: (m.prior_wins, m.visits)).move


def cleanup_move(board, result, dead):
    """A move that takes a liberty of a dead opponent chain: the most visited one within
    ``CLEANUP_MARGIN`` of the best win rate; else, when the game is won anyway (best win rate
    at least ``CLEANUP_WON``; a won search often puts every visit on one move), the legal
    liberty, not a self-atari, of the dead chain with the fewest liberties. None if none."""
    color = board.to_move
    w = board.size + 2
    targets = {}                            # liberty -> fewest liberties of a dead chain it takes
    for p in dead:
        if board.color_at(p) != 3 - color:
            continue
        libs = int(board.pts[K.LIBS, board.pts[K.HEAD, p]])
        for q in (p - 1, p + 1, p - w, p + w):
            if board.pts[K.COLOR, q] == EMPTY:     # a stone on the edge has border neighbours
                targets[q] = min(libs, targets.get(q, libs))
    visited = [m for m in result.moves if m.visits > 0]
    if not visited or not targets:
        return None
    top = max(m.winrate for m in visited)
    for m in visited:                       # the moves come most visited first
        if m.move in targets and m.winrate >= top - CLEANUP_MARGIN:
            return m.move
    if top < CLEANUP_WON:
        return None
    playable = [q for q in sorted(targets, key=lambda q: (targets[q], q))
                if board.legality(q) is None and not is_self_atari(board.pts, w, q, color)]
    return playable[0] if playable else None


def spare_eye(board):
    """A true eye of the side to move that it can fill and keep every chain around it with
    two other true eyes, or None. When passing loses and the search found nothing else (it
    does not look at filling one's own eyes), such a move costs nothing under area scoring
    and keeps the game going (Fuego's ``final_moves.tst`` 20)."""
    color = board.to_move
    w = board.size + 2
    pts = board.pts
    eyes = [p for p in coords.all_points(board.size)
            if pts[K.COLOR, p] == EMPTY and is_true_eye(pts, w, p, color)]

    def eyes_of(head):
        return {e for e in eyes if any(pts[K.COLOR, q] == color and pts[K.HEAD, q] == head
                                       for q in (e - 1, e + 1, e - w, e + w))}

    for p in eyes:
        heads = {int(pts[K.HEAD, q]) for q in (p - 1, p + 1, p - w, p + w)
                 if pts[K.COLOR, q] == color}
        if all(len(eyes_of(h) - {p}) >= 2 for h in heads) and board.is_legal(p):
            return p
    return None


def best_non_pass(result, fallback):
    """The most visited move that is not a pass (``fallback`` when there is none)."""
    for m in result.moves:
        if m.move != PASS and m.visits > 0:
            return m.move
    return fallback


def should_resign(board, result, threshold, handicap=0):
    """Resign when the best move's win rate is below ``threshold`` after a real search, not in
    the opening, and (handicap games) not before half the board is played."""
    if threshold <= 0 or result.root_visits < RESIGN_MIN_VISITS:
        return False
    played = len(board.moves)
    area = board.size * board.size
    if played < area // 4:
        return False
    if handicap and played < area * HANDICAP_NO_RESIGN:
        return False
    return result.winrate < threshold
