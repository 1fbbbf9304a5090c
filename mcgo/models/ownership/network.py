"""Seed 003's DAG-RNN (Wu & Baldi 2006, section 3.2): the forward pass the engine runs (NumPy and
Numba only) and the weights file.

Six planes of ``N x N`` units: the inputs ``I_ij`` (:mod:`.features`, ``F`` values a point),
four hidden planes of ``S`` state units that sweep the board from its four corners, and the
output ``O_ij``, the probability that black owns point ``ij`` at the end. For the plane
that sweeps from the corner ``(0, 0)`` (rows up, columns right)::

    H_ij = N_lat(I_ij, H_{i-1,j}, H_{i,j-1})      inside the board
    H_ij = N_side(I_ij, H_pred)                    on the two start edges (one predecessor)
    H_ij = N_corner(I_ij)                          at the start corner
    O_ij = N_out(I_ij, H^1_ij, H^2_ij, H^3_ij, H^4_ij)

and the other three planes alike from the other corners. Each ``N`` is one hidden layer of
``HIDDEN`` logistic units; ``N_lat``, ``N_side`` and ``N_corner`` give ``S`` logistic state
units, ``N_out`` one. As in the paper, one lateral net, one side net and one corner net
serve all four planes ("Go is isotropic") and every point (weight sharing), so the same
weights run on any board size.

**One step further than the paper**: ``N_lat`` uses one matrix for both predecessors, and
``N_out`` one matrix for the four hidden planes (it sees their sum through it). With these
ties, and inputs that are themselves symmetric (:mod:`.features`), the net is exactly
equivariant under the 8 symmetries of the board: a rotated or mirrored position gives the
rotated or mirrored output, which the paper obtained only approximately by training on the
8 symmetries. (The symmetries then add nothing to training: the loss of a position is the
same under all 8.)

Why the ties: a reflection in a diagonal maps the two sweeps that start on that diagonal
onto themselves with their two predecessors (``H_{i-1,j}`` and ``H_{i,j-1}``) swapped, so
``N_lat`` must treat them alike; the symmetries permute the four planes, so ``N_out`` must
treat them alike. The paper shares one net among the four planes for the same reason ("Go
is isotropic"); without these two ties that sharing is only approximately isotropic.

Sizes (``S = 8``, ``HIDDEN = 16``, as the paper's main net): ``64 F + 873`` weights
(``16 F + 152`` corner, ``16 F + 280`` side, ``16 F + 280`` lateral, ``16 F + 161``
output): 3,945 with the 48 inputs of radius 2, 4,713 at ``F = 60``; untied (a matrix per
predecessor and per plane) 512 more. The paper reports about 6,000 for its inputs.

The file is a ``.npz`` of the arrays of :data:`ARRAY_NAMES` and a JSON ``metadata``
(``format``, ``version``, sizes, and what the trainer adds: data, split, commit, metrics).

>>> import numpy as np
>>> net = Network.random(nfeatures=5, seed=1)
>>> out = net.forward(np.zeros((9, 9, 5), dtype=np.float32))
>>> out.shape, bool(((out > 0) & (out < 1)).all())
((9, 9), True)
"""

import json

import numpy as np

from ...jit import inline_kernel, kernel
from .. import weights_file

FORMAT = "mcgo-dagrnn"
VERSION = 1
STATE_UNITS = 8
HIDDEN_UNITS = 16

# name: shape as a function of (F, H, S); in1/in2: the first layer from the inputs and from
# the state units, b1 its bias, w2/b2 the second layer.
ARRAY_SHAPES = {
    "corner_in": lambda f, h, s: (f, h), "corner_b1": lambda f, h, s: (h,),
    "corner_w2": lambda f, h, s: (h, s), "corner_b2": lambda f, h, s: (s,),
    "side_in": lambda f, h, s: (f, h), "side_state": lambda f, h, s: (s, h),
    "side_b1": lambda f, h, s: (h,), "side_w2": lambda f, h, s: (h, s),
    "side_b2": lambda f, h, s: (s,),
    "lat_in": lambda f, h, s: (f, h), "lat_state": lambda f, h, s: (s, h),
    "lat_b1": lambda f, h, s: (h,), "lat_w2": lambda f, h, s: (h, s),
    "lat_b2": lambda f, h, s: (s,),
    "out_in": lambda f, h, s: (f, h), "out_state": lambda f, h, s: (s, h),
    "out_b1": lambda f, h, s: (h,), "out_w2": lambda f, h, s: (h,),
    "out_b2": lambda f, h, s: (1,),
}
ARRAY_NAMES = tuple(ARRAY_SHAPES)


class NetworkError(ValueError):
    """A weights file that is missing, damaged, or not a DAG-RNN of this version."""


@inline_kernel
def logistic(x):
    return 1.0 / (1.0 + np.exp(-x))


@kernel
def _layer(pre, state, state_w, b1, w2, b2, hidden, out):
    """``out = logistic(w2 . logistic(pre + state @ state_w + b1) + b2)``; ``state`` may be
    all zeros (the corner: then ``state_w`` is not read)."""
    h_units = b1.shape[0]
    s_units = b2.shape[0]
    for h in range(h_units):
        x = pre[h] + b1[h]
        for s in range(state.shape[0]):
            x += state[s] * state_w[s, h]
        hidden[h] = logistic(x)
    for s in range(s_units):
        x = b2[s]
        for h in range(h_units):
            x += hidden[h] * w2[h, s]
        out[s] = logistic(x)


@kernel
def _project(inputs, w, out):
    """``out[i, j] = inputs[i, j] @ w`` for every point."""
    n = inputs.shape[0]
    f_units = inputs.shape[2]
    h_units = w.shape[1]
    for i in range(n):
        for j in range(n):
            for h in range(h_units):
                out[i, j, h] = 0.0
            for f in range(f_units):
                x = inputs[i, j, f]
                if x == 0.0:
                    continue
                for h in range(h_units):
                    out[i, j, h] += x * w[f, h]


@kernel
def forward_kernel(inputs, weights, scratch, work, states, output):
    """The forward pass: ``inputs`` float32 (N, N, F); ``weights`` the tuple of
    :data:`ARRAY_NAMES`' arrays (float64); ``scratch`` float64 (4, N, N, HIDDEN) (the input
    projections of the four nets), ``work`` float64 (HIDDEN + S,), ``states`` float64
    (4, N, N, S);
    writes P(black owns) into ``output`` (N, N) and returns its sum (black's expected area)."""
    (corner_in, corner_b1, corner_w2, corner_b2, side_in, side_state, side_b1, side_w2, side_b2,
     lat_in, lat_state, lat_b1, lat_w2, lat_b2, out_in, out_state, out_b1, out_w2, out_b2) = weights
    n = inputs.shape[0]
    s_units = lat_b2.shape[0]
    pre_corner = scratch[0]
    pre_side = scratch[1]
    pre_lat = scratch[2]
    pre_out = scratch[3]
    h_units = out_b1.shape[0]
    hidden = work[:h_units]
    pred = work[h_units:h_units + s_units]
    _project(inputs, lat_in, pre_lat)
    _project(inputs, out_in, pre_out)
    _project(inputs, side_in, pre_side)
    _project(inputs, corner_in, pre_corner)
    for k in range(4):
        di = 1 if k == 0 or k == 3 else -1
        dj = 1 if k <= 1 else -1
        plane = states[k]
        for a in range(n):
            i = a if di == 1 else n - 1 - a
            for b in range(n):
                j = b if dj == 1 else n - 1 - b
                count = 0
                for s in range(s_units):
                    pred[s] = 0.0
                if a > 0:
                    count += 1
                    for s in range(s_units):
                        pred[s] += plane[i - di, j, s]
                if b > 0:
                    count += 1
                    for s in range(s_units):
                        pred[s] += plane[i, j - dj, s]
                if count == 2:
                    _layer(pre_lat[i, j], pred, lat_state, lat_b1, lat_w2, lat_b2, hidden,
                           plane[i, j])
                elif count == 1:
                    _layer(pre_side[i, j], pred, side_state, side_b1, side_w2, side_b2, hidden,
                           plane[i, j])
                else:
                    _layer(pre_corner[i, j], pred[:0], side_state, corner_b1, corner_w2,
                           corner_b2, hidden, plane[i, j])
    total = 0.0
    for i in range(n):
        for j in range(n):
            for s in range(s_units):
                pred[s] = states[0, i, j, s] + states[1, i, j, s] + states[2, i, j, s] \
                    + states[3, i, j, s]
            x = out_b2[0]
            for h in range(h_units):
                y = pre_out[i, j, h] + out_b1[h]
                for s in range(s_units):
                    y += pred[s] * out_state[s, h]
                x += logistic(y) * out_w2[h]
            output[i, j] = logistic(x)
            total += output[i, j]
    return total


class Network:
    """The DAG-RNN's weights and its forward pass.

    ``arrays``: the weights by name (:data:`ARRAY_NAMES`); ``metadata``: what the file says
    beside them.
    """

    def __init__(self, arrays, metadata=None):
        self.arrays = {name: np.ascontiguousarray(arrays[name], dtype=np.float64)
                       for name in ARRAY_NAMES}
        self.nfeatures, self.hidden_units = self.arrays["lat_in"].shape
        self.state_units = self.arrays["lat_b2"].shape[0]
        _check_shapes(self.arrays, self.nfeatures, self.hidden_units, self.state_units, "arrays")
        self.metadata = dict(metadata or {})
        self.weights = tuple(self.arrays[name] for name in ARRAY_NAMES)
        self._buffers = {}

    @classmethod
    def random(cls, nfeatures, seed=0, state_units=STATE_UNITS, hidden_units=HIDDEN_UNITS,
               scale=1.0):
        """Weights drawn as a training starts: normal, standard deviation
        ``scale / sqrt(fan-in)``, biases zero."""
        rng = np.random.default_rng(seed)
        arrays = {}
        for name, shape_of in ARRAY_SHAPES.items():
            shape = shape_of(nfeatures, hidden_units, state_units)
            if name.endswith(("_b1", "_b2")):
                arrays[name] = np.zeros(shape)
            else:
                fan_in = shape[0]
                arrays[name] = rng.normal(0.0, scale / np.sqrt(fan_in), size=shape)
        return cls(arrays)

    @property
    def weight_count(self):
        return int(sum(a.size for a in self.arrays.values()))

    def forward(self, inputs):
        """P(black owns each point), float64 ``(N, N)``, for float32 ``inputs`` (N, N, F)."""
        inputs = np.ascontiguousarray(inputs, dtype=np.float32)
        if inputs.ndim != 3 or inputs.shape[0] != inputs.shape[1] or inputs.shape[2] != self.nfeatures:
            raise ValueError(f"inputs of shape {inputs.shape}: expected (N, N, {self.nfeatures})")
        n = inputs.shape[0]
        if n not in self._buffers:
            self._buffers[n] = (np.zeros((4, n, n, self.hidden_units)),
                                np.zeros(self.hidden_units + self.state_units),
                                np.zeros((4, n, n, self.state_units)))
        scratch, work, states = self._buffers[n]
        output = np.zeros((n, n))
        forward_kernel(inputs, self.weights, scratch, work, states, output)
        return output

    # ------------------------------------------------------------------ the file
    def save(self, path, metadata=None):
        """Write the weights and ``metadata`` (merged into :attr:`metadata`) to ``path``."""
        meta = dict(self.metadata)
        meta.update(metadata or {})
        meta.update(format=FORMAT, version=VERSION, nfeatures=self.nfeatures,
                    state_units=self.state_units, hidden_units=self.hidden_units,
                    weights=self.weight_count)
        self.metadata = meta
        text = json.dumps(meta, default=_jsonable)
        with open(path, "wb") as f:
            np.savez_compressed(f, metadata=np.frombuffer(text.encode(), dtype=np.uint8),
                                **self.arrays)

    @classmethod
    def load(cls, path):
        """Read a file of :meth:`save`; :class:`NetworkError` with the reason when it is not
        one (missing, damaged, another format or version, an array missing or misshapen)."""
        arrays, meta = weights_file.read(path, FORMAT, "DAG-RNN network", NetworkError)
        if meta.get("version") != VERSION:
            raise NetworkError(f"{path}: network format version {meta.get('version')}, this "
                               f"mcgo reads {VERSION}: retrain it with `mcgo learn ownership`")
        missing = [name for name in ARRAY_NAMES if name not in arrays]
        if missing:
            raise NetworkError(f"{path}: arrays missing: {', '.join(missing)}")
        try:
            f, h, s = int(meta["nfeatures"]), int(meta["hidden_units"]), int(meta["state_units"])
        except (KeyError, TypeError, ValueError):
            raise NetworkError(f"{path}: the metadata lacks the network's sizes") from None
        _check_shapes(arrays, f, h, s, str(path))
        for name in ARRAY_NAMES:
            if not np.isfinite(arrays[name]).all():
                raise NetworkError(f"{path}: array {name} holds NaN or infinity")
        return cls(arrays, meta)


def _check_shapes(arrays, f, h, s, where):
    for name, shape_of in ARRAY_SHAPES.items():
        want = shape_of(f, h, s)
        if tuple(arrays[name].shape) != want:
            raise NetworkError(f"{where}: array {name} has shape {tuple(arrays[name].shape)}, "
                               f"expected {want}")


def _jsonable(value):
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"cannot store {type(value).__name__} in the metadata")


def is_network_file(path):
    """True when ``path`` opens as a DAG-RNN network file (of any version)."""
    return weights_file.is_format(path, FORMAT)
