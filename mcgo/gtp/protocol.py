"""The GTP protocol itself (version 2): reading command lines, formatting replies, and
answering the first commands while the engine starts.

Nothing here imports Numba, so ``mcgo gtp`` can answer a controller's opening
``protocol_version``/``name``/``version`` at once while the engine loads its kernels in
the background (:func:`serve_while_starting`).

>>> split_command(preprocess("12 play\\tb D4  # a comment"))
('12', 'play', ['b', 'D4'])
>>> format_reply("=3 A1\\n\\nB2")
'=3 A1\\n \\nB2\\n\\n'
"""

import sys
import threading
import time

from .. import __version__

NAME = "mcgo"
PROTOCOL_VERSION = "2"


class GtpError(Exception):
    """A command failed; the message is the text after ``?``."""


class Quit(Exception):
    """``quit``: answer, then leave the loop."""


STREAMING = object()           # what a handler returns that wrote its own answer


def log(*parts):
    print(*parts, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------- parsing
def preprocess(line):
    """GTP 2 section 3.1: drop control characters except HT and LF (CR included), turn HT
    into a space, cut a ``#`` comment; return the remaining text without the spaces around it
    ('' for a line the protocol ignores). Only GTP's whitespace (space, HT, LF) is stripped:
    a line of non-breaking spaces is a command (an unknown one) and gets its answer.

    >>> preprocess("name" + chr(13) + "version"), preprocess(chr(160) * 2), preprocess(" # note")
    ('nameversion', '\\xa0\\xa0', '')
    """
    line = "".join(" " if ch == "\t" else ch for ch in line
                   if ch == "\t" or ch == "\n" or not (ord(ch) < 32 or ord(ch) == 127))
    if "#" in line:
        line = line[:line.index("#")]
    return line.strip(" \n")


def split_command(text):
    """``(id, name, args)``: the id is the leading number if there is one, else ''. Words
    are separated by GTP's whitespace (spaces, after :func:`preprocess`).

    >>> split_command("7 genmove  b")
    ('7', 'genmove', ['b'])
    """
    words = [word for word in text.replace("\n", " ").split(" ") if word]
    ident = ""
    if words and is_number(words[0]):
        ident = words.pop(0)
    if not words:
        return ident, "", []
    return ident, words[0], words[1:]


def is_number(word):
    """ASCII digits only: ``str.isdigit`` also accepts superscripts and other scripts."""
    return word.isascii() and word.isdigit()


def parse_int(word, what="syntax error"):
    try:
        return int(word)
    except ValueError:
        raise GtpError(what) from None


def parse_float(word):
    try:
        value = float(word)
    except ValueError:
        raise GtpError("syntax error") from None
    if value != value or value in (float("inf"), float("-inf")):
        raise GtpError("syntax error")
    return value


def need(args, n, at_most=None):
    if len(args) < n or (at_most is not None and len(args) > at_most):
        raise GtpError("syntax error")


def format_reply(reply):
    """A reply as sent: an empty line inside would end it early, so it gets a space; the
    reply ends with the empty line."""
    return reply.replace("\n\n", "\n \n") + "\n\n"


# --------------------------------------------------------------------------- start-up
IDENTITY_ANSWERS = {"protocol_version": PROTOCOL_VERSION, "name": NAME,
                    "version": __version__}


def early_reply(raw):
    """The reply to a line that needs no engine (identity commands, ``quit``, blank lines):
    ``(reply or '', quits)``; None for a line the engine must answer."""
    text = preprocess(raw)
    if not text:
        return "", False
    ident, name, args = split_command(text)
    if name == "quit" and not args:
        return format_reply(f"={ident}"), True
    if name in IDENTITY_ANSWERS and not args:
        return format_reply(f"={ident} {IDENTITY_ANSWERS[name]}"), False
    return None


def serve_while_starting(start_engine, infile, out):
    """Serve GTP from ``infile`` with the engine ``start_engine()`` builds in a thread.

    Until the engine is ready, identity commands and ``quit`` are answered here; the first
    other command waits for the engine, which then answers it and every later line. An
    exception while starting is raised here, also when the input ends first (but not after
    ``quit``, which leaves at once)."""
    started = {}

    def start():
        try:
            started["engine"] = start_engine()
        except BaseException as e:  # noqa: BLE001 - handed to the main thread
            started["error"] = e

    builder = threading.Thread(target=start, name="mcgo-start", daemon=True)
    builder.start()
    pending = None
    while builder.is_alive():
        raw = infile.readline()
        if raw == "":
            break
        answer = early_reply(raw)
        if answer is None:
            pending, pending_at = raw, time.monotonic()
            break
        reply, quits = answer
        if reply:
            out.write(reply)
            out.flush()
        if quits:
            return
    builder.join()
    if "error" in started:
        raise started["error"]
    engine = started["engine"]
    if pending is not None and not engine.handle(pending, pending_at):
        return
    engine.serve(infile)        # at the end of input already, it returns at once
