"""The reviewed game as SGF: the record with, on the node of every reviewed position,
Sabaki's evaluation properties, and on every reviewed move a comment and, where the move
lost much, the better line as a variation.

* ``SBKV``: Black's win rate in percent (0-100), rounded to two decimals, as Sabaki writes
  it (``src/modules/sabaki.js``: ``Math.round(winrate * 100) / 100`` after turning the
  analysis to Black's side); on the node of the position it is the value of (the root
  holds the start's), which is where Sabaki puts the analysis of the current node and
  where its win-rate graph reads it.
* ``SBKS``: Black's score lead in points, rounded alike (Sabaki's score-lead graph).
* ``C``: the record's own comment, then the review's: the win rate and score after the
  move, the best move of the position before it and the move's losses.
* A variation beside move ``n`` (the best move and the search's line after it) where the
  move lost at least the mistake threshold.

>>> format_number(55.0), format_number(48.126), format_number(-0.004)
('55', '48.13', '0')
"""

import dataclasses

from ..board import coords
from ..board.kernels import BLACK, WHITE
from ..sgf import write_sgf

PV_IN_VARIATION = 10


def format_number(x):
    """A number as Sabaki writes SBKV and SBKS: rounded to two decimals, no trailing zeros
    (JavaScript's ``Number.toString`` of the rounded value)."""
    text = f"{round(float(x), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def score_text(lead):
    """Black's score lead as players write it: ``B+2.5``, ``W+0.5``, ``even``."""
    if lead is None:
        return "no score"
    if abs(lead) < 0.05:
        return "even"
    return f"{'B' if lead > 0 else 'W'}+{abs(lead):.1f}"


def move_comment(move, settings_text):
    """The review's comment on one move (its values from the mover's side)."""
    color = "Black" if move["color"] == "B" else "White"
    mover_rate = move["winrate"] if move["color"] == "B" else 1 - move["winrate"]
    lines = [f"mcgo ({settings_text}): Black {100 * move['winrate']:.1f}% win rate, "
             f"{score_text(move['score_lead'])}",
             f"{color} {move['move']}: {color} {100 * mover_rate:.1f}% after it"]
    loss = f"lost {100 * move['winrate_loss']:.1f}% win rate"
    if move["score_loss"] is not None:
        loss += f" and {move['score_loss']:.1f} points"
    if move["is_best"]:
        lines.append(f"the engine's best move ({loss})")
    else:
        best = move["best"]
        if move["best_winrate"] is not None:
            best += f" ({color} {100 * move['best_winrate']:.1f}%)"
        lines.append(f"{loss}; best was {best}")
        if move["pv"]:
            lines.append("best line: " + " ".join(move["pv"][:PV_IN_VARIATION]))
    return "\n".join(lines)


def review_sgf(record, document, mistake, path=None):
    """The SGF bytes of the reviewed game (also written to ``path``): the record (its
    comments kept first), the evaluations, the comments and the variations of the moves
    that lost at least ``mistake`` (win rate, 0-1)."""
    size = record.size
    settings_text = _settings_text(document["settings"])
    properties = {}
    for p in document["positions"]:
        props = {"SBKV": format_number(100 * p["winrate"])}
        if p["score_lead"] is not None:
            props["SBKS"] = format_number(p["score_lead"])
        properties[p["number"]] = props
    comments = dict(record.comments)
    variations = {}
    for move in document["moves"]:
        n = move["number"]
        text = move_comment(move, settings_text)
        comments[n] = f"{comments[n]}\n\n{text}" if comments.get(n) else text
        if not move["is_best"] and move["winrate_loss"] >= mistake and move["pv"]:
            line = _line(move["pv"][:PV_IN_VARIATION], BLACK if move["color"] == "B" else WHITE, size)
            if line:
                variations[n - 1] = line
    head = (f"Reviewed by mcgo, {settings_text} a position (moves "
            f"{document['reviewed_moves'][0]}-{document['reviewed_moves'][1]}): SBKV is "
            "Black's win rate, SBKS Black's score lead.")
    comments[0] = f"{comments[0]}\n\n{head}" if comments.get(0) else head
    reviewed = dataclasses.replace(record, comments=comments)
    return write_sgf(reviewed, path, properties=properties, variations=variations)


def _line(vertices, color, size):
    out = []
    for vertex in vertices:
        out.append((color, coords.from_gtp(vertex, size)))
        color = WHITE if color == BLACK else BLACK
    return out


def _settings_text(settings):
    if settings.get("visits"):
        return f"{settings['visits']} simulations"
    return f"{settings['seconds']:g} s"
