"""Training the policy net (:mod:`mcgo.models.policy_net`) with JAX and optax (the ``train``
extra), and the positions it learns from.

**Positions.** The moves of game records of one board size (19x19 unless told), split by game (:mod:`.split`), each a
sample of ``rate`` of the positions (repeatable, :func:`.movemodel.sampled`) before a move
that is not a pass, in the net's compact form (:func:`mcgo.models.policy_net.compact`) with
the move played as the target. :func:`positions` keeps them as arrays, a few hundred bytes a
position, saved in one ``.npz`` so that training can start again without reading the games.

**Training.** The same network as the NumPy forward pass (``lax.conv_general_dilated``, the
same ``HWIO`` kernels), started from :meth:`PolicyNet.random`'s weights. Loss: the
cross-entropy of the softmax over the ``N x N`` points against the professional's move.
Adam (optax) with a cosine decay of the learning rate over the steps; every batch is drawn
from the training games and each of its positions turned by one of the 8 symmetries at
random (the net, unlike the DAG-RNN, is not equivariant by construction). The positions stay
on JAX's device in their compact form: a step sends only the batch's indices and symmetries,
and the device turns them and makes the planes (:func:`device_batch`, the same as
:func:`transformed` and :func:`mcgo.models.policy_net.planes`), so that a GPU is not kept
waiting on the host. Every ``eval_every`` steps the top-1 rate
on the validation positions is measured and a checkpoint written (weights, optimiser state,
step, the best weights so far): a run killed at any point starts again from its last
checkpoint (``checkpoint=``) with the same batches. The best weights on validation are the
result.

Play needs none of this: :func:`train` returns a :class:`PolicyNet`.
"""

import functools
import json
import multiprocessing
import pathlib
import time

import numpy as np

from ..board.symmetry import SYMMETRIES, images, inverse
from ..extras import MissingExtra, install_hint
from ..models.policy_net import (FIRST_KERNEL, LIBERTY_CAP, NPLANES, OPPONENT, OWN, PolicyNet,
                                 compact, planes, point_index)
from .movemodel import game_states, read_records, sampled
from .split import SPLITS, game_key, split_of

BOARD = 19
_images = functools.lru_cache(maxsize=None)(images)   # read-only tables, the same every batch
ARRAYS = ("stones", "liberties", "moves", "targets", "games")
SHUFFLE_SEED = 46           # the order of the validation and test positions


def _jax():
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise MissingExtra(f"training needs the train extra: {install_hint('train')}") from None
    return jax, jnp, optax


# ----------------------------------------------------------------------------- positions
def game_positions(record, rate=1.0):
    """``(stones, liberties, moves, target)`` of the sampled positions of one game before
    each move that is not a pass (``target``: the move's row-major index)."""
    key = game_key(record) if rate < 1.0 else None
    size = record.size
    for number, pts, info, color, point in game_states(record):
        if point <= 0 or (rate < 1.0 and not sampled(key, number, rate)):
            continue
        stones, liberties, moves = compact(pts, info, color)
        yield stones, liberties, moves, point_index(int(point), size)


def positions(records, rate=1.0, log=None, size=BOARD):
    """``{split: {array: ...}}`` of the ``size`` x ``size`` ``records``' positions (:data:`ARRAYS`;
    ``games`` numbers each position's game in its split), and the games per split."""
    rows = {s: {a: [] for a in ARRAYS} for s in SPLITS}
    games = {s: 0 for s in SPLITS}
    for n, record in enumerate(records, 1):
        if record.size != size:
            continue
        split = split_of(game_key(record))
        out = rows[split]
        for stones, liberties, moves, target in game_positions(record, rate):
            out["stones"].append(stones)
            out["liberties"].append(liberties)
            out["moves"].append(moves)
            out["targets"].append(target)
            out["games"].append(games[split])
        games[split] += 1
        if log is not None and n % 1000 == 0:
            log(f"{n} games read")
    shapes = {"stones": (size, size), "liberties": (size, size), "moves": (3,),
              "targets": (), "games": ()}
    types = {"stones": np.int8, "liberties": np.int8, "moves": np.int16, "targets": np.int16,
             "games": np.int32}
    arrays = {s: {a: np.array(v, dtype=types[a]).reshape((-1,) + shapes[a])
                  for a, v in rows[s].items()} for s in SPLITS}
    return arrays, games


def _read_shard(job, log=None):
    """``(arrays, games, skipped)`` of one share ``(paths, rate, shard, size)`` of the games."""
    paths, rate, shard, size = job
    skipped = []
    arrays, games = positions(read_records(paths, skipped, shard), rate, log, size)
    return arrays, games, skipped


def read_positions(paths, rate=1.0, jobs=1, log=None, skipped=None, size=BOARD):
    """:func:`positions` of the games in ``paths`` (SGF files, folders, ``.tar.gz``
    archives), read by ``jobs`` processes, each the games of every ``jobs``-th file; the
    positions in the order of the files' shares. ``skipped`` gets what could not be read."""
    paths = list(map(str, paths))
    if jobs <= 1:
        parts = [_read_shard((paths, rate, None, size), log)]
    else:
        shards = [(paths, rate, (k, jobs), size) for k in range(jobs)]
        # spawn, not fork: the caller may have JAX's threads running
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            parts = []
            for part in pool.imap(_read_shard, shards):
                parts.append(part)
                if log is not None:
                    log(f"{len(parts)} of {jobs} shares read")
    arrays, games = concatenate([(part, counts) for part, counts, _ in parts], ARRAYS)
    if skipped is not None:
        for _, _, reasons in parts:
            skipped.extend(reasons)
    return arrays, games


def concatenate(parts, names):
    """``(arrays, games)``: the ``(arrays, games per split)`` of ``parts`` (each of
    :func:`positions`' form, with the arrays ``names``) as one, each split's games numbered
    on."""
    arrays, games = {}, {}
    for split in SPLITS:
        offset, out = 0, {a: [] for a in names}
        for part, counts in parts:
            for a in names:
                out[a].append(part[split][a] + (offset if a == "games" else 0))
            offset += counts[split]
        arrays[split] = {a: np.concatenate(v) for a, v in out.items()}
        games[split] = offset
    return arrays, games


def shuffled(split_arrays, seed=SHUFFLE_SEED):
    """A split's positions in a repeatable random order, so that the first few thousand,
    which the trainer and :func:`evaluate` measure, come from many games."""
    order = np.random.default_rng(seed).permutation(len(split_arrays["targets"]))
    return {a: v[order] for a, v in split_arrays.items()}


def save_positions(path, arrays, metadata):
    flat = {f"{s}_{a}": v for s, d in arrays.items() for a, v in d.items()}
    with open(path, "wb") as f:
        np.savez_compressed(f, metadata=np.array(json.dumps(metadata, sort_keys=True)), **flat)


def load_positions(path, names=ARRAYS):
    """``(arrays, metadata)`` of a file of :func:`save_positions` (its arrays ``names``)."""
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["metadata"]))
        arrays = {s: {a: z[f"{s}_{a}"] for a in names} for s in SPLITS}
    return arrays, meta


# ----------------------------------------------------------------------------- symmetry
def transformed(batch, symmetry):
    """A batch ``(stones, liberties, moves, targets)`` under one of the board's 8 symmetries
    (:func:`mcgo.board.symmetry.images`: the image of each row-major point)."""
    stones, liberties, moves, targets = batch
    b, n = stones.shape[0], stones.shape[1]
    image = _images(n)[symmetry].astype(np.int64)

    def board(a):
        out = np.empty_like(a).reshape(b, n * n)
        out[:, image] = a.reshape(b, n * n)
        return out.reshape(b, n, n)

    moved = np.where(moves >= 0, image[np.maximum(moves, 0)], -1).astype(moves.dtype)
    return board(stones), board(liberties), moved, image[targets.astype(np.int64)]


# ----------------------------------------------------------------------------- the net in JAX
def forward(params, x, layers):
    """The ``(B, N*N)`` logits of float32 planes ``x`` ``(B, N, N, F)`` (JAX arrays)."""
    jax, jnp, _ = _jax()
    dims = ("NHWC", "HWIO", "NHWC")
    for i in range(layers - 1):
        x = jax.lax.conv_general_dilated(x, params[f"conv{i}_w"], (1, 1), "SAME",
                                         dimension_numbers=dims) + params[f"conv{i}_b"]
        x = jax.nn.relu(x)
    x = jax.lax.conv_general_dilated(x, params["out_w"], (1, 1), "SAME", dimension_numbers=dims)
    logits = x[..., 0] + params["out_b"]
    return logits.reshape(x.shape[0], -1)


def symmetry_tables(size):
    """``(images, inverses)`` int32 ``(8, N*N)``: the image of each row-major point under
    each symmetry (:func:`mcgo.board.symmetry.images`), and the point each image comes from."""
    image = _images(size).astype(np.int32)
    return image, image[[inverse(s) for s in range(SYMMETRIES)]]


def device_batch(tables, stones, liberties, moves, targets, symmetries):
    """On JAX's device: the float32 planes ``(B, N, N, NPLANES)`` and the targets of compact
    positions, each turned by its own symmetry (``symmetries`` ``(B,)``; ``tables`` of
    :func:`symmetry_tables` as JAX arrays). Equals :func:`transformed` followed by
    :func:`mcgo.models.policy_net.planes`."""
    _, jnp, _ = _jax()
    image, comes_from = tables
    b, n = stones.shape[0], stones.shape[1]
    turn, source = image[symmetries], comes_from[symmetries]         # (B, N*N)
    s = jnp.take_along_axis(stones.reshape(b, n * n), source, axis=1)
    lib = jnp.take_along_axis(liberties.reshape(b, n * n), source, axis=1)
    m = moves.astype(jnp.int32)
    m = jnp.where(m >= 0, jnp.take_along_axis(turn, jnp.maximum(m, 0), axis=1), -1)
    t = jnp.take_along_axis(turn, targets.astype(jnp.int32)[:, None], axis=1)[:, 0]
    own, opp = s == OWN, s == OPPONENT
    points = jnp.arange(n * n)[None, :]
    planes_ = ([own, opp, s == 0]
               + [own & (lib == k + 1) for k in range(LIBERTY_CAP)]
               + [opp & (lib == k + 1) for k in range(LIBERTY_CAP)]
               + [m[:, c:c + 1] == points for c in range(3)]        # last, previous, ko
               + [jnp.ones_like(own)])
    x = jnp.stack(planes_, axis=-1).astype(jnp.float32)
    return x.reshape(b, n, n, NPLANES), t


def save_checkpoint(path, params, opt_state, best, step, best_metric, history,
                    metric="best_top1"):
    """Write a checkpoint (weights, optimiser state, the best weights, the step, the best
    validation figure as ``metric``, the history) to ``path``, through a temporary file so a
    run killed while writing keeps the last one."""
    jax, _, _ = _jax()
    leaves = jax.tree_util.tree_leaves(opt_state)
    out = {f"param_{k}": np.asarray(v) for k, v in params.items()}
    out.update({f"best_{k}": np.asarray(v) for k, v in best.items()})
    out.update({f"opt_{i}": np.asarray(v) for i, v in enumerate(leaves)})
    out["step"] = np.array(step)
    out[metric] = np.array(best_metric)
    out["history"] = np.array(json.dumps(history))
    tmp = pathlib.Path(str(path) + ".tmp")
    with open(tmp, "wb") as f:
        np.savez(f, **out)
    tmp.replace(path)


def load_checkpoint(path, params, opt_state, metric="best_top1"):
    """``(params, opt_state, best, step, best_metric, history)`` of a checkpoint of
    :func:`save_checkpoint`, shaped as ``params`` and ``opt_state``."""
    jax, jnp, _ = _jax()
    with np.load(path, allow_pickle=False) as z:
        loaded = {k: jnp.asarray(z[f"param_{k}"]) for k in params}
        best = {k: jnp.asarray(z[f"best_{k}"]) for k in params}
        treedef = jax.tree_util.tree_structure(opt_state)
        count = len(jax.tree_util.tree_leaves(opt_state))
        opt_state = jax.tree_util.tree_unflatten(
            treedef, [jnp.asarray(z[f"opt_{i}"]) for i in range(count)])
        return (loaded, opt_state, best, int(z["step"]), float(z[metric]),
                json.loads(str(z["history"])))


def train(arrays, layers=6, channels=32, steps=20000, batch_size=128, learning_rate=1e-3,
          eval_every=500, validation_positions=5000, seed=0, checkpoint=None, stop_at=None,
          deadline=None, log=None):
    """Train a :class:`PolicyNet` on ``arrays`` (:func:`positions`); returns ``(net,
    history)``, ``history`` a list of ``{"step", "loss", "validation_top1", "seconds"}``.
    ``checkpoint``: a file to write every ``eval_every`` steps and to start again from;
    ``stop_at``: stop after that step (a checkpoint then carries the run on; the learning
    rate's schedule is still the one of ``steps``); ``deadline``: a ``time.monotonic()``
    after which training stops at its next measurement, as ``stop_at`` would."""
    jax, jnp, optax = _jax()
    train_set, valid = arrays["train"], arrays["validation"]
    if len(train_set["targets"]) == 0 or len(valid["targets"]) == 0:
        raise ValueError("no training or no validation positions")
    size = int(train_set["stones"].shape[1])       # the board of the positions
    init = PolicyNet.random(size, layers, channels, seed)
    params = {k: jnp.asarray(v) for k, v in init.arrays.items()}
    schedule = optax.cosine_decay_schedule(learning_rate, steps)
    optimiser = optax.adam(schedule)
    opt_state = optimiser.init(params)
    best = dict(params)
    best_top1, start, history = -1.0, 0, []
    if checkpoint is not None and pathlib.Path(checkpoint).is_file():
        params, opt_state, best, start, best_top1, history = load_checkpoint(
            checkpoint, params, opt_state)
        if log:
            log(f"resumed at step {start} (best validation top-1 {best_top1:.4f})")

    tables = tuple(jnp.asarray(t) for t in symmetry_tables(size))
    data = tuple(jnp.asarray(train_set[a]) for a in ("stones", "liberties", "moves", "targets"))

    def loss_fn(p, x, y):
        logits = forward(p, x, layers)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    @jax.jit
    def step_fn(p, s, data, pick, symmetries):
        batch = tuple(a[pick] for a in data)
        x, y = device_batch(tables, *batch, symmetries)
        loss, grads = jax.value_and_grad(loss_fn)(p, x, y)
        updates, s = optimiser.update(grads, s, p)
        return optax.apply_updates(p, updates), s, loss

    @jax.jit
    def hits_fn(p, stones, liberties, moves, targets):
        x, y = device_batch(tables, stones, liberties, moves, targets,
                            jnp.zeros(stones.shape[0], dtype=jnp.int32))
        return jnp.sum(jnp.argmax(forward(p, x, layers), axis=1) == y)

    n_train = len(train_set["targets"])
    nv = min(validation_positions, len(valid["targets"]))
    chunk = 512
    vdata = [tuple(jnp.asarray(valid[a][i:min(i + chunk, nv)])
                   for a in ("stones", "liberties", "moves", "targets"))
             for i in range(0, nv, chunk)]

    def validation_top1(p):
        return float(sum(int(hits_fn(p, *c)) for c in vdata)) / nv

    began = time.monotonic()
    losses = []
    for step in range(start, steps if stop_at is None else min(steps, stop_at)):
        rng = np.random.default_rng([seed, step])       # the same batch on a resumed run
        pick = rng.integers(0, n_train, batch_size)
        symmetries = rng.integers(0, SYMMETRIES, batch_size).astype(np.int32)
        params, opt_state, loss = step_fn(params, opt_state, data, jnp.asarray(pick),
                                          jnp.asarray(symmetries))
        losses.append(loss)                             # kept on the device: no wait a step
        late = deadline is not None and time.monotonic() > deadline
        if (step + 1) % eval_every == 0 or step + 1 in (steps, stop_at) or late:
            v = validation_top1(params)
            if v > best_top1:
                best_top1, best = v, dict(params)
            history.append(dict(step=step + 1, loss=float(jnp.mean(jnp.stack(losses))),
                                validation_top1=v, seconds=round(time.monotonic() - began, 1)))
            losses = []
            if log:
                log(f"step {step + 1}: loss {history[-1]['loss']:.3f}, validation top-1 {v:.4f}")
            if checkpoint is not None:
                save_checkpoint(checkpoint, params, opt_state, best, step + 1, best_top1, history)
            if late:
                break
    net = PolicyNet({k: np.asarray(v) for k, v in best.items()},
                    dict(init.metadata, name="trained", channels=channels,
                         first_kernel=FIRST_KERNEL))
    return net, history


def evaluate(net, split_arrays, limit=None):
    """Top-1 of the NumPy net on a split's positions (all, or the first ``limit``), the
    softmax over every point as in training."""
    n = len(split_arrays["targets"]) if limit is None else min(limit, len(split_arrays["targets"]))
    hits = 0
    for i in range(n):
        x = planes(split_arrays["stones"][i], split_arrays["liberties"][i], split_arrays["moves"][i])
        hits += int(np.argmax(net.logits(x)) == split_arrays["targets"][i])
    return hits / max(n, 1), n
