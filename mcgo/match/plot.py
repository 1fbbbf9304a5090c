# SPDX-License-Identifier: GPL-3.0-or-later
"""The running win rate of a match's first engine, with its 95% Wilson band (``--plot``).

The games are taken in the order they finished; after each decided game the chart shows
the first engine's score rate so far (a jigo counts half) and the Wilson interval of
:func:`mcgo.stats.wilson_interval`. PNG or SVG by the file's suffix; matplotlib is the
optional extra ``plot`` (``pip install 'mcgo-engine[plot]'``).

>>> games = [{"finished": 1, "result": "B+R", "winner": "a"},
...          {"finished": 2, "result": "W+3", "winner": "b"},
...          {"finished": 3, "result": "0", "winner": None}]
>>> [(n, rate) for n, rate, low, high in running_win_rate(games, "a")]
[(1, 1.0), (2, 0.5), (3, 0.5)]
"""

import pathlib

from ..extras import install_hint
from ..stats import wilson_interval

PLOT_SUFFIXES = (".png", ".svg")
INSTALL_HINT = install_hint("plot")
FIGURE_SIZE = (7, 4)
DPI = 120


class PlotError(ValueError):
    """A --plot that cannot be written (wrong suffix, matplotlib missing)."""


def check_plot_path(path):
    """Raise :class:`PlotError` unless ``path`` is a .png/.svg and matplotlib imports."""
    suffix = pathlib.Path(path).suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise PlotError(f"--plot writes {' or '.join(PLOT_SUFFIXES)} files, not {path!r}")
    try:
        import matplotlib  # noqa: F401
    except ImportError as exc:
        raise PlotError(f"--plot needs matplotlib: {INSTALL_HINT}") from exc


def running_win_rate(games, engine):
    """[(decided games, rate, low, high)] after each decided game, in the order they finished."""
    points, n, rows = 0.0, 0, []
    for game in sorted(games, key=lambda g: (g.get("finished", 0), g.get("game", 0))):
        if game.get("result") in (None, "?"):
            continue
        n += 1
        points += 1.0 if game["winner"] == engine else 0.5 if game["winner"] is None else 0.0
        low, high = wilson_interval(points, n)
        rows.append((n, points / n, low, high))
    return rows


def write_plot(path, games, labels):
    """Draw the running win rate of ``labels[0]`` against ``labels[1]`` into ``path``."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.ticker import MaxNLocator

    engine, opponent = labels
    rows = running_win_rate(games, engine)
    figure, axes = pyplot.subplots(figsize=FIGURE_SIZE)
    if rows:
        n, rate, low, high = (list(column) for column in zip(*rows))
        axes.fill_between(n, low, high, alpha=0.25, step=None, label="95% Wilson interval")
        axes.plot(n, rate, marker="." if len(n) < 60 else None, label=f"{engine} win rate")
        axes.set_title(f"{engine} vs {opponent}: {rate[-1]:.3f} [{low[-1]:.3f}, {high[-1]:.3f}] "
                       f"after {n[-1]} games")
    else:
        axes.set_title(f"{engine} vs {opponent}: no decided game yet")
    axes.axhline(0.5, color="grey", linewidth=0.8, linestyle="--")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_ylim(0, 1)
    axes.set_xlabel("decided games")
    axes.set_ylabel(f"{engine} win rate")
    axes.legend(loc="lower right")
    figure.tight_layout()
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # SVG text stays text (searchable)
        figure.savefig(path, dpi=DPI)
    pyplot.close(figure)
    return rows
