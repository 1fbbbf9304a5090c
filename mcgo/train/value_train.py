"""Training the value heads of a policy net (:mod:`mcgo.models.policy_net`, version 2) with JAX
and optax (the ``train`` extra), on the positions of :mod:`.value_data`.

The trunk is the policy net's and stays as it is (frozen): only the heads learn, so the
policy the engine already measured does not move, one forward pass gives a node its priors
and its value, and the few thousand games a board size has do not overfit a whole network
(a value net trained from scratch on positions of a few games learns the games, AlphaGo's
lesson). The value reads the trunk through ``value_layers`` convolutions of its own (a frozen policy
trunk's last features, pooled as they are, stay at a coin's log loss: journal 2026-12). With
the trunk frozen its features are computed once for every position (each turned by one of the
8 symmetries at random), so that a step costs the heads alone: a 10 x 64 trunk trains on 2
cores, at 46 KB of memory a 19x19 position. Losses, each on the side to move's view: the cross-entropy of the win's logit
against the outcome (a jigo half), the Huber loss of the score (scaled by
:data:`~mcgo.models.policy_net.SCORE_SCALE`) where the game was counted, and the squared
error of each point's owner where the final ownership is known, weighed
:data:`SCORE_WEIGHT` and :data:`OWNERSHIP_WEIGHT`. Adam with a cosine decay; every position
turned by one of the 8 symmetries at random, its ownership with it. Checkpoints as the
policy trainer's (:func:`.policy_net_train.train`): weights, optimiser state, step, the best
heads by the validation log loss; a killed run starts again where it stopped (a frozen
trunk's features are computed again).

Play needs none of this: :func:`train` returns a :class:`PolicyNet` with the heads.
"""

import pathlib
import time

import numpy as np

from ..board.symmetry import SYMMETRIES
from ..models.policy_net import (HEADS, KOMI_SCALE, NPLANES, SCORE_SCALE, VALUE_HIDDEN, PolicyNet,
                                 planes)
from .policy_net_train import _jax, device_batch, load_checkpoint, save_checkpoint, symmetry_tables

SCORE_WEIGHT = 0.1
POLICY_WEIGHT = 1.0
OWNERSHIP_WEIGHT = 0.5
CHUNK = 512
VALUE_CHANNELS = 32


def random_heads(net, seed=0, hidden=VALUE_HIDDEN, value_layers=0, value_channels=VALUE_CHANNELS):
    """Initial head weights (He's initialisation) for ``net``'s trunk, with ``value_layers``
    convolutions ``3 x 3`` of ``value_channels`` before the pooling and the ownership."""
    rng = np.random.default_rng(seed)
    c = net.arrays["out_w"].shape[2]
    n = net.size
    tower = {}
    for i in range(value_layers):
        tower[f"vconv{i}_w"] = rng.normal(0, np.sqrt(2.0 / (9 * c)), (3, 3, c, value_channels))
        tower[f"vconv{i}_b"] = np.zeros(value_channels)
        c = value_channels
    return {**tower, "value_w1": rng.normal(0, np.sqrt(2.0 / (2 * c + 1)), (2 * c + 1, hidden)),
            "value_b1": np.zeros(hidden), "value_w2": rng.normal(0, np.sqrt(1.0 / hidden), (hidden, 2)),
            "value_b2": np.zeros(2), "own_w": rng.normal(0, np.sqrt(1.0 / c), (1, 1, c, 1)),
            "own_b": np.zeros((n, n))}


def features(trunk, x, layers):
    """JAX: the trunk's last features ``(B, N, N, C)`` of planes ``x``."""
    jax, _, _ = _jax()
    dims = ("NHWC", "HWIO", "NHWC")
    for i in range(layers - 1):
        x = jax.lax.conv_general_dilated(x, trunk[f"conv{i}_w"], (1, 1), "SAME",
                                         dimension_numbers=dims) + trunk[f"conv{i}_b"]
        x = jax.nn.relu(x)
    return x


def value_heads(heads, f, komi):
    """JAX: ``(win logit, score / SCORE_SCALE, owner)`` of trunk features ``f``."""
    jax, jnp, _ = _jax()
    i = 0
    while f"vconv{i}_w" in heads:
        f = jax.nn.relu(jax.lax.conv_general_dilated(f, heads[f"vconv{i}_w"], (1, 1), "SAME",
                                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
                        + heads[f"vconv{i}_b"])
        i += 1
    pooled = jnp.concatenate([f.mean(axis=(1, 2)), f.max(axis=(1, 2)),
                              (komi / KOMI_SCALE)[:, None]], axis=1)
    hidden = jax.nn.relu(pooled @ heads["value_w1"] + heads["value_b1"])
    out = hidden @ heads["value_w2"] + heads["value_b2"]
    owner = jax.lax.conv_general_dilated(f, heads["own_w"], (1, 1), "SAME",
                                         dimension_numbers=("NHWC", "HWIO", "NHWC"))[..., 0]
    return out[:, 0], out[:, 1], jnp.tanh(owner + heads["own_b"])


def policy_head(params, f):
    """JAX: the ``(B, N*N)`` move logits of trunk features ``f``."""
    jax, _, _ = _jax()
    x = jax.lax.conv_general_dilated(f, params["out_w"], (1, 1), "SAME",
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))
    logits = x[..., 0] + params["out_b"]
    return logits.reshape(x.shape[0], -1)


def forward(trunk, heads, x, komi, layers):
    """JAX: ``(win logit, score / SCORE_SCALE, owner)`` of planes ``x`` ``(B, N, N, F)``, the
    same computation as :meth:`PolicyNet.values`."""
    return value_heads(heads, features(trunk, x, layers), komi)


def _losses(params, batch, layers):
    """Per-position ``(value, score, ownership, policy)`` losses of a device batch (the
    policy's cross-entropy where a move was played, 0 at a pass), and whether the policy's
    first choice was the move, and whether a move was played."""
    x, komi, outcome, score, owner, has_owner, target = batch
    f = features(params, x, layers)
    return (*_value_losses(params, f, (komi, outcome, score, owner, has_owner)),
            *_policy_losses(params, f, target))


def _value_losses(params, f, batch):
    """Per-position ``(value, score, ownership)`` losses of the heads on trunk features
    ``f``."""
    _, jnp, optax = _jax()
    komi, outcome, score, owner, has_owner = batch
    logit, s, o = value_heads(params, f, komi)
    value = optax.sigmoid_binary_cross_entropy(logit, (outcome + 1.0) / 2.0)
    counted = ~jnp.isnan(score)
    score_loss = jnp.where(counted, optax.huber_loss(s, jnp.where(counted, score, 0.0) / SCORE_SCALE), 0.0)
    own_loss = jnp.where(has_owner, jnp.mean((o - owner) ** 2, axis=(1, 2)), 0.0)
    return value, score_loss, own_loss


def _policy_losses(params, f, target):
    """Per-position ``(cross-entropy, hit, played)`` of the policy (``params``' ``out_*``) on
    trunk features ``f`` against the move played (``target``, -1 at a pass)."""
    _, jnp, optax = _jax()
    logits = policy_head(params, f)
    played = target >= 0
    cross = optax.softmax_cross_entropy_with_integer_labels(logits, jnp.maximum(target, 0))
    hit = played & (jnp.argmax(logits, axis=1) == target)
    return jnp.where(played, cross, 0.0), hit, played


def _device_positions(arrays, tables, pick, symmetries):
    """JAX: a batch of the positions ``pick`` turned by ``symmetries``: planes, komi,
    outcome, score, ownership (turned too), whether it is known, and the move played (turned;
    -1 for a pass)."""
    _, jnp, _ = _jax()
    stones, liberties, moves = (arrays[a][pick] for a in ("stones", "liberties", "moves"))
    b, n = stones.shape[0], stones.shape[1]
    played = arrays["targets"][pick].astype(jnp.int32)
    x, target = device_batch(tables, stones, liberties, moves, jnp.maximum(played, 0), symmetries)
    source = tables[1][symmetries]
    owner = jnp.take_along_axis(arrays["ownership"][pick].reshape(b, n * n), source, axis=1)
    return (x, arrays["komi"][pick], arrays["outcome"][pick].astype(jnp.float32),
            arrays["score"][pick], owner.reshape(b, n, n).astype(jnp.float32),
            arrays["has_ownership"][pick], jnp.where(played >= 0, target, -1))


def _frozen_features(fixed, data, tables, convs, n, seed, scale, log=None):
    """Host arrays of the first ``n`` positions of ``data`` as the heads read them: the frozen
    trunk's features after ``convs`` convolutions over ``scale`` (float16), komi, outcome,
    score, ownership, whether it is known and the move, each position turned by a symmetry
    drawn with ``seed`` (``None``: none)."""
    jax, jnp, _ = _jax()

    @jax.jit
    def chunk(pick, symmetries):
        x, *rest = _device_positions(data, tables, pick, symmetries)
        return ((features(fixed, x, convs + 1) / scale).astype(jnp.float16), *rest)

    rng = np.random.default_rng(seed) if seed is not None else None
    out, began = None, time.monotonic()
    for i in range(0, n, CHUNK):
        pick = np.arange(i, min(i + CHUNK, n))
        if len(pick) < CHUNK:  # one compiled shape: the last chunk padded, then cut
            pick = np.concatenate([pick, np.full(CHUNK - len(pick), pick[-1])])
        sym = (rng.integers(0, SYMMETRIES, CHUNK) if rng is not None
               else np.zeros(CHUNK, np.int64)).astype(np.int32)
        got = [np.asarray(a) for a in chunk(jnp.asarray(pick), jnp.asarray(sym))]
        if out is None:                  # filled in place: the features are most of memory
            out = [np.empty((n,) + a.shape[1:], a.dtype) for a in got]
        for whole, part in zip(out, got):
            whole[i:i + CHUNK] = part[:min(CHUNK, n - i)]
        if log and (i // CHUNK) % 50 == 49:
            log(f"trunk features: {i + CHUNK} of {n} positions ({time.monotonic() - began:.0f} s)")
    return out


def _feature_scale(fixed, data, tables, convs, n):
    """Each channel's root mean square over the first positions of ``data`` (1 where it is
    never positive): a policy trunk without normalisation doubles its features' size a layer
    (hundreds by the last), which the heads learn from only once scaled to about 1."""
    jax, jnp, _ = _jax()
    x, *_ = _device_positions(data, tables, jnp.arange(min(n, CHUNK)),
                              jnp.zeros(min(n, CHUNK), jnp.int32))
    rms = np.sqrt(np.mean(np.asarray(features(fixed, x, convs + 1), np.float64) ** 2,
                          axis=(0, 1, 2)))
    return np.where(rms > 1e-6, rms, 1.0).astype(np.float32)


def fold_scale(heads, scale):
    """Heads that read features ``f`` as ``heads`` read ``f / scale``: the scale folded into
    the first weights that read the features (a convolution's inputs, or the pooling's rows
    and the ownership's, the pooled mean and max being linear in a positive scale)."""
    out = dict(heads)
    if "vconv0_w" in out:
        out["vconv0_w"] = out["vconv0_w"] / scale[None, None, :, None]
        return out
    c = len(scale)
    w1 = np.array(out["value_w1"])
    w1[:c] /= scale[:, None]
    w1[c:2 * c] /= scale[:, None]
    out["value_w1"] = w1
    out["own_w"] = out["own_w"] / scale[None, None, :, None]
    return out


def train(net, arrays, steps=20000, batch_size=256, learning_rate=1e-3, eval_every=1000,
          validation_positions=20000, seed=0, checkpoint=None, stop_at=None, deadline=None,
          whole=False, policy_weight=POLICY_WEIGHT, value_layers=0, value_tap=None, log=None):
    """The heads of ``net`` (a policy net) trained on ``arrays``
    (:func:`.value_data.positions`); returns ``(net with heads, history)``. ``whole=False``:
    the trunk and the policy stay as they are, the heads alone learn, from the trunk's
    features computed once. ``whole=True``: the whole net learns from the net's weights on,
    the policy's cross-entropy (weighed ``policy_weight``) beside the heads' losses, so that
    the trunk learns what the value needs while the policy keeps what it knew.
    ``value_layers``: the value's own convolutions (:data:`VALUE_CHANNELS` channels) between
    the trunk and the pooling; ``value_tap``: how many of the trunk's convolutions the value
    reads after (default all; fewer only with the trunk frozen). The best weights by the
    validation log loss of the value are the result."""
    jax, jnp, optax = _jax()
    train_set, valid = arrays["train"], arrays["validation"]
    if not len(train_set["outcome"]) or not len(valid["outcome"]):
        raise ValueError("no training or no validation positions")
    layers = net.layers
    tap = layers - 1 if value_tap is None else int(value_tap)
    if not 1 <= tap <= layers - 1 or (whole and tap != layers - 1):
        raise ValueError(f"value_tap {value_tap}: 1 to {layers - 1} with the trunk frozen, "
                         f"{layers - 1} (all) when the whole net learns")
    policy = {k: v for k, v in net.arrays.items() if k not in HEADS and not k.startswith("vconv")}
    fixed = {} if whole else {k: jnp.asarray(v) for k, v in policy.items()}
    learned = {k: jnp.asarray(v, jnp.float32)
               for k, v in random_heads(net, seed, value_layers=value_layers).items()}
    if whole:
        learned.update({k: jnp.asarray(v, jnp.float32) for k, v in policy.items()})
    optimiser = optax.adam(optax.cosine_decay_schedule(learning_rate, steps))
    opt_state = optimiser.init(learned)
    best, best_loss, start, history = dict(learned), float("inf"), 0, []
    if checkpoint is not None and pathlib.Path(checkpoint).is_file():
        learned, opt_state, best, start, best_loss, history = load_checkpoint(
            checkpoint, learned, opt_state, "best_loss")
        if log:
            log(f"resumed at step {start} (best validation log loss {best_loss:.4f})")
    tables = tuple(jnp.asarray(t) for t in symmetry_tables(net.size))
    keys = ("stones", "liberties", "moves", "komi", "outcome", "score", "ownership",
            "has_ownership", "targets")
    data = {a: jnp.asarray(train_set[a]) for a in keys}
    pw = policy_weight if whole else 0.0
    nv = min(validation_positions, len(valid["outcome"]))
    vdata = {a: jnp.asarray(valid[a][:nv]) for a in keys}
    n_train = len(train_set["outcome"])

    if whole:
        def train_losses(h, pick, symmetries):
            return _losses(h, _device_positions(data, tables, pick, symmetries), layers)

        def valid_losses(h, pick):
            return _losses(h, _device_positions(vdata, tables, pick,
                                                jnp.zeros(pick.shape[0], jnp.int32)), layers)

        def train_batch(pick, symmetries):
            return jnp.asarray(pick), jnp.asarray(symmetries)

        def valid_batch(pick):
            return (jnp.asarray(pick),)
    else:
        scale = _feature_scale(fixed, data, tables, tap, n_train)
        cached = _frozen_features(fixed, data, tables, tap, n_train, seed, scale, log)
        vcached = _frozen_features(fixed, vdata, tables, tap, nv, None, scale, log)

        def train_losses(h, f, *rest):  # the frozen policy's loss is not trained: none
            value, score_loss, own_loss = _value_losses({**fixed, **h}, f.astype(jnp.float32),
                                                        rest[:-1])
            none = jnp.zeros_like(value)
            return value, score_loss, own_loss, none, none > 0, rest[-1] >= 0

        valid_losses = train_losses

        def train_batch(pick, _symmetries):  # each position keeps its cached symmetry
            return tuple(jnp.asarray(a[pick]) for a in cached)

        def valid_batch(pick):
            return tuple(jnp.asarray(a[pick]) for a in vcached)

    def loss_fn(h, *batch):
        v, s, o, p, _, _ = train_losses(h, *batch)
        return jnp.mean(v + SCORE_WEIGHT * s + OWNERSHIP_WEIGHT * o + pw * p)

    @jax.jit
    def step_fn(h, state, *batch):
        loss, grads = jax.value_and_grad(loss_fn)(h, *batch)
        updates, state = optimiser.update(grads, state, h)
        return optax.apply_updates(h, updates), state, loss

    @jax.jit
    def valid_fn(h, *batch):
        v, s, o, p, hit, played = valid_losses(h, *batch)
        return jnp.stack([jnp.sum(v), jnp.sum(s), jnp.sum(o), jnp.sum(hit), jnp.sum(played)])

    def validation(h):
        total = np.zeros(5)
        for i in range(0, nv, CHUNK):
            total += np.asarray(valid_fn(h, *valid_batch(np.arange(i, min(i + CHUNK, nv)))),
                                np.float64)
        return total[0] / nv, total[1] / nv, total[2] / nv, total[3] / max(total[4], 1)

    began, losses = time.monotonic(), []
    for step in range(start, steps if stop_at is None else min(steps, stop_at)):
        rng = np.random.default_rng([seed, step])
        pick = rng.integers(0, n_train, batch_size)
        symmetries = rng.integers(0, SYMMETRIES, batch_size).astype(np.int32)
        learned, opt_state, loss = step_fn(learned, opt_state, *train_batch(pick, symmetries))
        losses.append(loss)
        late = deadline is not None and time.monotonic() > deadline
        if (step + 1) % eval_every == 0 or step + 1 in (steps, stop_at) or late:
            v, sc, o, top1 = validation(learned)
            if v < best_loss:
                best_loss, best = v, dict(learned)
            history.append(dict(step=step + 1, loss=float(jnp.mean(jnp.stack(losses))),
                                validation_log_loss=float(v), validation_score_loss=float(sc),
                                validation_ownership_loss=float(o), validation_top1=float(top1),
                                seconds=round(time.monotonic() - began, 1)))
            losses = []
            if log:
                log(f"step {step + 1}: loss {history[-1]['loss']:.4f}, validation log loss "
                    f"{v:.4f}, score {sc:.4f}, ownership {o:.4f}, policy top-1 {top1:.4f}")
            if checkpoint is not None:
                save_checkpoint(checkpoint, learned, opt_state, best, step + 1, best_loss,
                                history, "best_loss")
            if late:
                break
    arrays_out = dict(policy)
    best = {k: np.asarray(v) for k, v in best.items()}
    arrays_out.update(best if whole else fold_scale(best, scale))
    return PolicyNet(arrays_out, dict(net.metadata, value_whole=bool(whole),
                                      value_layers=int(value_layers), value_tap=tap)), history


def predictions(net, split_arrays, limit=None):
    """The NumPy net's win probabilities and predicted scores on a split's positions."""
    n = len(split_arrays["outcome"]) if limit is None else min(limit, len(split_arrays["outcome"]))
    wins, scores = [], []
    for i in range(0, n, CHUNK):
        j = min(i + CHUNK, n)
        x = planes(split_arrays["stones"][i:j], split_arrays["liberties"][i:j],
                   split_arrays["moves"][i:j])
        w, s, _ = net.values(x, split_arrays["komi"][i:j])
        wins.append(w)
        scores.append(s)
    return np.concatenate(wins), np.concatenate(scores)


def outcome_metrics(p, outcome):
    """Accuracy, log loss and Brier score of win probabilities ``p`` against outcomes (+1,
    -1; jigos left out), as the issue's table counts them."""
    keep = outcome != 0
    p, y = np.clip(p[keep], 1e-6, 1 - 1e-6), (outcome[keep] > 0).astype(float)
    return {"positions": int(keep.sum()), "accuracy": float(np.mean((p > 0.5) == (y > 0.5))),
            "log_loss": float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))),
            "brier": float(np.mean((p - y) ** 2))}


__all__ = ["HEADS", "NPLANES", "forward", "outcome_metrics", "predictions", "random_heads", "train"]
