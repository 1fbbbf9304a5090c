"""KataGo's GTP extensions for parameters and rules (its docs/GTP_Extensions.md):
``kata-list-params``, ``kata-get-param``, ``kata-set-param``, ``kata-get-rules`` and
``kata-set-rules``. (Its analysis commands are :mod:`mcgo.gtp.analyze`'s.)

The parameters are the named search settings (``mcgo gtp --list-settings``), the limits
(``playouts`` and KataGo's ``maxVisits``/``maxPlayouts``; ``seconds`` and KataGo's
``maxTime``), ``numSearchThreads`` and ``level`` (:mod:`mcgo.engine.levels`). The rules are
the ones mcgo plays: area or territory scoring, positional superko, no suicide, and White's
handicap compensation as the rule set gives it (``N`` points for N stones under Chinese
rules, ``N-1`` under AGA's, else none); ``kata-set-rules`` chooses them by name (Japanese and
Korean rules count territory), and ``kata-set-rule whiteHandicapBonus 0|N|N-1`` the
compensation alone, as KataGo's does.
"""

import json

from .. import options
from ..config import MAX_THREADS
from .arguments import parse_limit
from .protocol import GtpError, need, parse_int

LIMIT_PARAMS = {"playouts": "playouts", "maxVisits": "playouts", "maxPlayouts": "playouts",
                "seconds": "seconds", "maxTime": "seconds"}
RULES = {"hasButton": False, "ko": "POSITIONAL", "scoring": "AREA", "suicide": False,
         "tax": "NONE", "whiteHandicapBonus": "0", "friendlyPassOk": True}


def parameter_names():
    return list(options.NAMED_SETTINGS) + list(LIMIT_PARAMS) + ["numSearchThreads", "level"]


def kata_list_params(engine, args):
    """The parameters ``kata-get-param``/``kata-set-param`` know, on one line."""
    return " ".join(parameter_names())


def kata_get_param(engine, args):
    need(args, 1, 1)
    name = args[0]
    if name in options.NAMED_SETTINGS:
        value = engine.game.setting(name)
        return str(int(value)) if options.NAMED_SETTINGS[name].kind is int else f"{value:g}"
    if name in LIMIT_PARAMS:
        value = getattr(engine.game.config, LIMIT_PARAMS[name])
        return "none" if value is None else f"{value:g}"
    if name == "numSearchThreads":
        return str(engine.game.threads)
    if name == "level":
        return str(engine.game.config.level)
    raise GtpError(f"unknown parameter {name}")


def kata_set_param(engine, args):
    """Change a parameter for the next searches (the tree is kept; a thread count starts
    new trees). Limits take a positive number or ``none``."""
    need(args, 2, 2)
    name, value = args
    if name in options.NAMED_SETTINGS:
        try:
            number = options.parse_settings([f"{name}={value}"])[name]
        except ValueError as e:
            raise GtpError(f"invalid value: {e}") from None
        engine.game.set_setting(name, number)
    elif name in LIMIT_PARAMS:
        limit = LIMIT_PARAMS[name]
        try:
            engine.game.configure(**{limit: parse_limit(value, integer=limit == "playouts")})
        except ValueError as e:
            raise GtpError(f"invalid value: {e}") from None
    elif name == "numSearchThreads":
        threads = parse_int(value, "invalid value")
        if not 1 <= threads <= MAX_THREADS:
            raise GtpError(f"invalid value: numSearchThreads is 1 to {MAX_THREADS}")
        engine.game.set_threads(threads)
    elif name == "level":
        try:
            engine.game.configure(level=parse_int(value, "invalid value"))
        except ValueError as e:
            raise GtpError(f"invalid value: {e}") from None
    else:
        raise GtpError(f"unknown parameter {name}")
    return ""


def kata_get_rules(engine, args):
    """The rules mcgo plays, in ``kata-get-rules``'s JSON: area or territory scoring,
    positional superko, suicide illegal, no tax, no button, White's compensation for
    handicap stones (``0``, ``N``, ``N-1``), and passing with dead stones on the board is
    fine (``final_status_list`` judges them)."""
    return json.dumps(_rules(engine), separators=(",", ":"))


def _rules(engine):
    """The rules the game plays, as KataGo's JSON names them."""
    return dict(RULES, scoring=engine.game.scoring.upper(),
                whiteHandicapBonus=engine.game.handicap_bonus_rule)


def kata_set_rule(engine, args):
    """KataGo's ``kata-set-rule KEY VALUE``: ``whiteHandicapBonus`` (``0``, ``N``, ``N-1``)
    changes; the other keys only to what mcgo plays now (:func:`kata_get_rules`): it plays
    no other ko, suicide, tax or button rule, and its scoring comes with a rule set
    (``kata-set-rules``)."""
    need(args, 2, 2)
    key, value = args
    rules = _rules(engine)
    if key == "whiteHandicapBonus":
        engine.game.set_handicap_bonus(value.upper())
    elif key not in rules:
        raise GtpError(f"unknown rule {key} (known: {', '.join(rules)})")
    elif value.lower() != str(rules[key]).lower():
        hint = " (kata-set-rules chooses a rule set)" if key == "scoring" else ""
        raise GtpError(f"mcgo plays {key} {rules[key]} here{hint}")
    return ""


def kata_set_rules(engine, args):
    """KataGo's ``kata-set-rules NAME``, by the short names (``japanese``, ``chinese``,
    ``tromp-taylor``...; :data:`mcgo.options.RULES_SCORING`), not its JSON."""
    need(args, 1, 1)
    engine.game.set_rules(args[0])
    return ""


COMMANDS = {"kata-list-params": kata_list_params, "kata-get-param": kata_get_param,
            "kata-set-param": kata_set_param, "kata-get-rules": kata_get_rules,
            "kata-set-rules": kata_set_rules, "kata-set-rule": kata_set_rule}
