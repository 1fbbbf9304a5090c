# SPDX-License-Identifier: GPL-3.0-or-later
"""Who won a finished game: a referee engine's ``final_score``, both players' own, or a
Tromp-Taylor count on mcgo's board. Every opinion is kept; a split on the winner is flagged.

>>> parse_score("B+3.5"), parse_score("W+0.5"), parse_score("0"), parse_score("?")
(3.5, -0.5, 0.0, None)
"""

from ..board import BLACK, WHITE, coords
from ..board.board import result_text
from .engines import COLOR_LETTER, COLOR_NAME, EngineFault, Seat
from .settings import SCORE_TIMEOUT


def parse_score(text):
    """Black's margin from a ``final_score`` answer ("B+3.5", "W+0.5", "0"); None if unreadable."""
    if text is None:
        return None
    text = text.strip().upper()
    if text in ("0", "JIGO", "DRAW"):
        return 0.0
    if len(text) > 2 and text[0] in "BW" and text[1] == "+":
        try:
            margin = float(text[2:])
        except ValueError:
            return None
        return margin if text[0] == "B" else -margin
    return None


def winner_color_of(score):
    if score is None or score == 0:
        return None
    return BLACK if score > 0 else WHITE


def ask_final_score(seat):
    """A seat's own ``final_score`` (None when it cannot say), never a fault.

    An engine that hung or died here is killed, so the next game starts it afresh
    instead of reading its late answer.
    """
    try:
        return seat.send("final_score", timeout=SCORE_TIMEOUT)
    except EngineFault as fault:
        if not fault.answered:
            seat.kill()
        return None


def referee_score(referee_command, settings, moves):
    """Replay the game on a fresh referee engine; returns (its ``final_score`` answer, problem)."""
    referee = Seat("referee", referee_command)
    try:
        referee.send(f"boardsize {settings.size}")
        referee.send("clear_board")
        referee.send(f"komi {settings.komi:g}")
        if settings.handicap:
            referee.send(f"fixed_handicap {settings.handicap}")
        for color, point in moves:
            vertex = coords.to_gtp(point, settings.size)
            referee.send(f"play {COLOR_LETTER[color]} {vertex}")
        return referee.send("final_score", timeout=SCORE_TIMEOUT), None
    except EngineFault as exc:
        return None, exc.reason
    finally:
        referee.kill()


def score_game(board, settings, seats, referee_command, scorer, ask_engines):
    """Score a finished game; every opinion is kept and a split on the winner is flagged."""
    scores = {"tromp_taylor": result_text(board.score())}
    notes = []
    if ask_engines or scorer == "engines":
        scores["black_engine"] = ask_final_score(seats[BLACK])
        scores["white_engine"] = ask_final_score(seats[WHITE])
    if referee_command and scorer == "referee":
        scores["referee"], problem = referee_score(referee_command, settings, board.moves)
        if problem:
            notes.append(f"referee failed: {problem}")
    decided = decide_score(scores, scorer)
    if decided is None and scorer == "referee":
        notes.append("no referee score: Tromp-Taylor count used")
        decided = parse_score(scores["tromp_taylor"])
    winners = {winner_color_of(parse_score(v)) for k, v in scores.items()
               if k != "tromp_taylor" and parse_score(v) is not None}
    out = {"scores": scores, "disagreement": len(winners) > 1,
           "result": "?" if decided is None else result_text(decided),
           "winner_color": COLOR_NAME.get(winner_color_of(decided))}
    if notes:
        out["notes"] = notes
    return out


def decide_score(scores, scorer):
    """Black's margin by the chosen scorer; engines must agree on the winner or it is unknown."""
    if scorer == "referee":
        return parse_score(scores.get("referee"))
    if scorer == "engines":
        b, w = parse_score(scores.get("black_engine")), parse_score(scores.get("white_engine"))
        if b is None or w is None or winner_color_of(b) != winner_color_of(w):
            return None
        return b
    if scorer == "tromp-taylor":
        return parse_score(scores["tromp_taylor"])
    raise ValueError(f"unknown scorer {scorer!r}")
