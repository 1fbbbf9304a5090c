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
from .frontoptions import engine_options, given, recipe_of


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


def _usage(error):
    """A :class:`~mcgo.engine.recipe.RecipeError` found while the engine is built, as
    the command line's one-line usage error."""
    return click.BadParameter(error.message, param_hint=error.option)


@main.command()
@engine_options("gtp")
@click.option("--quiet", is_flag=True, help="No search summaries on stderr.")
@click.option("--ogs-chat", is_flag=True,
              help="After each genmove, one MALKOVICH: line on stderr with the win rate, "
                   "the score lead and the principal variation, which OGS's gtp2ogs posts "
                   "to the game's observers.")
def gtp(quiet, ogs_chat, **values):
    """Play Go over GTP on stdin/stdout (for GUIs, servers and match runners)."""
    import io

    from .gtp.protocol import serve_while_starting

    # The files named on the command line open now, before anything is answered; the
    # shipped models load with the engine, after the first commands.
    recipe, opened = recipe_of("gtp", values)

    def start_engine():
        from .gtp.engine import Engine
        config = recipe.engine_config(options.DEFAULT_GTP_SIZE, opened, quiet=quiet)
        engine = Engine(config, verbose=not quiet, chat=ogs_chat)
        engine.game.warm_up()
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
@click.option("--visits", type=click.IntRange(1), default=500, show_default=True,
              help="Visits of a query without maxVisits (the config's or an override's "
                   "maxVisits wins).")
@click.option("--winrates-as", "winrates_as",
              type=click.Choice(["BLACK", "WHITE", "SIDETOMOVE"], case_sensitive=False),
              default="BLACK", show_default=True,
              help="The side the answers' values are from, unless the config or the query "
                   "says (KataGo's analysis configs say BLACK).")
@engine_options("analysis")
def analysis(katago_model, human_model, katago_config, override_config, analysis_threads,
             quit_without_waiting, visits, winrates_as, **values):
    """KataGo's JSON analysis engine on stdin/stdout (for KaTrain and other analysis tools):
    `mcgo analysis -model M -config C` runs as `katago analysis ...` does. The search's
    options are mcgo gtp's; --threads is each position's (else the config's
    numSearchThreadsPerAnalysisThread, else 1)."""
    from .apps import analysis_engine as ae
    from .apps.analysis_query import Defaults
    from .engine.recipe import RecipeError

    threads_given = given("threads")
    recipe, opened = recipe_of("analysis", values)
    try:
        file_values = ae.read_config_file(katago_config) if katago_config else {}
        overrides = ae.parse_overrides(override_config)
        defaults, workers, search_threads, notes = ae.engine_settings(
            file_values, overrides, Defaults(visits, None, winrates_as.upper()))
    except (OSError, ValueError) as e:
        raise click.UsageError(str(e)) from None
    workers = analysis_threads or workers or 2
    if not threads_given and search_threads:
        recipe = recipe.replace(threads=search_threads)
    try:
        config = recipe.engine_config(opened=opened)
    except RecipeError as e:
        raise _usage(e) from None
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

    from .engine.recipe import Recipe
    from .gtp.engine import Engine

    start = time.perf_counter()
    # The default engine with the shipped case base and the ownership prior as well, so
    # that the kernels of their priors are compiled too.
    config = Recipe(casebase="default", ownership_prior="auto").engine_config(19)
    engine = Engine(config, out=io.StringIO(), verbose=False)
    engine.game.warm_up()
    # mcgo analysis's policy: the move model's scorer of every legal move.
    from .apps.analysis_query import policy_of
    from .board.board import Board
    policy_of(config.search.model.for_size(19), Board(19))
    click.echo(f"kernels ready in {time.perf_counter() - start:.1f} s")


@main.command()
@click.option("--color", type=click.Choice(["black", "white"]), default="black",
              show_default=True, help="Your colour.")
@click.option("--handicap", type=click.IntRange(2, 9), default=None,
              help="Fixed handicap stones for black (as GTP fixed_handicap; at most 4 on "
                   "even boards); white moves first. Komi is then 0.5 unless --komi is given.")
@click.option("--sgf", "sgf_path", type=click.Path(dir_okay=False), default=None,
              help="Write the game record (SGF, with the result) here when the game ends "
                   "or you quit.")
@engine_options("play")
def play(color, handicap, sgf_path, **values):
    """Play a game against mcgo in the terminal: type moves like D4, or pass, resign, undo,
    hint, score, save FILE, help, quit."""
    from .apps.terminal import HANDICAP_KOMI, check_handicap, check_writable, play_in_terminal
    from .engine.game import Game
    from .engine.recipe import RecipeError

    komi_given = given("komi")
    recipe, opened = recipe_of("play", values)
    size = recipe.size or options.DEFAULT_PLAY_SIZE
    check_handicap(size, handicap)
    check_writable(sgf_path)
    if handicap and not komi_given:
        recipe = recipe.replace(komi=HANDICAP_KOMI)
    try:
        config = recipe.engine_config(size, opened)
    except RecipeError as e:
        raise _usage(e) from None
    play_in_terminal(Game(config, verbose=False), color, sgf_path=sgf_path, handicap=handicap)


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
