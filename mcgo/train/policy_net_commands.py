"""``mcgo learn policy-net``: the policy net's positions from game records, its training
(resumable) and its top-1 on the validation and test games. The command line imports nothing
heavy; JAX comes in with the training."""

import json
import pathlib
import time

import click

from ..clitypes import Number, OutputFile
from ..extras import require

EVALUATED_POSITIONS = 20000     # of each split, by the NumPy pass (+-0.7% on a top-1 of 0.4)


@click.command("policy-net")
@click.argument("games", nargs=-1, type=click.Path(exists=True))
@click.option("-o", "--output", type=OutputFile(), required=True, help="The net file to write.")
@click.option("--positions", "positions_file", type=OutputFile(), default=None,
              help="Where the positions are kept: read from it when it exists (GAMES are then "
                   "not read), else written there after reading GAMES.")
@click.option("--checkpoint", type=OutputFile(), default=None,
              help="A checkpoint written as training goes and started again from.")
@click.option("--size", type=click.IntRange(2, 25), default=19, show_default=True,
              help="Board size of the games used (the others are left out).")
@click.option("--rate", type=Number(0, 1, min_open=True), default=0.25, show_default=True,
              help="Share of each game's positions taken (a repeatable sample).")
@click.option("--layers", type=click.IntRange(2, 20), default=6, show_default=True,
              help="Convolutions, the 1x1 output one included.")
@click.option("--channels", type=click.IntRange(1, 512), default=32, show_default=True,
              help="Channels of every convolution but the output one.")
@click.option("--steps", type=click.IntRange(1), default=20000, show_default=True,
              help="Training steps in all (the learning rate decays over them).")
@click.option("--batch-size", type=click.IntRange(1), default=128, show_default=True,
              help="Positions a step.")
@click.option("--learning-rate", type=Number(0, min_open=True), default=1e-3, show_default=True,
              help="Adam's starting learning rate (a cosine decay to 0 over --steps).")
@click.option("--eval-every", type=click.IntRange(1), default=500, show_default=True,
              help="Steps between validation measurements and checkpoints.")
@click.option("--stop-at", type=click.IntRange(1), default=None,
              help="Stop after this step; --checkpoint carries the run on next time.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the initial weights and the batches.")
@click.option("-j", "--jobs", type=click.IntRange(1), default=1, show_default=True,
              help="Processes reading the games (each every N-th file).")
def policy_net_command(games, output, positions_file, checkpoint, size, rate, layers, channels, steps,
                       batch_size, learning_rate, eval_every, stop_at, seed, jobs):
    """Train the small convolutional policy net on the games of GAMES of one board size
    (SGF files, folders, .tar.gz and .zip archives), split by game; prints the validation
    and test top-1."""
    if not games and not (positions_file and pathlib.Path(positions_file).is_file()):
        raise click.UsageError("give GAMES, or --positions of an earlier run")
    if stop_at is not None and checkpoint is None:
        raise click.UsageError("--stop-at needs --checkpoint to carry the run on")
    require("train", "mcgo learn policy-net")
    from .policy_net_train import (evaluate, load_positions, read_positions, save_positions,
                                   shuffled, train)
    from .provenance import git_commit
    from .split import SPLIT_SALT

    started = time.perf_counter()
    if positions_file and pathlib.Path(positions_file).is_file():
        arrays, meta = load_positions(positions_file)
        held = int(arrays["train"]["stones"].shape[1])
        if held != size:
            raise click.UsageError(f"{positions_file} holds {held}x{held} positions, not "
                                   f"{size}x{size}: give --size {held} or another file")
        click.echo(f"positions from {positions_file}", err=True)
    else:
        skipped = []
        arrays, counts = read_positions(games, rate, jobs, skipped=skipped, size=size,
                                        log=lambda line: click.echo(line, err=True))
        meta = {"sources": sorted(str(g) for g in games), "rate": rate, "size": size,
                "games": counts, "skipped": len(skipped)}
        for name, reason in skipped[:20]:
            click.echo(f"skipped {name}: {reason}", err=True)
        if positions_file:
            save_positions(positions_file, arrays, meta)
    # Measured on positions spread over many games, not the first games' alone.
    arrays = dict(arrays, validation=shuffled(arrays["validation"]), test=shuffled(arrays["test"]))
    sizes = {s: int(len(a["targets"])) for s, a in arrays.items()}
    click.echo(f"positions {sizes} ({time.perf_counter() - started:.0f} s)", err=True)
    if not sizes["train"] or not sizes["validation"]:
        raise click.UsageError("no training or no validation positions in GAMES")
    net, history = train(arrays, layers=layers, channels=channels, steps=steps,
                         batch_size=batch_size, learning_rate=learning_rate,
                         eval_every=eval_every, validation_positions=EVALUATED_POSITIONS,
                         seed=seed, checkpoint=checkpoint,
                         stop_at=stop_at, log=lambda line: click.echo(line, err=True))
    validation, nv = evaluate(net, arrays["validation"], EVALUATED_POSITIONS)
    test, nt = evaluate(net, arrays["test"], EVALUATED_POSITIONS) if sizes["test"] else (None, 0)
    net.metadata.update(
        data=meta.get("sources"), games=meta.get("games"), rate=meta.get("rate"),
        split=SPLIT_SALT.decode(), commit=git_commit() or "unknown", positions=sizes,
        metrics={"validation_top1": validation, "validation_positions": nv, "test_top1": test,
                 "test_positions": nt}, history=history,
        steps=steps, batch_size=batch_size, learning_rate=learning_rate, seed=seed,
        trained_steps=history[-1]["step"] if history else 0,
        best_step=max(history, key=lambda h: h["validation_top1"])["step"] if history else 0)
    net.save(output)
    click.echo(json.dumps({"output": str(output), "validation_top1": validation,
                           "validation_positions": nv, "test_top1": test, "test_positions": nt,
                           "steps": steps}))
