"""``mcgo learn ownership``: train seed 003's DAG-RNN on a dataset of ``mcgo learn extract``.

Everything that can be wrong is checked before the long work starts (the dataset, the output
folder, the training library, a given propensity file); the command line imports nothing heavy
until it runs.
"""

import json
import pathlib
import sys
import time

import click

from ..clitypes import Number, OutputFile
from ..extras import require

DEFAULT_RADIUS = 2
DEFAULT_PER_GAME = 16
DEFAULT_EPOCHS = 40
DEFAULT_BATCH = 32
DEFAULT_LEARNING_RATE = 3e-3
DEFAULT_PATIENCE = 5
DEFAULT_TEMPERATURE_POSITIONS = 200


def _open_dataset(path):
    from .dataset import Dataset, DatasetError
    try:
        return Dataset.open(path)
    except (DatasetError, FileNotFoundError) as e:
        raise click.BadParameter(str(e), param_hint="DATASET") from None


def _propensity(path, dataset):
    """The statistics file ``path``, or statistics gathered from the dataset's train games."""
    from ..models.seedstats import SeedStats, SeedStatsError
    if path is not None:
        try:
            stats = SeedStats.load(path)
        except (SeedStatsError, FileNotFoundError) as e:
            raise click.BadParameter(str(e), param_hint="--propensity") from None
        return stats
    from .provenance import data_name
    stats = SeedStats(dataset.size, metadata={"source": f"train games of {data_name(dataset.path)}"})
    for game in dataset.games("train"):
        if game.setups:
            continue                      # a set-up mid-game: the statistics replay moves only
        stats.add_game(game.record(), game.ownership)
    return stats


def _arrays(dataset, split, stats, radius, per_game, seed, w, k, label, leave_out=False):
    from .ownership_data import build_arrays
    count = len(dataset.game_indices(split))
    with click.progressbar(length=count, label=f"{label} ({count} games)", file=sys.stderr) as bar:
        last = [0]

        def progress(done):
            bar.update(done - last[0])
            last[0] = done
        return build_arrays(dataset, split, stats, radius, per_game=per_game, seed=seed, w=w,
                            k=k, progress=progress, leave_out=leave_out)


def fit_on_validation(model, dataset, positions, seed):
    """Fit the ranker's temperature on up to ``positions`` positions of the dataset's
    validation games (:func:`.model.fit_on_records`)."""
    from .ownership_fit import fit_on_records
    records = [dataset.game(g).record() for g in dataset.game_indices("validation")]
    return fit_on_records(model, records, dataset.size, positions=positions, seed=seed,
                          split=None)


@click.command("ownership")
@click.argument("dataset", type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--output", type=OutputFile(), required=True,
              help="Network file to write (.npz); its propensity statistics go beside it.")
@click.option("--propensity", type=click.Path(dir_okay=False), default=None,
              help="Seed statistics file (mcgo learn patterns) of other games [default: "
                   "gathered from the dataset's train games, each game's own counts left out "
                   "of its positions' propensity].")
@click.option("--radius", type=click.IntRange(0, 4), default=DEFAULT_RADIUS, show_default=True,
              help="Neighbourhood of the point-wise inputs, in Manhattan rings.")
@click.option("--per-game", type=click.IntRange(1), default=DEFAULT_PER_GAME, show_default=True,
              help="Positions drawn from each game.")
@click.option("--epochs", type=click.IntRange(1), default=DEFAULT_EPOCHS, show_default=True,
              help="Most passes over the training positions (early stopping may end sooner).")
@click.option("--batch-size", type=click.IntRange(1), default=DEFAULT_BATCH, show_default=True,
              help="Positions per Adam step.")
@click.option("--learning-rate", type=Number(0, min_open=True),
              default=DEFAULT_LEARNING_RATE, show_default=True, help="Adam's step size.")
@click.option("--patience", type=click.IntRange(1), default=DEFAULT_PATIENCE, show_default=True,
              help="Stop after this many epochs without a better validation loss.")
@click.option("--w", "weight", type=Number(0, 1), default=0.25, show_default=True,
              help="Eq. (1): the weight of the position k moves later in the target.")
@click.option("--k", "ahead", type=click.IntRange(0), default=2, show_default=True,
              help="Eq. (1): how many moves later.")
@click.option("--temperature-positions", type=click.IntRange(0),
              default=DEFAULT_TEMPERATURE_POSITIONS, show_default=True,
              help="Validation positions the ranker's temperature is fitted on (0: none).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the drawn positions, the initial weights and the batches.")
def ownership_command(dataset, output, propensity, radius, per_game, epochs, batch_size,
                      learning_rate, patience, weight, ahead, temperature_positions, seed):
    """Train seed 003's DAG-RNN ownership network on the train games of DATASET (a folder
    written by `mcgo learn extract`), stopping early on its validation games."""
    out = pathlib.Path(output)
    if not out.parent.is_dir():
        raise click.BadParameter(f"no folder {out.parent} for the network", param_hint="--output")
    require("train", "mcgo learn ownership")
    ds = _open_dataset(dataset)
    stats = _propensity(propensity, ds)
    started = time.perf_counter()
    x, t, _, _ = _arrays(ds, "train", stats, radius, per_game, seed, weight, ahead, "train",
                         leave_out=propensity is None)
    vx, vt, _, _ = _arrays(ds, "validation", stats, radius, per_game, seed + 1, weight, ahead,
                           "validation")
    if len(x) == 0 or len(vx) == 0:
        raise click.UsageError(f"{dataset}: no train or no validation positions")
    click.echo(f"{len(x)} train and {len(vx)} validation positions, {x.shape[-1]} inputs a "
               f"point ({time.perf_counter() - started:.0f} s)", err=True)

    from .ownership_train import train

    def progress(epoch, train_loss, val_loss, seconds):
        click.echo(f"epoch {epoch}: train loss {train_loss:.4f}, validation loss "
                   f"{val_loss:.4f} ({seconds:.0f} s)", err=True)

    network, history = train(x, t, val_inputs=vx, val_targets=vt, epochs=epochs,
                             batch_size=batch_size, learning_rate=learning_rate, seed=seed,
                             patience=patience, progress=progress)
    from ..models.ownership.model import PROPENSITY_SUFFIX
    stats_name = out.stem + PROPENSITY_SUFFIX
    stats.save(out.parent / stats_name)
    from .provenance import data_name, git_commit
    from ..models.ownership.model import OwnershipModel
    metadata = {
        "data": data_name(pathlib.Path(dataset).resolve()),
        "dataset": [data_name(source) for source in ds.meta.get("sources") or []],
        "dataset_games": len(ds), "split": ds.meta.get("split"), "board_size": ds.size,
        "train_positions": int(len(x)), "validation_positions": int(len(vx)),
        "positions_per_game": per_game, "target_w": weight, "target_k": ahead,
        "feature_radius": radius, "propensity_file": stats_name, "commit": git_commit() or "unknown",
        "history": history, "seed": seed, "epochs": epochs, "batch_size": batch_size,
        "learning_rate": learning_rate, "patience": patience,
    }
    network.save(out, metadata)
    if temperature_positions:
        model = OwnershipModel.load(out)
        temp, mean, n = fit_on_validation(model, ds, temperature_positions, seed)
        metadata.update(temperature=temp, temperature_fit={"positions": n, "mean_log_p": mean})
        network.save(out, metadata)
        click.echo(f"ranker temperature {temp:.3g} (validation mean log p {mean:.3f} over {n} "
                   "positions)", err=True)
    best = min(h["validation_loss"] for h in history) if history else float("nan")
    click.echo(json.dumps({"output": str(out), "validation_loss": best,
                           "train_positions": int(len(x)), "epochs_run": len(history)}))
