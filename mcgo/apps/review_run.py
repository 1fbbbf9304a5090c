"""Running a review of many games: the positions searched in this process, in ``jobs``
local processes or as Ray tasks, each saved under the output folder as soon as it is
searched, and each game's outputs written as soon as its last position is in.

The folder holds, for each game ``NAME``: ``NAME.sgf`` (the reviewed record,
:mod:`.review_sgf`), the picture and page when asked for, and ``.positions/NAME.jsonl``,
the positions searched so far (a line of settings and the game's fingerprint, then one
line a position). A rerun reads those lines and searches only the positions missing, so
a review that was killed goes on where it stopped, and one game's failure (a bug, a
worker that died twice) loses no other game's positions.
"""

import json
import os
import pathlib
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

from .review import STORE_VERSION, analyse_position, fingerprint, review_document, reviewed_positions

POSITIONS_FOLDER = ".positions"
RETRIES = 1                    # a position whose worker died is searched once more


class PositionStore:
    """The searched positions of one game, one JSON line each, appended and flushed as
    they come (a line cut short by a kill is dropped on reading)."""

    def __init__(self, path, header):
        self.path = pathlib.Path(path)
        self.header = header

    def load(self):
        """``(positions by number, note)``: what an earlier run saved for this game with the
        same settings, and a note when a file was there for other settings or another game
        (it is replaced) or None."""
        if not self.path.exists():
            return {}, None
        lines = self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        try:
            header = json.loads(lines[0]) if lines else None
        except json.JSONDecodeError:
            header = None
        if header != self.header:
            return {}, f"{self.path.name}: saved for other settings or another game; searching again"
        positions = {}
        for line in lines[1:]:
            try:
                p = json.loads(line)
            except json.JSONDecodeError:
                continue              # the last line of a killed run
            positions[p["number"]] = p
        return positions, None

    def start(self, positions):
        """Write the file anew: the header and ``positions`` (what :meth:`load` kept),
        through a file beside it that replaces it whole, so a kill now loses nothing."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fresh = self.path.with_name(self.path.name + ".new")
        with open(fresh, "w", encoding="utf-8") as f:
            f.write(json.dumps(self.header) + "\n")
            for p in sorted(positions.values(), key=lambda p: p["number"]):
                f.write(json.dumps(p) + "\n")
        os.replace(fresh, self.path)

    def add(self, position):
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps(position) + "\n")
            f.flush()


@dataclass
class GameReview:
    """One game under review: its name, record, the positions it needs, those searched."""
    name: str
    record: object
    needed: list
    moves: tuple
    store: PositionStore
    positions: dict = field(default_factory=dict)
    failed: str = None
    finished: bool = False
    document: dict = None        # the review, once finished

    @property
    def missing(self):
        return [n for n in self.needed if n not in self.positions]


class Review:
    """The review of ``games`` (``(name, record)`` pairs) into ``out``.

    ``settings``: :class:`~mcgo.apps.review.ReviewSettings`; ``moves``: ``(first, last)``
    or None (every move); ``jobs``: local processes; ``ray``: None or a Ray address
    (``auto``); ``outputs(game, document)``: writes a finished game's files; ``log``:
    one-line messages."""

    def __init__(self, out, games, settings, outputs, moves=None, jobs=1, ray=None,
                 log=print):
        self.out = pathlib.Path(out)
        self.settings = settings
        self.outputs = outputs
        self.jobs = max(1, jobs)
        self.ray = ray
        self.log = log
        self.games = []
        for name, record in games:
            needed, span = reviewed_positions(record, moves)
            # Not the moves asked for: a position's search does not depend on them, so a
            # longer review of the same game goes on from a shorter one.
            header = {"version": STORE_VERSION, "game": fingerprint(record),
                      "settings": settings.as_dict()}
            store = PositionStore(self.out / POSITIONS_FOLDER / f"{name}.jsonl", header)
            self.games.append(GameReview(name, record, needed, span, store))

    def prepare(self):
        """Read what earlier runs saved; the number of positions still to search."""
        self.out.mkdir(parents=True, exist_ok=True)
        for game in self.games:
            positions, note = game.store.load()
            if note:
                self.log(note)
            game.store.start(positions)
            game.positions = {n: p for n, p in positions.items() if n in game.needed}
        return sum(len(g.missing) for g in self.games)

    def run(self, progress=lambda n: None):
        """Search every missing position, each game's outputs written when it is complete;
        returns the games (their ``failed`` says why a game could not be finished)."""
        for game in self.games:
            self._finish_if_done(game)
        tasks = [(game, n) for game in self.games for n in game.missing]
        if tasks:
            if self.ray is not None:
                self._run_on_ray(tasks, progress)
            elif self.jobs == 1:
                self._run_here(tasks, progress)
            else:
                self._run_in_pool(tasks, progress)
        return self.games

    # ------------------------------------------------------------------ results
    def _add(self, game, position):
        if game.failed:
            return
        game.positions[position["number"]] = position
        game.store.add(position)
        self._finish_if_done(game)

    def _fail(self, game, why):
        if not game.failed:
            game.failed = why
            self.log(f"{game.name}: not finished ({why.strip().splitlines()[-1]}); "
                     "its searched positions are kept for the next run")

    def _finish_if_done(self, game):
        if game.finished or game.failed or game.missing:
            return
        document = review_document(game.name, game.record, self.settings, game.positions,
                                   *game.moves)
        try:
            self.outputs(game, document)
        except Exception:  # noqa: BLE001 - one game's outputs, not the others'
            self._fail(game, traceback.format_exc())
            return
        game.finished = True
        game.document = document

    # ------------------------------------------------------------------ where they run
    def _run_here(self, tasks, progress):
        for game, number in tasks:
            if game.failed:
                progress(1)
                continue
            try:
                position = analyse_position(self.settings, game.record, number)
            except Exception:  # noqa: BLE001 - a bug in one game leaves the others
                self._fail(game, traceback.format_exc())
            else:
                self._add(game, position)
            progress(1)

    def _run_in_pool(self, tasks, progress):
        import multiprocessing
        attempts = {}
        while tasks:
            retry = []
            context = multiprocessing.get_context("fork")
            pool = ProcessPoolExecutor(self.jobs, mp_context=context)
            try:
                futures = {pool.submit(analyse_position, self.settings, game.record, n): (game, n)
                           for game, n in tasks if not game.failed}
                for future in as_completed(futures):
                    game, number = futures[future]
                    try:
                        position = future.result()
                    except BrokenProcessPool:
                        attempts[game.name, number] = attempts.get((game.name, number), 0) + 1
                        if attempts[game.name, number] <= RETRIES:
                            retry.append((game, number))
                            continue
                        self._fail(game, f"position {number}: its worker died "
                                         f"{attempts[game.name, number]} times")
                    except Exception:  # noqa: BLE001
                        self._fail(game, traceback.format_exc())
                    else:
                        self._add(game, position)
                    progress(1)
            finally:    # interrupted: the positions not started are dropped, not waited for
                pool.shutdown(wait=True, cancel_futures=True)
            if retry:
                self.log(f"a worker died: searching {len(retry)} positions again")
            tasks = retry

    def _run_on_ray(self, tasks, progress):
        from ..match.cluster import connect, first_line
        ray, started = connect(self.ray)
        task = ray.remote(num_cpus=self.settings.threads, max_retries=0)(analyse_position)
        settings = ray.put(self.settings)
        records = {}
        attempts, running = {}, {}

        def submit(game, number):
            if game.name not in records:
                records[game.name] = ray.put(game.record)
            attempts[game.name, number] = attempts.get((game.name, number), 0) + 1
            running[task.remote(settings, records[game.name], number)] = (game, number)

        try:
            for game, number in tasks:
                submit(game, number)
            while running:
                (ref,), _ = ray.wait(list(running), num_returns=1)
                game, number = running.pop(ref)
                try:
                    position = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:   # the search raised
                    self._fail(game, f"position {number}: {first_line(exc)}")
                except ray.exceptions.RayError as exc:       # its worker or node died
                    if attempts[game.name, number] <= RETRIES and not game.failed:
                        submit(game, number)
                        continue
                    self._fail(game, f"position {number}: its task failed "
                                     f"{attempts[game.name, number]} times ({first_line(exc)})")
                else:
                    self._add(game, position)
                progress(1)
        finally:
            for ref in running:     # interrupted: stop what still runs
                ray.cancel(ref, force=True)
            if started:
                ray.shutdown()
