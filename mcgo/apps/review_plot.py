"""The review's curves as a picture (``mcgo review --plot FILE.png|FILE.svg``): Black's
win rate and score lead after each reviewed move, the mistakes marked (matplotlib, the
``plot`` extra)."""

FIGURE_SIZE = (9, 5)
DPI = 120


def write_review_plot(path, document, mistake):
    """Draw ``document``'s curves into ``path`` (.png or .svg by its suffix): the moves
    that lost at least ``mistake`` (0-1) of win rate as black or white dots (whose move)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot

    positions = document["positions"]
    numbers = [p["number"] for p in positions]
    figure, (rate_axes, score_axes) = pyplot.subplots(
        2, 1, figsize=FIGURE_SIZE, sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    rate_axes.plot(numbers, [100 * p["winrate"] for p in positions], color="#1f5fbf",
                   linewidth=1.8, label="Black's win rate")
    rate_axes.axhline(50, color="#888", linewidth=0.8)
    rate_axes.set_ylim(0, 100)
    rate_axes.set_ylabel("Black's win rate (%)")
    scored = [p for p in positions if p["score_lead"] is not None]
    score_axes.plot([p["number"] for p in scored], [p["score_lead"] for p in scored],
                    color="#d07000", linewidth=1.5)
    score_axes.axhline(0, color="#888", linewidth=0.8)
    score_axes.set_ylabel("Black's lead (points)")
    score_axes.set_xlabel("move")
    for color, face, label in (("B", "black", "Black's mistakes"), ("W", "white", "White's mistakes")):
        marked = [m for m in document["moves"] if m["color"] == color and not m["is_best"]
                  and m["winrate_loss"] >= mistake]
        if not marked:
            continue
        rate_axes.scatter([m["number"] for m in marked], [100 * m["winrate"] for m in marked],
                          s=40, facecolor=face, edgecolor="#e01010", linewidth=1.5, zorder=3,
                          label=f"{label} (lost {100 * mistake:g}% or more)")
        for m in marked:
            rate_axes.annotate(m["move"], (m["number"], 100 * m["winrate"]), fontsize=7,
                               xytext=(4, 4), textcoords="offset points")
    rate_axes.legend(loc="best", fontsize=8)
    title = f"{document['black'] or 'Black'} (B) vs {document['white'] or 'White'} (W)"
    rate_axes.set_title(f"{title}: {document['game']}")
    figure.tight_layout()
    figure.savefig(path, dpi=DPI)
    pyplot.close(figure)
