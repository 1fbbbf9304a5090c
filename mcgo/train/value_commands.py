"""``mcgo learn value-net``: the value heads of a policy net (:mod:`.value_train`) from game
records of one board size, with their held-out outcome prediction. The command line imports
nothing heavy; JAX comes in with the training."""

import json
import pathlib
import time

import click

from ..clitypes import Number, OutputFile
from ..extras import require

EVALUATED_POSITIONS = 20000


@click.command("value-net")
@click.argument("games", nargs=-1, type=click.Path(exists=True))
@click.option("--net", "net_file", required=True,
              help="The policy net whose trunk the heads read (a file, or 'default' for the "
                   "shipped net of --size).")
@click.option("-o", "--output", type=OutputFile(), required=True,
              help="The net file to write: the policy net with its value heads.")
@click.option("--positions", "positions_file", type=OutputFile(), default=None,
              help="Where the positions are kept: read from it when it exists (GAMES are then "
                   "not read), else written there after reading GAMES.")
@click.option("--more-positions", "more", type=click.Path(exists=True, dir_okay=False),
              multiple=True,
              help="Files of positions of earlier runs (of other games) to train on as well.")
@click.option("--checkpoint", type=OutputFile(), default=None,
              help="A checkpoint written as training goes and started again from.")
@click.option("--size", type=click.IntRange(2, 25), default=9, show_default=True,
              help="Board size of the games used (the others are left out).")
@click.option("--rate", type=Number(0, 1, min_open=True), default=0.25, show_default=True,
              help="Share of each game's positions taken (a repeatable sample).")
@click.option("--steps", type=click.IntRange(1), default=20000, show_default=True,
              help="Training steps in all (the learning rate decays over them).")
@click.option("--batch-size", type=click.IntRange(1), default=256, show_default=True,
              help="Positions a step.")
@click.option("--learning-rate", type=Number(0, min_open=True), default=1e-3, show_default=True,
              help="Adam's starting learning rate (a cosine decay to 0 over --steps).")
@click.option("--eval-every", type=click.IntRange(1), default=1000, show_default=True,
              help="Steps between validation measurements and checkpoints.")
@click.option("--stop-at", type=click.IntRange(1), default=None,
              help="Stop after this step; --checkpoint carries the run on next time.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the heads' initial weights and the batches.")
@click.option("--whole", is_flag=True,
              help="Train the whole net (the policy's loss beside the heads'), not the heads alone.")
@click.option("--value-layers", type=click.IntRange(0, 4), default=0, show_default=True,
              help="The value's own 3 x 3 convolutions between the trunk and its pooling.")
@click.option("--value-tap", type=click.IntRange(1), default=None,
              help="How many of the trunk's convolutions the value reads after (default: all; "
                   "fewer with the trunk frozen only).")
def value_net_command(games, net_file, output, positions_file, more, checkpoint, size, rate,
                      steps, batch_size, learning_rate, eval_every, stop_at, seed, whole,
                      value_layers, value_tap):
    """Train the value, score and ownership heads on the trunk of a policy net, from the games
    of GAMES of one board size (SGF files, folders, .tar.gz and .zip archives), split by game;
    prints the validation and test outcome prediction (accuracy, log loss, Brier)."""
    if not games and not (positions_file and pathlib.Path(positions_file).is_file()):
        raise click.UsageError("give GAMES, or --positions of an earlier run")
    if stop_at is not None and checkpoint is None:
        raise click.UsageError("--stop-at needs --checkpoint to carry the run on")
    from ..models.policy_net import PolicyNetError, load, open_policy_net
    try:
        net = open_policy_net("default").for_size(size) if net_file == "default" else load(net_file)
    except (OSError, PolicyNetError) as e:
        raise click.BadParameter(str(e), param_hint="--net") from None
    if value_tap is not None and (value_tap > net.layers - 1 or whole and value_tap != net.layers - 1):
        raise click.BadParameter(f"the net's trunk has {net.layers - 1} convolutions; the value "
                                 "reads after fewer only with the trunk frozen (no --whole)",
                                 param_hint="--value-tap")
    if net.size != size:
        raise click.BadParameter(f"the net is for {net.size}x{net.size}, not {size}x{size}",
                                 param_hint="--net")
    require("train", "mcgo learn value-net")
    from .provenance import git_commit
    from .split import SPLIT_SALT
    from .value_data import load_positions, merge_positions, read_positions, save_positions
    from .value_train import outcome_metrics, predictions, train

    started = time.perf_counter()
    if positions_file and pathlib.Path(positions_file).is_file():
        arrays, meta = load_positions(positions_file)
        held = int(arrays["train"]["stones"].shape[1])
        if held != size:
            raise click.UsageError(f"{positions_file} holds {held}x{held} positions, not "
                                   f"{size}x{size}: give --size {held} or another file")
    else:
        skipped = []
        arrays, counts = read_positions(games, rate, size=size, skipped=skipped,
                                        log=lambda line: click.echo(line, err=True))
        meta = {"sources": sorted(str(g) for g in games), "rate": rate, "size": size,
                "games": counts, "skipped": len(skipped)}
        for name, reason in skipped[:20]:
            click.echo(f"skipped {name}: {reason}", err=True)
        if positions_file:
            save_positions(positions_file, arrays, meta)
    if more:
        parts, metas = [arrays], [meta]
        for path in more:
            part, m = load_positions(path)
            if int(part["train"]["stones"].shape[1]) != size:
                raise click.UsageError(f"{path} holds positions of another board size")
            parts.append(part)
            metas.append(m)
        arrays = merge_positions(parts)
        meta = {"sources": sorted({str(x) for m in metas for x in m.get("sources", [])}),
                "rate": meta.get("rate"), "size": size,
                "games": {k: sum(m.get("games", {}).get(k, 0) for m in metas)
                          for k in arrays}, "parts": len(metas)}
    sizes = {s: int(len(a["outcome"])) for s, a in arrays.items()}
    click.echo(f"positions {sizes} ({time.perf_counter() - started:.0f} s)", err=True)
    if not sizes["train"] or not sizes["validation"]:
        raise click.UsageError("no training or no validation positions in GAMES")
    trained, history = train(net, arrays, steps=steps, batch_size=batch_size,
                             learning_rate=learning_rate, eval_every=eval_every,
                             validation_positions=EVALUATED_POSITIONS, seed=seed,
                             checkpoint=checkpoint, stop_at=stop_at, whole=whole,
                             value_layers=value_layers, value_tap=value_tap,
                             log=lambda line: click.echo(line, err=True))
    metrics = {}
    for split in ("validation", "test"):
        if sizes[split]:
            part = arrays[split]
            win, _ = predictions(trained, part, EVALUATED_POSITIONS)
            metrics[split] = outcome_metrics(win, part["outcome"][:len(win)])
    trained.metadata.update(
        value_data=meta.get("sources"), value_games=meta.get("games"), value_rate=meta.get("rate"),
        value_split=SPLIT_SALT.decode(), value_commit=git_commit() or "unknown",
        value_positions=sizes, value_metrics=metrics, value_history=history,
        value_steps=steps, value_batch_size=batch_size, value_learning_rate=learning_rate,
        value_seed=seed)
    trained.save(output)
    click.echo(json.dumps({"output": str(output), **metrics}))


@click.command("selfplay")
@click.argument("out", type=click.Path(file_okay=False))
@click.option("-n", "--games", type=click.IntRange(1), required=True,
              help="Games in all: those missing from OUT's archive are played.")
@click.option("--size", type=click.IntRange(2, 25), default=9, show_default=True,
              help="Board size.")
@click.option("--komi", type=float, default=7.0, show_default=True, help="Komi (area scoring).")
@click.option("--simulations", "--playouts", "playouts", type=click.IntRange(1), default=300,
              show_default=True, help="Simulations a move (--playouts: its older name).")
@click.option("--random-moves", type=click.IntRange(0), default=8, show_default=True,
              help="The first moves of a game, drawn from the root's visits.")
@click.option("-j", "--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Games played at once (processes).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the games (game N plays from its own seed, derived from it).")
def selfplay_command(out, games, size, komi, playouts, random_moves, jobs, seed):
    """Games of the default engine against itself, played to the end (nobody resigns, dead
    stones are captured), written to OUT/games.zip as they end: the value net's data. A run
    started again plays the games that are missing."""
    from .provenance import git_commit
    from .selfplay import selfplay
    label = f"mcgo-{(git_commit() or 'unknown')[:7]}"
    done = selfplay(out, games, size=size, komi=komi, playouts=playouts,
                    random_moves=random_moves, jobs=jobs, seed=seed, label=label,
                    log=lambda line: click.echo(line, err=True))
    click.echo(json.dumps({"out": str(out), "played": done, "games": games}))
