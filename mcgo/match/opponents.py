# SPDX-License-Identifier: GPL-3.0-or-later
"""Engines of a match by short name as well as by command.

* ``gnugo`` is GNU Go 3.8 at level 10 with area scoring and positional superko;
  ``gnugo:LEVEL`` picks the level;
* ``pachi`` is Pachi (the project's figures are with 12.90, built from its own repository,
  :data:`PACHI_SOURCE`): the binary ``$MCGO_PACHI`` names, else ``pachi`` on ``PATH``. It
  runs from its own folder (a build keeps its pattern files there), on one thread without
  pondering; ``pachi:ARGS`` appends engine arguments;
* ``mcgo`` is this mcgo (``python -m mcgo gtp --quiet``); ``mcgo:ARGS`` appends ``gtp``
  arguments;
* anything else is a shell-style command, run as it is.

Pachi keeps :data:`PACHI_LAG` seconds of every move's time for network lag, and its ``-t``
overrides the GTP ``time_settings``; so a match at ``T`` seconds a move tells it
``-t T+2``, and a match at ``G`` seconds a game ``-t _G+2`` (``_`` is its absolute time: it
holds the same 2 s back from every move's share, so the extra 2 s only pays back the last
move's reserve and it never plans past ``G`` on the match's clock).

>>> from mcgo.match.settings import MatchSettings
>>> gnugo = resolve_engine("gnugo:3", MatchSettings(size=9))
>>> gnugo.label, gnugo.command.split()[1:]
('gnugo:3', ['--mode', 'gtp', '--level', '3', '--chinese-rules', '--positional-superko'])
>>> gnugo.recorded
'gnugo --mode gtp --level 3 --chinese-rules --positional-superko'
>>> pachi_time_option(MatchSettings(move_time=1)), pachi_time_option(MatchSettings(game_time=300))
('-t 3', '-t _302')
>>> resolve_engine("mcgo:--playouts 300", MatchSettings()).command.split()[1:]
['-m', 'mcgo', 'gtp', '--quiet', '--playouts', '300']
>>> resolve_engine("/usr/bin/my-engine --gtp", MatchSettings()).label is None
True
"""

import dataclasses
import os
import pathlib
import shlex
import shutil
import sys

from .settings import GNUGO, recorded_command

GNUGO_DEFAULT_LEVEL = 10
GNUGO_RULES = "--chinese-rules --positional-superko"
PACHI_ENV = "MCGO_PACHI"
PACHI_SOURCE = "https://github.com/pasky/pachi"
PACHI_LAG = 2.0                         # seconds of every move Pachi keeps back for net lag
PACHI_ENGINE_ARGS = "threads=1,pondering=0"
MCGO_GTP = "-m mcgo gtp --quiet"
SHORT_NAMES = ("gnugo", "pachi", "mcgo")


class EngineNameError(ValueError):
    """A short name that cannot be used here (Pachi not built, a level that is no number)."""


@dataclasses.dataclass(frozen=True)
class EngineSpec:
    """A resolved engine: its command, the folder it runs in, and its short name if it has one."""
    given: str            # what the user wrote
    command: str          # the command line to start it
    cwd: str | None = None
    label: str | None = None  # the short name (the default label), None for a plain command

    @property
    def recorded(self):
        """The command as the match's records keep it: a short name's binary by its name
        (``python``, ``pachi``, ``gnugo``: :func:`mcgo.match.settings.recorded_command`), not
        by where this machine keeps it, so that records carry no machine's paths and a match
        resumes on another machine."""
        return recorded_command(self.command)

    def as_dict(self):
        return {"given": recorded_command(self.given), "command": self.recorded}


def short_name(text):
    """(name, argument) when ``text`` is a short name (``gnugo:5`` gives ('gnugo', '5')), else None.

    >>> short_name("gnugo"), short_name("mcgo:--playouts 300"), short_name("gnugo --mode gtp")
    (('gnugo', ''), ('mcgo', '--playouts 300'), None)
    """
    name, _, argument = text.strip().partition(":")
    if name in SHORT_NAMES and " " not in name:
        return name, argument.strip()
    return None


def resolve_engine(text, settings):
    """The :class:`EngineSpec` of a short name or command (raises :class:`EngineNameError`)."""
    parsed = short_name(text)
    if parsed is None:
        return EngineSpec(text, text)
    name, argument = parsed
    label = text.strip()
    if name == "gnugo":
        return EngineSpec(text, gnugo_command(argument), label=label)
    if name == "mcgo":
        arguments = [*MCGO_GTP.split(), *shlex.split(argument)]
        return EngineSpec(text, join(sys.executable, *arguments), label=label)
    binary = pachi_binary()
    arguments = [*shlex.split(pachi_time_option(settings) or ""), PACHI_ENGINE_ARGS,
                 *shlex.split(argument)]
    return EngineSpec(text, join(str(binary), *arguments), cwd=str(binary.parent), label=label)


def gnugo_command(level=""):
    """GNU Go in GTP mode at ``level`` (default 10) with Chinese rules and positional superko."""
    level = level or str(GNUGO_DEFAULT_LEVEL)
    if not level.isdigit():
        raise EngineNameError(f"gnugo:LEVEL needs a whole number, not {level!r}")
    return f"{shlex.quote(GNUGO)} --mode gtp --level {level} {GNUGO_RULES}"


def pachi_binary():
    """Pachi's binary: ``$MCGO_PACHI``, else ``pachi`` on ``PATH``; raises
    :class:`EngineNameError` (one line, saying how to get it) where there is none."""
    named = os.environ.get(PACHI_ENV)
    if named:
        path = pathlib.Path(named).expanduser()
        if not (path.is_file() and os.access(path, os.X_OK)):
            raise EngineNameError(f"{PACHI_ENV} names {path}, which is no executable file: build "
                                  f"Pachi from {PACHI_SOURCE} and point {PACHI_ENV} at its binary")
        return path.resolve()
    found = shutil.which("pachi")
    if found is None:
        raise EngineNameError(f"Pachi not found (no pachi on PATH, {PACHI_ENV} not set): build it "
                              f"from {PACHI_SOURCE} and point {PACHI_ENV} at its binary")
    return pathlib.Path(found).resolve()


def pachi_time_option(settings):
    """Pachi's ``-t`` for the match's time control, its 2 s lag reserve added (None: no control)."""
    if settings.move_time is not None:
        return f"-t {settings.move_time + PACHI_LAG:g}"
    if settings.game_time is not None:
        return f"-t _{settings.game_time + PACHI_LAG:g}"
    return None


def join(*words):
    return " ".join(shlex.quote(w) for w in words)
