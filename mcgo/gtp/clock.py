"""GTP 2's time control: ``time_settings`` (Canadian byo-yomi, GTP 2 6.3.5) and
``time_left``. The game's clock is the player's
(:class:`mcgo.engine.timecontrol.TimeControl`), which turns them into each move's budget.
KGS's ``kgs-time_settings`` sets the same clock (:mod:`mcgo.gtp.kgs`)."""

from .arguments import parse_color
from .protocol import GtpError, need, parse_float, parse_int


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


COMMANDS = {"time_settings": time_settings, "time_left": time_left}
