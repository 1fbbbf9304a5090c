"""Building a case base from SGF files, folders and ``.tar.gz`` archives of them.

Every position before moves 1 to ``max_moves`` of each game becomes a case: its influence
code, the side to move, the professional's move, the move number and the game. A game is
skipped, with its reason, when it cannot be read (:class:`mcgo.sgf.SgfError`), is of another
board size, is shorter than ``max_moves`` moves, or cannot be replayed as recorded
(:class:`mcgo.sgf.ReplayError`: a play on a stone, suicide; :func:`mcgo.sgf.replay` plays
consecutive moves of one colour and repeated positions as the record has them).
How one game becomes cases is :mod:`.indexing`.

Games are indexed in parallel (``jobs`` processes); the result does not depend on ``jobs``.

"""

import os
import pathlib
import time
from dataclasses import dataclass

import numpy as np

from ..sgf.sources import InputReport, games_of_items, input_files, process_inputs
from ..casebase.base import CaseBase
from ..casebase.encoder import PositionEncoder
from ..casebase.indexing import DEFAULT_MAX_MOVES, index_game
from ..casebase.influence import DEFAULT_THRESHOLD, FLOW_STEPS

GAMES_PER_TASK = 32


# ----------------------------------------------------------------------------- workers
_worker_encoder = None
_worker_settings = None


def _init_worker(size, max_moves, threshold, steps):
    global _worker_encoder, _worker_settings
    _worker_encoder = PositionEncoder(size, threshold, steps)
    _worker_settings = max_moves




def _index_task(task):
    """Index a list of (name, data, error) items; one result per game or per bad file."""
    return games_of_items(task, lambda record: index_game(record, _worker_encoder, _worker_settings))


@dataclass
class BuildReport(InputReport):
    """What a build read, kept and skipped."""

    games_indexed: int = 0

    def summary(self):
        lines = [f"files read: {self.files} (ignored, not SGF: {self.files_ignored})",
                 f"games read: {self.games_read}",
                 f"games indexed: {self.games_indexed}"] + self.skipped_lines()
        rate = self.games_per_second()
        lines.append(f"positions indexed: {self.positions}")
        lines.append(f"seconds: {self.seconds:.1f} ({rate:.0f} games/s)")
        return "\n".join(lines)

    def as_dict(self):
        return dict(files=self.files, files_ignored=self.files_ignored, games_read=self.games_read,
                    games_indexed=self.games_indexed, positions=self.positions,
                    seconds=round(self.seconds, 3), skipped=dict(self.skipped))


def build_casebase(paths, size=19, max_moves=DEFAULT_MAX_MOVES, threshold=DEFAULT_THRESHOLD,
                   steps=FLOW_STEPS, jobs=1, progress=None):
    """(:class:`CaseBase`, :class:`BuildReport`) from SGF files, folders and archives.

    ``progress(n)`` is called with the number of input bytes done since the last call.
    """
    started = time.perf_counter()
    paths = [pathlib.Path(p) for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths)]
    files, ignored = input_files(paths)
    root = paths[0] if len(paths) == 1 and paths[0].is_dir() else None
    report = BuildReport(files=len(files), files_ignored=len(ignored))
    parts, names = [], []

    def consume(results, done):
        for result in results:
            report.games_read += 1
            if result[0] == "ok":
                _, name, game = result
                names.append(name)
                parts.append(game)
                report.games_indexed += 1
                report.positions += len(game.moves)
            else:
                _, name, key, message = result
                report.skip(key, message)
        if progress is not None and done:
            progress(done)

    settings = (size, max_moves, threshold, steps)
    for results, done in process_inputs(files, root, _index_task, _init_worker, settings,
                                        jobs, GAMES_PER_TASK):
        consume(results, done)

    words = PositionEncoder(size, threshold, steps).words
    cb = CaseBase.from_arrays(
        size,
        codes=np.concatenate([p.codes for p in parts]) if parts else np.zeros((0, words), np.uint64),
        colors=np.concatenate([p.colors for p in parts]) if parts else np.zeros(0, np.int8),
        moves=np.concatenate([p.moves for p in parts]) if parts else np.zeros(0, np.int16),
        move_numbers=np.concatenate([p.move_numbers for p in parts]) if parts else np.zeros(0, np.uint16),
        games=np.concatenate([np.full(len(p.moves), i, np.uint32) for i, p in enumerate(parts)])
        if parts else np.zeros(0, np.uint32),
        names=names, threshold=threshold, steps=steps, max_moves=max_moves)
    report.seconds = time.perf_counter() - started
    cb.header["build"] = report.as_dict()
    return cb, report
