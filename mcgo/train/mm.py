"""Bradley-Terry move models fitted by minorization-maximization (Coulom 2007, "Computing Elo
Ratings of Move Patterns in the Game of Go"), in NumPy.

Each candidate move is a *team* of features, one value per group; its strength is the product
of its features' gammas, and the move played in a position is the winner of a competition
between all candidates: ``P(move) = gamma_team(move) / sum over candidates of gamma_team``.
Value 0 of every group means "absent" and keeps a gamma of 1.

The data are *rows*: a team (``values``, one int per group), a multiplicity (``counts``: that
many candidates of the position have this team), the position it belongs to (``positions``,
0..P-1, rows of a position contiguous or not) and, per position, the row of the move played
(``winners``).

MM (Coulom's section 3.3), one group at a time: for feature i of group g,

    gamma_i <- (W_i + prior) / (sum_j C_ij / E_j + 2 * prior / (gamma_i + 1))

with W_i the number of wins of i, E_j the total strength of position j and C_ij the strength
of i's teammates summed over the candidates of j that contain i. ``prior`` virtual wins and
as many virtual losses against a virtual opponent of gamma 1 keep rare features finite.

>>> import numpy as np
>>> values = np.array([[1], [2], [1], [2]])        # two positions, two candidates each
>>> data = Rows(values, np.ones(4), np.array([0, 0, 1, 1]), np.array([0, 2]))
>>> gammas = fit(data, [3], prior=0.0, iterations=50)[0]
>>> float(gammas[1] / gammas[2]) > 100              # feature 1 always wins
True
"""

from dataclasses import dataclass

import numpy as np

from ..jit import allocating_kernel, kernel

DEFAULT_PRIOR = 1.0
DEFAULT_ITERATIONS = 40
DEFAULT_TOLERANCE = 1e-4     # stop when the validation log-likelihood gains less per position


@dataclass
class Rows:
    """Competitions: see the module docstring."""

    values: np.ndarray      # (R, G) int
    counts: np.ndarray      # (R,) float
    positions: np.ndarray   # (R,) int, 0..P-1
    winners: np.ndarray     # (P,) int, row of the move played

    @property
    def npositions(self):
        return len(self.winners)


@allocating_kernel
def _strengths(ls, counts, positions, npositions):
    """Each position's total strength ``sum counts * exp(ls - top)`` and ``top``."""
    top = -np.inf
    for r in range(ls.shape[0]):
        top = max(top, ls[r])
    total = np.zeros(npositions)
    for r in range(ls.shape[0]):
        total[positions[r]] += counts[r] * np.exp(ls[r] - top)
    return total, top


@allocating_kernel
def _teammates(column, lg, ls, counts, positions, total, top, nvalues):
    """``C_i = sum over rows with feature i of count * strength of the teammates / E_j``."""
    out = np.zeros(nvalues)
    for r in range(column.shape[0]):
        v = column[r]
        out[v] += counts[r] * np.exp(ls[r] - top - lg[v]) / total[positions[r]]
    return out


@kernel
def _shift(ls, column, delta):
    for r in range(column.shape[0]):
        ls[r] += delta[column[r]]


def log_strengths(data, log_gammas):
    """The log-strength of every row under ``log_gammas`` (one array per group)."""
    out = np.zeros(len(data.values))
    for g, lg in enumerate(log_gammas):
        _shift(out, data.values[:, g], np.asarray(lg, dtype=np.float64))
    return out


def log_likelihood(data, log_gammas):
    """Mean log-probability of the moves played."""
    ls = log_strengths(data, log_gammas)
    total, top = _strengths(ls, data.counts, data.positions, data.npositions)
    return float(np.mean(ls[data.winners] - top - np.log(total)))


def fit(data, sizes, validation=None, prior=DEFAULT_PRIOR, iterations=DEFAULT_ITERATIONS,
        tolerance=DEFAULT_TOLERANCE, log=None):
    """The gammas (one array per group, ``sizes[g]`` values) that maximize the likelihood of
    ``data`` (with the prior). With ``validation`` rows, stops when their log-likelihood gains
    less than ``tolerance`` (or drops) and returns the best iteration's gammas. ``prior``:
    one number, or one per group.
    ``log(iteration, train_ll, validation_ll)`` is called after each iteration."""
    groups = len(sizes)
    priors = np.broadcast_to(np.asarray(prior, dtype=float), (groups,))
    lg = [np.zeros(s) for s in sizes]
    wins = [np.bincount(data.values[data.winners, g], minlength=sizes[g]).astype(float)
            for g in range(groups)]
    counts = np.asarray(data.counts, dtype=np.float64)
    ls = log_strengths(data, lg)
    best, best_ll = [a.copy() for a in lg], -np.inf
    for it in range(iterations):
        for g in range(groups):
            total, top = _strengths(ls, counts, data.positions, data.npositions)
            column = data.values[:, g]
            gamma = np.exp(lg[g])
            teammates = _teammates(column, lg[g], ls, counts, data.positions, total, top, sizes[g])
            denominator = teammates + 2 * priors[g] / (gamma + 1)
            with np.errstate(divide="ignore", invalid="ignore"):
                new = (wins[g] + priors[g]) / denominator
            new[denominator == 0] = gamma[denominator == 0]   # never a candidate, no prior: keep
            new[0] = 1.0                       # "absent" stays at 1
            with np.errstate(divide="ignore"):
                new_lg = np.log(new)
            new_lg[~np.isfinite(new_lg)] = -30.0   # never won, no prior: practically zero
            _shift(ls, column, new_lg - lg[g])
            lg[g] = new_lg
        train_ll = log_likelihood(data, lg)
        valid_ll = log_likelihood(validation, lg) if validation is not None else None
        if log is not None:
            log(it + 1, train_ll, valid_ll)
        if validation is None:
            best = lg
            continue
        if valid_ll > best_ll:
            gain = valid_ll - best_ll
            best, best_ll = [a.copy() for a in lg], valid_ll
            if gain < tolerance:
                break
        else:
            break
    return [np.exp(a) for a in best]
