"""What the ``RE`` of a game record says: winner, margin, and how the game ended.

>>> parse_result("W+7.5")
(2, 7.5, 'count')
>>> parse_result("B+Resign")
(1, None, 'resign')
>>> parse_result("0")
(None, 0.0, 'count')
>>> parse_result("B+R (199 moves)")
(1, None, 'resign')
>>> parse_result("?")
(None, None, 'unknown')
>>> parse_result("W+Jigo")      # old title matches: a jigo won by white, as the rules had it
(2, 0.0, 'count')
"""

import re

from ..board import BLACK, WHITE

COUNT, RESIGN, TIME, FORFEIT, VOID, UNKNOWN = "count", "resign", "time", "forfeit", "void", "unknown"
_WIN = re.compile(r"\A\s*([BW])\s*\+\s*(.*)\Z", re.IGNORECASE | re.DOTALL)
_NUMBER = re.compile(r"\A(\d+(?:\.\d*)?|\.\d+)")
_JIGO = {"0", "draw", "jigo", "d"}
_HOW = (("resign", RESIGN), ("r", RESIGN), ("time", TIME), ("t", TIME), ("forfeit", FORFEIT),
        ("f", FORFEIT))


def parse_result(text):
    """``(winner or None, margin or None, how)``: ``how`` is ``"count"`` when the result is a
    number of points (a jigo counts, margin 0), else ``"resign"``, ``"time"``, ``"forfeit"``,
    ``"void"`` or ``"unknown"`` (no or unreadable ``RE``; a winner without a reason too)."""
    text = (text or "").strip()
    lowered = text.lower()
    if lowered in _JIGO:
        return None, 0.0, COUNT
    if lowered == "void":
        return None, None, VOID
    match = _WIN.match(text)
    if not match:
        return None, None, UNKNOWN
    winner = BLACK if match.group(1).upper() == "B" else WHITE
    rest = match.group(2).strip().lower()
    number = _NUMBER.match(rest)
    if number:
        return winner, float(number.group(1)), COUNT
    word = re.split(r"[\s(]", rest, maxsplit=1)[0] if rest else ""
    if word in ("j", "jigo"):
        return winner, 0.0, COUNT
    for prefix, how in _HOW:
        if word == prefix:
            return winner, None, how
    return winner, None, UNKNOWN
