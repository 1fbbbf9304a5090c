"""Fitting the temperature of seed 003's 1-ply move ranker
(:class:`mcgo.models.ownership.model.OwnershipModel`) on validation positions."""

import math
import random

import numpy as np

from ..board import kernels as K
from .movemodel import game_states, split_records

TEMPERATURES = np.exp(np.linspace(math.log(0.05), math.log(50.0), 61))   # the fitting grid


def fit_temperature(area_lists, played):
    """The temperature maximising the mean log-probability of the played moves: ``area_lists``
    the per-position arrays of expected areas (the mover's), ``played`` the index of the
    played move in each. Returns ``(temperature, mean log-probability)``."""
    best = (1.0, -math.inf)
    for t in TEMPERATURES:
        total = 0.0
        for areas, i in zip(area_lists, played):
            s = areas / t
            top = s.max()
            total += s[i] - top - math.log(np.exp(s - top).sum())
        mean = total / max(len(played), 1)
        if mean > best[1]:
            best = (float(t), mean)
    return best


def fit_on_records(model, records, size, moves=(1, None), positions=200, seed=0,
                   split="validation"):
    """Fit ``model``'s ranker temperature (in place) on up to ``positions`` positions drawn
    from the ``split`` games among ``records`` (None: all of them), moves in ``moves``, no
    pass; returns ``(temperature, mean log-probability, positions used)``."""
    games = [record for record, part in split_records(records, size)
             if split is None or part == split]
    last = moves[1]
    candidates = [(g, n) for g, record in enumerate(games)
                  for n in range(moves[0], len(record.moves) + 1 if last is None
                                 else min(last, len(record.moves)) + 1)]
    random.Random(seed).shuffle(candidates)
    chosen = {}
    for g, n in candidates[:positions]:
        chosen.setdefault(g, set()).add(n)
    areas, played = [], []
    for g, numbers in chosen.items():
        for number, pts, info, color, point in game_states(games[g]):
            if number not in numbers or point == K.PASS:
                continue
            legal, values = model.move_areas(pts, info, color)
            where = np.flatnonzero(legal == point)
            if len(where):
                areas.append(values)
                played.append(int(where[0]))
    temperature, mean = fit_temperature(areas, played)
    model.temperature = temperature
    return temperature, mean, len(played)
