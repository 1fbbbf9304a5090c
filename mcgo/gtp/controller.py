"""Talk to a GTP engine running as a subprocess (GNU Go, mcgo itself, any other).

>>> import shutil, pytest
>>> if not shutil.which("gnugo") and not shutil.which("/usr/games/gnugo"):
...     pytest.skip("GNU Go not installed")
>>> with GtpEngine(["/usr/games/gnugo", "--mode", "gtp"]) as gnugo:
...     gnugo.send("boardsize 9")
...     gnugo.send("name")
''
'GNU Go'

Every answer is read with a timeout, so an engine that hangs costs a bounded wait
(:class:`GtpTimeout`), one that dies gives :class:`GtpEngineDied`, and a ``? message``
answer gives :class:`GtpFailure` carrying the message.

:class:`EngineProcess` is the engine the match and regression runners keep: started on first
use, given extra time for its first answer, and started afresh after it crashed or hung.
"""

import os
import selectors
import shlex
import subprocess
import time

DEFAULT_TIMEOUT = 60.0
# A freshly started engine may spend a while loading (mcgo compiles its Numba kernels on a cold
# cache); that time is allowed on top of the per-command timeout for its first answer only.
STARTUP_ALLOWANCE = 120.0


class GtpClientError(Exception):
    """Something went wrong talking to a GTP engine (the client's side; the engine's own
    ``? message`` answers are :class:`mcgo.gtp.protocol.GtpError`)."""


class GtpFailure(GtpClientError):
    """The engine answered ``? message``."""

    def __init__(self, command, message):
        super().__init__(f"{command!r} failed: {message}")
        self.command = command
        self.message = message


class GtpTimeout(GtpClientError):
    """The engine gave no complete answer in time."""


class GtpEngineDied(GtpClientError):
    """The engine's process ended (or closed its output) mid-conversation."""


class GtpProtocolError(GtpClientError):
    """The engine answered something that is not a GTP response."""


class GtpEngine:
    """A GTP engine subprocess. ``send`` returns the answer's text without ``= ``."""

    def __init__(self, command, cwd=None, stderr=subprocess.DEVNULL, env=None):
        self.command = list(command)
        self.process = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
            cwd=cwd, env=env, bufsize=0)
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)

    def send(self, command, timeout=DEFAULT_TIMEOUT):
        """Send one command and return the answer; raises a GtpClientError subclass on trouble."""
        if self.process.poll() is not None:
            raise GtpEngineDied(f"engine exited with code {self.process.returncode}")
        try:
            self.process.stdin.write(command.encode() + b"\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise GtpEngineDied(f"cannot write to engine: {exc}") from exc
        text = self._read_response(timeout)
        if text.startswith("="):
            status, body = "=", text[1:]
        elif text.startswith("?"):
            status, body = "?", text[1:]
        else:
            raise GtpProtocolError(f"answer to {command!r} is not GTP: {text[:200]!r}")
        # Drop an echoed command id.
        i = 0
        while i < len(body) and body[i].isdigit():
            i += 1
        body = body[i:].strip()
        if status == "?":
            raise GtpFailure(command, body)
        return body

    def _read_response(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            # A response ends with an empty line; skip leading blank lines.
            stripped = self._buffer.replace(b"\r", b"").lstrip(b"\n")
            end = stripped.find(b"\n\n")
            if end >= 0:
                self._buffer = stripped[end + 2:]
                return stripped[:end].decode("utf-8", errors="replace")
            left = deadline - time.monotonic()
            if left <= 0:
                raise GtpTimeout(f"no answer within {timeout:g} s")
            if not self._selector.select(left):
                continue
            chunk = os.read(self.process.stdout.fileno(), 65536)
            if not chunk:
                self.process.wait(timeout=5)
                raise GtpEngineDied(f"engine closed its output (exit code {self.process.returncode})")
            self._buffer += chunk

    def close(self, timeout=5.0):
        """Say ``quit``, then make sure the process is gone."""
        if self.process.poll() is None:
            try:
                self.send("quit", timeout=timeout)
            except GtpClientError:
                pass
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self._selector.close()
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class EngineProcess:
    """A GTP engine command, started on first use and restarted after a crash or a hang.

    ``send`` raises what :meth:`GtpEngine.send` raises. After a :class:`GtpTimeout`,
    :class:`GtpEngineDied` or :class:`GtpProtocolError` the process is killed (its state is
    unknown: a late answer must not be read as the next one) and the next ``send`` starts a
    fresh one. A ``? message`` answer (:class:`GtpFailure`) leaves the engine running. A fresh
    engine's first answer may take ``startup_allowance`` seconds more than the timeout.
    A command that cannot be started raises :class:`OSError`.

    >>> import sys
    >>> engine = EngineProcess([sys.executable, "-c", "import sys; sys.exit(3)"], timeout=5)
    >>> engine.send("name")
    Traceback (most recent call last):
    ...
    mcgo.gtp.controller.GtpEngineDied: engine closed its output (exit code 3)
    >>> engine.running
    False
    """

    def __init__(self, command, timeout=DEFAULT_TIMEOUT, startup_allowance=STARTUP_ALLOWANCE, cwd=None):
        self.command = shlex.split(command) if isinstance(command, str) else list(command)
        self.cwd = cwd  # the folder the engine runs in (Pachi finds its pattern files there)
        self.timeout = timeout
        self.startup_allowance = startup_allowance
        self.engine = None
        self.answered = False  # has the running process answered anything yet?

    @property
    def running(self):
        return self.engine is not None

    def start(self):
        """The running engine, started now if there is none (OSError if it cannot start)."""
        if self.engine is None:
            self.engine = GtpEngine(self.command, cwd=self.cwd)
            self.answered = False
        return self.engine

    def send(self, command, timeout=None):
        """Send one command and return the answer (see the class for what it raises)."""
        engine = self.start()
        timeout = self.timeout if timeout is None else timeout
        if not self.answered:
            timeout += self.startup_allowance
        try:
            answer = engine.send(command, timeout=timeout)
        except GtpFailure:
            self.answered = True
            raise
        except GtpClientError:
            self.kill()
            raise
        self.answered = True
        return answer

    def kill(self):
        """Stop the process at once: after a fault there is no point asking it to quit."""
        if self.engine is not None:
            if self.engine.process.poll() is None:
                self.engine.process.kill()
                self.engine.process.wait()
            self.engine.close()
            self.engine = None

    def close(self):
        """Say ``quit`` and wait for the process to end."""
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
