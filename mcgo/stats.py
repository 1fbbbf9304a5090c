"""Small statistics the search and the match runner share.

>>> low, high = wilson_interval(7, 10)
>>> round(low, 4), round(high, 4)
(0.3968, 0.8922)
>>> round(elo_difference(0.75), 1)
190.8
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
