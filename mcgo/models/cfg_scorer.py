"""Seed 000's move scorer: a classifier of good and bad moves on relative subgraph features
(:mod:`mcgo.models.cfg`), and what it answers.

Scikit-learn trains it (the ``train`` extra); playing needs only this module. A trained
random forest or RBF support vector machine is saved as arrays in a ``.npz`` with JSON
metadata (data, split, commit, metrics) and scored here in NumPy and Numba:

* a **forest** (:class:`ForestScorer`): each tree as flat arrays (feature, threshold, left,
  right, the leaf's share of good moves), the score the mean over trees, as scikit-learn's
  ``predict_proba``;
* an **SVM** (:class:`SvmScorer`): features scaled to 0-1 as in training, the score the
  decision value ``sum_i a_i exp(-gamma |x - s_i|^2) + b``.

The shipped scorer (``cfg``, :func:`open_scorer`) is the best learner on the validation
collections of the tsumego problems.
"""

import datetime
import json
import pathlib

import numpy as np

from ..jit import allocating_kernel
from ..resources import package_file
from . import weights_file
from .cfg import NFEATURES, relative_subgraph_features

FORMAT = "mcgo-cfg-scorer"
VERSION = 1
SHIPPED = "cfg"


class ScorerError(ValueError):
    """A scorer file that cannot be used."""


@allocating_kernel
def forest_scores(x, roots, feature, threshold, left, right, value):
    """The mean over trees of the leaf value each row of ``x`` reaches (``x[f] <= t`` goes
    left, as scikit-learn's trees)."""
    n, n_trees = x.shape[0], roots.shape[0]
    out = np.zeros(n, dtype=np.float64)
    for i in range(n):
        total = 0.0
        for t in range(n_trees):
            node = roots[t]
            while left[node] >= 0:
                if x[i, feature[node]] <= threshold[node]:
                    node = left[node]
                else:
                    node = right[node]
            total += value[node]
        out[i] = total / n_trees
    return out


class Scorer:
    """A learned move scorer: :meth:`scores` of feature rows (higher is better)."""

    kind = ""

    def __init__(self, arrays, metadata=None):
        self.arrays = {k: np.asarray(v) for k, v in arrays.items()}
        self.metadata = dict(metadata or {})

    def scores(self, features):
        raise NotImplementedError

    def score_moves(self, board, points, player=None):
        """The scores of ``points`` (empty points) for ``player`` (default: to move)."""
        points, x = relative_subgraph_features(board, points, player)
        return self.scores(x) if len(points) else np.zeros(0)

    def best_move(self, board, points, player=None):
        """The best-scored point of ``points`` (the first of equal scores, as the seed)."""
        if not points:
            return None
        return list(points)[int(np.argmax(self.score_moves(board, points, player)))]

    def save(self, path):
        meta = dict(self.metadata, format=FORMAT, version=VERSION, kind=self.kind)
        with open(path, "wb") as f:
            np.savez_compressed(f, metadata=np.frombuffer(json.dumps(meta, sort_keys=True).encode(),
                                                          dtype=np.uint8), **self.arrays)


class ForestScorer(Scorer):
    kind = "forest"
    NAMES = ("roots", "feature", "threshold", "left", "right", "value")

    def scores(self, features):
        a = self.arrays
        return forest_scores(np.ascontiguousarray(features, dtype=np.float32),
                             a["roots"], a["feature"], a["threshold"], a["left"], a["right"],
                             a["value"])

    @classmethod
    def from_sklearn(cls, forest, metadata=None):
        """The arrays of a fitted ``RandomForestClassifier`` (classes 0 bad, 1 good)."""
        good = list(forest.classes_).index(1)
        parts = {name: [] for name in cls.NAMES[1:]}
        roots, offset = [], 0
        for estimator in forest.estimators_:
            tree = estimator.tree_
            roots.append(offset)
            leaf = tree.children_left < 0
            shifted = lambda child: np.where(child >= 0, child + offset, -1)  # noqa: E731
            parts["feature"].append(np.where(leaf, 0, tree.feature))
            parts["threshold"].append(tree.threshold)
            parts["left"].append(shifted(tree.children_left))
            parts["right"].append(shifted(tree.children_right))
            counts = tree.value[:, 0, :]
            parts["value"].append(counts[:, good] / np.maximum(counts.sum(axis=1), 1e-300))
            offset += tree.node_count
        arrays = {"roots": np.array(roots, dtype=np.int32),
                  "feature": np.concatenate(parts["feature"]).astype(np.int32),
                  "threshold": np.concatenate(parts["threshold"]).astype(np.float64),
                  "left": np.concatenate(parts["left"]).astype(np.int32),
                  "right": np.concatenate(parts["right"]).astype(np.int32),
                  "value": np.concatenate(parts["value"]).astype(np.float64)}
        return cls(arrays, metadata)


class SvmScorer(Scorer):
    kind = "svm"
    NAMES = ("support", "coef", "intercept", "gamma", "scale_min", "scale")

    def scores(self, features):
        a = self.arrays
        x = (np.asarray(features, dtype=np.float64) - a["scale_min"]) * a["scale"]
        s = a["support"]
        d2 = (x * x).sum(axis=1)[:, None] - 2.0 * x @ s.T + (s * s).sum(axis=1)[None, :]
        return np.exp(-float(a["gamma"]) * np.maximum(d2, 0.0)) @ a["coef"] + float(a["intercept"])

    @classmethod
    def from_sklearn(cls, svc, scaler, metadata=None):
        """A fitted ``SVC(kernel="rbf")`` after a fitted ``MinMaxScaler``; the score is the
        decision value for the class ``1`` (good)."""
        sign = 1.0 if list(svc.classes_) == [0, 1] else -1.0
        arrays = {"support": svc.support_vectors_.astype(np.float64),
                  "coef": sign * svc.dual_coef_[0].astype(np.float64),
                  "intercept": np.array(sign * svc.intercept_[0]),
                  "gamma": np.array(float(svc._gamma)),
                  "scale_min": scaler.data_min_.astype(np.float64),
                  "scale": scaler.scale_.astype(np.float64)}
        return cls(arrays, metadata)


KINDS = {ForestScorer.kind: ForestScorer, SvmScorer.kind: SvmScorer}


def load_scorer(path):
    """A scorer saved by :meth:`Scorer.save`; :class:`ScorerError` saying what is wrong."""
    arrays, meta = weights_file.read(path, FORMAT, "CFG scorer", ScorerError)
    if meta.get("kind") not in KINDS:
        raise ScorerError(f"{path}: not a CFG scorer file (kind {meta.get('kind')!r})")
    if meta.get("version", 0) > VERSION:
        raise ScorerError(f"{path}: version {meta['version']} is newer than this mcgo's {VERSION}")
    kind = KINDS[meta["kind"]]
    missing = [n for n in kind.NAMES if n not in arrays]
    if missing:
        raise ScorerError(f"{path}: no {', '.join(missing)}")
    if kind is SvmScorer and arrays["support"].shape[1:] != (NFEATURES,):
        raise ScorerError(f"{path}: support vectors of {arrays['support'].shape[1:]} features")
    return kind(arrays, meta)


def shipped_path():
    return package_file("mcgo.models", "weights", f"{SHIPPED}.npz")


def open_scorer(choice):
    """``cfg`` (the shipped scorer) or a file."""
    if str(choice) == SHIPPED:
        path = shipped_path()
        if not path.is_file():
            raise ScorerError(f"the shipped scorer is not installed ({path})")
        return load_scorer(path)
    if not pathlib.Path(choice).is_file():
        raise ScorerError(f"no scorer file {choice}")
    return load_scorer(choice)


def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
