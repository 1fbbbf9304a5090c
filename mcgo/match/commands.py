# SPDX-License-Identifier: GPL-3.0-or-later
"""``mcgo match`` and ``mcgo regress``: the click commands (:mod:`mcgo.cli` adds them).

Only light modules are imported here (the regression runner is one); the match runner, and
the board with Numba, load when ``mcgo match`` runs, so ``mcgo --help`` stays quick. Bad
options (an unknown plot format, Pachi not built, Ray or matplotlib missing) stop the
command with a one-line error and exit status 2 before any game starts.
"""

import json
import pathlib
import sys

import click

from .. import options
from ..clitypes import FINITE, Number, OutputFile
from .regress import (DEFAULT_ENGINE, DEFAULT_TIMEOUT, expand_paths, files_with_size, format_counts,
                      quiet_echo, run_files, unexpected_count)
from .settings import DEFAULT_REFEREE, SCORERS, recorded_command

HELP_OPTIONS = {"help_option_names": ["-h", "--help"]}
DEFAULT_OUT = "runs/match"
ENGINE_HELP = ("a command, or a short name: gnugo (GNU Go level 10), gnugo:LEVEL, pachi "
               "($MCGO_PACHI or pachi on PATH, one thread, its 2 s lag reserve added to the time), "
               "pachi:ARGS, mcgo (this mcgo), mcgo:GTP-ARGS")


class OptionError(click.ClickException):
    """Options that cannot work: one line on stderr, exit status 2 (as click's usage errors)."""
    exit_code = 2


@click.command("match", context_settings=HELP_OPTIONS)
@click.option("--engine", "engine",
              help=f"First engine (colours alternate with --opponent): {ENGINE_HELP}.")
@click.option("--opponent", help="Second engine: a command or a short name, as --engine.")
@click.option("--black", help="The engine that always plays black (with --white), as --engine.")
@click.option("--white", help="The engine that always plays white (with --black), as --engine.")
@click.option("--engine-label", default=None,
              help="Name of the first engine in results [its short name, else engine/black].")
@click.option("--opponent-label", default=None,
              help="Name of the second engine [its short name, else opponent/white].")
@click.option("--games", "-n", type=click.IntRange(min=1), default=10, show_default=True,
              help="Total games in the match (also when resuming).")
@click.option("--size", type=click.IntRange(2, 25), default=9, show_default=True,
              help="Board size of every game.")
@click.option("--komi", type=FINITE, default=options.DEFAULT_KOMI, show_default=True,
              help="Komi of every game.")
@click.option("--handicap", type=click.IntRange(min=2), default=None,
              help="Black's fixed handicap stones in every game (GTP fixed_handicap; White "
                   "gets N points for them, as the referee's Chinese rules say): use with "
                   "--black and --white, and a komi of 0.5.")
@click.option("--move-time", type=Number(min=0, min_open=True), default=None,
              help="Seconds per move, sent as time_settings 0 T 1.")
@click.option("--game-time", type=Number(min=0, min_open=True), default=None,
              help="Seconds per game for each engine, sent as time_settings T 0 0 (with time_left).")
@click.option("--move-cap", type=click.IntRange(min=1), default=None,
              help="Stop and score a game after this many moves [3 x size^2].")
@click.option("--timeout", "move_timeout", type=Number(min=0, min_open=True), default=None,
              help="Seconds a genmove may take before the engine counts as hung "
                   "[3 x move time + 10, time left + 10, or 120].")
@click.option("--referee", default=DEFAULT_REFEREE, show_default=recorded_command(DEFAULT_REFEREE),
              help="Command of the scoring engine (its final_score decides).")
@click.option("--scorer", type=click.Choice(SCORERS), default="referee",
              show_default=True, help="Who decides the score of a finished game.")
@click.option("--ask-engines/--no-ask-engines", default=True, show_default=True,
              help="Also ask both players' final_score and record disagreements.")
@click.option("--jobs", "-j", "--parallel", "jobs", type=click.IntRange(min=1), default=1,
              show_default=True,
              help="Games played at once on this machine (each with its own engine processes).")
@click.option("--ray", "ray_address", default=None, metavar="auto|ADDRESS",
              help="Play each game as a task on a Ray cluster (auto: the running one, else a "
                   "local runtime), instead of --jobs; needs pip install 'mcgo-engine[cluster]'.")
@click.option("--plot", type=OutputFile(), default=None, metavar="FILE.png|FILE.svg",
              help="Also draw the first engine's running win rate with its 95% Wilson band "
                   "(needs matplotlib: pip install 'mcgo-engine[plot]').")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=DEFAULT_OUT, show_default=True,
              help="Directory for results.json, results.csv and games.zip.")
@click.option("--resume", is_flag=True, help="Continue the match saved in --out.")
@click.option("--sprt", type=(FINITE, FINITE), default=None, metavar="ELO0 ELO1",
              help="Stop as soon as a sequential probability ratio test (fishtest's GSPRT, "
                   "logistic Elo, game pairs) accepts H1 (the first engine is ELO1 stronger) "
                   "or H0 (ELO0); --games is then the most it may take.")
@click.option("--alpha", type=Number(min=0, min_open=True), default=None,
              help="The SPRT's chance of accepting H1 when H0 holds [0.05].")
@click.option("--beta", type=Number(min=0, min_open=True), default=None,
              help="The SPRT's chance of accepting H0 when H1 holds [0.05].")
def match(engine, opponent, black, white, engine_label, opponent_label, games, size, komi,
          handicap, move_time, game_time, move_cap, move_timeout, referee, scorer, ask_engines, jobs,
          ray_address, plot, out_dir, resume, sprt, alpha, beta):
    """Play a match between two GTP engines and report who won, with a 95% interval.

    Engines are commands or short names (gnugo, gnugo:LEVEL, pachi, mcgo, mcgo:ARGS).
    Games run --jobs at a time on this machine, or as Ray tasks with --ray. Every finished
    game is saved at once (games.zip, results.json, results.csv), so an interrupted match
    loses no finished game and --resume plays the rest. --plot draws the running win rate.
    --sprt ELO0 ELO1 makes the match a test that stops once it is decided.

    \b
    mcgo match --engine "mcgo:--seconds 1" --opponent pachi --move-time 1 --jobs 2 \\
        --games 200 --out runs/mcgo-vs-pachi --plot runs/mcgo-vs-pachi/win-rate.png
    mcgo match --engine "sh -c 'cd new && exec python -m mcgo gtp'" --opponent mcgo \\
        --move-time 1 --sprt 0 50 --games 600 --jobs 2 --out runs/new-vs-main
    """
    from .opponents import EngineNameError, resolve_engine
    from .runner import engines_from_options
    from .settings import MatchSettings

    chosen = engines_from_options(engine, opponent, black, white)
    if chosen is None:
        raise click.UsageError("give either --engine and --opponent (alternating colours) "
                               "or --black and --white (fixed colours)")
    given, alternate = chosen
    try:
        settings = MatchSettings(size, komi, move_time, game_time, move_cap, move_timeout,
                                 handicap or 0)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc
    if scorer == "referee" and not referee:
        raise click.UsageError("--scorer referee needs a --referee command")
    test = sprt_settings(sprt, alpha, beta)
    try:
        specs = [resolve_engine(text, settings) for text in given]
    except EngineNameError as exc:
        raise OptionError(str(exc)) from exc
    labels = default_labels(specs, alternate)
    labels = [engine_label or labels[0], opponent_label or labels[1]]
    check_extras(plot, ray_address)

    from .results import format_summary
    from .runner import Match
    runner = Match(out_dir, [s.command for s in specs], labels, settings, games, alternate, referee,
                   scorer, ask_engines, jobs, resume, cwds=[s.cwd for s in specs],
                   engines=[s.as_dict() for s in specs], ray=ray_address, plot=plot, sprt=test)
    document = runner.run()
    click.echo(format_summary(document["summary"], labels))
    if plot:
        click.echo(f"  running win rate drawn in {plot}")


def sprt_settings(sprt, alpha, beta):
    """The match's SPRT (None without ``--sprt``); a bad test is a usage error."""
    from .sprt import DEFAULT_ALPHA, DEFAULT_BETA, SprtSettings
    if sprt is None:
        if alpha is not None or beta is not None:
            raise click.UsageError("--alpha and --beta belong to --sprt ELO0 ELO1")
        return None
    try:
        return SprtSettings(sprt[0], sprt[1], DEFAULT_ALPHA if alpha is None else alpha,
                            DEFAULT_BETA if beta is None else beta)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from exc


def default_labels(specs, alternate):
    """The engines' short names, or engine/opponent (black/white) for commands and twins."""
    fallback = ["engine", "opponent"] if alternate else ["black", "white"]
    names = [spec.label for spec in specs]
    if None in names or names[0] == names[1]:
        return [name if name and name != other else default
                for name, other, default in zip(names, names[::-1], fallback)]
    return names


def check_extras(plot, ray_address):
    """The optional extras these options need, checked before any game is played."""
    if plot:
        from .plot import PlotError, check_plot_path
        try:
            check_plot_path(plot)
        except PlotError as exc:
            raise OptionError(str(exc)) from exc
    if ray_address is not None:
        from .cluster import RayMissing, check_reachable, require_ray
        try:
            require_ray()
        except RayMissing as exc:
            raise OptionError(str(exc)) from exc
        check_reachable(ray_address)


@click.command("tune", context_settings=HELP_OPTIONS)
@click.option("--engine", default="mcgo", show_default=True, metavar="mcgo|mcgo:ARGS",
              help="The mcgo whose settings are tuned (its other arguments stay fixed).")
@click.option("--opponent", required=True,
              help="The fixed opponent: a command or a short name (gnugo, gnugo:LEVEL, pachi, "
                   "mcgo, mcgo:ARGS).")
@click.option("--param", "params", multiple=True, required=True, metavar="NAME=LOW:HIGH[:log]",
              help="A named setting to tune and its range (repeatable; see mcgo gtp "
                   "--list-settings).")
@click.option("--trials", type=click.IntRange(min=1), default=20, show_default=True,
              help="Trials in all (also when resuming).")
@click.option("--games", "-n", type=click.IntRange(min=1), default=20, show_default=True,
              help="Games of each trial's match.")
@click.option("--size", type=click.IntRange(2, 25), default=9, show_default=True,
              help="Board size of every game.")
@click.option("--komi", type=FINITE, default=options.DEFAULT_KOMI, show_default=True,
              help="Komi of every game.")
@click.option("--move-time", type=Number(min=0, min_open=True), default=None,
              help="Seconds per move (whole seconds, GTP time_settings).")
@click.option("--move-cap", type=click.IntRange(min=1), default=None,
              help="Stop and score a game after this many moves [3 x size^2].")
@click.option("--referee", default=DEFAULT_REFEREE, show_default=recorded_command(DEFAULT_REFEREE),
              help="Command of the scoring engine ('' : Tromp-Taylor on the final board).")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Games played at once on this machine.")
@click.option("--ray", "ray_address", default=None, metavar="auto|ADDRESS",
              help="Play the games as Ray tasks (pip install 'mcgo-engine[cluster]').")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of Optuna's sampler.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default="runs/tune",
              show_default=True, help="Folder of the study, its trials' matches and the evidence.")
@click.option("--resume", is_flag=True, help="Continue the study saved in --out.")
def tune(engine, opponent, params, trials, games, size, komi, move_time, move_cap, referee, jobs,
         ray_address, seed, out_dir, resume):
    """Tune mcgo's named settings by matches against a fixed opponent, with Optuna.

    Each trial plays --games games with settings Optuna proposes; the study, every trial's
    match and the evidence (best.json, trials.csv) stay in --out, and --resume goes on.

    \b
    mcgo tune --engine "mcgo:--playouts 1000" --opponent "mcgo:--playouts 1000" \\
        --param rave_equiv=100:10000:log --param expand_after=1:8 --trials 30 --games 40 --jobs 2
    """
    from .opponents import EngineNameError, resolve_engine
    from .settings import MatchSettings
    from .tune import OptunaMissing, TuneError, Tuner, parse_param, require_optuna

    try:
        specs = [parse_param(text) for text in params]
        settings = MatchSettings(size, komi, move_time, None, move_cap, None)
    except (TuneError, ValueError) as exc:
        raise OptionError(str(exc)) from exc
    if len({s.name for s in specs}) != len(specs):
        raise OptionError("each setting may be tuned once")
    out = pathlib.Path(out_dir)
    if (out / "study.db").exists() and not resume:
        raise OptionError(f"{out / 'study.db'} exists: pass --resume to continue that study, "
                          "or choose another --out")
    try:
        require_optuna()
        tuner = Tuner(out, engine, opponent, specs, trials, games, settings, jobs, ray_address,
                      referee or None, seed, log=click.echo)
        resolve_engine(opponent, settings)
    except (OptunaMissing, TuneError, EngineNameError) as exc:
        raise OptionError(str(exc)) from exc
    check_extras(None, ray_address)
    document = tuner.run()
    best = document["best"]
    click.echo(f"{document['trials']} trials; best: trial {best['trial']}, win rate "
               f"{best['win_rate']:.3f} [{best['wilson_low']:.3f}, {best['wilson_high']:.3f}] "
               f"over {best['games']} games")
    click.echo(f"  {best['command']}")
    click.echo(f"  evidence in {out / 'best.json'} and {out / 'trials.csv'} (confirm with a long match)")


@click.command("regress", context_settings=HELP_OPTIONS)
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--engine", default=DEFAULT_ENGINE, show_default=recorded_command(DEFAULT_ENGINE),
              help="GTP engine command.")
@click.option("--timeout", type=Number(min=0, min_open=True), default=DEFAULT_TIMEOUT,
              show_default=True, help="Seconds per command before the engine counts as hung.")
@click.option("--size", "only_size", type=int, default=None,
              help="Run only the tests whose position (by loadsgf / boardsize) has this size.")
@click.option("--json", "json_path", type=OutputFile(), default=None,
              help="Also write every result and the counts to this JSON file.")
@click.option("--quiet", "-q", is_flag=True, help="Print only unexpected results and summaries.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Files run at once, each on its own engine (the report is the same).")
def regress(paths, engine, timeout, only_size, json_path, quiet, jobs):
    """Run .tst regression files (or directories, or .list files) against a GTP engine."""
    files = expand_paths(paths)
    if only_size is not None:
        files = files_with_size(files, only_size)
        click.echo(f"{len(files)} files have {only_size}x{only_size} tests: "
                   f"{' '.join(f.name for f in files)}")
    echo = quiet_echo if quiet else click.echo
    report = run_files(files, engine, timeout, echo, only_size, jobs=jobs)
    click.echo(format_counts(f"total over {len(files)} files", report["total"]))
    if json_path:
        pathlib.Path(json_path).write_text(json.dumps(report, indent=1) + "\n")
    if report["unreadable"]:
        click.echo(f"{len(report['unreadable'])} files could not be read", err=True)
    sys.exit(1 if unexpected_count(report) else 0)
