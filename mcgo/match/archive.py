# SPDX-License-Identifier: GPL-3.0-or-later
"""A match's games as one compressed archive, ``games.zip``, beside its ``results.json``.

Each finished game is added as it ends (``game-0007.sgf``), through a copy of the archive
and a rename, so a crash mid-write leaves the archive as it was after the last game, never
half written. A game's record names its member as ``games.zip/game-0007.sgf`` (the
``sgf`` field of results.json and results.csv).

Folders written before the archive existed keep loose ``games/*.sgf`` files; the readers
here read those too, so every tool that reads match games takes either.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> add_game(folder, 3, b"(;SZ[9];B[ee])")
'games.zip/game-0003.sgf'
>>> [(name, data) for name, data in match_games(folder)]
[('games.zip/game-0003.sgf', b'(;SZ[9];B[ee])')]
"""

import contextlib
import os
import pathlib
import shutil
import tempfile
import zipfile

GAMES_ARCHIVE = "games.zip"
LOOSE_GAMES_DIR = "games"   # folders from before the archive: games/game-NNNN.sgf


def member_name(game_id):
    """The archive member of game ``game_id``."""
    return f"game-{game_id:04d}.sgf"


def add_game(out_dir, game_id, sgf_bytes):
    """Add (or replace) game ``game_id`` in ``out_dir``'s archive; returns its ``sgf`` name.

    A game already in the archive (played again after a crash that came between the
    archive and results.json) is replaced, so the archive never holds a name twice."""
    out_dir = pathlib.Path(out_dir)
    archive = out_dir / GAMES_ARCHIVE
    tmp = archive.with_name(archive.name + ".tmp")
    name = member_name(game_id)
    if archive.exists() and name in archive_names(archive):
        _copy_without(archive, tmp, name)
    elif archive.exists():
        shutil.copyfile(archive, tmp)
    else:
        tmp.unlink(missing_ok=True)
    with zipfile.ZipFile(tmp, "a", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        out.writestr(name, sgf_bytes)
    os.replace(tmp, archive)
    return f"{GAMES_ARCHIVE}/{name}"


def archive_names(archive):
    with zipfile.ZipFile(archive) as games:
        return games.namelist()


def _copy_without(archive, target, skipped):
    with zipfile.ZipFile(archive) as source, \
            zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as out:
        for info in source.infolist():
            if info.filename != skipped:
                out.writestr(info, source.read(info))


def match_games(folder):
    """``(sgf name, SGF bytes)`` of every game of a match folder (or of its archive, given
    itself), in game order: the archive's members, then any loose ``games/*.sgf`` of an
    older folder."""
    folder = pathlib.Path(folder)
    if folder.name == GAMES_ARCHIVE and folder.is_file():
        folder = folder.parent
    archive = folder / GAMES_ARCHIVE
    if archive.exists():
        with zipfile.ZipFile(archive) as games:
            for name in sorted(games.namelist()):
                yield f"{GAMES_ARCHIVE}/{name}", games.read(name)
    for path in sorted((folder / LOOSE_GAMES_DIR).glob("*.sgf")):
        yield f"{LOOSE_GAMES_DIR}/{path.name}", path.read_bytes()


def game_sgf(folder, sgf_name):
    """The SGF bytes of the game a record names (its ``sgf`` field) in a match folder."""
    folder = pathlib.Path(folder)
    archive_name, _, member = sgf_name.partition("/")
    if archive_name == GAMES_ARCHIVE:
        try:
            with zipfile.ZipFile(folder / GAMES_ARCHIVE) as games:
                return games.read(member)
        except KeyError:
            raise FileNotFoundError(f"{folder / GAMES_ARCHIVE} holds no {member}") from None
    return (folder / sgf_name).read_bytes()


@contextlib.contextmanager
def extracted_games(folder):
    """The games of a match folder as files of a temporary folder, for an engine's
    ``loadsgf``: yields ``[(sgf name, path)]``; the files go when the block ends."""
    with tempfile.TemporaryDirectory(prefix="mcgo-games-") as tmp:
        games = []
        for name, data in match_games(folder):
            path = pathlib.Path(tmp) / pathlib.PurePosixPath(name).name  # game-0007.sgf
            path.write_bytes(data)
            games.append((name, path))
        yield games
