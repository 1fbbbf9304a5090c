"""The ``mcgo`` command: a click group that each part of the engine adds its command to."""

import os
import sys

# One BLAS thread, unless the user says otherwise, set before NumPy loads its BLAS: the
# engine's matrices are small (the policy net's layers are 361 x 288 by 288 x 32), and
# OpenBLAS's threads, waiting beside the search's own, made a 19x19 forward pass of the
# shipped net 15 ms instead of 1.2 ms on a busy 2-core machine.
for _variable in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

import click  # noqa: E402

from . import __version__, options
from .clitypes import FINITE, Number, NumberOrAuto


class McgoGroup(click.Group):
    """The ``mcgo`` group: every error on the command line is one line, ``Error: ...``, on
    stderr and exit status 2 (click would add two lines of usage); a missing optional extra is
    such an error wherever in a command it is found."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            status = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as e:
            click.echo(f"Error: {' '.join(e.format_message().split())}", err=True)
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)

    def invoke(self, ctx):
        from .extras import MissingExtra
        try:
            return super().invoke(ctx)
        except MissingExtra as e:
            error = click.ClickException(str(e))
            error.exit_code = 2
            raise error from None


@click.group(cls=McgoGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "-V", "--version", prog_name="mcgo")
def main():
    """mcgo: a Monte Carlo UCT Go engine with case-based opening play.

    Play in the terminal with `mcgo play`, or connect a GUI to `mcgo gtp`.
    `mcgo COMMAND -h` explains each command."""


PRESET_CHOICES = list(options.PRESETS)
PLAYOUT_POLICY_CHOICES = list(options.PLAYOUT_POLICIES)


def parse_setting_options(ctx, param, values):
    """``--set NAME=VALUE`` (repeatable) as a dict, checked before anything starts."""
    try:
        return options.parse_settings(values)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


def list_settings(ctx, param, value):
    """``--list-settings``: the named settings of the chosen preset, then exit."""
    if not value or ctx.resilient_parsing:
        return
    from .search.presets import describe_settings
    preset = ctx.params.get("preset") or options.DEFAULT_PRESET
    click.echo(f"settings of the {preset} preset (change with --set NAME=VALUE):")
    click.echo(describe_settings(preset))
    ctx.exit(0)


def engine_options(command):
    """The options ``mcgo gtp`` and ``mcgo play`` share."""
    decorators = [
        click.option("--size", type=click.IntRange(2, 25), default=None,
                     help="Board size at start [gtp: 19, play: 9]."),
        click.option("--komi", type=FINITE, default=options.DEFAULT_KOMI, show_default=True,
                     help="Komi (a GTP komi command or an SGF KM overrides it)."),
        click.option("--rules",
                     type=click.Choice(list(options.RULES_SCORING), case_sensitive=False),
                     default=options.DEFAULT_RULES, show_default=True,
                     help="Rules: japanese and korean count territory and prisoners, the others "
                          "area; cgos and tromp-taylor count every stone left on the board as "
                          "alive (GTP kgs-rules or kata-set-rules changes them)."),
        click.option("--playouts", type=click.IntRange(1), default=None,
                     help="Simulations per move (all threads together)."),
        click.option("--seconds", type=Number(0, min_open=True), default=None,
                     help="Seconds per move (GTP time settings may shorten it). "
                          "Default 1 s when neither limit is given."),
        click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
                     help="Search threads."),
        click.option("--parallel", type=click.Choice(list(options.PARALLEL_MODES)),
                     default=options.DEFAULT_PARALLEL,
                     show_default=True,
                     help="Threads share one tree (virtual loss) or grow one each."),
        click.option("--seed", type=int, default=0, show_default=True,
                     help="Seed of the search's random numbers (GTP set_random_seed changes it)."),
        click.option("--policy", type=click.Choice(PLAYOUT_POLICY_CHOICES), default=options.DEFAULT_POLICY,
                     show_default=True, help="Playout policy."),
        click.option("--preset", type=click.Choice(PRESET_CHOICES), default=options.DEFAULT_PRESET,
                     show_default=True, is_eager=True,
                     help="The search's set of constants (see --list-settings)."),
        click.option("--set", "settings", multiple=True, metavar="NAME=VALUE",
                     callback=parse_setting_options,
                     help="Change one of the preset's named settings (repeatable)."),
        click.option("--list-settings", is_flag=True, expose_value=False, callback=list_settings,
                     help="List the named settings with the preset's values, and exit."),
        click.option("--resign", type=Number(0, 1), default=options.DEFAULT_RESIGN,
                     show_default=True,
                     help="Resign below this win rate (0: never)."),
        click.option("--max-memory", type=Number(1), default=options.DEFAULT_MEMORY_MB,
                     show_default=True,
                     help="Megabytes for the search trees."),
    ]
    for option in reversed(decorators):
        command = option(command)
    return command


def engine_config(engine_settings, default_size, **more):
    """The :class:`mcgo.config.EngineConfig` of :func:`engine_options`' values, the board
    size ``default_size`` where ``--size`` was not given, and ``more`` (the advice, the
    judge, the models); a configuration the options allowed but that does not hold
    together is a usage error."""
    from .config import EngineConfig

    values = dict(engine_settings)
    values["size"] = values["size"] or default_size
    values["max_memory_mb"] = values.pop("max_memory")
    try:
        return EngineConfig(**values, **more)
    except ValueError as e:
        raise click.UsageError(str(e)) from None


def casebase_choice(choice, preset):
    """``--casebase`` with ``auto`` resolved: the shipped case base (``default``) for the
    thesis preset, ``none`` for the others.

    >>> casebase_choice("auto", "thesis"), casebase_choice("auto", "strong"), casebase_choice("x.mcgocb", "strong")
    ('default', 'none', 'x.mcgocb')
    """
    if choice != "auto":
        return choice
    return "default" if preset == "thesis" else "none"


def make_opening_advisor(choice, bonus_moves, quiet=False):
    """The case-base advisor for ``--casebase`` (None for ``none`` or no shipped file)."""
    from .casebase import CaseBaseError, OpeningAdvisor, default_casebase_path, open_casebase

    try:
        casebase = open_casebase(choice)
    except CaseBaseError as e:
        raise click.BadParameter(str(e), param_hint="--casebase")
    if casebase is None:
        if choice == "default" and not quiet:
            sys.stderr.write(f"no case base at {default_casebase_path()}: playing without\n")
        return None
    return OpeningAdvisor(casebase, bonus_moves=bonus_moves)


def advice_options(command):
    """The options ``mcgo gtp`` and ``mcgo play`` share for the search's advice: the case
    base, the learned move model and the policy net."""
    decorators = [
        click.option("--casebase", default="auto", show_default=True,
                     metavar="FILE|default|auto|none",
                     help="Case base for the opening bonus on its board size: a file (mcgo "
                          "build-casebase), the shipped 19x19 one (default), or auto: the "
                          "shipped one with --preset thesis, none with the strong preset "
                          "(whose search its bonus led astray: benchmarks/journal/)."),
        click.option("--casebase-moves", type=click.IntRange(0), default=20, show_default=True,
                     help="The case-base bonus applies to moves 1 to N."),
        click.option("--model", "model_file", default="auto", show_default=True,
                     metavar="FILE|default|auto|none",
                     help="Learned move model for the tree's priors (near the root: the "
                          "model_depth setting): a file (mcgo learn moves), the shipped one "
                          "(default), the shipped one where it was measured to help: 9x9, "
                          "13x13 and 19x19 (auto), or none."),
        click.option("--policy-net", "policy_net", default="default", show_default=True,
                     metavar="FILE|default|none",
                     help="Policy net for the tree's priors on its board size: "
                          "--policy-prior virtual visits on each move of the root and of a "
                          "node with policy_net_after visits, P(move) / P(best) of them won; "
                          "a file (mcgo learn policy-net), the shipped ones (default: the "
                          "19x19 net, and on 9x9 a net of our own 9x9 games at the root "
                          "alone), or none."),
        click.option("--policy-prior", type=Number(0), default=options.POLICY_PRIOR_VISITS,
                     show_default=True,
                     help="Virtual visits of --policy-net's prior on each move it gives (0: none)."),
    ]
    for option in reversed(decorators):
        command = option(command)
    return command


corner_net_option = click.option(
    "--corner-net", "corner_net", default="none", show_default=True, metavar="FILE|corner|none",
    help="Seed 004's corner life-and-death net as a second judge of the groups inside a 7x7 "
         "corner in the dead stones and the final score, where it is confident: a file (mcgo "
         "learn corner), the shipped one (corner), or none.")


status_search_option = click.option(
    "--status-search", "status_search", type=click.IntRange(0), default=0, show_default=True,
    metavar="SIMULATIONS",
    help="Judge dead stones and the final score from the ownership of a tree search of this "
         "many simulations instead of plain playouts (0: playouts): the tree reads the "
         "capturing races the playouts misjudge before the end of a game.")


ownership_prior_option = click.option(
    "--ownership-prior", type=NumberOrAuto(0), default=0.0, show_default=True,
    help="Virtual visits of seed 003's 1-ply ranker as a prior on the root's moves: a number "
         "(every size), 0 (none), or auto (10 on 19x19, where 20 games at equal time favoured "
         "it, not yet significantly; none on 9x9, where it was level). The network: "
         "--ownership-net's where given, else the shipped one.")


def ownership_prior_visits(choice):
    """``--ownership-prior``'s virtual visits: a number, or a dict by board size for auto."""
    if choice == "auto":
        from .models.ownership.model import AUTO_PRIOR_VISITS
        return dict(AUTO_PRIOR_VISITS)
    return choice


def open_corner(choice):
    """The corner net of ``--corner-net`` (None for ``none``); a bad one is a usage error."""
    from .models.corner import open_corner_net
    try:
        return open_corner_net(choice)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--corner-net") from None


SHIPPED_MODELS = ("default", "auto")


def policy_prior_of(choice, visits):
    """The search's ``policy_prior`` of ``--policy-net`` and ``--policy-prior``: ``(net,
    visits)``, or None for ``none`` or no visits; a bad file is a usage error."""
    if choice == "none" or not visits:
        return None
    from .models.policy_net import PolicyNetError, open_policy_net
    try:
        return open_policy_net(choice), visits
    except PolicyNetError as e:
        raise click.BadParameter(str(e), param_hint="--policy-net") from None


def open_move_model(choice):
    """The learned move model of ``--model`` (None for ``none``); a bad one is a usage error."""
    if choice == "none":
        return None
    from .models.movemodel import ModelError, open_model
    try:
        return open_model(choice)
    except ModelError as e:
        raise click.BadParameter(str(e), param_hint="--model") from None


@main.command()
@engine_options
@click.option("--quiet", is_flag=True, help="No search summaries on stderr.")
@advice_options
@click.option("--ownership-net", "ownership_net", default="none", show_default=True,
              metavar="FILE|dagrnn|none",
              help="Seed 003's ownership network for the chains the playouts leave unsure "
                   "in final_status_list and final_score, and for mcgo-ownership net: a "
                   "file (mcgo learn ownership), the shipped one (dagrnn), or none.")
@ownership_prior_option
@corner_net_option
@status_search_option
@click.option("--evaluator", default="none", show_default=True, metavar="ecfg|FILE|none",
              help="Seed 002's ECFG outcome evaluator of the position after each root move, "
                   "mixed into the search as --evaluator-visits virtual visits: the shipped "
                   "one (ecfg, 9x9), a file of mcgo learn ecfg, or none.")
@click.option("--evaluator-visits", type=Number(0, min_open=True), default=10.0, show_default=True,
              help="Virtual visits of --evaluator's value on each root move.")
@click.option("--ponder", is_flag=True,
              help="After each move, search on in the opponent's time, until the next "
                   "command or half the tree memory (--max-memory) is used; the next move "
                   "reuses that tree.")
@click.option("--player", "player_kind", type=click.Choice(["mcts", "cfg", "td", "playout"]),
              default="mcts", show_default=True,
              help="Who chooses genmove's answer: the search, seed 000's move scorer alone "
                   "(Foulds's one-move player), seed 004's 7x7 TD net (--td-net), or the "
                   "playout policy (--policy: its most frequent first move); analysis "
                   "commands still search.")
@click.option("--td-net", default="td1", show_default=True, metavar="td0|td1|FILE",
              help="The net of --player td: a shipped one (lambda 0 or 1) or a file of mcgo "
                   "learn td.")
@click.option("--scorer", default="cfg", show_default=True, metavar="cfg|FILE",
              help="The move scorer of --player cfg and --cfg-prior: the shipped one or a file "
                   "of mcgo learn cfg / cfg-games.")
@click.option("--cfg-prior", type=Number(0), default=0.0, show_default=True,
              help="Weight of the move scorer's value (0-1) as a bonus on the search's first "
                   "moves (0: none).")
def gtp(quiet, casebase, casebase_moves, model_file, policy_net, policy_prior, ownership_net,
        ownership_prior, corner_net, status_search, evaluator, evaluator_visits, ponder,
        player_kind, td_net, scorer, cfg_prior, **engine_settings):
    """Play Go over GTP on stdin/stdout (for GUIs, servers and match runners)."""
    import io

    from .gtp.protocol import serve_while_starting

    advisor = None
    casebase = casebase_choice(casebase, engine_settings["preset"])
    if casebase not in ("none", "default"):
        # A file named on the command line is checked before anything is answered (it costs
        # the import of the case-base code, about a second); the shipped one loads with the
        # engine, after the first commands.
        if not os.path.isfile(casebase):
            raise click.BadParameter(f"no case base file {casebase}", param_hint="--casebase")
        advisor = make_opening_advisor(casebase, casebase_moves, quiet)
    # A model file is checked before anything is answered; the shipped one (default, auto)
    # loads with the engine, after the first commands.
    model = None if model_file in SHIPPED_MODELS else open_move_model(model_file)

    net = None
    ownership_prior = ownership_prior_visits(ownership_prior)
    if ownership_net != "none":
        from .models.ownership.model import open_ownership
        from .models.ownership.network import NetworkError
        try:
            net = open_ownership(ownership_net)
        except NetworkError as e:
            raise click.BadParameter(str(e), param_hint="--ownership-net") from None

    corner = open_corner(corner_net)
    outcome_model = None
    if evaluator != "none":
        from .models.ecfg_evaluator import open_evaluator
        try:
            outcome_model = open_evaluator(evaluator)
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--evaluator") from None

    policy = policy_prior_of(policy_net, policy_prior)
    move_player = move_scorer = None
    if player_kind == "cfg" or cfg_prior:
        from .models.cfg_scorer import ScorerError, open_scorer
        from .engine.cfg_player import CfgPlayer
        try:
            move_scorer = open_scorer(scorer)
        except ScorerError as e:
            raise click.BadParameter(str(e), param_hint="--scorer") from None
        if player_kind == "cfg":
            move_player = CfgPlayer(move_scorer)
    if player_kind == "td":
        from .models.td_net import SHIPPED, load_net
        from .resources import package_file
        from .engine.td_player import TdPlayer
        path = package_file("mcgo.models", "weights", SHIPPED[td_net]) if td_net in SHIPPED else td_net
        try:
            move_player = TdPlayer(load_net(path)[0])
        except ValueError as e:
            raise click.BadParameter(str(e), param_hint="--td-net") from None

    def start_engine():
        from .gtp.engine import Engine
        prior_net = None
        if ownership_prior:
            from .models.ownership.model import open_ownership
            prior_net = net or open_ownership("dagrnn")
        config = engine_config(
            engine_settings, options.DEFAULT_GTP_SIZE, model=model or open_move_model(model_file),
            ponder=ponder, ownership_net=net, corner_net=corner, status_search=status_search,
            ownership_prior=(prior_net, ownership_prior) if ownership_prior else None,
            evaluator_prior=(outcome_model, evaluator_visits) if outcome_model is not None
            else None,
            policy_prior=policy,
            move_player=move_player, playout_player=player_kind == "playout",
            move_scorer=move_scorer, cfg_prior=cfg_prior,
            opening_advisor=advisor if casebase != "default"
            else make_opening_advisor(casebase, casebase_moves, quiet))
        engine = Engine(config, verbose=not quiet)
        engine.warm_up()
        return engine

    # Lines end at LF only: GTP discards a CR (section 3.1), it does not end a command.
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="\n")
    try:
        serve_while_starting(start_engine, stdin, sys.stdout)
    except KeyboardInterrupt:
        pass


@main.command(context_settings={"help_option_names": ["-h", "--help", "-help"]})
@click.option("-model", "katago_model", metavar="FILE",
              help="KataGo's network: accepted (KataGo's command line) and not used.")
@click.option("-human-model", "human_model", metavar="FILE", hidden=True)
@click.option("-config", "katago_config", type=click.Path(exists=True, dir_okay=False),
              default=None, metavar="FILE",
              help="A KataGo analysis config: its maxVisits, maxTime and "
                   "reportAnalysisWinratesAs are read, the rest is KataGo's own.")
@click.option("-override-config", "override_config", multiple=True, metavar="K=V,K=V",
              help="KataGo's overrides of the config (maxVisits, maxTime, "
                   "reportAnalysisWinratesAs, numAnalysisThreads, "
                   "numSearchThreadsPerAnalysisThread); other keys are ignored with a note.")
@click.option("-analysis-threads", "--analysis-threads", "analysis_threads",
              type=click.IntRange(1, 64), default=None,
              help="Positions searched at once [default: 2].")
@click.option("-quit-without-waiting", "quit_without_waiting", is_flag=True,
              help="At the end of stdin, stop instead of finishing the queued queries.")
@click.option("--threads", type=click.IntRange(1, 64), default=None,
              help="Search threads per position [default: 1].")
@click.option("--visits", type=click.IntRange(1), default=500, show_default=True,
              help="Visits of a query without maxVisits (the config's or an override's "
                   "maxVisits wins).")
@click.option("--winrates-as", "winrates_as",
              type=click.Choice(["BLACK", "WHITE", "SIDETOMOVE"], case_sensitive=False),
              default="BLACK", show_default=True,
              help="The side the answers' values are from, unless the config or the query "
                   "says (KataGo's analysis configs say BLACK).")
@click.option("--preset", type=click.Choice(PRESET_CHOICES), default=options.DEFAULT_PRESET,
              show_default=True, help="The search's set of constants.")
@click.option("--policy", type=click.Choice(PLAYOUT_POLICY_CHOICES),
              default=options.DEFAULT_POLICY, show_default=True, help="Playout policy.")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE",
              callback=parse_setting_options, help="Change one of the preset's named settings.")
@click.option("--model", "model_file", default="auto", show_default=True,
              metavar="auto|default|FILE|none",
              help="mcgo's learned move model (the tree's priors, and the answers' policy).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the searches.")
@click.option("--max-memory", type=Number(1), default=options.DEFAULT_MEMORY_MB,
              show_default=True, help="Megabytes for the search trees of each position.")
def analysis(katago_model, human_model, katago_config, override_config, analysis_threads,
             quit_without_waiting, threads, visits, winrates_as, preset, policy, settings,
             model_file, seed, max_memory):
    """KataGo's JSON analysis engine on stdin/stdout (for KaTrain and other analysis tools):
    `mcgo analysis -model M -config C` runs as `katago analysis ...` does."""
    from .apps import analysis_engine as ae
    from .config import EngineConfig
    from .apps.analysis_query import Defaults

    try:
        file_values = ae.read_config_file(katago_config) if katago_config else {}
        overrides = ae.parse_overrides(override_config)
        defaults, workers, search_threads, notes = ae.engine_settings(
            file_values, overrides, Defaults(visits, None, winrates_as.upper()))
    except (OSError, ValueError) as e:
        raise click.UsageError(str(e)) from None
    workers = analysis_threads or workers or 2
    config = EngineConfig(preset=preset, policy=policy, threads=threads or search_threads or 1,
                          seed=seed, max_memory_mb=max_memory, settings=settings,
                          model=open_move_model(model_file),
                          policy_prior=policy_prior_of("default", options.POLICY_PRIOR_VISITS))
    for text in notes:
        ae.note(text)
    if katago_model or human_model:
        ae.note("mcgo analysis: the -model network is not used (mcgo searches with playouts)")
    ae.run_engine(config, workers, defaults, quit_without_waiting=quit_without_waiting)


@main.command()
def warmup():
    """Compile every kernel into Numba's cache now (after installing), so that the first
    game does not spend its first minute compiling."""
    import io
    import time

    from .config import EngineConfig
    from .gtp.engine import Engine
    from .models.ownership.model import AUTO_PRIOR_VISITS, open_ownership

    start = time.perf_counter()
    # With the default model, so that the kernels of its priors are compiled too, and the
    # ownership prior, for the net's.
    config = EngineConfig(size=19, model=open_move_model("auto"),
                          opening_advisor=make_opening_advisor("default", 20, quiet=True),
                          ownership_prior=(open_ownership("dagrnn"), dict(AUTO_PRIOR_VISITS)))
    engine = Engine(config, out=io.StringIO(), verbose=False)
    engine.warm_up()
    # mcgo analysis's policy: the move model's scorer of every legal move.
    from .apps.analysis_query import policy_of
    from .board.board import Board
    policy_of(config.model.for_size(19), Board(19))
    click.echo(f"kernels ready in {time.perf_counter() - start:.1f} s")


@main.command()
@engine_options
@click.option("--color", type=click.Choice(["black", "white"]), default="black",
              show_default=True, help="Your colour.")
@click.option("--handicap", type=click.IntRange(2, 9), default=None,
              help="Fixed handicap stones for black (as GTP fixed_handicap; at most 4 on "
                   "even boards); white moves first. Komi is then 0.5 unless --komi is given.")
@click.option("--sgf", "sgf_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game record (SGF, with the result) here when the game ends "
                   "or you quit.")
@advice_options
@corner_net_option
@status_search_option
@ownership_prior_option
def play(color, handicap, sgf_path, casebase, casebase_moves, model_file, policy_net, policy_prior,
         corner_net, status_search, ownership_prior, **engine_settings):
    """Play a game against mcgo in the terminal: type moves like D4, or pass, resign, undo,
    hint, score, save FILE, help, quit."""
    from click.core import ParameterSource

    from .apps.terminal import check_handicap, check_writable, play_in_terminal

    from .gtp.engine import Engine

    config = engine_config(engine_settings, options.DEFAULT_PLAY_SIZE)
    check_handicap(config.size, handicap)
    check_writable(sgf_path)
    casebase = casebase_choice(casebase, config.preset)
    if casebase not in ("none", "default") and not os.path.isfile(casebase):
        raise click.BadParameter(f"no case base file {casebase}", param_hint="--casebase")
    changes = dict(opening_advisor=make_opening_advisor(casebase, casebase_moves, quiet=True),
                   model=open_move_model(model_file), corner_net=open_corner(corner_net),
                   status_search=status_search,
                   policy_prior=policy_prior_of(policy_net, policy_prior))
    if handicap and click.get_current_context().get_parameter_source("komi") \
            == ParameterSource.DEFAULT:
        from .apps.terminal import HANDICAP_KOMI
        changes["komi"] = HANDICAP_KOMI
    visits = ownership_prior_visits(ownership_prior)
    if options.for_size(visits, config.size):   # the net is loaded only where it is used
        from .models.ownership.model import open_ownership
        changes["ownership_prior"] = (open_ownership("dagrnn"), visits)
    engine = Engine(config.replace(**changes), verbose=False)
    play_in_terminal(engine, color, sgf_path=sgf_path, handicap=handicap)


def add_match_commands():
    """``mcgo match`` and ``mcgo regress`` live with their runners in :mod:`mcgo.match`."""
    from .match.commands import match, regress, tune

    main.add_command(match)
    main.add_command(regress)
    main.add_command(tune)


add_match_commands()


def add_tool_commands():
    """``mcgo bench``, ``build-casebase``, ``influence``, ``ownership`` and ``solve``."""
    from .commands import add_tool_commands as add

    add(main)


add_tool_commands()


def add_learn_commands():
    """``mcgo learn ...`` lives with the learning code in :mod:`mcgo.train`."""
    from .train.commands import learn

    main.add_command(learn)


add_learn_commands()


if __name__ == "__main__":
    main()
