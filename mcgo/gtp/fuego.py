"""Fuego's GTP commands that its regression suites send (the ``.tst`` files that
``mcgo regress`` runs): ``go_rules``, ``go_param_rules`` and ``uct_param_player``, each
with the keys those suites use. Without arguments each lists its keys and values, as Fuego
lists its own."""

from .protocol import GtpError, need, parse_float


def go_rules(engine, args):
    """``go_rules japanese|chinese|cgos|kgs``: the scoring, and under ``cgos`` a count of
    every stone alive at two passes (Tromp-Taylor); ``kgs`` is area scoring with the dead
    stones taken off, as ``chinese``. (Fuego's cgos also makes capturing the dead stones a
    duty, which ``go_param_rules capture_dead 1`` asks for here.) Without an argument, the
    rule set of the scoring, as Fuego names it."""
    need(args, 0, 1)
    if not args:
        return "japanese" if engine.game.scoring == "territory" else "chinese"
    engine.game.set_rules(args[0])
    return ""


def go_param_rules(engine, args):
    """``go_param_rules [KEY VALUE]``, two of its keys: ``japanese_scoring 0|1`` (territory
    or area scoring) and ``capture_dead 0|1`` (take the dead stones before passing: every
    ``genmove`` is then a ``kgs-genmove_cleanup``)."""
    need(args, 0, 2)
    if not args:
        return (f"capture_dead {int(engine.game.capture_dead)}\n"
                f"japanese_scoring {int(engine.game.scoring == 'territory')}")
    need(args, 2, 2)
    key, value = args[0].lower(), args[1]
    if key not in ("japanese_scoring", "capture_dead"):
        raise GtpError(f"unknown parameter {args[0]}")
    if value not in ("0", "1"):
        raise GtpError(f"{key} must be 0 or 1")
    if key == "capture_dead":
        engine.game.capture_dead = value == "1"
    else:
        engine.game.set_rules("japanese" if value == "1" else "chinese")
    return ""


def uct_param_player(engine, args):
    """``uct_param_player [KEY VALUE]``, two of its keys: ``resign_threshold X`` (resign
    below this win rate, 0 never: ``--resign``) and ``search_mode uct|playout_policy``
    (``genmove`` searches, or plays the playout policy's move, as Fuego's ``playout_*.tst``
    regression files ask)."""
    need(args, 0, 2)
    mode = "playout_policy" if engine.game.plays_playout_policy else "uct"
    if not args:
        return f"resign_threshold {engine.game.config.resign:g}\nsearch_mode {mode}"
    need(args, 2, 2)
    key = args[0].lower()
    if key == "resign_threshold":
        threshold = parse_float(args[1])
        if not 0.0 <= threshold <= 1.0:
            raise GtpError(f"resign_threshold must be a win rate from 0 to 1, not {args[1]}")
        engine.game.configure(resign=threshold)
        return ""
    if key != "search_mode":
        raise GtpError(f"unsupported parameter {args[0]}")
    if args[1] not in ("uct", "playout_policy"):
        raise GtpError(f"search_mode must be uct or playout_policy, not {args[1]}")
    engine.game.use_playout_player(args[1] == "playout_policy")
    return ""


COMMANDS = {"go_rules": go_rules, "go_param_rules": go_param_rules,
            "uct_param_player": uct_param_player}
