"""A position beside its influence map (thesis figure 7.1), drawn with matplotlib.

matplotlib is imported only here, when a picture is asked for (an optional dependency).
"""

from ..board import BLACK, WHITE, coords
from ..extras import require
from ..board.kernels import COLOR
from ..casebase.influence import DEFAULT_THRESHOLD, influence_map

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


def draw_stones(ax, board, plt):
    """The stones of ``board`` on ``ax``, the last move marked by a ring of the other colour."""
    last = board.last_move
    for p in coords.all_points(board.size):
        r, c = coords.row_col(p, board.size)
        stone = int(board.pts[COLOR, p])
        if stone in (BLACK, WHITE):
            ax.add_patch(plt.Circle((c, r), 0.46, facecolor=MAP_COLOURS[stone], edgecolor="black",
                                    linewidth=0.6, zorder=2))
            if p == last:
                ax.add_patch(plt.Circle((c, r), 0.22, facecolor="none", linewidth=1.4,
                                        edgecolor=MAP_COLOURS[BLACK + WHITE - stone], zorder=3))


def add_legend(ax, entries, plt):
    """A legend below ``ax`` of ``(label, facecolour, marker)`` entries (``"o"`` a stone,
    ``"s"`` a square)."""
    handles = [plt.Line2D([], [], linestyle="none", marker=marker, markersize=9,
                          markerfacecolor=colour, markeredgecolor="black", label=label)
               for label, colour, marker in entries]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.06),
              ncol=len(handles), fontsize=8, frameon=False)


def last_move_entry(board):
    """The legend entry of the last-move ring, or None before any move."""
    if board.last_move is None or board.last_move < 0 or int(board.pts[COLOR, board.last_move]) \
            not in (BLACK, WHITE):
        return None
    vertex = coords.to_gtp(board.last_move, board.size)
    return (f"last move {vertex}", "none", "o")


def draw_influence(board, path, threshold=DEFAULT_THRESHOLD, title=""):
    """Write ``path`` (.png, .svg or anything matplotlib writes): the position on the left, its
    influence map on the right (black and white squares, empty points left bare), each with
    a legend; the last move is ringed."""
    require("plot", "drawing")
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    size = board.size
    classes = influence_map(board, threshold)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 6.0))
    draw_grid(left, size, title or "position")
    draw_grid(right, size, f"influence map (threshold {threshold:g})")
    draw_stones(left, board, plt)
    for p in coords.all_points(size):
        r, c = coords.row_col(p, size)
        cls = int(classes[p])
        if cls in (BLACK, WHITE):
            right.add_patch(plt.Rectangle((c - 0.45, r - 0.45), 0.9, 0.9, facecolor=MAP_COLOURS[cls],
                                          edgecolor="black", linewidth=0.4, zorder=2))
    stones = [("black stone", MAP_COLOURS[BLACK], "o"), ("white stone", MAP_COLOURS[WHITE], "o")]
    last = last_move_entry(board)
    add_legend(left, stones + ([last] if last else []), plt)
    add_legend(right, [("black's area", MAP_COLOURS[BLACK], "s"),
                       ("white's area", MAP_COLOURS[WHITE], "s"),
                       ("neither (margin below threshold)", BOARD_COLOUR, "s")], plt)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
