# SPDX-License-Identifier: GPL-3.0-or-later
"""The engine's command-line options, declared once for every front.

``mcgo gtp``, ``mcgo play``, ``mcgo analysis`` and ``mcgo review`` take the same options of
the engine (:data:`ENGINE_OPTIONS`), with the same names, types, defaults and help, and
turn them into one :class:`~mcgo.engine.recipe.Recipe` (:func:`recipe_of`), which builds
the engine (``mcgo match``'s ``mcgo`` engine runs ``mcgo gtp`` with them). A front that
cannot use an option keeps it off its ``--help`` and refuses it in one line when given:
``mcgo analysis`` takes the game and its limits from each query, ``mcgo review`` searches
positions, not games.

Each option belongs to a group: ``search`` (what a search is built from: every front uses
it), ``limits`` (the simulations or seconds of a move: not ``mcgo analysis``, whose queries
give them), ``player`` (resigning, the case base, seed 000's bonus, who chooses the move)
and ``game`` (the board, the rules, the judge, pondering): the fronts that play games.
"""

import click
from click.core import ParameterSource

from . import options
from .clitypes import FINITE, Number, NumberOrAuto

PRESET_CHOICES = list(options.PRESETS)
PLAYOUT_POLICY_CHOICES = list(options.PLAYOUT_POLICIES)

# The search levels and their simulations, as the help says them ("8 (100), 9 (300), 10 (1000)").
_SEARCH_LEVELS = ", ".join(f"{n} ({s})" for n, s in sorted(options.LEVEL_SIMULATIONS.items()))

# The groups each front uses, and what it says to an option of another group.
FRONTS = {
    "gtp": (("search", "limits", "player", "game"), ""),
    "play": (("search", "limits", "player", "game"), ""),
    "analysis": (("search",), "KataGo's clients give the game, the rules and the limits in "
                              "each query (maxVisits, maxTime)"),
    "review": (("search", "limits"), "a review searches the positions of games; only the "
                                     "search's options and its limits apply"),
}
# The board size at start where the front does not say (its --size's default).
FRONT_SIZES = {"gtp": options.DEFAULT_GTP_SIZE, "play": options.DEFAULT_PLAY_SIZE}
# Options a front that plays games still cannot use, and why.
NOT_USED = {("play", "ponder"): "the terminal game does not ponder"}
# Options of another group that a front uses all the same.
ALSO_USED = {("analysis", "level")}
# Help that says what an option means on one front.
FRONT_HELP = {
    ("review", "playouts"): "Simulations a position [default: 1000 when --seconds is not "
                            "given] (--playouts, --visits: its older names).",
    ("review", "seconds"): "Seconds of search a position, instead of --simulations.",
    ("review", "seed"): "Seed the positions' searches draw their seeds from.",
    ("analysis", "threads"): "Search threads per position [default: the config's "
                             "numSearchThreadsPerAnalysisThread, else 1].",
    ("analysis", "level"): f"How strong the answers' first move plays: 1 (a beginner) to "
                           f"{options.FULL_STRENGTH_LEVEL} (full strength). At levels 1-7 the "
                           "move of order 0 (the one KaTrain's default AI plays) is the "
                           "level's and the other moves the search's; at "
                           f"{_SEARCH_LEVELS} each search stops at that many simulations (the "
                           "ranks: benchmarks/RESULTS.md).",
}


def parse_setting_options(ctx, param, values):
    """``--set NAME=VALUE`` (repeatable) as a dict, checked before anything starts."""
    try:
        return options.parse_settings(values)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


def _option(group, *decls, **attrs):
    return group, decls, attrs


# (group, click's declarations, click's attributes): the one declaration of each option.
ENGINE_OPTIONS = [
    # the search
    _option("search", "--preset", type=click.Choice(PRESET_CHOICES),
            default=options.DEFAULT_PRESET, show_default=True, is_eager=True,
            help="The search's set of constants (see --list-settings)."),
    _option("search", "--set", "settings", multiple=True, metavar="NAME=VALUE",
            callback=parse_setting_options,
            help="Change one of the preset's named settings (repeatable)."),
    _option("search", "--list-settings", is_flag=True,
            help="List the named settings with the values a search on the board size at "
                 "start uses with the other options given (the preset's, --set's, the "
                 "model's and net's for that size), and exit."),
    _option("search", "--policy", type=click.Choice(PLAYOUT_POLICY_CHOICES),
            default=options.DEFAULT_POLICY, show_default=True, help="Playout policy."),
    _option("search", "--threads", type=click.IntRange(1, 64), default=1, show_default=True,
            help="Search threads."),
    _option("search", "--parallel", type=click.Choice(list(options.PARALLEL_MODES)),
            default=options.DEFAULT_PARALLEL, show_default=True,
            help="Threads share one tree (virtual loss) or grow one each."),
    _option("search", "--seed", type=int, default=0, show_default=True,
            help="Seed of the search's random numbers (GTP set_random_seed changes it)."),
    _option("search", "--max-memory", "max_memory", type=Number(1),
            default=options.DEFAULT_MEMORY_MB, show_default=True,
            help="Megabytes for the search trees."),
    _option("search", "--model", "model", default="auto", show_default=True,
            metavar="FILE|default|auto|none",
            help="Learned move model for the tree's priors (near the root: the model_depth "
                 "setting): a file (mcgo learn moves), the shipped one (default), the "
                 "shipped one where it was measured to help: 9x9, 13x13 and 19x19 (auto), "
                 "or none."),
    _option("search", "--policy-net", "policy_net", default="default", show_default=True,
            metavar="FILE|default|none",
            help="Policy net for the tree's priors on its board size: --policy-prior "
                 "virtual visits on each move of the root and of a node with "
                 "policy_net_after visits, P(move) / P(best) of them won; a file (mcgo learn "
                 "policy-net), the shipped ones (default: the 19x19 net, on 13x13 the same net, "
                 "and on 9x9 a net of our own 9x9 games at the root alone), or none."),
    _option("search", "--policy-prior", type=Number(0), default=options.POLICY_PRIOR_VISITS,
            show_default=True,
            help="Virtual visits of --policy-net's prior on each move it gives (0: none)."),
    _option("search", "--value-net", "value_net", default="none", show_default=True,
            metavar="FILE|default|none",
            help="A net with value heads (mcgo learn value-net) that values each node the "
                 "policy net gives its prior to below the root (policy_net_after), as the "
                 "value_prior setting's virtual visits: default (the shipped 19x19 net, with "
                 "the value_prior its A/B measured: see --list-settings), a file (--set "
                 "value_prior=N), or none (the policy net's own heads, where it has them)."),
    _option("search", "--ownership-prior", type=NumberOrAuto(0), default=0.0,
            show_default=True,
            help="Virtual visits of seed 003's 1-ply ranker as a prior on the root's moves: a "
                 "number (every size), 0 (none), or auto (10 on 19x19, where 20 games at "
                 "equal time favoured it, not yet significantly; none on 9x9, where it was "
                 "level). The network: --ownership-net's where given, else the shipped one."),
    _option("search", "--ownership-net", "ownership_net", default="none", show_default=True,
            metavar="FILE|dagrnn|none",
            help="Seed 003's ownership network for the chains the playouts leave unsure in "
                 "final_status_list and final_score, and for mcgo-ownership net: a file (mcgo "
                 "learn ownership), the shipped one (dagrnn), or none."),
    _option("search", "--evaluator", default="none", show_default=True,
            metavar="ecfg|FILE|none",
            help="Seed 002's ECFG outcome evaluator of the position after each root move, "
                 "mixed into the search as --evaluator-visits virtual visits: the shipped one "
                 "(ecfg, 9x9), a file of mcgo learn ecfg, or none."),
    _option("search", "--evaluator-visits", type=Number(0, min_open=True), default=10.0,
            show_default=True, help="Virtual visits of --evaluator's value on each root move."),
    # the limits of a move
    _option("limits", "--simulations", "--playouts", "playouts", type=click.IntRange(1),
            default=None,
            help="Simulations per move, all threads together (--playouts: its older name)."),
    _option("limits", "--seconds", type=Number(0, min_open=True), default=None,
            help="Seconds per move (GTP time settings may shorten it). Default 1 s when "
                 "neither limit is given."),
    # the player
    _option("player", "--resign", type=Number(0, 1), default=options.DEFAULT_RESIGN,
            show_default=True, help="Resign below this win rate (0: never)."),
    _option("player", "--casebase", default="auto", show_default=True,
            metavar="FILE|default|auto|none",
            help="Case base for the opening bonus on its board size: a file (mcgo "
                 "build-casebase), the shipped 19x19 one (default), or auto: the shipped one "
                 "with --preset thesis, none with the strong preset (whose search its bonus "
                 "led astray: benchmarks/journal/)."),
    _option("player", "--casebase-moves", type=click.IntRange(0), default=20, show_default=True,
            help="The case-base bonus applies to moves 1 to N."),
    _option("player", "--scorer", default="cfg", show_default=True, metavar="cfg|FILE",
            help="The move scorer of --player cfg and --cfg-prior: the shipped one or a file "
                 "of mcgo learn cfg / cfg-games."),
    _option("player", "--cfg-prior", type=Number(0), default=0.0, show_default=True,
            help="Weight of the move scorer's value (0-1) as a bonus on the search's first "
                 "moves (0: none)."),
    _option("player", "--player", "player", type=click.Choice(["mcts", "cfg", "td", "playout"]),
            default="mcts", show_default=True,
            help="Who chooses genmove's answer: the search, seed 000's move scorer alone "
                 "(Foulds's one-move player), seed 004's 7x7 TD net (--td-net), or the "
                 "playout policy (--policy: its most frequent first move); analysis commands "
                 "still search."),
    _option("player", "--level", type=click.IntRange(1, options.FULL_STRENGTH_LEVEL),
            default=options.FULL_STRENGTH_LEVEL, show_default=True,
            help="How strong it plays: 1 (a beginner) to "
                 f"{options.FULL_STRENGTH_LEVEL} (full strength); levels 1-7 play the "
                 "policy's favourite of the moves they look at, as KaTrain's rank bots, "
                 f"{_SEARCH_LEVELS} the search stopped at that many "
                 "simulations a move (the ranks: benchmarks/RESULTS.md)."),
    _option("player", "--td-net", default="td1", show_default=True, metavar="td0|td1|FILE",
            help="The net of --player td: a shipped one (lambda 0 or 1) or a file of mcgo "
                 "learn td."),
    # the game and its judge
    _option("game", "--size", type=click.IntRange(2, 25), default=None,
            help="Board size at start [gtp: 19, play: 9]."),
    _option("game", "--komi", type=FINITE, default=options.DEFAULT_KOMI, show_default=True,
            help="Komi (a GTP komi command or an SGF KM overrides it)."),
    _option("game", "--rules", type=click.Choice(list(options.RULES_SCORING), case_sensitive=False),
            default=options.DEFAULT_RULES, show_default=True,
            help="Rules: japanese and korean count territory and prisoners, the others area; "
                 "cgos and tromp-taylor count every stone left on the board as alive (GTP "
                 "kgs-rules or kata-set-rules changes them)."),
    _option("game", "--corner-net", "corner_net", default="none", show_default=True,
            metavar="FILE|corner|none",
            help="Seed 004's corner life-and-death net as a second judge of the groups inside "
                 "a 7x7 corner in the dead stones and the final score, where it is confident: "
                 "a file (mcgo learn corner), the shipped one (corner), or none."),
    _option("game", "--status-search", "status_search", type=click.IntRange(0), default=0,
            show_default=True, metavar="SIMULATIONS",
            help="Judge dead stones and the final score from the ownership of a tree search of "
                 "this many simulations instead of plain playouts (0: playouts): the tree reads "
                 "the capturing races the playouts misjudge before the end of a game."),
    _option("game", "--ponder", is_flag=True,
            help="After each move, search on in the opponent's time, until the next command "
                 "or half the tree memory (--max-memory) is used; the next move reuses that "
                 "tree."),
]


def _name(decls):
    """The parameter name click gives an option of ``decls``."""
    names = [d for d in decls if not d.startswith("-")]
    return names[0] if names else decls[0].lstrip("-").replace("-", "_")


def _usable(front, group, name):
    groups, _ = FRONTS[front]
    return (group in groups or (front, name) in ALSO_USED) and (front, name) not in NOT_USED


def engine_options(front):
    """The decorator that gives a front's command every engine option; those the front
    cannot use are hidden from its help (and refused by :func:`recipe_of`)."""
    def decorate(command):
        for group, decls, attrs in reversed(ENGINE_OPTIONS):
            name = _name(decls)
            attrs = dict(attrs, hidden=not _usable(front, group, name))
            if (front, name) in FRONT_HELP:
                attrs["help"] = FRONT_HELP[front, name]
            command = click.option(*decls, **attrs)(command)
        return command
    return decorate


def recipe_of(front, values):
    """The :class:`~mcgo.engine.recipe.Recipe` of ``values`` (a front's parameters: the
    engine options are taken out of it, the front's own are left). An engine option the
    front cannot use, given on the command line, is a one-line usage error; a file that
    does not open is one too (:meth:`Recipe.check` runs here), before any work."""
    from .engine.recipe import Recipe, RecipeError

    ctx = click.get_current_context()
    chosen = {}
    for group, decls, attrs in ENGINE_OPTIONS:
        name = _name(decls)
        if name not in values:
            continue
        value = values.pop(name)
        if not _usable(front, group, name):
            if given(name):
                why = NOT_USED.get((front, name)) or FRONTS[front][1]
                raise click.UsageError(f"mcgo {front} does not use {decls[0]}: {why}")
            continue
        chosen[name] = value
    listing = chosen.pop("list_settings", False)
    try:
        recipe = Recipe.of(chosen)
        opened = recipe.check()
        if listing:
            size = recipe.size or FRONT_SIZES.get(front, options.DEFAULT_GTP_SIZE)
            click.echo(recipe.describe_settings(size, opened))
            ctx.exit(0)
    except RecipeError as e:
        raise click.BadParameter(e.message, param_hint=e.option) from None
    return recipe, opened


def given(name):
    """Whether the option ``name`` was given on the command line (not its default)."""
    return click.get_current_context().get_parameter_source(name) not in (
        ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP, None)


__all__ = ["ENGINE_OPTIONS", "FRONTS", "engine_options", "given", "recipe_of"]
