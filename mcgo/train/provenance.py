"""Where a trained file came from: the git commit of the mcgo source tree that made it.

The one git lookup of mcgo, for the metadata of the files the ``mcgo learn`` commands write;
the engine never runs it (an installed wheel has no git checkout: the answer is then None)."""

import pathlib
import subprocess

TIMEOUT_SECONDS = 10


def _git(*args):
    here = pathlib.Path(__file__).resolve().parent
    out = subprocess.run(["git", *args], cwd=here, capture_output=True, text=True,
                         timeout=TIMEOUT_SECONDS)
    return out.stdout.strip() if out.returncode == 0 else ""


def git_commit(mark_dirty=False):
    """The commit of the mcgo checkout this runs from (with ``+dirty`` appended when
    ``mark_dirty`` and tracked files have changes), or None outside a checkout."""
    try:
        commit = _git("rev-parse", "HEAD")
        if not commit:
            return None
        if mark_dirty and _git("status", "--porcelain", "--untracked-files=no"):
            commit += "+dirty"
        return commit
    except (OSError, subprocess.SubprocessError):
        return None


def data_name(path):
    """The name a trained file's metadata gives its data: the folder's or file's own name,
    not where this machine keeps it (a shipped file holds no path of the machine that made it).

    >>> data_name("/home/someone/runs/own9/")
    'own9'
    """
    return pathlib.PurePath(str(path)).name
