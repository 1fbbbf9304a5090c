"""Small statistics the search and the match runner share.

>>> low, high = wilson_interval(7, 10)
>>> round(low, 4), round(high, 4)
(0.3968, 0.8922)
>>> round(elo_difference(0.75), 1)
190.8
>>> mcnemar([True, True, True, False], [False, False, False, False])
(0.25, 3, 0)
"""

import math

Z_95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(wins, n, z=Z_95):
    """Wilson score interval of a proportion (Wilson 1927; Newcombe 1998, method 3).

    ``wins`` may be fractional (a jigo counts half); ``(0, 1)`` when ``n`` is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = wins / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z / denominator * math.sqrt(max(0.0, p * (1 - p)) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo_difference(p):
    """Elo difference for a score rate p (logistic model); infinite at 0 and 1."""
    if p <= 0:
        return -math.inf
    if p >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / p - 1.0) + 0.0  # + 0.0 turns -0.0 into 0.0


def mcnemar(a, b):
    """Exact two-sided McNemar test of two paired lists of flags (a sign test of the pairs
    where they differ): ``(p, only_a, only_b)``."""
    only_a = sum(1 for x, y in zip(a, b) if x and not y)
    only_b = sum(1 for x, y in zip(a, b) if y and not x)
    n = only_a + only_b
    if n == 0:
        return 1.0, only_a, only_b
    tail = sum(math.comb(n, k) for k in range(min(only_a, only_b) + 1)) / 2 ** n
    return min(1.0, 2 * tail), only_a, only_b
