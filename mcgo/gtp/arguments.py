"""Reading a command's argument words: colours, vertices, numbers, switches and search
limits. Each reader fails with :class:`~mcgo.gtp.protocol.GtpError` carrying the text of the
``?`` answer, so a handler reads its words and never words its own failure twice."""

import math

from ..board import coords
from ..board.kernels import BLACK, WHITE
from .protocol import GtpError, need

COLOR_WORDS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
COLOR_LETTER = {BLACK: "b", WHITE: "w"}


def one_line(text):
    """``text`` on one line (an answer must not hold an empty line)."""
    return " ".join(str(text).split())


def parse_color(word):
    try:
        return COLOR_WORDS[word.lower()]
    except KeyError:
        raise GtpError("invalid color") from None


def is_color(word):
    return word.lower() in COLOR_WORDS


def color_and_vertex(args, size):
    """``(color, point)`` from exactly the two words ``COLOR VERTEX``."""
    need(args, 2, 2)
    color = parse_color(args[0])
    try:
        point = coords.from_gtp(args[1], size)
    except coords.CoordinateError:
        raise GtpError("invalid coordinate") from None
    return color, point


def is_float(word):
    """A finite number (``float`` also reads ``nan`` and ``inf``)."""
    try:
        return math.isfinite(float(word))
    except ValueError:
        return False


def centiseconds(word):
    """An interval in centiseconds as seconds (None for 0: no lines)."""
    if not is_float(word) or float(word) < 0:
        raise GtpError("syntax error")
    return float(word) / 100.0 or None


def parse_bool(word):
    lower = word.lower()
    if lower in ("true", "1"):
        return True
    if lower in ("false", "0"):
        return False
    raise GtpError(f"expected true or false, got {word}")


def parse_limit(word, integer):
    """A search limit: a positive number (whole for playouts) or ``none``."""
    if word.lower() == "none":
        return None
    try:
        value = int(word) if integer else float(word)
    except ValueError:
        raise GtpError("invalid value") from None
    if not math.isfinite(value) or value <= 0:
        raise GtpError("invalid value: a limit is positive (or none)")
    return value
