"""The command table: every command the engine knows, GTP name -> handler, gathered from the
module of each protocol family. ``known_command`` and ``list_commands`` read it, and the
engine answers a line by it.

A family's module ends with its ``COMMANDS`` dict. A handler takes the engine
(:class:`mcgo.gtp.engine.Engine`) and the argument words and returns the answer's text
(:data:`~mcgo.gtp.protocol.STREAMING` when it wrote its own), or raises
:class:`~mcgo.gtp.protocol.GtpError` with the failure message.
"""

from . import analyze, clock, core, files, fuego, gogui, katago, kgs

FAMILIES = (core, clock, files, kgs, analyze, katago, fuego, gogui)


def _gather(families):
    table = {}
    for family in families:
        for name, handler in family.COMMANDS.items():
            if name in table:
                raise RuntimeError(f"GTP command {name} is in two families")
            table[name] = handler
    return dict(sorted(table.items()))       # list_commands: alphabetical


COMMANDS = _gather(FAMILIES)


def command_names():
    """Every command the engine knows, in GTP spelling, alphabetically."""
    return list(COMMANDS)
