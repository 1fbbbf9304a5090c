"""The ``mcgo`` command: a click group that each part of the engine adds its command to."""

import json
import os
import sys

import click

from . import __version__, options
from .clitypes import FINITE, Number, NumberOrAuto, OutputFile

# ``mcgo bench`` measures the policies that play (``auto`` only picks one of them), or all.
BENCH_POLICIES = [name for name in options.PLAYOUT_POLICIES if name != "auto"]
POLICY_CHOICES = BENCH_POLICIES + ["all"]
SIZE_CHOICES = ["9", "13", "19"]


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


@main.command()
@click.option("--policy", type=click.Choice(POLICY_CHOICES), default="all", show_default=True,
              help="Playout policy to measure.")
@click.option("--size", "sizes", type=click.Choice(SIZE_CHOICES), multiple=True,
              help="Board size (repeat for several). Default: 9 and 19.")
@click.option("--seconds", type=Number(0, min_open=True), default=3.0, show_default=True,
              help="Measuring time per row, after a warm-up.")
@click.option("--threads", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Threads running playouts at once.")
@click.option("--start", type=click.Choice(["empty", "midgame", "both"]), default="both",
              show_default=True, help="Start from the empty board, a middle-game position, or both.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed of the playouts' random numbers.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON on stdout.")
def bench(policy, sizes, seconds, threads, start, seed, as_json):
    """Measure playouts per second of each playout policy."""
    from .apps.bench import MIDGAME_POSITIONS, format_table, machine_facts, progress_printer, run_bench

    policies = BENCH_POLICIES if policy == "all" else [policy]
    sizes = [int(s) for s in sizes] or [9, 19]
    starts = ["empty", "midgame"] if start == "both" else [start]
    rows = []
    for size in sizes:
        for where in starts:
            if where == "midgame" and size not in MIDGAME_POSITIONS:
                continue
            for name in policies:
                label = f"{name} {size}x{size} {where} x{threads}"
                rows.append(run_bench(name, size, seconds, threads, where, seed,
                                      progress=progress_printer(label, seconds)))
                sys.stderr.write("\n")
    if as_json:
        click.echo(json.dumps(dict(machine=machine_facts(), results=rows), indent=2))
    else:
        click.echo(format_table(rows))


@main.command("build-casebase")
@click.argument("sources", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("-o", "--output", type=OutputFile(), default="casebase.mcgocb",
              show_default=True, help="Case-base file to write.")
@click.option("--moves", type=click.IntRange(1, 1000), default=40, show_default=True,
              help="Positions indexed per game (moves 1..N); shorter games are skipped.")
@click.option("--size", type=click.IntRange(5, 25), default=19, show_default=True,
              help="Board size of the case base; games of other sizes are skipped.")
@click.option("--threshold", type=Number(0), default=None,
              help="Influence margin (stone units) for a point to count as black or white.")
@click.option("--jobs", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Processes indexing games in parallel.")
@click.option("--log", "log_path", type=OutputFile(), default=None,
              help="Also write every skipped game with its reason to this file.")
def build_casebase_command(sources, output, moves, size, threshold, jobs, log_path):
    """Index SGF games (files, folders searched recursively, .tar.gz archives) into a case base."""
    from .casebase import DEFAULT_THRESHOLD
    from .train.casebase_build import build_casebase
    from .sgf.sources import input_files, total_size

    files, _ = input_files(sources)
    if not files:
        raise click.UsageError("no SGF files (.sgf, .mgt) or archives (.tar.gz) among the sources")
    total = total_size(files)
    with click.progressbar(length=total, label="indexing", file=sys.stderr,
                           show_pos=False, show_percent=True, show_eta=True) as bar:
        cb, report = build_casebase(sources, size=size, max_moves=moves,
                                    threshold=DEFAULT_THRESHOLD if threshold is None else threshold,
                                    jobs=jobs, progress=bar.update)
    cb.save(output)
    if log_path:
        with open(log_path, "w", encoding="utf-8") as f:
            f.write("\n".join(report.skipped_messages) + "\n")
    click.echo(report.summary())
    click.echo(f"wrote {output} ({len(cb)} positions from {report.games_indexed} games)")


def position_of(game, move_number):
    """The board of the SGF file ``game`` after ``move_number`` moves and a title for its
    picture; a one-line error when the file cannot be read or replayed."""
    from .sgf import ReplayError, SgfError, read_game, replay

    try:
        record = read_game(game)
        board = replay(record, max_moves=move_number)
    except (ReplayError, SgfError) as e:
        hint = " (use a smaller --move)" if isinstance(e, ReplayError) else ""
        error = click.ClickException(f"{e}{hint}")
        error.exit_code = 2        # bad input, as click's own usage errors
        raise error from None
    name = game.rsplit("/", 1)[-1]
    return board, f"{name} after {min(move_number, len(record.moves))} moves"


@main.command()
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--move", "move_number", type=click.IntRange(0), default=30, show_default=True,
              help="Show the position after this many moves.")
@click.option("-o", "--output", type=OutputFile(), required=True,
              help="Picture to write (.png or .svg).")
@click.option("--threshold", type=Number(0), default=None,
              help="Influence margin (stone units) for a point to count as black or white.")
def influence(game, move_number, output, threshold):
    """Draw a position of GAME.sgf beside its flow influence map (thesis figure 7.1)."""
    from .casebase import DEFAULT_THRESHOLD
    from .apps.casebase_picture import draw_influence

    board, title = position_of(game, move_number)
    draw_influence(board, output, DEFAULT_THRESHOLD if threshold is None else threshold,
                   title=title)
    click.echo(f"wrote {output}")


@main.command("ownership")
@click.argument("game", type=click.Path(exists=True, dir_okay=False))
@click.option("--move", "move_number", type=click.IntRange(0), default=80, show_default=True,
              help="Show the position after this many moves.")
@click.option("-o", "--output", type=OutputFile(), required=True,
              help="Picture to write (.png or .svg).")
@click.option("--net", default="dagrnn", show_default=True,
              help="Ownership network: 'dagrnn' (shipped) or a file of `mcgo learn ownership`.")
@click.option("--playouts", type=click.IntRange(0), default=1000, show_default=True,
              help="Also draw the playouts' ownership from this many playouts (0: no).")
def ownership_picture(game, move_number, output, net, playouts):
    """Draw a position of GAME.sgf beside its ownership: seed 003's network and the playouts."""
    from .models.ownership.model import open_ownership
    from .models.ownership.network import NetworkError

    try:
        model = open_ownership(net)
    except (NetworkError, FileNotFoundError) as e:
        raise click.BadParameter(str(e), param_hint="--net")
    board, title = position_of(game, move_number)
    maps = [(f"network ({net})", model.ownership(board))]
    if playouts:
        from .playout import ownership
        maps.append((f"playouts ({playouts})", (ownership(board, playouts=playouts) + 1) / 2))
    from .apps.ownership_picture import draw_ownership
    draw_ownership(board, maps, output, title=title)
    click.echo(f"wrote {output}")


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


def make_engine(size, komi, playouts, seconds, threads, parallel, seed, policy, preset, resign,
                max_memory, default_size, settings=None, **extra):
    from .gtp.engine import Engine
    return Engine(size=size or default_size, komi=komi, preset=preset, policy=policy,
                  threads=threads, parallel=parallel, seed=seed, playouts=playouts,
                  seconds=seconds,
                  resign=resign, max_memory_mb=max_memory, settings=settings, **extra)


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
    base and the learned move model."""
    decorators = [
        click.option("--casebase", default="auto", show_default=True,
                     metavar="FILE|default|auto|none",
                     help="Case base for the opening bonus on its board size: a file (mcgo "
                          "build-casebase), the shipped 19x19 one (default), or auto: the "
                          "shipped one with --preset thesis, none with the strong preset "
                          "(whose search its bonus led astray: benchmarks/RESULTS.md)."),
        click.option("--casebase-moves", type=click.IntRange(0), default=20, show_default=True,
                     help="The case-base bonus applies to moves 1 to N."),
        click.option("--model", "model_file", default="auto", show_default=True,
                     metavar="FILE|default|auto|none",
                     help="Learned move model for the tree's priors (near the root: the "
                          "model_depth setting): a file (mcgo learn moves), the shipped one "
                          "(default), the shipped one where it was measured to help: 9x9 and "
                          "19x19 (auto), or none."),
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
def gtp(quiet, casebase, casebase_moves, model_file, ownership_net, ownership_prior, corner_net,
        status_search, evaluator, evaluator_visits, ponder, player_kind, td_net, scorer, cfg_prior,
        **engine_settings):
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
        engine = make_engine(default_size=options.DEFAULT_GTP_SIZE, verbose=not quiet,
                             model=model or open_move_model(model_file), **engine_settings)
        engine.ownership_model = net
        engine.status.corner_net = corner
        engine.status.search = status_search
        if ownership_prior:
            from .models.ownership.model import open_ownership
            engine.use_ownership_prior(ownership_prior, net or open_ownership("dagrnn"))
        engine.player.search.evaluator_prior = \
            (outcome_model, evaluator_visits) if outcome_model is not None else None
        engine.ponder = ponder
        engine.move_player = move_player
        if player_kind == "playout":
            engine.use_playout_player()
        engine.player.move_prior = (move_scorer, cfg_prior) if cfg_prior else None
        engine.opening_advisor = advisor if casebase != "default" else \
            make_opening_advisor(casebase, casebase_moves, quiet)
        engine.warm_up()
        return engine

    # Lines end at LF only: GTP discards a CR (section 3.1), it does not end a command.
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace", newline="\n")
    try:
        serve_while_starting(start_engine, stdin, sys.stdout)
    except KeyboardInterrupt:
        pass


@main.command()
def warmup():
    """Compile every kernel into Numba's cache now (after installing), so that the first
    game does not spend its first minute compiling."""
    import io
    import time

    from .gtp.engine import Engine

    start = time.perf_counter()
    # With the default model, so that the kernels of its priors are compiled too.
    engine = Engine(size=19, out=io.StringIO(), verbose=False, model=open_move_model("auto"))
    engine.opening_advisor = make_opening_advisor("default", 20, quiet=True)
    from .models.ownership.model import AUTO_PRIOR_VISITS, open_ownership
    engine.use_ownership_prior(AUTO_PRIOR_VISITS, open_ownership("dagrnn"))   # the net's kernels
    engine.warm_up()
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
def play(color, handicap, sgf_path, casebase, casebase_moves, model_file, corner_net,
         status_search, ownership_prior, **engine_settings):
    """Play a game against mcgo in the terminal: type moves like D4, or pass, resign, undo,
    hint, score, save FILE, help, quit."""
    from click.core import ParameterSource

    from .apps.terminal import check_handicap, check_writable, play_in_terminal

    size = engine_settings["size"] or options.DEFAULT_PLAY_SIZE
    check_handicap(size, handicap)
    check_writable(sgf_path)
    casebase = casebase_choice(casebase, engine_settings["preset"])
    if casebase not in ("none", "default") and not os.path.isfile(casebase):
        raise click.BadParameter(f"no case base file {casebase}", param_hint="--casebase")
    advisor = make_opening_advisor(casebase, casebase_moves, quiet=True)
    model = open_move_model(model_file)
    corner = open_corner(corner_net)
    if handicap and click.get_current_context().get_parameter_source("komi") \
            == ParameterSource.DEFAULT:
        from .apps.terminal import HANDICAP_KOMI
        engine_settings["komi"] = HANDICAP_KOMI
    engine = make_engine(default_size=options.DEFAULT_PLAY_SIZE, verbose=False, model=model,
                         **engine_settings)
    engine.opening_advisor = advisor
    engine.status.corner_net = corner
    engine.status.search = status_search
    visits = ownership_prior_visits(ownership_prior)
    if options.for_size(visits, size):          # the net is loaded only where it is used
        from .models.ownership.model import open_ownership
        engine.use_ownership_prior(visits, open_ownership("dagrnn"))
    play_in_terminal(engine, color, sgf_path=sgf_path, handicap=handicap)


def add_match_commands():
    """``mcgo match`` and ``mcgo regress`` live with their runners in :mod:`mcgo.match`."""
    from .match.commands import match, regress, tune

    main.add_command(match)
    main.add_command(regress)
    main.add_command(tune)


add_match_commands()


@main.command("solve")
@click.argument("problem", type=click.Path(exists=True, dir_okay=False))
@click.option("--move", "move_number", type=click.IntRange(0), default=None,
              help="Solve the position after this many moves of the record [default: all].")
@click.option("--color", type=click.Choice(["black", "white"]), default=None,
              help="The player [default: the record's PL, else the side to move].")
@click.option("--region", default=None, metavar="A1:G7",
              help="The region the answer must lie in [default: the stones' bounding box "
                   "grown by 2].")
@click.option("--with", "method", type=click.Choice(options.SOLVE_METHODS), default="search",
              show_default=True, help="Solve by the search, or by seed 000's move scorer.")
@click.option("--playouts", type=click.IntRange(1), default=options.SOLVE_PLAYOUTS,
              show_default=True, help="Simulations of the search.")
@click.option("--scorer", default="cfg", show_default=True, metavar="cfg|FILE",
              help="The move scorer of --with cfg: the shipped one or a file of mcgo learn cfg.")
@click.option("--prior", type=click.FloatRange(0), default=options.SOLVE_SCORER_PRIOR, show_default=True,
              help="Weight of the CFG scorer's value as a bonus on the search's first moves "
                   "(0: the search alone).")
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Search threads.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the search's random numbers.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
def solve_command(problem, move_number, color, region, method, playouts, scorer, prior,
                  threads, seed, as_json):
    """Answer the problem PROBLEM.sgf inside its region: the move, its win rate and main
    line (search), or its score (cfg)."""
    from .board import BLACK, coords
    from .apps.solve import problem_board, region_points, solve

    board = problem_board(problem, move_number, color)
    try:
        points = region_points(board, region)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="--region") from None
    if method == "cfg" or prior:
        from .models.cfg_scorer import ScorerError, open_scorer
        try:
            scorer = open_scorer(scorer)
        except ScorerError as e:
            raise click.BadParameter(str(e), param_hint="--scorer") from None
    answer = solve(board, points, method, playouts, options.normalize_seed(seed), scorer,
                   threads, prior=prior)
    who = "black" if board.to_move == BLACK else "white"
    if as_json:
        click.echo(json.dumps(dict(answer.as_dict(board.size), player=who), indent=2))
        return
    move = coords.to_gtp(answer.move, board.size)
    if method == "cfg":
        click.echo(f"{who} {move} (scorer value {answer.score:.3f})" if answer.score is not None
                   else f"{who} pass (no legal move in the region)")
    else:
        line = " ".join(coords.to_gtp(p, board.size) for p in answer.line)
        click.echo(f"{who} {move}: win rate {answer.winrate:.3f} after {answer.simulations} "
                   f"simulations; main line {line}")


def add_learn_commands():
    """``mcgo learn ...`` lives with the learning code in :mod:`mcgo.train`."""
    from .train.commands import learn

    main.add_command(learn)


add_learn_commands()


if __name__ == "__main__":
    main()
