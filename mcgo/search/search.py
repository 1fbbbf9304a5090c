"""The Python face of the search: limits, threads, tree reuse, results.

>>> import mcgo
>>> from mcgo.search import Search
>>> board = mcgo.Board(9, komi=7.0)
>>> result = Search(preset="strong", seed=1).run(board, playouts=300)
>>> result.simulations >= 300, result.best_move != mcgo.Board.PASS
(True, True)

Threads run in one of two ways (Numba kernels release the GIL, so they really run at once):

* ``parallel="tree"``: all threads grow one tree, lock-free, with a virtual loss on the
  lines being played out (see :mod:`.kernels`);
* ``parallel="root"``: each thread grows its own tree from the same position with its own
  random stream, and the root statistics are summed when the search stops.

>>> Search(threads=2, parallel="tree", seed=1).run(board, playouts=300).simulations >= 300
True

The case-base bonus: ``run(..., root_bonus=array)`` takes a float per internal point index
(0 where no bonus); it is added to a root child's value in selection and in the final
choice, as the thesis does (eq. 8.1 plus bonus).
"""

import threading
import time

import numpy as np

from .. import options
from ..board.board import TERRITORY
from ..board import symmetry
from ..board.history import Move
from ..board.kernels import NFIELDS, NINFO, PASS, PASSES
from ..config import SearchConfig
from ..playout import policy_id, shape_table, thread_seed
from ..models.movemodel import model_tables
from ..playout.common import MOVE_CAP_FACTOR, seed_rng
from ..playout.dispatch import new_work
from . import kernels, netprior
from .presets import (P_MODEL_DEPTH, P_MODEL_PRIOR, P_MODEL_SHAPE, P_RAVE_EQUIV, P_TERRITORY,
                      parameter_vector, settings)
from .control import Control
from .priors import MODEL_PRIOR_VISITS
from .results import SearchResult, root_move_stats
from .tree import BLOCKED, BONUS, MOVE, PRIOR_VISITS, PRIOR_WINS, VISITS, WINS, Tree, capacity_for

DEFAULT_MEMORY_MB = options.DEFAULT_MEMORY_MB
REUSE_LIMIT = 0.5           # start afresh when the kept tree fills more than this of the pool
MAX_DEPTH = 512             # path array length (the tree never gets near it)
# The opening_rave_equiv setting's reach. On 19x19 the AMAF values of opening moves are alike
# within noise and, weighed as rave_equiv=1000 weighs them, outvote the move model's prior: the
# more simulations, the further the moves stray from the professionals' (benchmarks/journal/,
# "the opening curve"). rave_equiv=50 throughout keeps the opening but loses the fights (1-6);
# 50 for the first 30 moves only (the strong preset's default) won 16-7 at 10,000 simulations.
OPENING_RAVE_MOVES = 30
OPENING_RAVE_MIN_SIZE = 19


# model_tables(model): the arrays the tree kernels read of a learned move model for their
# priors (placeholders for None); new_work(size): the thread's playout work arrays (scratch
# rows, the ladder space).


def game_seed(seed, games):
    """The seed of the search in a session's game after ``games`` searched games (the first
    game keeps ``seed``)."""
    return options.derive_seed(seed, "game", games)


class Worker:
    """One thread's work arrays, and the tree and region of it where the thread allocates."""

    def __init__(self, size, tree, region, seed, model=None):
        w = size + 2
        self.model = model_tables(None if model is None else model.for_size(size))
        self.tree = tree
        self.state = tree.state[region]
        self.pts = np.zeros((NFIELDS, w * w), dtype=np.int32)
        self.info = np.zeros(NINFO, dtype=np.int64)
        self.work = new_work(size)
        self.owner = np.zeros(w * w, dtype=np.int8)
        self.record = np.zeros(MOVE_CAP_FACTOR * size * size + 1, dtype=np.int32)
        self.amaf = np.zeros(w * w, dtype=np.int8)
        self.path = np.zeros(MAX_DEPTH, dtype=np.int32)
        self.owner_sum = np.zeros(w * w, dtype=np.int32)
        self.rng = seed_rng(options.normalize_seed(seed))
        self.simulations = 0
        self.moves = 0

    def run(self, params, board, n, forbid):
        t = self.tree
        moves = kernels.run_simulations(t.ints, t.floats, self.state, params, board.pts,
                                        board.root_info,
                                        board.zob, shape_table(), self.pts, self.info,
                                        self.work, self.owner, self.record, self.amaf,
                                        self.path, self.rng, self.owner_sum, n, self.model,
                                        forbid)
        self.simulations += n
        self.moves += moves


class Search:
    """A UCT searcher for one engine: keeps its trees between moves (``strong``).

    Built from a :class:`mcgo.config.SearchConfig`, or from its fields
    (``Search(seed=1, policy="pattern", rave=0)``: a named setting by its name).
    :meth:`copy` is the one way to get another search like it."""

    def __init__(self, config=None, **fields):
        self.config = SearchConfig.of(config, **fields)
        self.games = 0              # games searched since the seed was set (see new_game)
        self.workers = None
        self._key = None            # (size, komi, scoring, move filter) the trees were grown for
        self._root_history = None   # the game's history (moves, set-ups) up to the trees' roots
        self._root_to_move = None   # and the side to move there
        self.last_result = None
        self.last_board = None
        self._prior_roots = set()
        self._policy_nodes = {}     # tree index: the nodes whose children have the net's prior
        self._net_values = {}       # tree index: {node: the value net's (visits, wins, score)}
        # The moves the next searches may not try (:class:`~.movefilter.MoveFilter`, the
        # GUIs' allow and avoid), or None; the trees are grown anew when it changes.
        self.move_filter = None
        self._configured()

    def _configured(self):
        """Read :attr:`config` into the values the search uses."""
        config = self.config
        self.settings = settings(config.preset)
        self.settings.update(config.settings)
        self.overrides = dict(config.settings)
        self.policy_number = policy_id(config.policy)

    def copy(self, **changes):
        """A new search (no trees) of this one's configuration with ``changes``
        (:meth:`mcgo.config.SearchConfig.replace`)."""
        return Search(self.config.replace(**changes))

    def reconfigure(self, **changes):
        """Search with ``changes`` to the configuration from now on: named settings keep
        the trees, any other change starts new ones."""
        self.config = self.config.replace(**changes)
        self._configured()
        if set(changes) - {"settings"}:
            self.clear()

    preset = property(lambda self: self.config.preset)
    policy = property(lambda self: self.config.policy)
    threads = property(lambda self: self.config.threads)
    parallel = property(lambda self: self.config.parallel)
    seed = property(lambda self: self.config.seed)
    max_memory_mb = property(lambda self: self.config.max_memory_mb)
    # A mcgo.models.movemodel.MoveModel for the tree's priors, or None.
    model = property(lambda self: self.config.model)
    # Seed 003's 1-ply ranker as a prior of the root's children: (OwnershipModel, virtual
    # visits, or a dict of them by board size), or None; seed 002's ECFG outcome evaluator
    # of the position after each root move, the same way: (OutcomeModel, visits), or None.
    # The policy net (mcgo.models.policy_net) the same way: (PolicyNet, visits), or None.
    # Given once per root node (a reused root keeps it).
    ownership_prior = property(lambda self: self.config.ownership_prior)
    evaluator_prior = property(lambda self: self.config.evaluator_prior)
    policy_prior = property(lambda self: self.config.policy_prior)

    # ------------------------------------------------------------------ trees
    def set_seed(self, seed):
        self.config = self.config.replace(seed=seed)
        self.games = 0
        self.workers = None

    def new_game(self):
        """Forget the trees for a new game. A game after one that was searched gets the seed
        :func:`game_seed` ``(seed, games)``: the games of a match between deterministic
        settings (fixed simulations) differ, and a session's games are still reproducible."""
        if self.workers is not None:
            self.games += 1
        self.workers = None
        self.last_result = self.last_board = None

    def clear(self):
        """Forget the trees (new game, new seed) and the last search's result."""
        self.workers = None
        self.last_result = self.last_board = None

    @property
    def shared_tree(self):
        return self.parallel == "tree" and self.threads > 1

    @property
    def trees(self):
        """The distinct trees (one when the threads share it)."""
        if not self.workers:
            return []
        return [self.workers[0].tree] if self.shared_tree else [w.tree for w in self.workers]

    def _make_workers(self, size):
        seeds = [thread_seed(game_seed(self.seed, self.games), i) for i in range(self.threads)]
        if self.shared_tree:
            tree = Tree(capacity_for(self.max_memory_mb), regions=self.threads)
            return [Worker(size, tree, i, seeds[i], self.model) for i in range(self.threads)]
        capacity = capacity_for(self.max_memory_mb / self.threads)
        return [Worker(size, Tree(capacity), 0, seeds[i], self.model) for i in range(self.threads)]

    def _prepare(self, board, move_filter=None):
        key = (board.counting(), move_filter)
        if self.workers is None or self._key != key:
            self.workers = self._make_workers(board.size)
            self._key = key
            self._root_history = None
        reused = False
        if self.settings["reuse_tree"] and self._root_history is not None:
            reused = all(self._descend(t, board) for t in self.trees)
        if not reused:
            for t in self.trees:
                t.reset()
            self._prior_roots.clear()   # node numbers start again
            self._policy_nodes.clear()
            self._net_values.clear()
        self._root_history = list(board.history)
        self._root_to_move = board.to_move
        return reused

    def _descend(self, tree, board):
        """Move the root down the moves played since the last search; False to start afresh.

        The tree's moves alternate colours from the old root's side to move, so the game's
        moves must too, and the new side to move must be the one the tree expects (GTP lets
        either colour move at any time: a child played by the wrong colour could be illegal).
        A set-up since the last search is no move of the tree: it starts afresh."""
        old = self._root_history
        history = board.history
        if len(history) < len(old) or history[:len(old)] != old:
            return False
        if tree.fullest > REUSE_LIMIT:
            return False
        node = tree.root
        expected = self._root_to_move
        for entry in history[len(old):]:
            if not isinstance(entry, Move) or entry.color != expected:
                return False
            node = tree.child_with_move(node, entry.point)
            if node < 0:
                return False
            expected = 3 - expected
        if board.to_move != expected:
            return False
        tree.set_root(node)
        return True

    def _prepare_root(self, board, params, bonus, forbid):
        """Expand each root, hide moves the real game forbids, set the bonus."""
        for t, w in zip(self.trees, self.workers):
            kernels.expand_root(t.ints, t.floats, w.state, params, board.pts, board.root_info,
                                w.pts, w.info, board.zob, shape_table(), w.work, w.rng, w.model,
                                forbid)
            for c in t.children(t.root):
                move = int(t.ints[MOVE, c])
                t.ints[BLOCKED, c] = move != PASS and board.legality(move) is not None
                t.floats[BONUS, c] = bonus[move] if bonus is not None else 0.0
            if params[P_MODEL_PRIOR] != 0.0 and params[P_MODEL_DEPTH] > 0:
                # A kept tree's nodes now near the root may have been expanded too deep for
                # the model's prior under the old root.
                stack = np.empty(t.used + 1, dtype=np.int64)
                stack[0] = t.root
                kernels.complete_model_priors(
                    t.ints, t.floats, params, board.pts, board.root_info, board.zob, w.pts,
                    w.info, w.model, w.work[1], stack,
                    np.empty(int(params[P_MODEL_DEPTH]) + 1, np.int64),
                    np.empty(board.pts.shape[1] + 1))
        self._add_root_priors(board)
        self._prune_symmetric(board)

    def _prune_symmetric(self, board):
        """In a position that a symmetry of the board maps onto itself (the empty board, a
        first stone on a diagonal or the centre line), moves that it maps onto each other are
        one move. The root searches one of each such set and hides the others, as Pachi does
        in symmetric openings: the simulations are not split up to eight ways among moves of
        one value, and the move played is the one the priors (and the visits, on a kept
        tree) like best, which in the opening is the professionals' custom (the first stone
        in the upper right corner). Only the root: the positions below it are rarely
        symmetric."""
        kept = symmetry.position_symmetries(board)
        if len(kept) < 2:
            return
        worth = {}                              # move: prior and real wins over the trees
        for t in self.trees:
            for c in t.children(t.root):
                if not t.ints[BLOCKED, c]:
                    move = int(t.ints[MOVE, c])
                    worth[move] = worth.get(move, 0.0) + t.floats[PRIOR_WINS, c] + t.floats[WINS, c]
        chosen = {}                             # the least image of a move: the set's pick
        for move in sorted(worth):
            key = min(symmetry.equivalent_points(board, move, kept))
            if key not in chosen or worth[move] > worth[chosen[key]]:
                chosen[key] = move
        keep = set(chosen.values())
        for t in self.trees:
            for c in t.children(t.root):
                if int(t.ints[MOVE, c]) not in keep:
                    t.ints[BLOCKED, c] = 1

    def _add_root_priors(self, board):
        """The root evaluators' priors (:attr:`ownership_prior`, :attr:`evaluator_prior`,
        :attr:`policy_prior`), once per root position (a reused root keeps them): each gives
        every root child ``visits`` virtual visits and ``visits * r`` virtual wins, ``r`` in
        0..1 its value of the move. The policy net's is given once per node
        (:mod:`.netprior`), so a root that had it as a node below the old root keeps it."""
        net, visits = self.policy_net_of(board)
        if net is not None:
            ratio = None
            for i, t in enumerate(self.trees):
                given = self._policy_nodes.setdefault(i, set())
                if t.root not in given:
                    if ratio is None:
                        ratio = netprior.ratios(net, board.pts, board.root_info)
                        if ratio is None:
                            break
                    given.add(t.root)
                    netprior.give(t, t.root, ratio, visits)
        priors = []                             # (ratios, model, virtual visits)
        for ratios, source in ((self._ownership_ratios, self.ownership_prior),
                               (self._evaluator_ratios, self.evaluator_prior)):
            visits = 0.0 if source is None else options.for_size(source[1], board.size)
            if visits:
                priors.append((ratios, source[0], visits))
        roots = [(i, t.root) for i, t in enumerate(self.trees)]
        if all(root in self._prior_roots for root in roots):
            return
        if not priors:
            return
        self._prior_roots.update(roots)
        for ratios, model, visits in priors:
            prior = ratios(model, board)
            for t in self.trees:
                for c in t.children(t.root):
                    p = prior.get(int(t.ints[MOVE, c]))
                    if p is not None:
                        t.floats[PRIOR_VISITS, c] += visits
                        t.floats[PRIOR_WINS, c] += visits * p

    @staticmethod
    def _ownership_ratios(model, board):
        """``exp((E - E_best) / T)`` per move, ``E`` the mover's expected area after the move
        by seed 003's network and ``T`` its fitted temperature (the move model's prior form,
        :mod:`.priors`)."""
        moves, areas = model.move_areas(board.pts, board.root_info, board.to_move)
        ratio = np.exp((areas - areas.max()) / model.temperature)
        return dict(zip(moves.tolist(), ratio.tolist()))

    def fullest(self):
        """How full the fullest of the search's trees is (0-1; 0 before any search)."""
        return max((t.fullest for t in self.trees), default=0.0)

    def keeps_trees(self):
        """Whether the next search of a following position starts from this one's tree."""
        return bool(self.settings["reuse_tree"])

    def simulations_done(self):
        """The simulations of the search under way (or the last one), all threads together."""
        return sum(w.simulations for w in self.workers or ())

    def policy_net_of(self, board):
        """``(net, virtual visits)`` of the policy net's prior on ``board``'s size, or
        ``(None, 0)``."""
        source = self.policy_prior
        visits = 0.0 if source is None else options.for_size(source[1], board.size)
        net = None if source is None else source[0].for_size(board.size)
        if not visits or net.size != board.size:
            return None, 0.0
        return net, visits

    @staticmethod
    def _evaluator_ratios(model, board):
        """The mover's chance to win after each legal move by seed 002's evaluator: the
        logistic function of its SVM decision for the opponent, negated."""
        out = {}
        for move in board.legal_moves():
            after = board.copy()
            after.play(move)
            out[move] = 1.0 / (1.0 + np.exp(model.decision(after, after.to_move)))
        return out

    # ------------------------------------------------------------------ search
    def uses_model_prior(self, board):
        """True when the learned model gives the tree's priors on this board's size (a
        model of ``--model auto`` only on the sizes where it was measured to help)."""
        sizes = self.config.model_sizes
        return self.model is not None and (sizes is None or board.size in sizes)

    def net_setting(self, net, name):
        """A setting of the policy net's prior (``policy_net_after``, ``value_prior``): a
        ``--set`` value, else the one chosen for the net's board size (the shipped 9x9 net's,
        :attr:`SearchConfig.size_settings`), else the preset's."""
        if net is None:
            return self.settings[name]          # the preset's, with the --set values in it
        return self.config.size_setting(net.size, name, self.settings[name])

    def _value(self, board, net):
        """``(value net, virtual visits)`` of the value of the nodes the policy net ``net``
        gives its prior to below the root (:func:`.netprior.value_net`)."""
        value_net = netprior.value_net(self.config.value_net, board.size, net)
        visits = float(self.net_setting(net, "value_prior")) if value_net is not None else 0.0
        return value_net, visits

    def model_setting(self, board, name):
        """The value of a setting of the model's prior (``model_prior``, ``model_depth``,
        ``model_prior_shape``) that a search of ``board`` uses: a ``--set`` value, else the
        one ``--model auto`` measured for this size (:attr:`SearchConfig.size_settings`), else
        the preset's."""
        default = MODEL_PRIOR_VISITS if name == "model_prior" else self.settings[name]
        return self.config.size_setting(board.size, name, default)

    def model_depth(self, board):
        """The ``model_depth`` a search of ``board`` uses (:meth:`model_setting`)."""
        return self.model_setting(board, "model_depth")

    def run(self, board, playouts=None, seconds=None, root_bonus=None, stop=None,
            on_progress=None, progress_interval=None, early_stop=True, move_filter=None,
            desired=None, visits=None):
        """Search ``board``'s position for the side to move until ``playouts`` simulations
        (all threads together), ``seconds`` of wall time, or ``stop`` (a threading.Event) is
        set. With neither limit it runs until ``stop``. ``on_progress(result)`` is called
        every ``progress_interval`` seconds. ``move_filter``: moves not to try (default
        :attr:`move_filter`). Returns a :class:`SearchResult`.

        ``desired`` (seconds, at most ``seconds``): a clock's plan (Pachi's desired and
        worst time): past ``desired`` the search goes on only while its best move is unsure
        (:meth:`.control.Control.unsure`), up to ``seconds``. ``early_stop``: with a time limit,
        stop as soon as the most visited move cannot be overtaken in the time left.
        ``visits``: a limit on the root's visits, a kept tree's included (KataGo's
        ``maxVisits``): the simulations are what it leaves, at least one."""
        if playouts is None and seconds is None and stop is None and visits is None:
            raise ValueError("a search needs playouts, visits, seconds or a stop event")
        # The time limit counts the root's preparation too: the root priors (seed 003's
        # 1-ply ranker takes about 0.25 s on 19x19) are part of the move's time, not extra.
        called = time.perf_counter()
        # Under territory scoring the stones placed so far count as they would in the tree.
        params = parameter_vector(self.preset, board.komi + board.scoring_offset(),
                                  self.policy_number, shared_tree=self.shared_tree,
                                  **self.overrides)
        params[P_TERRITORY] = 1.0 if board.scoring == TERRITORY else 0.0
        opening_equiv = self.settings["opening_rave_equiv"]
        if opening_equiv > 0 and board.size >= OPENING_RAVE_MIN_SIZE \
                and len(board.moves) < OPENING_RAVE_MOVES:
            params[P_RAVE_EQUIV] = opening_equiv
        if not self.uses_model_prior(board):
            params[P_MODEL_PRIOR] = 0.0
        else:
            params[P_MODEL_PRIOR] = self.model_setting(board, "model_prior")
            params[P_MODEL_DEPTH] = self.model_setting(board, "model_depth")
            params[P_MODEL_SHAPE] = self.model_setting(board, "model_prior_shape")
        if root_bonus is not None:
            root_bonus = np.asarray(root_bonus, dtype=np.float64)
            if root_bonus.shape != (board.pts.shape[1],):
                raise ValueError(f"root_bonus must have {board.pts.shape[1]} entries")
        board = board.copy()
        # The game goes on at the root even after two passes (GTP may ask for a move then):
        # the search sees at most one pass, so that passing again ends its games.
        board.root_info = board.info.copy()
        board.root_info[PASSES] = min(int(board.info[PASSES]), 1)
        move_filter = move_filter or self.move_filter or None
        forbid = move_filter.forbid_array() if move_filter is not None \
            else np.zeros((3, board.pts.shape[1]), dtype=np.int32)
        self._prepare(board, move_filter)
        self._prepare_root(board, params, root_bonus, forbid)
        if visits is not None:
            kept = sum(float(t.floats[VISITS, t.root]) for t in self.trees)
            left = max(1, int(visits - kept))
            playouts = left if playouts is None else min(playouts, left)
        start = time.perf_counter()
        cpu_start = time.thread_time() if self.threads == 1 else time.process_time()
        for w in self.workers:
            w.simulations = w.moves = 0
            w.owner_sum[:] = 0
        control = Control(self.simulations_done, lambda: self.root_stats(board), self.threads,
                          self.settings["final_by"] == "visits", playouts, seconds, stop, start,
                          early_stop, called=called, desired=desired)
        if self.threads == 1:
            self._work(0, params, board, forbid, control, on_progress, progress_interval)
        else:
            threads = [threading.Thread(target=self._work,
                                        args=(i, params, board, forbid, control, on_progress,
                                              progress_interval), daemon=True)
                       for i in range(self.threads)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        seconds_used = time.perf_counter() - start
        cpu = (time.thread_time() if self.threads == 1 else time.process_time()) - cpu_start
        result = self.result(board, seconds_used, cpu)
        result.stopped_early = control.stopped_early
        result.extended = control.extended
        self.last_result, self.last_board = result, board.copy()
        return result

    def _work(self, i, params, board, forbid, control, on_progress, progress_interval):
        worker = self.workers[i]
        next_report = time.perf_counter() + (progress_interval or 0)
        # The policy net below the root: each thread on its own tree, the first on a shared one.
        net, visits = self.policy_net_of(board)
        after = self.net_setting(net, "policy_net_after")
        value_net, value_visits = self._value(board, net)
        komi = board.komi + board.scoring_offset()
        below = net is not None and after > 0 and (i == 0 or not self.shared_tree)
        given = self._policy_nodes.setdefault(0 if self.shared_tree else i, set())
        valued = self._net_values.setdefault(0 if self.shared_tree else i, {})
        batches = 0
        try:
            while not control.done():
                worker.run(params, board, control.batch(), forbid)
                batches += 1
                if below and batches % netprior.SCAN_BATCHES == 0:
                    netprior.give_below(worker.tree, given, net, visits, after, board.pts,
                                        board.root_info, board.zob, komi, value_visits,
                                        value_net, valued)
                if i == 0:
                    control.check_stop()
                    if on_progress is not None and progress_interval is not None \
                            and time.perf_counter() >= next_report:
                        next_report = time.perf_counter() + progress_interval
                        on_progress(self.result(board, time.perf_counter() - control.start, 0.0))
        finally:
            control.finished = True

    # ----------------------------------------------------------------- results
    def net_values(self, i):
        """``{node: (visits, visits * win, visits * Black's margin)}``: the value net's
        judgement of the nodes of tree ``i`` it valued, as the search mixes it in
        (:func:`.netprior.give_below`; empty without a value net)."""
        return self._net_values.get(0 if self.shared_tree else i, {})

    def root_stats(self, board):
        """The root moves' statistics summed over the threads, most visited first."""
        return root_move_stats(self.trees, self.net_values)

    def principal_variation(self, move, limit=20):
        """The most visited line after ``move``, from the tree that searched it most."""
        return self.principal_variation_visits(move, limit)[0]

    def principal_variation_visits(self, move, limit=20):
        """``(line, visits)``: :meth:`principal_variation` and each of its nodes' visits."""
        best_tree, best_node, best_visits = None, -1, -1.0
        for t in self.trees:
            c = t.child_with_move(t.root, move)
            if c >= 0 and t.floats[VISITS, c] > best_visits:
                best_tree, best_node, best_visits = t, c, t.floats[VISITS, c]
        pv, visits = [move], [max(0.0, best_visits)]
        node = best_node
        while best_tree is not None and len(pv) < limit:
            node = best_tree.best_child(node)
            if node < 0 or best_tree.floats[VISITS, node] < 1:
                break
            pv.append(int(best_tree.ints[MOVE, node]))
            visits.append(float(best_tree.floats[VISITS, node]))
        return pv, visits

    def result(self, board, seconds, cpu):
        moves = self.root_stats(board)
        sims = sum(w.simulations for w in self.workers)
        owner_sum = np.sum([w.owner_sum for w in self.workers], axis=0)
        root_visits = sum(float(t.floats[VISITS, t.root]) for t in self.trees)
        return SearchResult(self.choose(moves), moves, sims, sum(w.moves for w in self.workers),
                            seconds, cpu, root_visits, owner_sum)

    def choose(self, moves):
        """The move to play: highest win rate + bonus (thesis) or most visits (strong; with a
        bonus, the best win rate + bonus among moves with at least half the top visits).
        Before any simulation (no time left at all, on a loaded machine) it is the move with
        the most prior wins, the tree's opinion before it searched, and a pass only when there
        is no other move."""
        visited = [m for m in moves if m.visits > 0]
        if not visited:
            unsearched = [m for m in moves if m.move != PASS]
            if not unsearched:
                return PASS
            return max(unsearched, key=lambda m: (m.prior_wins, -m.move)).move
        if self.settings["final_by"] == "winrate":
            return max(visited, key=lambda m: (m.winrate + m.bonus, m.visits)).move
        top = max(m.visits for m in visited)
        if not any(m.bonus for m in visited):
            return max(visited, key=lambda m: (m.visits, m.winrate)).move
        contenders = [m for m in visited if m.visits >= top / 2]
        return max(contenders, key=lambda m: (m.winrate + m.bonus, m.visits)).move
