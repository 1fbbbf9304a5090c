"""``mcgo analysis``: KataGo's JSON analysis engine (KataGo's docs/Analysis_Engine.md), so
that programs written for it (KaTrain) run on mcgo.

One query a line on stdin, one answer a line on stdout (flushed), in the order the searches
finish. Each analysed turn of a query is a task; a pool of worker threads, each with its
own :class:`~mcgo.search.Search` (the kernels release the GIL), takes the task of highest
``priority`` first (earlier queries first among equals). The actions ``query_version``,
``clear_cache``, ``terminate`` and ``terminate_all`` are answered at once, by echoing the
query (KataGo's way). A query KataGo would refuse gets ``{"id", "error", "field"}`` and the
engine goes on; a line that is not JSON gets ``{"error"}`` without an id. At the end of
stdin the queued tasks are finished, then the engine exits.

With ``--level`` below full strength (:mod:`mcgo.engine.levels`): at a policy level each final
answer's first move (``order`` 0, the move KaTrain's default AI plays) is the level's choice,
valued by the search (by a search of the position after it where the main search did not
visit it); the other moves and the position's values are the full search's, and in the
endgame and after a pass the level passes where the search does, as ``mcgo gtp --level``
does. At a search level each position's search stops at the level's simulations.

>>> import io
>>> from mcgo.config import EngineConfig
>>> out = io.StringIO()
>>> engine = AnalysisEngine(EngineConfig.of(seed=1), workers=1, out=out)
>>> engine.serve(io.StringIO('{"id": "v", "action": "query_version"}\\n'))
>>> json.loads(out.getvalue())["action"], "version" in json.loads(out.getvalue())
('query_version', True)
"""

import heapq
import itertools
import json
import os
import sys
import threading
import time
from dataclasses import dataclass, field, replace

from .. import __version__, options
from ..board import BLACK, PASS
from ..engine.levels import LEVEL_SIMULATIONS, LevelPlayer, plays_policy
from ..gtp.analysis_text import kata_ownership, playout_score, reported_moves
from ..search.results import MoveStats
from ..search.search import Search
from . import analysis_query as protocol
from .analysis_query import QueryError

# query_version's "version": the KataGo release whose analysis protocol (its fields and
# actions) this engine follows; "git_hash" names mcgo's version.
KATAGO_PROTOCOL_VERSION = "1.15.3"
READY = "mcgo analysis engine: started, ready to begin handling requests"
MOVE_OWNERSHIP_MIN_PLAYOUTS = 16   # includeMovesOwnership: the least playouts after a move
MOVE_OWNERSHIP_MEMORY = 0.25       # ... and its search's share of the main search's memory
PARENT_CHECK = 0.5   # seconds between looks at whether the parent process is still there


def note(text):
    """A line on stderr (never with the word KaTrain takes for a failure, unless it is one)."""
    print(text, file=sys.stderr, flush=True)


@dataclass(eq=False)
class Task:
    """One turn of a query to search; ``rank`` orders the queue: priority (highest
    first), then arrival."""
    rank: tuple
    query: object
    turn: int
    board: object
    stop: threading.Event = field(default_factory=threading.Event)

    def __lt__(self, other):
        return self.rank < other.rank


class AnalysisEngine:
    """The analysis engine over an :class:`~mcgo.config.EngineConfig` (its search settings,
    model and threads per search), ``workers`` positions searched at once."""

    def __init__(self, config, workers=2, out=None, defaults=None, move_model=None):
        self.config = config
        self.workers = max(1, int(workers))
        self.out = out if out is not None else sys.stdout
        self.defaults = defaults or protocol.Defaults()
        self.move_model = move_model       # a MoveModel for policy and prior (None: shipped)
        self._write_lock = threading.Lock()
        self._model_lock = threading.Lock()  # the move model's scratch arrays are shared
        self._cond = threading.Condition()
        self._heap = []
        self._running = set()
        self._arrival = itertools.count()
        self._clear = [False] * self.workers
        self._closing = False
        self._threads = []
        self._after_searches = {}   # each worker's search of the positions after its moves

    # ------------------------------------------------------------------ output
    def write(self, obj):
        line = json.dumps(obj, separators=(",", ":"))
        with self._write_lock:
            self.out.write(line + "\n")
            self.out.flush()

    # ------------------------------------------------------------------ input
    def serve(self, lines, wait=True):
        """Answer every query of ``lines`` (stdin), then finish the queued ones (``wait``
        False: stop them, as KataGo's ``-quit-without-waiting``)."""
        self._start_workers()
        for line in lines:
            if line.strip():
                self.handle(line)
        if not wait:
            self.terminate()
        with self._cond:
            while self._heap or self._running:
                self._cond.wait()
            self._closing = True
            self._cond.notify_all()
        for t in self._threads:
            t.join()

    def handle(self, line):
        """One input line: an action, a query (queued), or an error answer."""
        try:
            obj = protocol.read_json(line)
        except QueryError as e:
            self.write({"error": e.message})
            return
        qid = obj.get("id")
        try:
            action = obj.get("action")
            if action is not None:
                self._action(action, obj)
                return
            query = protocol.query_of(obj, self.defaults)
        except QueryError as e:
            error = {"error": e.message}
            if e.field:
                error["field"] = e.field
            if isinstance(qid, str):
                error["id"] = qid
            self.write(error)
            return
        except Exception as e:  # noqa: BLE001 - one bad query never stops the engine
            self.write({"id": qid, "error": f"could not read the query: {e!r}"})
            return
        for name, message in query.warnings:
            self.write({"id": query.id, "warning": message, "field": name})
        with self._cond:
            for (turn, board), priority in zip(query.positions, query.priorities):
                heapq.heappush(self._heap, Task((-priority, next(self._arrival)), query, turn,
                                                board))
            self._cond.notify_all()

    def _action(self, action, obj):
        if not isinstance(obj.get("id"), str):
            raise QueryError("an action needs a string id", "id")
        if action == "query_version":
            self.write(dict(obj, version=KATAGO_PROTOCOL_VERSION,
                            git_hash=f"mcgo-{__version__}"))
        elif action == "clear_cache":
            with self._cond:
                self._clear = [True] * self.workers
            self.write(obj)
        elif action in ("terminate", "terminate_all"):
            target = None
            if action == "terminate":
                target = obj.get("terminateId")
                if not isinstance(target, str):
                    raise QueryError("terminate needs a string terminateId", "terminateId")
            turns = obj.get("turnNumbers")
            if turns is not None and not (isinstance(turns, list)
                                          and all(isinstance(t, int) for t in turns)):
                raise QueryError("must be a list of turn numbers", "turnNumbers")
            self.write(obj)
            self.terminate(target, turns)
        else:
            raise QueryError(f"unknown action {action!r}", "action")

    def terminate(self, query_id=None, turns=None):
        """Stop the tasks of ``query_id`` (None: all), only ``turns`` if given: a queued one
        is answered ``noResults`` now, a running one stops and reports what it found."""
        def hit(task):
            return (query_id is None or task.query.id == query_id) and \
                (turns is None or task.turn in turns)

        dropped = []
        with self._cond:
            kept = []
            for task in self._heap:
                (dropped if hit(task) else kept).append(task)
            heapq.heapify(kept)
            self._heap = kept
            for task in self._running:
                if hit(task):
                    task.stop.set()
            self._cond.notify_all()
        for task in sorted(dropped):
            self.write(protocol.noresults(task.query.id, task.turn))

    # ------------------------------------------------------------------ workers
    def _start_workers(self):
        for i in range(self.workers):
            t = threading.Thread(target=self._work, args=(i,), daemon=True,
                                 name=f"analysis-{i}")
            t.start()
            self._threads.append(t)

    def _next_task(self, i):
        with self._cond:
            while not self._heap and not self._closing:
                self._cond.wait()
            if not self._heap:
                return None, False
            task = heapq.heappop(self._heap)
            self._running.add(task)
            clear, self._clear[i] = self._clear[i], False
            return task, clear

    def _done(self, task):
        with self._cond:
            self._running.discard(task)
            self._cond.notify_all()

    def _work(self, i):
        seed = options.derive_seed(self.config.search.seed, "worker", i)
        search = Search(self.config.search.replace(seed=seed))
        level = LevelPlayer(self.config.level, search, seed) \
            if plays_policy(self.config.level) else None
        while True:
            task, clear = self._next_task(i)
            if task is None:
                return
            if clear:
                search.clear()
            try:
                self._analyse(search, task, level)
            except Exception as e:  # noqa: BLE001 - a failed position loses no other
                self.write({"id": task.query.id, "turnNumber": task.turn,
                            "error": f"the search failed: {e!r}"})
                search.clear()
            finally:
                self._done(task)

    def _analyse(self, search, task, level=None):
        query, board = task.query, task.board
        policy = self._policy(board)      # the moves' priors, and the policy if asked

        def report(result):
            if result.simulations > 0 and not task.stop.is_set():
                self.write(protocol.answer(query, task.turn, board, search, result, True,
                                           policy))

        visits = query.max_visits
        cap = LEVEL_SIMULATIONS.get(self.config.level)      # a search level's budget
        if cap is not None:
            visits = cap if visits is None else min(visits, cap)
        result = search.run(board, visits=visits, seconds=query.max_time,
                            stop=task.stop, early_stop=False, move_filter=query.move_filter,
                            on_progress=report if query.report_every else None,
                            progress_interval=query.report_every)
        if result.simulations <= 0:
            self.write(protocol.noresults(query.id, task.turn))
            return
        if level is not None and not task.stop.is_set():
            result = self._level_result(level, search, board, result, query)
        moves_owner = None
        if query.moves_ownership or query.moves_ownership_stdev:
            moves_owner = self._moves_ownership(search, board, result, task.stop)
        self.write(protocol.answer(query, task.turn, board, search, result, False, policy,
                                   moves_owner))

    def _level_result(self, level, search, board, result, query):
        """``result`` with ``level``'s move chosen (``--level``): where the search did not
        visit it, its values come from a search of the position after it, of as many
        playouts as the root's visited moves had on average (at least
        :data:`MOVE_OWNERSHIP_MIN_PLAYOUTS`). After a pass and in the endgame the search's pass
        stands (:meth:`~mcgo.engine.levels.LevelPlayer.asks_the_engine`)."""
        if level.asks_the_engine(board) and result.best_move == PASS:
            return result
        move = level.choose(board, query.move_filter)
        stats = next((m for m in result.moves if m.move == move), None)
        if stats is None or stats.visits <= 0:
            visited = [m for m in result.moves if m.visits > 0]
            playouts = max(MOVE_OWNERSHIP_MIN_PLAYOUTS,
                           int(result.root_visits / max(len(visited), 1)))
            after, found = self._search_after(search, board, move, playouts)
            visits = float(found.simulations)
            # the position after the move is the opponent's: its win rate is 1 - the mover's
            mover_rate = 1.0 - found.winrate
            score = playout_score(found, after.komi + after.scoring_offset()) or 0.0
            fresh = MoveStats(move, visits, mover_rate * visits, 0.0, 0.0, 0.0, 0.0, 0.0,
                              score * visits)
            if stats is not None:
                fresh.prior_visits, fresh.prior_wins = stats.prior_visits, stats.prior_wins
            moves = [m for m in result.moves if m.move != move] + [fresh]
            result = replace(result, moves=moves)
        return replace(result, best_move=move)

    def _search_after(self, search, board, move, playouts):
        """``(after, result)``: the position after ``move`` on ``board`` and a search of it of
        ``playouts`` simulations, on a search of its own per worker so that the main tree is
        kept."""
        after_search = self._after_searches.get(id(search))
        if after_search is None:
            after_search = self._after_searches[id(search)] = search.copy(
                max_memory_mb=search.max_memory_mb * MOVE_OWNERSHIP_MEMORY)
        after = board.copy()
        if move == PASS:
            after.pass_move()
        else:
            after.play(move)
        return after, after_search.run(after, playouts=playouts, early_stop=False)

    def _moves_ownership(self, search, board, result, stop):
        """Black's mean final owner of every point (KataGo's order) after each reported move
        (``includeMovesOwnership``): the search keeps one ownership sum for the whole tree,
        so each move's comes from a search of the position after it, of as many playouts as
        the move had visits (at least :data:`MOVE_OWNERSHIP_MIN_PLAYOUTS`), on a search of its
        own so that the main tree is kept."""
        owners = {}
        for m in reported_moves(result):
            if stop.is_set():
                break
            _, found = self._search_after(search, board, m.move,
                                          max(int(m.visits), MOVE_OWNERSHIP_MIN_PLAYOUTS))
            owner = kata_ownership(found, board.size, BLACK)
            if owner is not None:
                owners[m.move] = owner
        return owners

    def _policy(self, board):
        with self._model_lock:
            if self.move_model is None:
                from ..models.movemodel import open_model
                self.move_model = self.config.search.model or open_model("auto")
            return protocol.policy_of(self.move_model.for_size(board.size), board)


# KataGo's config keys that mcgo reads (from -config or -override-config); the others set
# up KataGo's network and files, and are ignored with a note.
CONFIG_KEYS = ("maxVisits", "maxTime", "reportAnalysisWinratesAs", "numAnalysisThreads",
               "numSearchThreadsPerAnalysisThread")


def read_config_file(path):
    """``{key: value}`` of a KataGo config file (``key = value`` lines, ``#`` comments)."""
    values = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if "=" in line:
                key, value = line.split("=", 1)
                values[key.strip()] = value.strip()
    return values


def parse_overrides(texts):
    """``{key: value}`` of ``-override-config`` texts (``k=v,k2=v2``, repeatable); raises
    ValueError for an entry without ``=``."""
    values = {}
    for text in texts:
        for item in (t.strip() for t in text.split(",")):
            if not item:
                continue
            if "=" not in item:
                raise ValueError(f"{item!r}: an override is KEY=VALUE")
            key, value = item.split("=", 1)
            values[key.strip()] = value.strip()
    return values


def engine_settings(file_values, overrides, defaults):
    """``(Defaults, workers or None, search threads or None, notes)`` from a config file's
    values and the overrides (which win): the keys of :data:`CONFIG_KEYS` are read, every
    other override gets a note (the config file's other keys are KataGo's own and pass
    silently). The file's thread counts are left out: they size KataGo's GPU batches, not
    a CPU engine; ``-override-config`` and ``-analysis-threads`` set them. Raises
    ValueError for a value that cannot be read."""
    notes = [f"-override-config {k}: not a setting of mcgo, ignored"
             for k in overrides if k not in CONFIG_KEYS]
    values = {k: v for k, v in file_values.items() if k in CONFIG_KEYS[:3]}
    values.update({k: v for k, v in overrides.items() if k in CONFIG_KEYS})
    out = protocol.Defaults(defaults.max_visits, defaults.max_time, defaults.perspective)
    workers = threads = None
    try:
        if "maxVisits" in values:
            out.max_visits = int(values["maxVisits"])
        if "maxTime" in values:
            out.max_time = float(values["maxTime"]) or None
        if "numAnalysisThreads" in values:
            workers = int(values["numAnalysisThreads"])
        if "numSearchThreadsPerAnalysisThread" in values:
            threads = int(values["numSearchThreadsPerAnalysisThread"])
    except ValueError as e:
        raise ValueError(f"config value: {e}") from None
    side = values.get("reportAnalysisWinratesAs", out.perspective).upper()
    if side not in protocol.PERSPECTIVES:
        raise ValueError(f"reportAnalysisWinratesAs {side}: must be one of "
                         f"{', '.join(protocol.PERSPECTIVES)}")
    out.perspective = side
    if out.max_visits < 1 or (workers is not None and workers < 1) or \
            (threads is not None and threads < 1):
        raise ValueError("maxVisits and the thread counts must be at least 1")
    return out, workers, threads, notes


def exit_with_parent(interval=PARENT_CHECK):
    """End the process when the one that started it ends. KaTrain runs a custom command in
    a shell and stops it by ending the shell, which leaves this engine's stdin open; without
    this it would search on, and KaTrain wait for its output to close."""
    parent = os.getppid()

    def watch():
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(0)
    threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def run_engine(config, workers, defaults, stdin=None, out=None, quit_without_waiting=False):
    """Serve KataGo's analysis protocol on stdin and stdout until stdin ends (or the
    process that started the engine does)."""
    import io
    engine = AnalysisEngine(config, workers=workers, out=out, defaults=defaults)
    if stdin is None:
        stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace")
        exit_with_parent()
    note(READY)
    try:
        engine.serve(stdin, wait=not quit_without_waiting)
    except KeyboardInterrupt:
        pass
    return engine

