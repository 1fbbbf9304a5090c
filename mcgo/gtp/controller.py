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
"""

import os
import selectors
import subprocess
import time

DEFAULT_TIMEOUT = 60.0


class GtpError(Exception):
    """Something went wrong talking to a GTP engine."""


class GtpFailure(GtpError):
    """The engine answered ``? message``."""

    def __init__(self, command, message):
        super().__init__(f"{command!r} failed: {message}")
        self.command = command
        self.message = message


class GtpTimeout(GtpError):
    """The engine gave no complete answer in time."""


class GtpEngineDied(GtpError):
    """The engine's process ended (or closed its output) mid-conversation."""


class GtpProtocolError(GtpError):
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
        """Send one command and return the answer; raises a GtpError subclass on trouble."""
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
            except GtpError:
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
