"""The KGS Go Server's GTP extensions (kgsGtp's documentation): ``kgs-genmove_cleanup``
(a move that takes the dead stones off before passing, asked for when the players disagree
about them), ``kgs-time_settings``, ``kgs-rules`` and ``kgs-game_over``."""

from .arguments import parse_color
from .clock import set_named
from .protocol import GtpError, need, parse_int

KGS_TIME_SYSTEMS = ("none", "absolute", "byoyomi", "canadian")


def kgs_genmove_cleanup(engine, args):
    need(args, 1, 1)
    return engine.genmove(parse_color(args[0]), cleanup=True)


def kgs_time_settings(engine, args):
    """``none``, ``absolute MAIN``, ``byoyomi MAIN PERIOD PERIODS`` or
    ``canadian MAIN PERIOD STONES`` (seconds)."""
    return set_named(engine.game.clock, args, KGS_TIME_SYSTEMS, parse=parse_int)


def kgs_rules(engine, args):
    """``kgs-rules japanese|chinese|aga|new_zealand``, sent before a game."""
    need(args, 1, 1)
    engine.game.set_rules(args[0])
    return ""


def kgs_game_over(engine, args):
    """The game has ended: no more pondering on it."""
    engine.stop_pondering()
    return ""


COMMANDS = {"kgs-genmove_cleanup": kgs_genmove_cleanup, "kgs-time_settings": kgs_time_settings,
            "kgs-rules": kgs_rules, "kgs-game_over": kgs_game_over}
