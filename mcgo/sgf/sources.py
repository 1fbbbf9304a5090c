"""Where SGF games come from in bulk: files, folders searched recursively, ``.tar.gz``
archives read member by member (streaming) and ``.zip`` archives (a match's ``games.zip``),
for every command that reads many games
(``mcgo build-casebase``, ``mcgo learn ...``).

* :func:`input_files`: the files to read under some paths;
* :func:`iter_inputs`: ``(name, data, error, bytes consumed)`` for every SGF file in them;
* :func:`games_of_items`: each game of such items handed to a function, or skipped with its
  reason (:func:`reason_key` groups reasons for a summary);
* :func:`process_inputs`: batches of items through a task function, in forked worker
  processes or in this one, results in input order;
* :func:`game_name`: the name a game is known by in reports and indexes;
* :class:`InputReport`: what a bulk read saw: files, games, and the games skipped by reason
  (the reports of ``build-casebase`` and ``mcgo learn extract`` build on it).
"""

import collections
import io
import multiprocessing
import pathlib
import re
import tarfile
import zipfile
from dataclasses import dataclass, field

from .reading import SGF_SUFFIXES, read_games
from .record import SgfError

ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar", ".zip")
EXAMPLES_PER_REASON = 3        # messages kept per reason for the summary


@dataclass
class InputReport:
    """What a bulk read of SGF inputs saw: files, games read, and the games skipped, counted
    by reason (:func:`reason_key`) with the first few messages of each."""

    files: int = 0
    files_ignored: int = 0
    games_read: int = 0
    positions: int = 0
    seconds: float = 0.0
    skipped: collections.Counter = field(default_factory=collections.Counter)
    examples: dict = field(default_factory=dict)   # reason -> first few messages
    skipped_messages: list = field(default_factory=list)

    def skip(self, reason, message):
        """Count a skipped game (or file) under ``reason``."""
        self.skipped[reason] += 1
        self.skipped_messages.append(message)
        examples = self.examples.setdefault(reason, [])
        if len(examples) < EXAMPLES_PER_REASON:
            examples.append(message)

    def skipped_lines(self):
        """The summary's lines on the skipped games, the commonest reason first."""
        lines = [f"games skipped: {sum(self.skipped.values())}"]
        for reason, count in self.skipped.most_common():
            lines.append(f"  {count:6d}  {reason}  (e.g. {self.examples[reason][0]})")
        return lines

    def games_per_second(self):
        return self.games_read / self.seconds if self.seconds else 0.0


def input_files(paths):
    """(files to read, files ignored) under the given files and folders, sorted.

    A broken link with an SGF name is kept among the files to read, so that reading it
    reports it ("cannot read file") instead of passing over it in silence."""
    chosen, ignored = [], []
    for path in map(pathlib.Path, paths):
        if not path.exists():
            raise FileNotFoundError(f"no such file or folder: {path}"
                                    + (" (a broken link)" if path.is_symlink() else ""))
        candidates = sorted(p for p in path.rglob("*") if p.is_file() or is_broken_link(p)) \
            if path.is_dir() else [path]
        for p in candidates:
            name = p.name.lower()
            if name.endswith(SGF_SUFFIXES) or name.endswith(ARCHIVE_SUFFIXES):
                chosen.append(p)
            else:
                ignored.append(p)
    return chosen, ignored


def is_broken_link(path):
    return path.is_symlink() and not path.exists()


def total_size(files):
    """Bytes of the files that can be read (for a progress bar; a broken link counts 0)."""
    return sum(f.stat().st_size for f in files if not is_broken_link(f))


def iter_inputs(files, root=None):
    """Yield ``(name, data or None, error or None, disk bytes consumed)`` for every SGF file,
    reading ``.tar.gz`` archives member by member (streaming) and ``.zip`` archives."""
    for path in files:
        name = _display_name(path, root)
        lowered = path.name.lower()
        if lowered.endswith(SGF_SUFFIXES):
            try:
                data = path.read_bytes()
            except OSError as e:
                yield name, None, f"cannot read file: {e.strerror or e}", 0
                continue
            yield name, data, None, len(data)
            continue
        try:
            size = path.stat().st_size
        except OSError as e:
            yield name, None, f"cannot read archive: {e.strerror or e}", 0
            continue
        if lowered.endswith(".zip"):
            yield from _zip_inputs(path, name, size)
            continue
        consumed = 0
        try:
            with open(path, "rb") as raw, tarfile.open(fileobj=raw, mode="r|*") as archive:
                for member in archive:
                    if not member.isfile() or not member.name.lower().endswith(SGF_SUFFIXES):
                        continue
                    data = archive.extractfile(member).read()
                    position = min(raw.tell(), size)
                    yield f"{name}/{member.name}", data, None, position - consumed
                    consumed = position
        except (tarfile.TarError, OSError, EOFError, ValueError) as e:
            yield name, None, f"cannot read archive: {e}", size - consumed
            consumed = size
        if consumed < size:
            yield None, None, None, size - consumed


def _zip_inputs(path, name, size):
    """iter_inputs' items for a zip archive (its bytes counted as consumed at the end)."""
    try:
        with zipfile.ZipFile(path) as archive:
            for member in sorted(archive.namelist()):
                if member.lower().endswith(SGF_SUFFIXES):
                    yield f"{name}/{member}", archive.read(member), None, 0
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        yield name, None, f"cannot read archive: {e}", size
        return
    yield None, None, None, size


def _display_name(path, root):
    if root is not None:
        try:
            return str(path.relative_to(root))
        except ValueError:
            pass
    return str(path)


def reason_key(reason):
    """A skip reason without its particulars (numbers, a bracketed detail), to count alike
    reasons together: ``"move 7: occupied (D4)"`` and ``"move 12: occupied (Q3)"`` are one."""
    key = re.sub(r"\s*\(.*\)\s*$", "", reason)
    return re.sub(r"\d+", "N", key) or reason


def game_name(record):
    """The name a game is known by: its source, with ``#n`` for game n > 1 of a file."""
    name = record.source or "<game>"
    return name if record.game_index == 0 else f"{name}#{record.game_index + 1}"


def games_of_items(items, handle):
    """Each game of ``(name, data, error)`` items given to ``handle(record)``: a list of
    ``("ok", game name, handle's result)``, or ``("skip", name, reason key, message)`` for
    an unreadable file or game, or a game ``handle`` refused with an :class:`SgfError`."""
    out = []
    for name, data, error in items:
        if error is not None:
            out.append(("skip", name, reason_key(error), f"{name}: {error}"))
            continue
        source = io.BytesIO(data)
        source.name = name
        for item in read_games(source, errors="yield"):
            if isinstance(item, SgfError):
                out.append(("skip", name, reason_key(item.reason), str(item)))
                continue
            try:
                result = handle(item)
            except SgfError as e:
                out.append(("skip", game_name(item), reason_key(e.reason), str(e)))
                continue
            out.append(("ok", game_name(item), result))
    return out


def process_inputs(files, root, task, initializer, initargs, jobs=1, items_per_task=32):
    """Yield ``(task(batch), input bytes the batch took)`` for batches of at most
    ``items_per_task`` ``(name, data, error)`` items of ``files`` (see :func:`iter_inputs`),
    in input order, so a result never depends on ``jobs``. ``task`` runs in ``jobs`` forked
    processes, each started with ``initializer(*initargs)``, or here when ``jobs`` <= 1.
    ``task`` and ``initializer`` must be module-level functions (the pool pickles them)."""

    def batches():
        batch, done = [], 0
        for name, data, error, consumed in iter_inputs(files, root):
            done += consumed
            if name is not None:
                batch.append((name, data, error))
            if len(batch) >= items_per_task:
                yield batch, done
                batch, done = [], 0
        if batch or done:
            yield batch, done

    if jobs <= 1:
        initializer(*initargs)
        for batch, done in batches():
            yield task(batch), done
        return
    sizes = collections.deque()

    def only_batches():
        for batch, done in batches():
            sizes.append(done)
            yield batch

    context = multiprocessing.get_context("fork")
    with context.Pool(jobs, initializer=initializer, initargs=initargs) as pool:
        for results in pool.imap(task, only_batches(), chunksize=1):
            yield results, sizes.popleft()
