"""Gathering the seed papers' 3x3 pattern statistics (:class:`mcgo.models.seedstats.SeedStats`)
from files of games with their final ownership (``mcgo learn patterns``)."""

from ..judge.status import estimate
from ..models import patterns3 as P
from ..models.seedstats import OWNERSHIP_METHOD, SeedStats, owner_plane
from ..sgf import ReplayError, SgfError, read_games, replay
from ..sgf.sources import input_files, iter_inputs
from .provenance import git_commit
from .split import game_key, split_of


def final_ownership(record, playouts=200, seed=0):
    """The final area owner of a record ((size, size) int8): the dead stones of the final
    position (by :func:`mcgo.judge.status.estimate` with ``playouts``) removed, then
    :meth:`mcgo.Board.owner` (Tromp-Taylor) of the cleaned board."""
    board = replay(record, superko=False)
    verdict = estimate(board, playouts=playouts, seed=seed)
    cleaned = board.copy()
    if verdict.dead:
        cleaned.setup(empty=verdict.dead)
    return owner_plane(cleaned.owner(), record.size)



# ------------------------------------------------------------------- from files of games
def read_records(paths, size, split=None, skipped=None):
    """Yield the records of ``size`` in the SGF files, folders and ``.tar.gz`` of ``paths``
    whose game is in ``split`` (``mcgo.train.split``; None: every game), each game once
    (the same game under any symmetry counts once). What is skipped is appended to
    ``skipped`` as ``(name, reason)``."""
    skipped = [] if skipped is None else skipped
    files, _ = input_files(paths)
    seen = set()
    for name, data, error, _ in iter_inputs(files):
        if error is not None:
            skipped.append((name, error))
            continue
        for item in read_games(data, errors="yield"):
            if isinstance(item, SgfError):
                skipped.append((name, item.reason))
                continue
            item.source = name
            if item.size != size:
                skipped.append((name, f"board size {item.size}"))
                continue
            key = game_key(item)
            if key in seen:
                skipped.append((name, "duplicate game"))
                continue
            seen.add(key)
            if split is not None and split_of(key) != split:
                continue
            yield item


def build(paths, size=19, cap=P.DEFAULT_CAP, playouts=200, split="train", to_move_view=True,
          progress=None, skipped=None):
    """:class:`SeedStats` of the games of ``split`` in ``paths``, each with its final ownership
    by :func:`final_ownership` (``playouts``). ``progress(record)`` is called after each game;
    unplayable records are appended to ``skipped`` as ``(name, reason)``."""
    skipped = [] if skipped is None else skipped
    stats = SeedStats(size, cap=cap, to_move_view=to_move_view)
    for record in read_records(paths, size, split=split, skipped=skipped):
        try:
            owner = final_ownership(record, playouts=playouts)
            stats.add_game(record, owner)
        except (ReplayError, ValueError) as e:
            skipped.append((record.source, str(e)))
        if progress is not None:
            progress(record)
    stats.metadata.update(data=[str(p) for p in paths], split=split or "all", commit=git_commit() or "unknown",
                          ownership=f"{OWNERSHIP_METHOD} ({playouts} playouts)")
    return stats
