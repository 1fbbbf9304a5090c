"""A position beside its influence map (thesis figure 7.1), drawn with matplotlib.

matplotlib is imported only here, when a picture is asked for (an optional dependency).
"""

from ..board import BLACK, WHITE, coords
from ..board.kernels import COLOR
from .influence import DEFAULT_THRESHOLD, influence_map

BOARD_COLOUR = "#dcb35c"
MAP_COLOURS = {BLACK: "#202020", WHITE: "#f4f4f4"}


def draw_grid(ax, size, title):
    ax.set_facecolor(BOARD_COLOUR)
    for i in range(size):
        ax.plot([0, size - 1], [i, i], color="black", linewidth=0.6, zorder=1)
        ax.plot([i, i], [0, size - 1], color="black", linewidth=0.6, zorder=1)
    ax.set_xlim(-0.7, size - 0.3)
    ax.set_ylim(-0.7, size - 0.3)
    ax.set_aspect("equal")
    ax.set_xticks(range(size))
    ax.set_xticklabels(coords.GTP_COLUMNS[:size], fontsize=7)
    ax.set_yticks(range(size))
    ax.set_yticklabels([str(r + 1) for r in range(size)], fontsize=7)
    ax.set_title(title, fontsize=10)


def draw_influence(board, path, threshold=DEFAULT_THRESHOLD, title=""):
    """Write ``path`` (.png, .svg or anything matplotlib writes): the position on the left, its
    influence map on the right (black and white squares, empty points left bare)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as e:  # pragma: no cover - depends on the installation
        raise RuntimeError("drawing needs matplotlib (pip install matplotlib)") from e
    size = board.size
    classes = influence_map(board, threshold)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 5.6))
    draw_grid(left, size, title or "position")
    draw_grid(right, size, f"influence map (threshold {threshold:g})")
    for p in coords.all_points(size):
        r, c = coords.row_col(p, size)
        stone = int(board.pts[COLOR, p])
        if stone in (BLACK, WHITE):
            left.add_patch(plt.Circle((c, r), 0.46, facecolor=MAP_COLOURS[stone], edgecolor="black",
                                      linewidth=0.6, zorder=2))
        cls = int(classes[p])
        if cls in (BLACK, WHITE):
            right.add_patch(plt.Rectangle((c - 0.45, r - 0.45), 0.9, 0.9, facecolor=MAP_COLOURS[cls],
                                          edgecolor="black", linewidth=0.4, zorder=2))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
