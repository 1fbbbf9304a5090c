"""GoGui's analyze commands: ``gogui-analyze_commands`` lists them for GoGui's menu, and the
``mcgo-*`` commands answer in its ``gfx`` language (:mod:`mcgo.gtp.analysis_text` writes it) or
as text: who owns each point (``mcgo-ownership``), the search's best moves
(``mcgo-best_moves``) and tree (``mcgo-tree``, printed as in the thesis), the case base's
match (``mcgo-casebase``) and influence map (``mcgo-influence``)."""

from ..casebase.advisor import gogui_influence
from ..playout import ownership
from . import analysis_text
from .arguments import COLOR_LETTER
from .protocol import GtpError, need, parse_int

OWNERSHIP_PLAYOUTS = 1000
ANALYZE_COMMANDS = [
    "gfx/Ownership/mcgo-ownership",
    "gfx/Ownership (network)/mcgo-ownership net",
    "gfx/Best moves/mcgo-best_moves",
    "string/Search tree/mcgo-tree",
    "gfx/Case base match/mcgo-casebase",
    "gfx/Influence map/mcgo-influence",
    "string/Final score/final_score",
    "plist/Dead stones/final_status_list dead",
]


def gogui_analyze_commands(engine, args):
    return "\n".join(ANALYZE_COMMANDS)


def mcgo_ownership(engine, args):
    """Who owns each point, by the playouts (``playouts``, the default) or by seed 003's
    network (``net``: the engine's, else the shipped one)."""
    need(args, 0, 1)
    source = args[0].lower() if args else "playouts"
    if source == "playouts":
        owner = ownership(engine.game.board, playouts=OWNERSHIP_PLAYOUTS, policy=engine.game.policy,
                          seed=engine.game.seed, threads=engine.game.threads)
    elif source == "net":
        owner = 2.0 * engine.game.ownership_network().ownership(engine.game.board) - 1.0
    else:
        raise GtpError(f"unknown ownership source {args[0]!r}: playouts or net")
    return analysis_text.gfx_ownership(owner, engine.game.board.size)


def mcgo_best_moves(engine, args):
    """The best moves' win rates and the best line, from a search of the position now."""
    board = engine.game.board.copy()
    result = engine.think(board)
    return analysis_text.gfx_best_moves(engine.game.search, result, board.size,
                                   COLOR_LETTER[board.to_move])


def mcgo_casebase(engine, args):
    """The professional's move in the best-matching case and the game's name."""
    advisor = engine.game.opening_advisor
    if advisor is None or not hasattr(advisor, "gogui_gfx"):
        return "TEXT no case base (mcgo gtp --casebase default or FILE)"
    return advisor.gogui_gfx(engine.game.board)


def mcgo_influence(engine, args):
    """The flow influence map the case base matches positions by."""
    casebase = getattr(engine.game.opening_advisor, "casebase", None)
    return gogui_influence(engine.game.board, None if casebase is None else casebase.threshold)


def mcgo_tree(engine, args):
    """The top ``N`` root moves of the last search (searching now if there was none for
    this position), printed as in the thesis."""
    need(args, 0, 1)
    top = parse_int(args[0]) if args else 7
    if top < 1:
        raise GtpError("syntax error")
    result = engine.search_of_position()
    return "\n" + analysis_text.tree_text(engine.game.search, result, engine.game.board.size, top=top,
                                     bonus_label=engine.game.player.last_labels)


COMMANDS = {"gogui-analyze_commands": gogui_analyze_commands, "mcgo-ownership": mcgo_ownership,
            "mcgo-best_moves": mcgo_best_moves, "mcgo-casebase": mcgo_casebase,
            "mcgo-influence": mcgo_influence, "mcgo-tree": mcgo_tree}
