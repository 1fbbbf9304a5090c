"""Training the DAG-RNN (:mod:`.network`) with JAX and optax (the ``train`` extra).

The same network as the Numba forward pass, on batches of positions of one board size. Each
hidden plane is computed as the sweep from the corner ``(0, 0)`` of the input flipped so that
its corner comes there (the four flips stacked in the batch), one anti-diagonal at a time:
the points of an anti-diagonal depend only on the one before, so a board of size ``N`` takes
``2N - 1`` steps. The outputs are flipped back and summed as the output net sees them.

Loss: the relative entropy between the targets ``T`` (eq. 1 of the paper, in [0, 1]) and the
outputs ``O``, averaged over the on-board points (all of them, or those of ``masks``):
``T log(T/O) + (1-T) log((1-T)/(1-O))``, the paper's "validation error" (its gradient is the
binary cross-entropy's against the soft targets). Adam (optax), mini-batches in a random
order every epoch, the validation loss after each epoch, early stopping after ``patience``
epochs without improvement, keeping the best weights.

No random symmetry per batch: the network is exactly equivariant (see :mod:`.network`), so
``forward(g x) = g forward(x)`` for each of the 8 symmetries ``g`` and *any* input planes
``x``, and the loss, a mean over the points, is the same for ``(g x, g T)`` as for
``(x, T)``: the gradient is the same, the augmentation would only cost the transposes (a
test checks the invariance).

Play needs none of this: :func:`train` returns a :class:`.network.Network`.
"""

import math
import time

import numpy as np

from ..extras import MissingExtra, install_hint
from ..models.ownership.network import ARRAY_NAMES, HIDDEN_UNITS, STATE_UNITS, Network

EPSILON = 1e-7      # outputs are clipped to [EPSILON, 1 - EPSILON] in the loss


def _jax():
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise MissingExtra(f"training needs the train extra: {install_hint('train')}") from None
    return jax, jnp, optax


def params_from_network(network):
    """The network's weights as a dict of float32 JAX arrays."""
    _, jnp, _ = _jax()
    return {name: jnp.asarray(network.arrays[name], dtype=jnp.float32) for name in ARRAY_NAMES}


def network_from_params(params, metadata=None):
    """A :class:`.network.Network` of JAX ``params``."""
    return Network({name: np.asarray(params[name], dtype=np.float64) for name in ARRAY_NAMES},
                   metadata)


def _diagonals(n):
    """For each anti-diagonal d: the (rows, cols) of its points and whether each has a
    predecessor above (row - 1) and to the left (col - 1)."""
    out = []
    for d in range(2 * n - 1):
        rows = np.arange(max(0, d - n + 1), min(d, n - 1) + 1)
        cols = d - rows
        out.append((rows, cols, rows > 0, cols > 0))
    return out


def forward(params, inputs):
    """P(black owns), ``(B, N, N)``, for float32 ``inputs`` ``(B, N, N, F)`` (JAX arrays)."""
    jax, jnp, _ = _jax()
    p = params
    sig = jax.nn.sigmoid
    b, n = inputs.shape[0], inputs.shape[1]
    # The four sweeps as flips of the input (rows, cols, both), stacked in the batch.
    flips = [inputs, inputs[:, ::-1, :, :], inputs[:, ::-1, ::-1, :], inputs[:, :, ::-1, :]]
    x = jnp.concatenate(flips, axis=0)                        # (4B, N, N, F)
    pre_corner = x @ p["corner_in"] + p["corner_b1"]
    pre_side = x @ p["side_in"] + p["side_b1"]
    pre_lat = x @ p["lat_in"] + p["lat_b1"]
    s_units = p["lat_b2"].shape[0]
    states = jnp.zeros((4 * b, n, n, s_units), dtype=x.dtype)
    for rows, cols, up, left in _diagonals(n):
        above = jnp.where(up[None, :, None], states[:, np.maximum(rows - 1, 0), cols, :], 0.0)
        before = jnp.where(left[None, :, None], states[:, rows, np.maximum(cols - 1, 0), :], 0.0)
        pred = above + before
        count = up.astype(np.int32) + left.astype(np.int32)
        lat = sig(sig(pre_lat[:, rows, cols] + pred @ p["lat_state"]) @ p["lat_w2"] + p["lat_b2"])
        side = sig(sig(pre_side[:, rows, cols] + pred @ p["side_state"]) @ p["side_w2"]
                   + p["side_b2"])
        corner = sig(sig(pre_corner[:, rows, cols]) @ p["corner_w2"] + p["corner_b2"])
        new = jnp.where((count == 2)[None, :, None], lat,
                        jnp.where((count == 1)[None, :, None], side, corner))
        states = states.at[:, rows, cols, :].set(new)
    planes = states.reshape(4, b, n, n, s_units)
    total = (planes[0] + planes[1][:, ::-1, :, :] + planes[2][:, ::-1, ::-1, :]
             + planes[3][:, :, ::-1, :])
    hidden = sig(inputs @ p["out_in"] + total @ p["out_state"] + p["out_b1"])
    return sig(hidden @ p["out_w2"] + p["out_b2"][0])


def relative_entropy(outputs, targets, masks=None):
    """Mean over points (and positions) of the relative entropy of ``targets`` to ``outputs``;
    with ``masks`` (same shape, 1 on the board, 0 off it) the mean over the masked points."""
    _, jnp, _ = _jax()
    o = jnp.clip(outputs, EPSILON, 1.0 - EPSILON)
    t = targets
    t_log_t = jnp.where(t > 0, t * jnp.log(jnp.maximum(t, EPSILON)), 0.0)
    u_log_u = jnp.where(t < 1, (1 - t) * jnp.log(jnp.maximum(1 - t, EPSILON)), 0.0)
    kl = t_log_t + u_log_u - t * jnp.log(o) - (1 - t) * jnp.log(1 - o)
    if masks is None:
        return jnp.mean(kl)
    return jnp.sum(kl * masks) / jnp.maximum(jnp.sum(masks), 1.0)


def train(inputs, targets, masks=None, *, val_inputs, val_targets, val_masks=None, epochs=40,
          batch_size=32, learning_rate=3e-3, seed=0, patience=5, progress=None, network=None,
          state_units=STATE_UNITS, hidden_units=HIDDEN_UNITS):
    """Train on ``inputs`` float32 (n, N, N, F) and ``targets`` float32 (n, N, N) in [0, 1];
    ``masks`` / ``val_masks`` (n, N, N), 1 on the points that count (all by default). Returns
    ``(network, history)``: the network of the epoch with the lowest validation loss, and one
    dict per epoch (``epoch``, ``train_loss``, ``validation_loss``, ``seconds``), the losses
    means over the counted points. ``progress(epoch, train_loss, validation_loss, seconds)``
    is called after each epoch; ``network``: start from these weights instead of random
    ones."""
    jax, jnp, optax = _jax()
    inputs = np.asarray(inputs, dtype=np.float32)
    targets = np.asarray(targets, dtype=np.float32)
    val_inputs = np.asarray(val_inputs, dtype=np.float32)
    val_targets = np.asarray(val_targets, dtype=np.float32)
    masks = _masks(masks, targets, "masks")
    val_masks = _masks(val_masks, val_targets, "val_masks")
    if inputs.ndim != 4 or inputs.shape[1] != inputs.shape[2] or \
            targets.shape != inputs.shape[:3] or val_inputs.shape[1:] != inputs.shape[1:] or \
            val_targets.shape != val_inputs.shape[:3]:
        raise ValueError(f"inputs {inputs.shape} / targets {targets.shape}, validation "
                         f"{val_inputs.shape} / {val_targets.shape}: expected (n, N, N, F) / "
                         "(n, N, N) of one board size and F")
    if network is None:
        network = Network.random(inputs.shape[-1], seed=seed, state_units=state_units,
                                 hidden_units=hidden_units)
    params = params_from_network(network)
    optimizer = optax.adam(learning_rate)
    opt_state = optimizer.init(params)

    def loss_of(params, x, t, m):
        return relative_entropy(forward(params, x), t, m)

    @jax.jit
    def step(params, opt_state, x, t, m):
        loss, grads = jax.value_and_grad(loss_of)(params, x, t, m)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    evaluate = jax.jit(loss_of)

    def mean_loss(params, x_all, t_all, m_all):
        total, count = 0.0, 0.0
        for start in range(0, len(x_all), batch_size):
            part = slice(start, start + batch_size)
            weight = float(m_all[part].sum())
            total += float(evaluate(params, x_all[part], t_all[part], m_all[part])) * weight
            count += weight
        return total / max(count, 1.0)

    rng = np.random.default_rng(seed)
    best = (math.inf, params, 0)
    history = []
    n = len(inputs)
    full = n - n % batch_size if n >= batch_size else n    # whole batches: one compiled shape
    for epoch in range(1, epochs + 1):
        started = time.perf_counter()
        order = rng.permutation(n)[:full]
        total, count = 0.0, 0.0
        for start in range(0, full, batch_size):
            idx = order[start:start + batch_size]
            params, opt_state, loss = step(params, opt_state, inputs[idx], targets[idx],
                                           masks[idx])
            weight = float(masks[idx].sum())
            total += float(loss) * weight
            count += weight
        train_loss = total / max(count, 1.0)
        val_loss = mean_loss(params, val_inputs, val_targets, val_masks)
        seconds = time.perf_counter() - started
        history.append({"epoch": epoch, "train_loss": train_loss, "validation_loss": val_loss,
                        "seconds": round(seconds, 2)})
        if progress is not None:
            progress(epoch, train_loss, val_loss, seconds)
        if val_loss < best[0]:
            best = (val_loss, params, epoch)
        elif epoch - best[2] >= patience:
            break
    return network_from_params(best[1], {"best_epoch": best[2]}), history


def _masks(masks, targets, name):
    if masks is None:
        return np.ones_like(targets, dtype=np.float32)
    masks = np.asarray(masks, dtype=np.float32)
    if masks.shape != targets.shape:
        raise ValueError(f"{name} of shape {masks.shape}: expected the targets' {targets.shape}")
    return masks
