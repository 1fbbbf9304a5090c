"""A position beside its ownership maps: the network's, and the playouts' when asked (the
``mcgo ownership`` command), drawn with matplotlib (an optional dependency, imported here
only).

Each point gets a square whose shade is the estimate of who owns it at the end (black to
white through the board's colour) and whose side grows with the certainty ``|2p - 1|``.
"""

from ..board import BLACK, WHITE, coords
from .casebase_picture import (BOARD_COLOUR, MAP_COLOURS, add_legend, draw_grid, draw_stones,
                                last_move_entry)
from ..extras import require


def draw_ownership(board, maps, path, title=""):
    """Write ``path`` (.png, .svg, ...): the position, then one panel per ``(name, plane)`` of
    ``maps``, ``plane`` a ``(size, size)`` array ``[row, col]`` of P(black owns)."""
    require("plot", "drawing")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    size = board.size
    panels = 1 + len(maps)
    fig, axes = plt.subplots(1, panels, figsize=(5.5 * panels, 6.0))
    draw_grid(axes[0], size, title or "position")
    for ax, (name, _) in zip(axes[1:], maps):
        draw_grid(ax, size, name)
    draw_stones(axes[0], board, plt)
    for p in coords.all_points(size):
        r, c = coords.row_col(p, size)
        for ax, (_, plane) in zip(axes[1:], maps):
            black = float(plane[r, c])
            side = 0.9 * abs(2.0 * black - 1.0)
            if side < 0.05:
                continue
            grey = 1.0 - black
            ax.add_patch(plt.Rectangle((c - side / 2, r - side / 2), side, side,
                                       facecolor=(grey, grey, grey), edgecolor="black",
                                       linewidth=0.3, zorder=2))
    last = last_move_entry(board)
    add_legend(axes[0], [("black stone", MAP_COLOURS[BLACK], "o"),
                         ("white stone", MAP_COLOURS[WHITE], "o")] + ([last] if last else []), plt)
    for ax in axes[1:]:
        add_legend(ax, [("black's for sure", MAP_COLOURS[BLACK], "s"),
                        ("even (smaller square)", BOARD_COLOUR, "s"),
                        ("white's for sure", MAP_COLOURS[WHITE], "s")], plt)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
