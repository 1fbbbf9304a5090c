"""The commands beside playing: ``mcgo bench``, ``mcgo build-casebase``, ``mcgo influence``,
``mcgo ownership``, ``mcgo solve`` and ``mcgo review`` (:func:`add_tool_commands` adds them to ``mcgo``).
Each imports what it runs only when it runs, so that ``mcgo --help`` stays quick."""

import json
import sys

import click

from . import options
from .clitypes import Number, OutputFile
from .frontoptions import engine_options, given, recipe_of

# ``mcgo bench`` measures the policies that play (``auto`` only picks one of them), or all.
BENCH_POLICIES = [name for name in options.PLAYOUT_POLICIES if name != "auto"]
POLICY_CHOICES = BENCH_POLICIES + ["all"]
SIZE_CHOICES = ["9", "13", "19"]
tools = []      # the commands, for add_tool_commands


def tool(*args, **kwargs):
    """``click.command(...)``, the command kept for :func:`add_tool_commands`."""
    def make(function):
        command = click.command(*args, **kwargs)(function)
        tools.append(command)
        return command
    return make


def add_tool_commands(group):
    """Add the commands of this module to the click group ``group``."""
    for command in tools:
        group.add_command(command)


@tool()
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


@tool("build-casebase")
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


@tool()
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


@tool("ownership")
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


@tool("solve")
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
@click.option("--simulations", "--playouts", "playouts", type=click.IntRange(1),
              default=options.SOLVE_PLAYOUTS, show_default=True,
              help="Simulations of the search (--playouts: its older name).")
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


def moves_range(ctx, param, value):
    """``--moves A-B`` (or ``A-``, ``-B``, ``N``) as ``(first, last)``, 1-based and
    inclusive; None for every move."""
    if value is None:
        return None
    first, dash, last = value.partition("-")
    try:
        first = int(first) if first else 1
        last = int(last) if last else (10 ** 6 if dash else first)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not a range of moves like 1-50") from None
    if not 1 <= first <= last:
        raise click.BadParameter(f"{value!r}: moves run from 1, the first before the last")
    return first, last


def output_for(path, name, several):
    """Where a game's ``--plot`` or ``--html`` goes: ``path`` itself for one game; for
    several, the game's name added to the file's (``page.html`` -> ``page-NAME.html``)."""
    import pathlib
    path = pathlib.Path(path)
    return path if not several else path.with_name(f"{path.stem}-{name}{path.suffix}")


def review_games(paths):
    """The games of the SGF files ``paths`` that can be replayed, as ``(name, record)``
    pairs, and a message for each file or game skipped with its reason."""
    from .apps.review import game_names
    from .sgf import ReplayError, SgfError, read_games, replay

    records, skipped = [], []
    for path in paths:
        for item in read_games(path, errors="yield"):
            if isinstance(item, SgfError):
                skipped.append(f"skipped {item}")
                continue
            try:
                replay(item)
            except ReplayError as e:
                skipped.append(f"skipped {e}")
                continue
            records.append(item)
    return list(zip(game_names(records), records)), skipped


@tool("review")
@click.argument("games", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("-o", "--out", "out", required=True, type=click.Path(file_okay=False),
              help="Folder of the reviewed games (NAME.sgf for each, the searched positions "
                   "under .positions/; a rerun goes on from them).")
@click.option("--visits", type=click.IntRange(1), default=None,
              hidden=True, help="The same as --simulations (its older name here).")
@click.option("--moves", "moves", callback=moves_range, default=None, metavar="A-B",
              help="Review moves A to B only (A-, -B and N too) [default: every move].")
@click.option("--mistake", type=Number(0, 100), default=10.0, show_default=True,
              help="Win-rate loss, in percentage points, from which a move is a mistake: "
                   "its better line goes into the SGF as a variation and it is marked on "
                   "the curves.")
@click.option("--jobs", "-j", type=click.IntRange(1, 256), default=1, show_default=True,
              help="Local processes searching positions at once.")
@click.option("--ray", "ray_address", default=None, metavar="auto|ADDRESS",
              help="Search each position as a task on a Ray cluster (auto: the running one, "
                   "else a local runtime; pip install 'mcgo-engine[cluster]').")
@click.option("--plot", type=OutputFile(), default=None, metavar="FILE.png|FILE.svg",
              help="Draw the win-rate and score curves with the mistakes marked (several "
                   "games: FILE-NAME.png each).")
@click.option("--html", "html_path", type=OutputFile(), default=None, metavar="FILE.html",
              help="Write a self-contained page: the curve, each side's biggest mistakes as "
                   "diagrams, a table by move (several games: FILE-NAME.html each).")
@click.option("--json", "as_json", is_flag=True,
              help="Print every game's numbers as JSON on stdout.")
@engine_options("review")
def review(games, out, visits, moves, mistake, jobs, ray_address, plot, html_path, as_json,
           **values):
    """Review GAME.sgf...: search every position, and write each game to OUT with its win
    rate and score (Sabaki's SBKV and SBKS), each move's loss and the better line. The
    engine is mcgo gtp's, with its options (--seed: the one the positions' seeds are drawn
    from); each position gets --simulations [default: 1000] or --seconds."""
    import pathlib

    from .apps.review import ReviewSettings

    if visits is not None and given("playouts"):
        raise click.UsageError("give --simulations or --visits (its older name), not both")
    recipe, _ = recipe_of("review", values)
    playouts = recipe.playouts or visits
    seconds = recipe.seconds
    if playouts is not None and seconds is not None:
        raise click.UsageError("give --simulations or --seconds, not both")
    if ray_address is not None and jobs > 1:
        raise click.UsageError("give --jobs or --ray, not both (Ray runs a task a CPU)")
    if pathlib.Path(out).is_file():
        raise click.BadParameter(f"{out!r} is a file", param_hint="--out")
    if plot:
        from .match.plot import PlotError, check_plot_path
        try:
            check_plot_path(plot)
        except PlotError as e:
            raise click.BadParameter(str(e), param_hint="--plot") from None
    if html_path and not html_path.lower().endswith((".html", ".htm")):
        raise click.BadParameter(f"{html_path!r} is not an .html file", param_hint="--html")
    if ray_address is not None:
        from .match.cluster import RayMissing, check_reachable, require_ray
        try:
            require_ray()
        except RayMissing as e:
            raise click.UsageError(str(e)) from None
        check_reachable(ray_address)
    games_found, skipped = review_games(games)
    for message in skipped:
        click.echo(message, err=True)
    if not games_found:
        raise click.UsageError("no game to review among the files given")
    settings = ReviewSettings(visits=playouts, seconds=seconds,
                              recipe=recipe.replace(playouts=None, seconds=None))
    several = len(games_found) > 1
    threshold = mistake / 100.0

    def outputs(game, document):
        from .apps.review_sgf import review_sgf
        review_sgf(game.record, document, threshold, pathlib.Path(out) / f"{game.name}.sgf")
        if plot:
            from .apps.review_plot import write_review_plot
            write_review_plot(output_for(plot, game.name, several), document, threshold)
        if html_path:
            from .apps.review_html import review_page
            output_for(html_path, game.name, several).write_text(
                review_page(game.record, document, threshold), encoding="utf-8")

    from .apps.review_run import Review
    runner = Review(out, games_found, settings, outputs, moves=moves, jobs=jobs,
                    ray=ray_address, log=lambda text: click.echo(text, err=True))
    pending = runner.prepare()
    with click.progressbar(length=pending, label="reviewing", file=sys.stderr,
                           show_pos=True, show_eta=True) as bar:
        done = runner.run(progress=bar.update)
    if as_json:
        click.echo(json.dumps({"games": [g.document for g in done if g.finished],
                               "failed": {g.name: g.failed for g in done if g.failed},
                               "skipped": skipped}, indent=1))
    else:
        for game in done:
            click.echo(_review_line(game, out, threshold))
    if any(g.failed for g in done):
        sys.exit(1)


def _review_line(game, out, threshold):
    """One line on a reviewed game: where it went and each side's biggest loss."""
    import os
    if not game.finished:
        return f"{game.name}: not finished, run again to go on ({game.failed.strip().splitlines()[-1]})"
    from .apps.review import mistakes
    moves = game.document["moves"]
    parts = [f"{game.name}: {len(moves)} moves reviewed -> {os.path.join(out, game.name + '.sgf')}"]
    for color, name in (("B", "Black"), ("W", "White")):
        worst = mistakes(moves, color, 0.0, 1)
        count = len(mistakes(moves, color, threshold))
        if worst:
            m = worst[0]
            parts.append(f"{name}: {count} mistakes, the biggest move {m['number']} {m['move']} "
                         f"(-{100 * m['winrate_loss']:.1f}%, best {m['best']})")
    return "; ".join(parts)
