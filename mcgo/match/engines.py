# SPDX-License-Identifier: GPL-3.0-or-later
"""A player's seat in a match: a GTP engine whose every trouble becomes a lost game.

A crash, a hang past the timeout, an answer that is not GTP or a ``? message`` answer raises
:class:`EngineFault` naming the engine; the process is started afresh for the next game
(:class:`mcgo.gtp.controller.EngineProcess` does the restarting).
"""

from ..board import BLACK, WHITE
from ..gtp.controller import EngineProcess, GtpEngineDied, GtpFailure, GtpProtocolError, GtpTimeout
from .settings import SETUP_TIMEOUT

COLOR_LETTER = {BLACK: "b", WHITE: "w"}
COLOR_NAME = {BLACK: "black", WHITE: "white"}


class EngineFault(Exception):
    """An engine did something that loses it the game; ``reason`` says what."""

    def __init__(self, label, reason, answered=False):
        super().__init__(f"{label}: {reason}")
        self.label = label
        self.reason = reason
        self.answered = answered  # the engine gave a proper ``?`` answer: it is still in step


class Seat:
    """One engine of the match, started on first use and restarted after a fault."""

    def __init__(self, label, command, cwd=None):
        self.label = label
        self.command = command
        self.process = EngineProcess(command, cwd=cwd)
        self._known = {}    # known_command's answers: the same command knows the same, restarted or not

    def send(self, command, timeout=SETUP_TIMEOUT):
        """Send a command; any GTP trouble becomes an EngineFault naming this engine."""
        try:
            return self.process.send(command, timeout=timeout)
        except OSError as exc:
            raise EngineFault(self.label, f"cannot start {self.command!r}: {exc}") from exc
        except GtpTimeout as exc:
            raise EngineFault(self.label, f"hang: no answer to {command!r} within {timeout:g} s") from exc
        except GtpEngineDied as exc:
            raise EngineFault(self.label, f"crash during {command!r}: {exc}") from exc
        except GtpProtocolError as exc:
            raise EngineFault(self.label, f"garbage reply: {exc}") from exc
        except GtpFailure as exc:
            raise EngineFault(self.label, f"{command!r} failed: {exc.message}", answered=True) from exc

    def knows(self, command):
        """True when the engine says it knows ``command`` (asked once per seat); one that
        does not know even ``known_command`` (a ``?`` answer) knows nothing more."""
        if command not in self._known:
            try:
                self._known[command] = self.send(f"known_command {command}").strip() == "true"
            except EngineFault as fault:
                if not fault.answered:
                    raise
                self._known[command] = False
        return self._known[command]

    def kill(self):
        """Stop the process at once: after a fault there is no point asking it to quit."""
        self.process.kill()

    def close(self):
        self.process.close()
