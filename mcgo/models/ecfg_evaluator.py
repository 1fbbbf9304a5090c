"""Seed 002's evaluator at play: linear SVMs on ECFG path features (:mod:`.ecfg`) that tell
won from lost 9x9 positions, one per stone count, in NumPy. Trained by ``mcgo learn ecfg``
(:mod:`mcgo.train.ecfg_train`); the shipped one is ``ecfg`` (``weights/ecfg.npz`` and the seed
statistics its weighting reads, ``weights/ecfg-stats.npz``)."""

import json
import pathlib

import numpy as np

from ..resources import package_file
from . import weights_file
from .ecfg import Ecfg, point_weights
from .seedstats import SeedStats

FORMAT = "mcgo-ecfg-evaluator"
VERSION = 1


def stone_count(board):
    return len(board.stones(1)) + len(board.stones(2))


class OutcomeModel:
    """Linear SVMs by stone count: ``decision(board) > 0`` when the side to move wins."""

    def __init__(self, d, weighting, stones, coef, intercept, scale, stats=None, metadata=None):
        self.d, self.weighting, self.stones = d, weighting, tuple(stones)
        self.coef, self.intercept, self.scale = coef, intercept, scale
        self.stats = stats
        self.metadata = dict(metadata or {})

    @classmethod
    def from_fits(cls, d, weighting, stones, fits, stats=None, metadata=None):
        """The model of :func:`fit_counts`' per-count ``(coef, intercept, scale)``."""
        return cls(d, weighting, stones, np.array([f[0] for f in fits]),
                   np.array([f[1] for f in fits]), np.array([f[2] for f in fits]), stats, metadata)

    def decision(self, board, player=None):
        player = board.to_move if player is None else player
        s = min(max(stone_count(board), self.stones[0]), self.stones[1])
        i = s - self.stones[0]
        weights = point_weights(self.stats, board, self.weighting, player)
        x = Ecfg(board, player, weights).features(self.d, self.weighting) * self.scale[i]
        return float(x @ self.coef[i] + self.intercept[i])

    def save(self, path):
        meta = dict(self.metadata, format=FORMAT, version=VERSION, d=self.d,
                    weighting=self.weighting, stones=list(self.stones))
        with open(path, "wb") as f:
            np.savez_compressed(f, coef=self.coef, intercept=self.intercept, scale=self.scale,
                                metadata=np.frombuffer(json.dumps(meta, sort_keys=True).encode(),
                                                       dtype=np.uint8))
        if self.stats is not None:
            # Only the tables the weighting reads: a tenth of the full statistics' size.
            self.stats.reduced(WEIGHTING_TABLES[self.weighting]).save(stats_path(path))

    @classmethod
    def load(cls, path):
        arrays, meta = weights_file.read(path, FORMAT, "ECFG evaluator")
        missing = [k for k in ("coef", "intercept", "scale") if k not in arrays]
        if missing:
            raise ValueError(f"{path}: not an ECFG evaluator file (no {', '.join(missing)})")
        stats = SeedStats.load(stats_path(path)) if meta["weighting"] != "count" else None
        return cls(meta["d"], meta["weighting"], meta["stones"], arrays["coef"],
                   arrays["intercept"], arrays["scale"], stats, meta)


# The seed statistics each weighting reads (seed 002's stab and imp).
WEIGHTING_TABLES = {"stability": ("occ", "bedge", "wedge"), "impact": ("occ", "won", "lost")}


def stats_path(path):
    path = pathlib.Path(path)
    return path.with_name(path.stem + "-stats.npz")


SHIPPED = "ecfg"


def open_evaluator(choice):
    """``ecfg`` (the shipped evaluator) or a file of ``mcgo learn ecfg``."""
    path = package_file("mcgo.models", "weights", f"{SHIPPED}.npz") if choice == SHIPPED else choice
    if not pathlib.Path(path).is_file():
        raise ValueError(f"no evaluator file {path}")
    return OutcomeModel.load(path)
