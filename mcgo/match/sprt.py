# SPDX-License-Identifier: GPL-3.0-or-later
"""The sequential probability ratio test of a match (``mcgo match --sprt ELO0 ELO1``).

A match under test stops as soon as its games show, at the error rates ``alpha`` and
``beta``, that the first engine is ``ELO1`` Elo stronger than the second (H1 accepted) or
no more than ``ELO0`` (H0 accepted): the test Stockfish's fishtest runs on every change
(Wald 1945; the generalized form of Van den Bergh, "A practical introduction to the GSPRT").

The statistic is the generalized log-likelihood ratio of the logistic Elo model. The games
are grouped into *units*: with alternating colours a unit is a pair of games (game 2k and
2k + 1, one with each colour), scored 0, 1/4, ..., 1 (the pentanomial model: it cancels the
colour's advantage, large on 9x9, out of the variance); with fixed colours a unit is a game,
scored 0, 1/2 or 1 (the trinomial model: loss, jigo, win). With ``n_i`` units of score
``a_i`` among ``N`` and the empirical frequencies ``p_i = n_i / N`` (a count of 0 taken as
1e-3), the distribution nearest to them whose mean is ``s`` is ``q_i = p_i / (1 + x (a_i -
s))``, ``x`` the root of ``sum p_i (a_i - s) / (1 + x (a_i - s)) = 0``, and

    LLR = N * sum_i p_i * (ln q1_i - ln q0_i),   s0, s1 = 1 / (1 + 10 ** (-ELO / 400)).

The match stops when the LLR leaves ``[ln(beta / (1 - alpha)), ln((1 - beta) / alpha)]``
(``alpha = beta = 0.05``, fishtest's defaults: [-2.94, 2.94]).

>>> result = sprt_result([0, 2, 5, 10, 3], elo0=0, elo1=50)   # 20 pairs, pentanomial
>>> round(result.llr, 2), result.state
(2.67, 'continue')
>>> round(result.elo, 1), [round(x, 1) for x in result.elo95]
(126.9, [57.9, 207.3])
>>> sprt_result([0, 2, 5, 12, 5], elo0=0, elo1=50).state       # four pairs more
'H1 accepted'
"""

import dataclasses
import math

from ..stats import Z_95, elo_difference

DEFAULT_ALPHA = 0.05      # fishtest's default error rates
DEFAULT_BETA = 0.05
ZERO_COUNT = 1e-3         # an empty class counts this much, so every ln q_i is finite
PENTANOMIAL = "pentanomial"
TRINOMIAL = "trinomial"
STATES = ("H0 accepted", "continue", "H1 accepted")


@dataclasses.dataclass(frozen=True)
class SprtSettings:
    """The test a match runs: H0 ``elo0`` against H1 ``elo1`` (logistic Elo of the first
    engine over the second), at error rates ``alpha`` (accepting H1 when H0 holds) and
    ``beta`` (accepting H0 when H1 holds)."""
    elo0: float
    elo1: float
    alpha: float = DEFAULT_ALPHA
    beta: float = DEFAULT_BETA

    def __post_init__(self):
        if not self.elo0 < self.elo1:
            raise ValueError(f"--sprt needs ELO0 < ELO1, not {self.elo0:g} and {self.elo1:g}")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0.0 < value < 0.5:
                raise ValueError(f"the SPRT's {name} must be between 0 and 0.5, not {value:g}")

    def bounds(self):
        """``(lower, upper)``: H0 is accepted below ``lower``, H1 above ``upper``."""
        return (math.log(self.beta / (1.0 - self.alpha)), math.log((1.0 - self.beta) / self.alpha))

    def as_dict(self):
        return dataclasses.asdict(self)


@dataclasses.dataclass(frozen=True)
class SprtResult:
    """Where a test stands: its settings, the model and its counts (units by score, lowest
    first), the LLR and its bounds, the decision, and the Elo estimate with its 95%
    interval (normal, over the units)."""
    settings: SprtSettings
    model: str
    counts: tuple
    llr: float
    lower: float
    upper: float
    state: str
    elo: float
    elo95: tuple

    @property
    def decided(self):
        return self.state != "continue"

    def as_dict(self):
        out = dataclasses.asdict(self)
        out["counts"] = list(self.counts)
        out["elo95"] = [finite(x) for x in self.elo95]
        out["elo"] = finite(self.elo)
        return out

    def describe(self):
        """One line: ``SPRT [0, 50] (alpha 0.05, beta 0.05), pentanomial 0-2-5-10-3: LLR 2.67
        [-2.94, 2.94], continue; Elo +127 [+58, +207]``."""
        s = self.settings
        counts = "-".join(f"{c:g}" for c in self.counts)
        return (f"SPRT [{s.elo0:g}, {s.elo1:g}] (alpha {s.alpha:g}, beta {s.beta:g}), "
                f"{self.model} {counts}: LLR {self.llr:.2f} [{self.lower:.2f}, {self.upper:.2f}], "
                f"{self.state}; Elo {show_elo(self.elo)} "
                f"[{show_elo(self.elo95[0])}, {show_elo(self.elo95[1])}]")


def finite(x):
    return None if math.isinf(x) or math.isnan(x) else round(x, 2)


def show_elo(x):
    return "inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:+.0f}"


def expected_score(elo):
    """The logistic model's expected score of a player ``elo`` stronger."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def unit_distribution(counts):
    """``(N, [(score, frequency), ...])`` of units with ``counts`` (lowest score first, the
    scores evenly spaced over [0, 1]); an empty class counts :data:`ZERO_COUNT`."""
    counts = [c if c > 0 else ZERO_COUNT for c in counts]
    total = sum(counts)
    k = len(counts) - 1
    return total, [(i / k, c / total) for i, c in enumerate(counts)]


def nearest_with_mean(pdf, s):
    """The distribution on ``pdf``'s scores with mean ``s`` nearest to ``pdf`` (its maximum
    likelihood estimate): ``q_i = p_i / (1 + x (a_i - s))`` with ``x`` the root of the
    secular equation, found by bisection between its poles."""
    shifted = [(a - s, p) for a, p in pdf]
    low = -1.0 / max(d for d, _ in shifted)
    high = -1.0 / min(d for d, _ in shifted)

    def f(x):  # decreasing in x between the poles
        return sum(p * d / (1.0 + x * d) for d, p in shifted)

    span = high - low
    low, high = low + 1e-12 * span, high - 1e-12 * span
    for _ in range(200):
        mid = 0.5 * (low + high)
        if f(mid) > 0:
            low = mid
        else:
            high = mid
    x = 0.5 * (low + high)
    return [(a, p / (1.0 + x * d)) for (a, p), (d, _) in zip(pdf, shifted)]


def log_likelihood_ratio(counts, elo0, elo1):
    """The generalized LLR of H1 (``elo1``) against H0 (``elo0``) for units with ``counts``.

    >>> round(log_likelihood_ratio([10, 0, 30], 0, 10), 3)   # 30 wins, 10 losses
    0.559
    """
    n, pdf = unit_distribution(counts)
    q0 = nearest_with_mean(pdf, expected_score(elo0))
    q1 = nearest_with_mean(pdf, expected_score(elo1))
    return n * sum(p * (math.log(b) - math.log(a)) for (_, p), (_, a), (_, b) in zip(pdf, q0, q1))


def unit_moments(counts):
    """``(N, mean, variance)`` of units with ``counts`` (the empty classes counted as 1e-3)."""
    n, pdf = unit_distribution(counts)
    mean = sum(a * p for a, p in pdf)
    return n, mean, sum(p * (a - mean) ** 2 for a, p in pdf)


def elo_estimate(counts, z=Z_95):
    """``(elo, (low, high))``: the Elo of the units' mean score and of the ends of its
    normal interval (``mean +- z * sd / sqrt(N)``, the empty classes counted as 1e-3)."""
    n, mean, var = unit_moments(counts)
    half = z * math.sqrt(var / n)
    return (elo_difference(mean),
            (elo_difference(max(0.0, mean - half)), elo_difference(min(1.0, mean + half))))


def sprt_result(counts, elo0=None, elo1=None, settings=None, model=None):
    """The test of ``settings`` (or ``SprtSettings(elo0, elo1)``) on units with ``counts``;
    ``model`` defaults by their number (5: pentanomial, 3: trinomial)."""
    settings = settings or SprtSettings(elo0, elo1)
    model = model or {5: PENTANOMIAL, 3: TRINOMIAL}[len(counts)]
    lower, upper = settings.bounds()
    if sum(counts) == 0:
        return SprtResult(settings, model, tuple(counts), 0.0, lower, upper, "continue",
                          0.0, (-math.inf, math.inf))
    llr = log_likelihood_ratio(counts, settings.elo0, settings.elo1)
    state = STATES[(llr > lower) + (llr >= upper)]
    elo, interval = elo_estimate(counts)
    return SprtResult(settings, model, tuple(counts), llr, lower, upper, state, elo, interval)


def expected_units(settings, score, var):
    """About how many units a test lasts when the first engine's true expected score per
    unit is ``score`` and a unit's score has variance ``var`` (0.125 for a pair of even
    games without jigo, 0.25 for a game): the LLR as a Brownian motion with drift
    ``(score - (s0 + s1) / 2) (s1 - s0) / var`` and variance ``(s1 - s0)^2 / var`` a unit
    (Van den Bergh's approximation), stopped at the bounds.

    >>> round(expected_units(SprtSettings(0, 50), 0.5, 0.125))     # pairs of equal engines
    130
    """
    s0, s1 = expected_score(settings.elo0), expected_score(settings.elo1)
    drift = (score - (s0 + s1) / 2.0) * (s1 - s0) / var
    variance = (s1 - s0) ** 2 / var
    a, b = settings.bounds()
    if abs(drift) < 1e-12:
        return -a * b / variance
    k = -2.0 * drift / variance
    p_upper = (1.0 - math.exp(k * a)) / (math.exp(k * b) - math.exp(k * a))
    return (p_upper * b + (1.0 - p_upper) * a) / drift


def game_score(record, label):
    """``label``'s score in a finished game (1 a win, 0.5 a jigo, 0 a loss), or None when
    the game has no result."""
    if record.get("result") in (None, "?"):
        return None
    if record.get("winner") is None:
        return 0.5
    return 1.0 if record["winner"] == label else 0.0


def match_counts(records, label, alternate):
    """``(model, counts)`` of a match's games for its first engine ``label``: with
    alternating colours the pentanomial counts of the complete pairs (games 2k and 2k + 1,
    scored 0, 0.5, ..., 2), else the trinomial counts of the games (loss, jigo, win)."""
    scores = {r["game"]: game_score(r, label) for r in records}
    if not alternate:
        counts = [0, 0, 0]
        for s in scores.values():
            if s is not None:
                counts[int(2 * s)] += 1
        return TRINOMIAL, counts
    counts = [0, 0, 0, 0, 0]
    for game, s in scores.items():
        if game % 2 == 0 and s is not None and scores.get(game + 1) is not None:
            counts[int(2 * (s + scores[game + 1]))] += 1
    return PENTANOMIAL, counts


def match_sprt(records, label, alternate, settings):
    """The test ``settings`` on a match's games (:func:`match_counts`)."""
    model, counts = match_counts(records, label, alternate)
    return sprt_result(counts, settings=settings, model=model)
