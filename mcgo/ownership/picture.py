"""A position beside its ownership maps: the network's, and the playouts' when asked (the
``mcgo ownership`` command), drawn with matplotlib (an optional dependency, imported here
only).

Each point gets a square whose shade is the estimate of who owns it at the end (black to
white through the board's colour) and whose side grows with the certainty ``|2p - 1|``.
"""

from ..board import BLACK, WHITE, coords
from ..board.kernels import COLOR
from ..casebase.picture import MAP_COLOURS, draw_grid


def draw_ownership(board, maps, path, title=""):
    """Write ``path`` (.png, .svg, ...): the position, then one panel per ``(name, plane)`` of
    ``maps``, ``plane`` a ``(size, size)`` array ``[row, col]`` of P(black owns)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise RuntimeError("drawing needs the plot extra: pip install 'mcgo[plot]'") from e
    size = board.size
    panels = 1 + len(maps)
    fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 5.6))
    draw_grid(axes[0], size, title or "position")
    for ax, (name, _) in zip(axes[1:], maps):
        draw_grid(ax, size, name)
    for p in coords.all_points(size):
        r, c = coords.row_col(p, size)
        stone = int(board.pts[COLOR, p])
        if stone in (BLACK, WHITE):
            axes[0].add_patch(plt.Circle((c, r), 0.46, facecolor=MAP_COLOURS[stone],
                                         edgecolor="black", linewidth=0.6, zorder=2))
        for ax, (_, plane) in zip(axes[1:], maps):
            black = float(plane[r, c])
            side = 0.9 * abs(2.0 * black - 1.0)
            if side < 0.05:
                continue
            grey = 1.0 - black
            ax.add_patch(plt.Rectangle((c - side / 2, r - side / 2), side, side,
                                       facecolor=(grey, grey, grey), edgecolor="black",
                                       linewidth=0.3, zorder=2))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
