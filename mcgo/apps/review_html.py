"""The review as one web page (``mcgo review --html``): a self-contained HTML file that
needs no server and asks nothing of the network. Everything is inline: the style, the
curve and the boards are SVG written here, the fonts are the browser's generic families,
and there is no script.

The page shows Black's win-rate curve and the score lead over the reviewed moves with
the mistakes marked, each side's biggest mistakes as board diagrams (the position before
the move, the played move ringed in red, the better move and the search's line after it
as numbered stones), and a table of every reviewed move.

>>> page = review_page(_example_record(), _example_document())
>>> page.startswith("<!DOCTYPE html>") and "<svg" in page and "http" not in page.replace(SVG_NS, "")
True
"""

import html

from ..board import coords
from ..board.kernels import BLACK, WHITE
from ..sgf import replay
from .review import DIAGRAM_MISTAKES, mistakes

SVG_NS = "http://www.w3.org/2000/svg"    # a name, not a request: SVG's namespace
CELL = 24                      # pixels between lines on a diagram
CURVE_WIDTH, CURVE_HEIGHT = 900, 260
LINE_SHOWN = 8                 # moves of the better line drawn on a diagram
BOARD_COLOR = "#dcb35c"
WINRATE_COLOR = "#1f5fbf"
SCORE_COLOR = "#d07000"
PLAYED_COLOR = "#e01010"
BEST_COLOR = "#10a010"
STYLE = """
body { font-family: sans-serif; margin: 24px; color: #222; background: #fff; }
h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 28px; }
.diagrams { display: flex; flex-wrap: wrap; gap: 18px; }
figure { margin: 0; } figcaption { font-size: 13px; max-width: 460px; }
table { border-collapse: collapse; font-size: 13px; }
td, th { border: 1px solid #ccc; padding: 2px 8px; text-align: right; }
tr.mistake td { background: #fde4e4; }
.legend span { margin-right: 18px; }
"""


def review_page(record, document, mistake=0.1, per_side=DIAGRAM_MISTAKES):
    """The page's HTML text for a finished review (:func:`mcgo.apps.review.review_document`
    of ``record``): mistakes are the moves that lost at least ``mistake`` (0-1) of win
    rate, and ``per_side`` of each side's biggest losses get a diagram."""
    title = f"{document['black'] or 'Black'} (B) vs {document['white'] or 'White'} (W)"
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>Review: {_text(title)}</title><style>{STYLE}</style></head><body>",
             f"<h1>Review: {_text(title)}</h1>",
             f"<p>{_text(_summary(document))}</p>",
             "<h2>Win rate and score</h2>", curve_svg(document, mistake),
             '<p class="legend"><span style="color:%s">&#9632; Black\'s win rate (%%)</span>'
             '<span style="color:%s">&#9632; Black\'s score lead (points)</span>'
             '<span>&#9679; a mistake (black or white dot: whose)</span></p>'
             % (WINRATE_COLOR, SCORE_COLOR)]
    for color, name in (("B", "Black"), ("W", "White")):
        worst = mistakes(document["moves"], color, 0.0, per_side)
        parts.append(f"<h2>{name}'s biggest mistakes</h2>")
        if not worst:
            parts.append("<p>No move of this side lost win rate.</p>")
            continue
        parts.append('<div class="diagrams">')
        for move in worst:
            parts.append(mistake_figure(record, move))
        parts.append("</div>")
    parts += ["<h2>Every move</h2>", move_table(document, mistake), "</body></html>"]
    return "\n".join(parts)


def _summary(document):
    first, last = document["reviewed_moves"]
    s = document["settings"]
    limit = f"{s['visits']} simulations" if s.get("visits") else f"{s['seconds']:g} s"
    result = f", result {document['result']}" if document["result"] else ""
    return (f"{document['size']}x{document['size']}, komi {document['komi']}{result}; "
            f"moves {first}-{last} reviewed by mcgo at {limit} a position. Losses are from "
            "the mover's side: the position's value before the move minus after it.")


# --------------------------------------------------------------------------- the curve
def curve_svg(document, mistake):
    """Black's win rate (0-100, left axis) and score lead (right axis, symmetric about 0)
    over the reviewed positions, the moves that lost at least ``mistake`` marked."""
    positions = document["positions"]
    w, h, pad = CURVE_WIDTH, CURVE_HEIGHT, 40
    if not positions:
        return f'<svg xmlns="{SVG_NS}" width="{w}" height="{h}"></svg>'
    first, last = positions[0]["number"], positions[-1]["number"]
    span = max(1, last - first)
    scores = [abs(p["score_lead"]) for p in positions if p["score_lead"] is not None]
    score_range = max([5.0] + scores)

    def x(n):
        return pad + (w - 2 * pad) * (n - first) / span

    def y_rate(rate):
        return pad / 2 + (h - pad) * (1 - rate)

    def y_score(score):
        return pad / 2 + (h - pad) * (0.5 - score / (2 * score_range))

    out = [f'<svg xmlns="{SVG_NS}" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
           'class="curve">', f'<rect width="{w}" height="{h}" fill="#fafafa"/>']
    for rate in (0, 0.25, 0.5, 0.75, 1):
        yy = y_rate(rate)
        out.append(f'<line x1="{pad}" y1="{yy:.1f}" x2="{w - pad}" y2="{yy:.1f}" '
                   f'stroke="{"#888" if rate == 0.5 else "#ddd"}" stroke-width="1"/>')
        out.append(f'<text x="{pad - 4}" y="{yy + 4:.1f}" font-size="11" '
                   f'text-anchor="end">{int(rate * 100)}</text>')
    out.append(f'<text x="{w - pad + 4}" y="{pad / 2 + 4:.1f}" font-size="11">'
               f'+{score_range:.0f}</text>')
    out.append(f'<text x="{w - pad + 4}" y="{h - pad / 2 + 4:.1f}" font-size="11">'
               f'-{score_range:.0f}</text>')
    for n in _ticks(first, last):
        out.append(f'<text x="{x(n):.1f}" y="{h - 4}" font-size="11" '
                   f'text-anchor="middle">{n}</text>')
    scored = [p for p in positions if p["score_lead"] is not None]
    if scored:
        points = " ".join(f"{x(p['number']):.1f},{y_score(p['score_lead']):.1f}" for p in scored)
        out.append(f'<polyline points="{points}" fill="none" stroke="{SCORE_COLOR}" '
                   'stroke-width="2"/>')
    points = " ".join(f"{x(p['number']):.1f},{y_rate(p['winrate']):.1f}" for p in positions)
    out.append(f'<polyline points="{points}" fill="none" stroke="{WINRATE_COLOR}" '
               'stroke-width="3"/>')
    for m in document["moves"]:
        if m["is_best"] or m["winrate_loss"] < mistake:
            continue
        fill = "#000" if m["color"] == "B" else "#fff"
        out.append(f'<circle cx="{x(m["number"]):.1f}" cy="{y_rate(m["winrate"]):.1f}" r="6" '
                   f'fill="{fill}" stroke="{PLAYED_COLOR}" stroke-width="2">'
                   f'<title>move {m["number"]} {m["color"]} {m["move"]}: lost '
                   f'{100 * m["winrate_loss"]:.1f}%</title></circle>')
    out.append("</svg>")
    return "\n".join(out)


def _ticks(first, last):
    step = max(1, (last - first) // 10)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 1000) if s >= step)
    return [n for n in range(first, last + 1) if n % step == 0 or n == first]


# --------------------------------------------------------------------------- boards
def mistake_figure(record, move):
    """A diagram of one mistake with its caption."""
    number = move["number"]
    board = replay(record, max_moves=number - 1)
    size = board.size
    color = BLACK if move["color"] == "B" else WHITE
    line = []
    for vertex in move["pv"][:LINE_SHOWN]:
        point = coords.from_gtp(vertex, size)
        if point == coords.PASS or board.color_at(point) != 0 or \
                point in [p for p, _ in line]:
            break                 # a pass, or a capture changed the board: stop the line
        line.append((point, color))
        color = WHITE if color == BLACK else BLACK
    played = coords.from_gtp(move["move"], size)
    svg = board_svg(board, line, played)
    who = "Black" if move["color"] == "B" else "White"
    loss = f"lost {100 * move['winrate_loss']:.1f}% win rate"
    if move["score_loss"] is not None:
        loss += f", {move['score_loss']:.1f} points"
    caption = (f"Move {number}: {who} played {move['move']} (red ring), {loss}. "
               f"Better: {move['best']} (1, green), then "
               f"{' '.join(move['pv'][1:LINE_SHOWN]) or 'no line'}.")
    return f'<figure class="mistake">{svg}<figcaption>{_text(caption)}</figcaption></figure>'


def board_svg(board, line=(), played=None):
    """An SVG diagram of ``board`` with the stones of ``line`` (``(point, color)`` pairs)
    numbered from 1, the first ringed in green, and ``played`` ringed in red."""
    size = board.size
    margin = CELL + 6              # room for the coordinates beside the edge stones
    extent = 2 * margin + CELL * (size - 1)

    def at(point):
        row, col = coords.row_col(point, size)
        return margin + CELL * col, margin + CELL * (size - 1 - row)

    out = [f'<svg xmlns="{SVG_NS}" width="{extent}" height="{extent}" '
           f'viewBox="0 0 {extent} {extent}" class="board">',
           f'<rect width="{extent}" height="{extent}" fill="{BOARD_COLOR}"/>']
    low, high = margin, margin + CELL * (size - 1)
    for i in range(size):
        c = margin + CELL * i
        out.append(f'<line x1="{low}" y1="{c}" x2="{high}" y2="{c}" stroke="#000" stroke-width="1"/>')
        out.append(f'<line x1="{c}" y1="{low}" x2="{c}" y2="{high}" stroke="#000" stroke-width="1"/>')
    for i, letter in enumerate(coords.GTP_COLUMNS[:size]):
        c = margin + CELL * i
        out.append(f'<text x="{c}" y="11" font-size="10" text-anchor="middle">{letter}</text>')
        out.append(f'<text x="8" y="{c + 3}" font-size="10" text-anchor="middle">{size - i}</text>')
    for point in coords.all_points(size):
        stone = board.color_at(point)
        if stone in (BLACK, WHITE):
            out.append(_stone(*at(point), stone))
    for k, (point, color) in enumerate(line, start=1):
        x, y = at(point)
        out.append(_stone(x, y, color, BEST_COLOR if k == 1 else None))
        text = "#fff" if color == BLACK else "#000"
        out.append(f'<text x="{x}" y="{y + 4}" font-size="12" font-weight="bold" '
                   f'text-anchor="middle" fill="{text}">{k}</text>')
    if played is not None and played != coords.PASS:
        x, y = at(played)
        out.append(f'<circle cx="{x}" cy="{y}" r="{CELL * 0.45:.1f}" fill="none" '
                   f'stroke="{PLAYED_COLOR}" stroke-width="3"/>')
    out.append("</svg>")
    return "\n".join(out)


def _stone(x, y, color, ring=None):
    fill, edge = ("#111", "#000") if color == BLACK else ("#f8f8f8", "#444")
    stroke, width = (ring, 3) if ring else (edge, 1)
    return (f'<circle cx="{x}" cy="{y}" r="{CELL * 0.46:.1f}" fill="{fill}" '
            f'stroke="{stroke}" stroke-width="{width}"/>')


# --------------------------------------------------------------------------- the table
def move_table(document, mistake):
    rows = ["<table><tr><th>move</th><th>colour</th><th>played</th><th>Black's win rate</th>"
            "<th>score lead</th><th>win rate lost</th><th>points lost</th><th>best</th>"
            "<th>best line</th></tr>"]
    for m in document["moves"]:
        cls = ' class="mistake"' if not m["is_best"] and m["winrate_loss"] >= mistake else ""
        score = "" if m["score_lead"] is None else f"{m['score_lead']:+.1f}"
        lost = "" if m["score_loss"] is None else f"{m['score_loss']:.1f}"
        rows.append(f"<tr{cls}><td>{m['number']}</td><td>{m['color']}</td><td>{m['move']}</td>"
                    f"<td>{100 * m['winrate']:.1f}%</td><td>{score}</td>"
                    f"<td>{100 * m['winrate_loss']:.1f}</td><td>{lost}</td>"
                    f"<td>{m['best']}</td><td>{_text(' '.join(m['pv'][:6]))}</td></tr>")
    rows.append("</table>")
    return "\n".join(rows)


def _text(text):
    return html.escape(str(text), quote=True)


def _example_record():
    from ..sgf import read_game
    return read_game(b"(;SZ[9]KM[7]PB[Ann]PW[Bob];B[ee];W[ef])")


def _example_document():
    positions = [{"number": n, "to_move": "BWB"[n], "winrate": r, "score_lead": s,
                  "simulations": 10, "best": b, "best_winrate": 0.6, "pv": pv, "seconds": 0.1}
                 for n, r, s, b, pv in ((0, 0.5, 1.0, "E5", ["E5", "C5"]),
                                        (1, 0.6, 3.0, "C3", ["C3", "G7"]),
                                        (2, 0.8, 6.0, "D4", ["D4"]))]
    from .review import move_reviews
    return {"black": "Ann", "white": "Bob", "size": 9, "komi": 7.0, "result": "",
            "reviewed_moves": [1, 2], "settings": {"visits": 10}, "positions": positions,
            "moves": move_reviews(_example_record(), positions)}
