"""The DAG-RNN of seed 003: the Numba forward pass against a plain reference written from the
paper's equations (2) and against JAX's, equivariance, training, and the weights file."""

import json
import math
import zipfile

import numpy as np
import pytest

from mcgo.board.symmetry import SYMMETRIES
from mcgo.models.ownership.network import ARRAY_NAMES, FORMAT, Network, NetworkError, is_network_file


def sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def reference_forward(net, inputs):
    """Eq. (2) of the paper with explicit loops over the points, as a test oracle: four
    planes, each H_ij = N(I_ij, predecessors) from its corner, then O_ij = N_O(I, H)."""
    a = net.arrays
    n = inputs.shape[0]

    def hidden_net(prefix, x, preds):
        pre = x @ a[f"{prefix}_in"] + a[f"{prefix}_b1"]
        for h in preds:
            pre = pre + h @ a[f"{prefix}_state"]
        return sigmoid(sigmoid(pre) @ a[f"{prefix}_w2"] + a[f"{prefix}_b2"])

    planes = []
    for di, dj in ((1, 1), (-1, 1), (-1, -1), (1, -1)):
        plane = {}
        rows = range(n) if di == 1 else range(n - 1, -1, -1)
        cols = list(range(n) if dj == 1 else range(n - 1, -1, -1))
        for i in rows:
            for j in cols:
                preds = [plane[q] for q in ((i - di, j), (i, j - dj)) if q in plane]
                kind = ("corner", "side", "lat")[len(preds)]
                plane[(i, j)] = hidden_net(kind, inputs[i, j], preds)
        planes.append(plane)
    out = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            pre = inputs[i, j] @ a["out_in"] + a["out_b1"]
            for plane in planes:
                pre = pre + plane[(i, j)] @ a["out_state"]
            out[i, j] = sigmoid(sigmoid(pre) @ a["out_w2"] + a["out_b2"][0])
    return out


def transform(array, s):
    """Symmetry ``s`` (0-7) of the board axes (the first two) of ``array``."""
    out = np.rot90(array, s % 4, axes=(0, 1))
    return out[:, ::-1] if s >= 4 else out


def test_forward_equals_the_reference_from_the_equations():
    net = Network.random(6, seed=4, scale=2.0)
    rng = np.random.default_rng(5)
    for n in (1, 2, 5):
        x = rng.normal(size=(n, n, 6)).astype(np.float32)
        np.testing.assert_allclose(net.forward(x), reference_forward(net, x.astype(np.float64)),
                                   atol=1e-12)


def test_output_is_equivariant_under_the_eight_symmetries():
    net = Network.random(4, seed=7, scale=3.0)
    x = np.random.default_rng(8).normal(size=(7, 7, 4)).astype(np.float32)
    out = net.forward(x)
    assert SYMMETRIES == 8
    for s in range(8):
        np.testing.assert_allclose(net.forward(transform(x, s)), transform(out, s), atol=1e-12)
    # Not a constant map: the test would pass vacuously otherwise.
    assert out.std() > 1e-3


def test_numba_forward_equals_jax():
    pytest.importorskip("jax")
    import jax.numpy as jnp
    from mcgo.train import ownership_train as T
    net = Network.random(9, seed=2, scale=2.0)
    rng = np.random.default_rng(3)
    for n in (5, 9, 19):
        x = rng.random((2, n, n, 9)).astype(np.float32)
        jax_out = np.asarray(T.forward(T.params_from_network(net), jnp.asarray(x)))
        numba_out = np.stack([net.forward(xi) for xi in x])
        np.testing.assert_allclose(numba_out, jax_out, atol=1e-5)
    back = T.network_from_params(T.params_from_network(net))
    for name in ARRAY_NAMES:
        np.testing.assert_allclose(back.arrays[name], net.arrays[name], rtol=1e-6, atol=1e-7)


def test_training_on_a_tiny_set_lowers_the_loss():
    pytest.importorskip("jax")
    from mcgo.train.ownership_train import train
    rng = np.random.default_rng(0)
    x = rng.random((64, 5, 5, 3)).astype(np.float32)
    t = (x[..., 0] > 0.5).astype(np.float32) * 0.8 + 0.1      # learnable from one input
    losses = []
    net, history = train(x[:48], t[:48], val_inputs=x[48:], val_targets=t[48:], epochs=15,
                         batch_size=8, learning_rate=3e-2, seed=1, patience=15,
                         progress=lambda e, tl, vl, s: losses.append(vl))
    assert len(history) == 15 and history[-1]["validation_loss"] == losses[-1]
    assert min(losses) < 0.5 * losses[0]
    # The returned network is the best epoch's, and the Numba path agrees with its loss.
    o = np.clip(np.stack([net.forward(xi) for xi in x[48:]]), 1e-7, 1 - 1e-7)
    tt = t[48:]
    kl = np.mean(tt * np.log(tt / o) + (1 - tt) * np.log((1 - tt) / (1 - o)))
    assert math.isclose(kl, min(losses), rel_tol=1e-3)


def test_the_loss_is_the_same_under_the_eight_symmetries():
    """Why training draws no random symmetry per batch: for any input planes and targets the
    loss is the same under all 8 (in float32, to rounding)."""
    pytest.importorskip("jax")
    import jax
    from mcgo.train import ownership_train as T
    net = Network.random(4, seed=11, scale=2.0)
    params = T.params_from_network(net)
    rng = np.random.default_rng(12)
    x = rng.normal(size=(3, 6, 6, 4)).astype(np.float32)
    t = rng.random((3, 6, 6)).astype(np.float32)
    loss = jax.jit(lambda x, t: T.relative_entropy(T.forward(params, x), t))
    losses = []
    for s in range(8):
        xs = np.stack([transform(xi, s) for xi in x])
        ts = np.stack([transform(ti, s) for ti in t])
        losses.append(float(loss(xs, ts)))
    assert max(losses) - min(losses) < 1e-6 and losses[0] > 0.01


def test_masked_points_do_not_count():
    pytest.importorskip("jax")
    import jax.numpy as jnp
    from mcgo.train.ownership_train import relative_entropy, train
    o = jnp.asarray([[0.9, 0.2], [0.5, 0.5]])
    t = jnp.asarray([[1.0, 0.0], [0.0, 1.0]])
    m = jnp.asarray([[1.0, 1.0], [0.0, 0.0]])
    expected = (-math.log(0.9) - math.log(0.8)) / 2
    assert math.isclose(float(relative_entropy(o, t, m)), expected, rel_tol=1e-5)
    assert float(relative_entropy(o, t)) > expected
    # Training never sees the targets off the mask: changing them changes nothing.
    rng = np.random.default_rng(1)
    x = rng.random((24, 5, 5, 2)).astype(np.float32)
    t = (x[..., 0] > 0.5).astype(np.float32)
    masks = np.ones_like(t)
    masks[:, :, 3:] = 0.0
    noisy = t.copy()
    noisy[:, :, 3:] = rng.random((24, 5, 2))
    runs = [train(x[:16], targets[:16], masks[:16], val_inputs=x[16:], val_targets=targets[16:],
                  val_masks=masks[16:], epochs=3, batch_size=8, learning_rate=3e-2, seed=2,
                  patience=3) for targets in (t, noisy)]
    assert runs[0][1][-1]["validation_loss"] < runs[0][1][0]["validation_loss"]
    assert [h["validation_loss"] for h in runs[0][1]] == [h["validation_loss"] for h in runs[1][1]]
    for name in ARRAY_NAMES:
        np.testing.assert_array_equal(runs[0][0].arrays[name], runs[1][0].arrays[name])
    with pytest.raises(ValueError, match="masks of shape"):
        train(x, t, masks[:, :4], val_inputs=x, val_targets=t, epochs=1)


def test_save_and_load_keep_weights_and_metadata(tmp_path):
    net = Network.random(5, seed=1)
    path = tmp_path / "net.npz"
    net.save(path, {"data": "goban", "split": {"train": 80}, "metrics": {"loss": 0.1}})
    back = Network.load(path)
    assert is_network_file(path)
    for name in ARRAY_NAMES:
        np.testing.assert_array_equal(back.arrays[name], net.arrays[name])
    assert back.metadata["data"] == "goban" and back.metadata["metrics"] == {"loss": 0.1}
    assert back.metadata["format"] == FORMAT and back.metadata["nfeatures"] == 5
    x = np.random.default_rng(0).random((9, 9, 5)).astype(np.float32)
    np.testing.assert_array_equal(back.forward(x), net.forward(x))


def test_broken_files_give_a_clear_error(tmp_path):
    net = Network.random(5, seed=1)
    good = tmp_path / "net.npz"
    net.save(good)
    raw = good.read_bytes()

    truncated = tmp_path / "truncated.npz"
    truncated.write_bytes(raw[:len(raw) // 2])
    with pytest.raises(NetworkError, match="truncated"):
        Network.load(truncated)

    with pytest.raises(NetworkError, match="no such"):
        Network.load(tmp_path / "missing.npz")

    other = tmp_path / "other.npz"
    np.savez(other, metadata=np.frombuffer(json.dumps({"format": "something"}).encode(), np.uint8))
    with pytest.raises(NetworkError, match="not a DAG-RNN"):
        Network.load(other)
    assert not is_network_file(other)

    misshapen = tmp_path / "misshapen.npz"
    arrays = dict(net.arrays)
    arrays["lat_state"] = np.zeros((3, 3))
    meta = dict(net.metadata)
    np.savez(misshapen, metadata=np.frombuffer(json.dumps(meta).encode(), np.uint8), **arrays)
    with pytest.raises(NetworkError, match="lat_state has shape"):
        Network.load(misshapen)

    newer = tmp_path / "newer.npz"
    meta["version"] = 99
    np.savez(newer, metadata=np.frombuffer(json.dumps(meta).encode(), np.uint8), **net.arrays)
    with pytest.raises(NetworkError, match="version 99"):
        Network.load(newer)

    with zipfile.ZipFile(tmp_path / "empty.npz", "w"):
        pass
    with pytest.raises(NetworkError, match="no metadata"):
        Network.load(tmp_path / "empty.npz")

    text = tmp_path / "text.npz"
    text.write_text("not a zip file\n")
    with pytest.raises(NetworkError, match="not a DAG-RNN network file"):
        Network.load(text)

    lacking = tmp_path / "lacking.npz"
    arrays = {name: a for name, a in net.arrays.items() if name != "out_w2"}
    meta["version"] = 1
    np.savez(lacking, metadata=np.frombuffer(json.dumps(meta).encode(), np.uint8), **arrays)
    with pytest.raises(NetworkError, match="arrays missing: out_w2"):
        Network.load(lacking)
    # Each message is one line.
    for path in (truncated, other, misshapen, newer, text, lacking):
        with pytest.raises(NetworkError) as caught:
            Network.load(path)
        assert "\n" not in str(caught.value)
