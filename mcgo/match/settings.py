# SPDX-License-Identifier: GPL-3.0-or-later
"""What both engines of a match are told and how long they may think; the default commands.

Plain Python (no board, no Numba): the command line reads its defaults here.

>>> settings = MatchSettings(size=9, komi=7, game_time=60)
>>> settings.time_settings_command(), settings.move_cap, settings.genmove_timeout(30.0)
('time_settings 60 0 0', 243, 40.0)

The commands run with GNU Go where this machine keeps it (:data:`GNUGO`); the records of a
match keep it, Pachi and Python by their names (:func:`recorded_command`).
"""

import os
import re
import shlex
import shutil

from .. import options

GNUGO_NAME = "gnugo"
# Programs that records name, not locate: a command that starts one by its absolute path is
# recorded with this name instead (``python3.11`` as ``python``, ``pachi-12.90`` as ``pachi``;
# ``gnugo-wrapper`` is some other program and keeps its path).
RECORDED_PROGRAMS = {re.compile(r"gnugo(-?[0-9.]+)?"): GNUGO_NAME,
                     re.compile(r"pachi(-?[0-9.]+)?"): "pachi",
                     re.compile(r"python[0-9.]*"): "python"}
GNUGO = shutil.which(GNUGO_NAME) or "/usr/games/gnugo"
DEFAULT_REFEREE = f"{shlex.quote(GNUGO)} --mode gtp --chinese-rules --capture-all-dead --positional-superko"
SCORERS = ("referee", "engines", "tromp-taylor")

SETUP_TIMEOUT = 30.0               # boardsize, komi, play: quick commands
SCORE_TIMEOUT = 180.0              # final_score: GNU Go thinks long on unsettled positions
DEFAULT_MOVE_TIMEOUT = 120.0       # genmove limit when no time control is given
TIMEOUT_MARGIN = 10.0              # slack over the time control before a move counts as a hang
MOVE_TIMEOUT_FACTOR = 3.0          # per-move time control: allow this many times the budget
MOVE_CAP_PER_POINT = 3             # a game is stopped and scored after 3 x size^2 moves
START_MARGIN = 120.0               # a worker that starts the engines of its first game


def recorded_command(command):
    """``command`` as the records of a match keep it: GNU Go, Pachi or a Python interpreter
    started by its path is named by its program's name (:data:`RECORDED_PROGRAMS`), so
    records carry no path of this machine, and a match saved with the path (or on a machine
    that keeps the program elsewhere) compares equal when it resumes. Any other command is
    kept as it is; so is one that is no shell-style command line.

    >>> recorded_command("/opt/gnugo-3.8/bin/gnugo --mode gtp --level 3")
    'gnugo --mode gtp --level 3'
    >>> recorded_command(recorded_command("/opt/gnugo-3.8/bin/gnugo --mode gtp"))
    'gnugo --mode gtp'
    >>> recorded_command("/home/me/pachi/pachi -t 3"), recorded_command("/usr/bin/python3.11 -m mcgo gtp")
    ('pachi -t 3', 'python -m mcgo gtp')
    >>> recorded_command("/opt/pachi-12.90 -t 3")
    'pachi -t 3'
    >>> recorded_command("python -m mcgo gtp --quiet"), recorded_command("/opt/bin/gnugo-wrapper")
    ('python -m mcgo gtp --quiet', '/opt/bin/gnugo-wrapper')
    """
    if not command:             # no referee (None, ''): nothing to name
        return command
    try:
        words = shlex.split(command)
    except ValueError:          # unbalanced quotes: no command line to read a program from
        return command
    if not words or not os.path.isabs(words[0]):
        return command
    program = os.path.basename(words[0])
    for pattern, name in RECORDED_PROGRAMS.items():
        if pattern.fullmatch(program):
            return shlex.join([name, *words[1:]])
    return command


class MatchSettings:
    """What both engines are told and how long they may think."""

    def __init__(self, size=9, komi=options.DEFAULT_KOMI, move_time=None, game_time=None,
                 move_cap=None, move_timeout=None, handicap=0):
        if move_time is not None and game_time is not None:
            raise ValueError("give a per-move time or a per-game time, not both")
        if handicap:
            from ..board.handicap import max_fixed   # the board's rule, without its kernels
            most = max_fixed(size)
            if not 2 <= handicap <= most:
                fits = f"2 to {most} stones" if most else "no handicap stones"
                raise ValueError(f"--handicap {handicap}: GTP's fixed_handicap on {size}x{size} "
                                 f"takes {fits}")
        self.handicap = handicap
        for name, seconds in (("--move-time", move_time), ("--game-time", game_time)):
            if seconds is not None and seconds != int(seconds):
                raise ValueError(f"{name} {seconds:g}: GTP's time_settings takes whole seconds "
                                 "(for less, give the engines a fixed budget of their own)")
        self.size = size
        self.komi = komi
        self.move_time = move_time
        self.game_time = game_time
        self.move_cap = move_cap if move_cap is not None else MOVE_CAP_PER_POINT * size * size
        self.move_timeout = move_timeout

    def as_dict(self):
        settings = {"size": self.size, "komi": self.komi, "move_time": self.move_time,
                    "game_time": self.game_time, "move_cap": self.move_cap,
                    "move_timeout": self.move_timeout}
        if self.handicap:       # even matches keep the records they had
            settings["handicap"] = self.handicap
        return settings

    def time_settings_command(self):
        """GTP ``time_settings``: per move is byo-yomi of 1 stone, per game is absolute."""
        if self.move_time is not None:
            return f"time_settings 0 {self.move_time:g} 1"
        if self.game_time is not None:
            return f"time_settings {self.game_time:g} 0 0"
        return None

    def genmove_timeout(self, time_left):
        """How long a genmove may take before the engine counts as hung."""
        if self.move_timeout is not None:
            return self.move_timeout
        if self.move_time is not None:
            return MOVE_TIMEOUT_FACTOR * self.move_time + TIMEOUT_MARGIN
        if self.game_time is not None:
            return max(time_left, 0.0) + TIMEOUT_MARGIN
        return DEFAULT_MOVE_TIMEOUT

    def game_timeout(self):
        """How long a whole game may take before its worker counts as lost: every move at
        its limit, the engines' setup and the count. A bound for a game run out of sight
        (a Ray task), where the engines' own timeouts cannot be seen from the driver.

        >>> MatchSettings(9, 7, move_time=1, move_cap=10).game_timeout()
        490.0
        """
        if self.game_time is not None:
            moves = 2 * self.game_time + self.move_cap * TIMEOUT_MARGIN
        else:
            moves = self.move_cap * self.genmove_timeout(None)
        return START_MARGIN + 2 * SETUP_TIMEOUT + moves + SCORE_TIMEOUT
