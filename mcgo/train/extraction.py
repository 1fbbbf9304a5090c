"""Extraction of a dataset (:mod:`.dataset`) from SGF files, folders and ``.tar.gz``
(``mcgo learn extract``, :mod:`.extract`).

Every game is read (:mod:`mcgo.sgf`, inputs as ``mcgo build-casebase`` reads them), replayed
(strict alternation, simple ko: :func:`mcgo.sgf.replay`), and kept once: a game whose key
(:func:`mcgo.train.split.game_key`, the same under the 8 symmetries) was seen before is a
duplicate, counted and dropped (the first one in input order stays). Skipped with their
reason: unreadable files and games, games of another size, shorter than ``min_moves``, that
cannot be replayed.

**Final ownership** of every point, +1 black, -1 white, 0 neither:

* ``count`` (the result is a number of points, or the game ends with two passes): the area
  of the final position after removing the dead stones that
  :func:`mcgo.judge.status.estimate` finds (``playouts`` playouts, pattern policy): stones
  and the empty regions only one colour borders; dame and seki's shared liberties are 0;
* ``playouts`` (resignation, time, forfeit, unknown): the sign of
  :func:`mcgo.playout.ownership` from the final position (``playouts`` playouts, pattern
  policy); a point owned exactly as often by both is 0.

Each game's playouts use a seed taken from its key, so the dataset does not depend on the
order of the inputs or on ``jobs``, and a game gets the same ownership in every dataset.
"""

import collections
import os
import pathlib
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

import numpy as np

from .. import __version__
from ..board import BLACK, coords
from ..sgf import SgfError, replay
from ..sgf.sources import InputReport, game_name, games_of_items, input_files, process_inputs
from . import dataset
from .extract_defaults import DEFAULT_MIN_MOVES, DEFAULT_PLAYOUTS
from .results import COUNT, parse_result
from .provenance import git_commit
from .split import game_key

OWNERSHIP_POLICY = "pattern"
OPEN_REGION_SETTLED = 0.6   # a shared empty point goes to a side owning it this often (mean)
GAMES_PER_TASK = 16
MARGIN_TOLERANCE = 3         # points between our area count and a recorded margin, see counted_agreement
DUPLICATE = "duplicate game (same moves under a symmetry)"


# ----------------------------------------------------------------------------- one game
def final_ownership(board, method, playouts, seed):
    """int8 ``(size*size,)`` row-major final ownership of ``board`` by ``method``
    (:data:`mcgo.train.dataset.COUNTED` or ``PLAYOUTS``), +1 black."""
    from ..playout import ownership
    from ..judge.status import estimate

    size = board.size
    if method == dataset.COUNTED:
        verdict = estimate(board, playouts=playouts, policy=OWNERSHIP_POLICY, seed=seed)
        cleaned = board.copy()
        if verdict.dead:
            cleaned.setup(empty=verdict.dead)
        owner = cleaned.owner()[dataset.row_major(size)]
        area = np.where(owner == board.BLACK, 1, np.where(owner == board.WHITE, -1, 0))
        # An empty region that touches both colours through a gap in a boundary (the game
        # was stopped before every border was closed) belongs to the side whose it is in the
        # playouts, when they agree; true dame stay 0.
        mean = verdict.owner.reshape(-1)
        settled = np.abs(mean) >= OPEN_REGION_SETTLED
        area = np.where((area == 0) & settled, np.sign(mean), area)
        return area.astype(np.int8)
    mean = ownership(board, playouts=playouts, policy=OWNERSHIP_POLICY, seed=seed)
    return np.sign(mean).astype(np.int8).reshape(-1)


def ownership_method(record):
    """``count`` when ``RE`` is a number of points or the game ends with two passes, else
    ``playouts``."""
    _, _, how = parse_result(record.result)
    moves = record.moves
    ended = len(moves) >= 2 and moves[-1][1] == coords.PASS and moves[-2][1] == coords.PASS
    return dataset.COUNTED if how == COUNT or ended else dataset.PLAYOUTS


def seed_of(key):
    return int(key) % (1 << 31)


def extract_game(record, size, playouts, min_moves):
    """:class:`mcgo.train.dataset.GameRows` of one record; raises :class:`mcgo.sgf.SgfError`
    (or :class:`mcgo.sgf.ReplayError`) when it is to be skipped."""
    if record.size != size:
        raise SgfError(f"board size {record.size} (the dataset is {size}x{size})",
                       record.source or "<bytes>", record.game_index)
    board = replay(record, min_moves=min_moves, superko=False)
    key = game_key(record)
    method = ownership_method(record)
    owner = final_ownership(board, method, playouts, seed_of(key))
    return dataset.GameRows.from_record(record, key, method, owner, source=game_name(record))


# ----------------------------------------------------------------------------- workers
_settings = None


def _init_worker(size, playouts, min_moves):
    global _settings
    _settings = (size, playouts, min_moves)


def _extract_task(task):
    """Extract a list of ``(name, data, error)``; one result per game or per bad file."""
    return games_of_items(task, lambda record: extract_game(record, *_settings))


@dataclass
class ExtractReport(InputReport):
    """What an extraction read, kept, dropped as duplicates and skipped."""

    games_kept: int = 0
    duplicates: int = 0
    methods: collections.Counter = field(default_factory=collections.Counter)
    agreement: dict = field(default_factory=dict)

    def summary(self):
        rate = self.games_per_second()
        lines = [f"files read: {self.files} (ignored, not SGF: {self.files_ignored})",
                 f"games read: {self.games_read}",
                 f"games kept: {self.games_kept} (ownership: "
                 + ", ".join(f"{self.methods[m]} {m}" for m in dataset.OWNERSHIP_METHODS) + ")",
                 f"duplicates dropped: {self.duplicates}"] + self.skipped_lines()
        if self.agreement.get("with_margin"):
            a = self.agreement
            lines.append(f"counted games with a recorded margin: {a['with_margin']}, our area count "
                         f"gives the same winner in {a['same_winner']}, within {MARGIN_TOLERANCE} "
                         f"points in {a[f'within_{MARGIN_TOLERANCE}_points']}")
        lines.append(f"positions: {self.positions}")
        lines.append(f"seconds: {self.seconds:.1f} ({rate:.1f} games/s)")
        return "\n".join(lines)

    def as_dict(self):
        return dict(files=self.files, files_ignored=self.files_ignored, games_read=self.games_read,
                    games_kept=self.games_kept, duplicates=self.duplicates, positions=self.positions,
                    seconds=round(self.seconds, 3), skipped=dict(self.skipped))


def counted_agreement(games):
    """How the counted ownership agrees with the recorded results: among counted games whose
    ``RE`` gives a winner and a margin, how many our area score (stored ownership, komi
    included) gives the same winner, and how many lie within :data:`MARGIN_TOLERANCE` points
    of the recorded margin (a record's margin is often by territory: a few points apart)."""
    games = [g for g in games if g.method == dataset.COUNTED and g.winner and g.margin is not None]
    scores = [int(g.ownership.sum()) - (g.komi or 0.0) for g in games]
    signed = [g.margin if g.winner == BLACK else -g.margin for g in games]
    return {"with_margin": len(games),
            "same_winner": sum((s > 0) == (m > 0) for s, m in zip(scores, signed)),
            f"within_{MARGIN_TOLERANCE}_points": sum(abs(s - m) <= MARGIN_TOLERANCE
                                                    for s, m in zip(scores, signed))}


def extract(paths, output, size=19, playouts=DEFAULT_PLAYOUTS, min_moves=DEFAULT_MIN_MOVES,
            jobs=1, progress=None):
    """Write the dataset of the SGF ``paths`` (files, folders, archives) to the new folder
    ``output``; returns ``(metadata, ExtractReport)``.

    ``progress(n)`` is called with the number of input bytes done since the last call.
    """
    started = time.perf_counter()
    commit = git_commit(mark_dirty=True)          # now: the code that runs, not what is committed meanwhile
    paths = [pathlib.Path(p) for p in ([paths] if isinstance(paths, (str, os.PathLike)) else paths)]
    files, ignored = input_files(paths)
    root = paths[0] if len(paths) == 1 and paths[0].is_dir() else None
    report = ExtractReport(files=len(files), files_ignored=len(ignored))
    kept, seen = [], {}

    def consume(results, done):
        for result in results:
            report.games_read += 1
            if result[0] == "skip":
                _, _, reason, message = result
                report.skip(reason, message)
                continue
            _, name, rows = result
            if rows.key in seen:
                report.duplicates += 1
                report.skipped_messages.append(f"{name}: {DUPLICATE} of {seen[rows.key]}")
                continue
            seen[rows.key] = name
            kept.append(rows)
            report.games_kept += 1
            report.positions += len(rows.moves)
            report.methods[rows.method] += 1
        if progress is not None and done:
            progress(done)

    settings = (size, playouts, min_moves)
    for results, done in process_inputs(files, root, _extract_task, _init_worker, settings,
                                        jobs, GAMES_PER_TASK):
        consume(results, done)

    report.seconds = time.perf_counter() - started
    report.agreement = counted_agreement(kept)
    meta = {
        "sources": [str(p) for p in paths],
        "source_files": len(files),
        "ownership": {
            "methods": {
                dataset.COUNTED: "result counted (RE a number of points, or two passes at the end): "
                                 "area of the final position after removing the dead stones found "
                                 "by mcgo.judge.status.estimate",
                dataset.PLAYOUTS: "resigned, time, forfeit or unknown result: sign of "
                                  "mcgo.playout.ownership from the final position",
            },
            "playouts": playouts,
            "policy": OWNERSHIP_POLICY,
            "seed": "game_key % 2**31",
            "values": "int8: +1 black, -1 white, 0 neither",
        },
        "counted_vs_record": report.agreement,
        "options": {"size": size, "min_moves": min_moves, "replay": "strict alternation, simple ko"},
        "report": report.as_dict(),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "mcgo_version": __version__,
        "git_commit": commit,
    }
    document = dataset.write(output, kept, size, meta)
    return document, report
