"""GTP 2's time control: ``time_settings`` (Canadian byo-yomi, GTP 2 6.3.5) and
``time_left``. The game's clock is the player's
(:class:`mcgo.engine.timecontrol.TimeControl`), which turns them into each move's budget.
KGS's ``kgs-time_settings`` (:mod:`mcgo.gtp.kgs`) and KataGo's ``kata-time_settings`` set
the same clock by the name of the time system (:func:`set_named`); KataGo's
``kata-list_time_settings`` names the systems, as OGS's gtp2ogs asks before it sends a
Fischer clock as one.
"""

from .arguments import parse_color
from .protocol import GtpError, need, parse_float, parse_int

# KataGo's answer to kata-list_time_settings (its code's, which gtp2ogs reads).
TIME_SYSTEMS = ("none", "absolute", "byoyomi", "canadian", "fischer", "fischer-capped")
# The numbers each system takes after its name.
SYSTEM_NUMBERS = {"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3, "fischer": 2,
                  "fischer-capped": 4}


def set_named(clock, args, systems, parse=parse_float):
    """Set ``clock`` from ``SYSTEM NUMBERS...`` (one of ``systems``), or a GTP error."""
    need(args, 1)
    kind = args[0].lower()
    if kind not in systems or len(args) - 1 != SYSTEM_NUMBERS[kind]:
        raise GtpError("syntax error")
    n = [parse(a) for a in args[1:]]
    try:
        if kind == "none":
            clock.clear()
        elif kind == "absolute":
            clock.set(n[0], 0, 0)
        elif kind == "byoyomi":
            clock.set(n[0], n[1], 1, periods=int(n[2]))
        elif kind == "canadian":
            clock.set(n[0], n[1], int(n[2]))
        else:
            clock.set_fischer(*n)
    except ValueError:
        raise GtpError("syntax error") from None
    return ""


def kata_list_time_settings(engine, args):
    return " ".join(TIME_SYSTEMS)


def kata_time_settings(engine, args):
    """``kata-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian
    MAIN PERIOD STONES | fischer MAIN INCREMENT | fischer-capped MAIN INCREMENT MAIN_LIMIT
    MOVE_LIMIT`` (seconds, fractions allowed; a negative limit is none)."""
    return set_named(engine.game.clock, args, TIME_SYSTEMS)


def time_settings(engine, args):
    need(args, 3, 3)
    main, byo, stones = parse_int(args[0]), parse_int(args[1]), parse_int(args[2])
    try:
        engine.game.clock.set(main, byo, stones)
    except ValueError:
        raise GtpError("syntax error") from None
    return ""


def time_left(engine, args):
    need(args, 3, 3)
    color = parse_color(args[0])
    try:
        engine.game.clock.time_left(color, parse_float(args[1]), parse_int(args[2]))
    except ValueError:
        raise GtpError("syntax error") from None
    return ""


COMMANDS = {"time_settings": time_settings, "time_left": time_left,
            "kata-list_time_settings": kata_list_time_settings,
            "kata-time_settings": kata_time_settings}
