"""Text the analysis commands print: Leela Zero's ``lz-analyze`` lines, KataGo's
``kata-analyze`` lines, the thesis's tree printout (``mcgo-tree``) and GoGui's graphics
(``gfx``) answers; and the values they are made of (a position's win rate and score lead
from either side, :func:`winrate_for`, :func:`score_lead_for`), which ``mcgo review``
keeps too."""

import math
from dataclasses import dataclass

import numpy as np

from ..board import coords
from ..board.kernels import BLACK, PASS
from ..playout import mean_ownership
from ..search.presets import THESIS_EXPLORATION
from ..search.report import root_winrate, top_of_tree

TREE_INDENT = "  "
PV_LENGTH = 20                 # moves of a principal variation (as Search.principal_variation)


def lz_info_line(search, result, size, max_moves=None):
    """One Leela Zero analysis line: ``info move D4 visits 120 winrate 5230 prior 1000 lcb
    5100 order 0 pv D4 Q16 ...`` for every visited root move, best first, all on one line
    (Leela Zero's format: win rates and priors in hundredths of a percent, as integers)."""
    moves = [m for m in result.moves if m.visits > 0]
    order = sorted(moves, key=lambda m: (m.move != result.best_move, -m.visits, -m.winrate))
    if max_moves:
        order = order[:max_moves]
    total_prior = sum(m.prior for m in result.moves) or 1.0
    parts = []
    for i, m in enumerate(order):
        pv = " ".join(coords.to_gtp(p, size) for p in search.principal_variation(m.move))
        parts.append(f"info move {coords.to_gtp(m.move, size)} visits {int(m.visits)} "
                     f"winrate {int(m.winrate * 10000)} prior {int(m.prior / total_prior * 10000)} "
                     f"lcb {int(m.lcb * 10000)} order {i} pv {pv}")
    return " ".join(parts)


# --------------------------------------------------------------------------- KataGo
@dataclass
class KataRequest:
    """What a ``kata-analyze`` or ``kata-genmove_analyze`` asks for: the analysed colour, the
    seconds between lines (None: no lines) and KataGo's key-value options."""
    color: int
    interval: float = None
    min_moves: int = 0
    max_moves: int = 0             # 0: every move
    ownership: bool = False
    ownership_stdev: bool = False
    pv_visits: bool = False
    root_info: bool = False
    moves_ownership: bool = False  # asked for but not available: no per-move ownership is kept


def kata_number(x):
    """A float as ``kata-analyze`` prints it: fixed point, up to six decimals, always with
    a decimal point (Sabaki reads a winrate without one as hundredths of a percent, Leela
    Zero's scale), never an exponent."""
    text = f"{float(x):.6f}".rstrip("0")
    if text.endswith("."):
        text += "0"
    return "0.0" if text == "-0.0" else text


def kata_info_line(search, result, board, request, komi=None):
    """One ``kata-analyze`` line (KataGo's docs/GTP_Extensions.md): the moves' ``info``
    groups, best first, then ``rootInfo``, ``ownership`` and ``ownershipStdev`` groups
    when asked for; '' when nothing has been visited yet.

    Every value is from the side of ``request.color`` (the analysed colour, which moves at
    the search's root), KataGo's default ``reportAnalysisWinratesAs = SIDETOMOVE``:

    * ``info move X visits N utility U winrate W prior P lcb L utilityLcb UL order K pv ...``
      (``pvVisits`` and ``pvEdgeVisits`` after the pv with ``pvVisits true``). ``winrate``
      is the move's mean playout result (0..1), ``lcb`` the lower end of its Wilson 95%
      interval, ``utility`` = 2 winrate - 1 and ``utilityLcb`` = 2 lcb - 1 (mcgo's utility
      is the win/loss value alone, in [-1, 1]), ``prior`` the move's share of the root's
      prior values (the playout rules' virtual wins, or the learned model's; 0 without
      priors). A visited move's ``scoreMean``, ``scoreLead`` and ``scoreSelfplay`` are one
      number, the mean final area margin (after komi) of the playouts through the move
      (:attr:`mcgo.search.results.MoveStats.score`; Lizzie and Sabaki show it on the move).
      The pv stays the last field unless
      ``pvVisits`` is asked for, as Sabaki's parser reads the pv from the end of a group.
    * ``rootInfo visits N utility U winrate W scoreMean S scoreLead S scoreSelfplay S``:
      the root's visits (reused ones included) and win rate; the three scores are the same
      number, the mean final area margin (after komi) of this search's playouts, which are
      noisy self-play games (KataGo's ``scoreSelfplay``); no ``scoreStdev`` (the search keeps
      no sum of squares).
    * ``ownership`` and ``ownershipStdev``: ``size * size`` values, row by row from the top
      left (A19 first on 19x19) to the bottom right, as KataGo orders them; ownership in
      [-1, 1], +1 the analysed colour's, the mean final owner over this search's playouts
      (the search adds each playout's final owners up as it runs: no extra playouts). The
      standard deviation is ``sqrt(1 - m^2)`` for mean ``m``: exact when every point ends a
      playout owned by one side (area scoring leaves few neutral points).
    """
    komi = scored_komi(board, komi)
    size = board.size
    sign = 1.0 if request.color == BLACK else -1.0
    groups = []
    total_prior = sum(m.prior for m in result.moves) or 1.0
    for i, m in enumerate(reported_moves(result, request.min_moves, request.max_moves)):
        pv, pv_visits = principal_variation_visits(search, m.move)
        if m.visits > 0:
            winrate, lcb = m.winrate, m.lcb
        else:                      # an unvisited move (minmoves): its prior value, if any
            winrate, lcb = (m.prior if m.prior_visits else 0.5), 0.0
        score = ""
        if m.visits > 0:
            s = kata_number(sign * m.score)
            score = f"scoreMean {s} scoreLead {s} scoreSelfplay {s} "
        text = (f"info move {coords.to_gtp(m.move, size)} visits {int(m.visits)} "
                f"utility {kata_number(2 * winrate - 1)} winrate {kata_number(winrate)} "
                f"prior {kata_number(m.prior / total_prior)} lcb {kata_number(lcb)} "
                f"utilityLcb {kata_number(2 * lcb - 1)} order {i} {score}"
                f"pv {' '.join(coords.to_gtp(p, size) for p in pv)}")
        if request.pv_visits:
            counts = " ".join(str(int(v)) for v in pv_visits)
            text += f" pvVisits {counts} pvEdgeVisits {counts}"
        groups.append(text)
    if not groups:
        return ""
    if request.root_info:
        root = f"rootInfo visits {int(result.root_visits)}"
        rate = root_winrate(search)
        if rate is not None:
            root += f" utility {kata_number(2 * rate - 1)} winrate {kata_number(rate)}"
        score = playout_score(result, komi)
        if score is not None:
            s = kata_number(sign * score)
            root += f" scoreMean {s} scoreLead {s} scoreSelfplay {s}"
        groups.append(root)
    if request.ownership or request.ownership_stdev:
        owner = kata_ownership(result, size, request.color)
        if owner is not None:
            if request.ownership:
                groups.append("ownership " + " ".join(kata_number(v) for v in owner))
            if request.ownership_stdev:
                stdev = ownership_stdev(owner)
                groups.append("ownershipStdev " + " ".join(kata_number(v) for v in stdev))
    return " ".join(groups)


def reported_moves(result, min_moves=0, max_moves=0):
    """The visited root moves, the chosen move first, then by visits (as ``lz-analyze``);
    then, up to ``min_moves``, unvisited ones by prior; at most ``max_moves`` (0: all)."""
    visited = [m for m in result.moves if m.visits > 0]
    order = sorted(visited, key=lambda m: (m.move != result.best_move, -m.visits, -m.winrate))
    if len(order) < min_moves:
        rest = sorted((m for m in result.moves if m.visits <= 0),
                      key=lambda m: (-m.prior, m.move))
        order += rest[:min_moves - len(order)]
    if max_moves:
        order = order[:max_moves]
    return order


def principal_variation_visits(search, move, limit=PV_LENGTH):
    """``(pv, visits)``: the most visited line after ``move`` and each pv node's visits
    (:meth:`mcgo.search.search.Search.principal_variation_visits`)."""
    return search.principal_variation_visits(move, limit)


def scored_komi(board, komi=None):
    """The komi the playouts' area margin is counted against: ``komi`` (default the
    board's) plus, under territory scoring, the stones placed so far, which come off
    black's area (:meth:`mcgo.Board.scoring_offset`)."""
    return (board.komi if komi is None else komi) + board.scoring_offset()


def winrate_for(search, result, board, color):
    """The win rate of ``board``'s position for ``color`` after a search of it: its best
    move's (the most visited root move's mean, the value the tree backs up to the root),
    else, with no move visited, the root's over all its visits (:func:`root_winrate`);
    None unsearched. The root's mean counts the moves only tried to be ruled out too, so
    in a short search it leans towards the side not to move: over a game reviewed at 100
    simulations a position, the moves' losses by the root's mean came out negative.

    >>> import mcgo
    >>> from mcgo.search import Search
    >>> search, board = Search(seed=1), mcgo.Board(9, komi=7.0)
    >>> result = search.run(board, playouts=100)
    >>> winrate_for(search, result, board, mcgo.BLACK) == float(result.winrate)
    True
    >>> abs(winrate_for(search, result, board, mcgo.WHITE) - (1 - float(result.winrate))) < 1e-9
    True
    """
    best = next((m for m in result.moves if m.move == result.best_move and m.visits), None)
    rate = best.winrate if best is not None else root_winrate(search)
    if rate is None:
        return None
    rate = float(rate)
    return rate if color == board.to_move else 1.0 - rate


def score_lead_for(result, board, color):
    """The score lead of ``board``'s position for ``color`` after a search of it, as
    :func:`winrate_for` takes the win rate: its best move's mean final margin
    (:attr:`mcgo.search.results.MoveStats.score`), else, with no move visited, the mean over
    all the search's playouts (:func:`playout_score` against :func:`scored_komi`); None
    without playouts. The mean over all playouts counts the moves only tried to be ruled out
    too, and so leans towards the side not to move."""
    best = next((m for m in result.moves if m.move == result.best_move and m.visits), None)
    score = best.score if best is not None else playout_score(result, scored_komi(board))
    if score is None:
        return None
    score = float(score)
    return score if color == BLACK else -score


def playout_score(result, komi):
    """Black's mean final area margin after ``komi`` over the search's playouts (None
    without playouts): an owner sum adds +1 per black and -1 per white point, so its total
    over ``n`` playouts is ``n`` times the mean area score."""
    if result.owner_sum is None or result.simulations <= 0:
        return None
    return float(np.sum(result.owner_sum)) / result.simulations - komi


def kata_ownership(result, size, color):
    """The playouts' mean final owner of every point, +1 ``color``'s, as a flat array in
    KataGo's order (row by row from the top left); None without playouts."""
    if result.owner_sum is None or result.simulations <= 0:
        return None
    owner = mean_ownership(result.owner_sum, result.simulations, size)   # row 0 at the bottom
    sign = 1.0 if color == BLACK else -1.0
    return np.clip(sign * owner[::-1, :].ravel(), -1.0, 1.0)


def ownership_stdev(owner):
    """The standard deviation of each point's final owner (+1 or -1 at the end of every
    playout) of mean ``owner``: ``sqrt(1 - m^2)``."""
    return np.sqrt(np.maximum(0.0, 1.0 - owner * owner))


# --------------------------------------------------------------------------- thesis tree
def number(x):
    """A number as C++'s ``ostream`` prints a double (6 significant digits), as the thesis."""
    return f"{x:.6g}"


def node_line(move, wins, visits, parent_visits, bonus, size, label=None):
    """``D5: 0.5 (261 / 522) uct[0.559404]``: win rate (+ bonus), wins / plays, and the eq. 8.1
    value (+ bonus); with a case-base label, `` cbr[R14: 0.1 Jud-1982-4.sgf]``."""
    rate = wins / visits if visits else 0.0
    if visits:
        uct = rate + THESIS_EXPLORATION * math.sqrt(math.log(max(parent_visits, 1)) / visits)
        uct_text = number(uct + bonus)
    else:
        uct_text = "inf"
    text = (f"{coords.to_gtp(move, size)}: {number(rate + bonus)} "
            f"({number(wins)} / {number(visits)}) uct[{uct_text}]")
    if label:
        text += f" cbr[{label}]"
    return text


def tree_text(search, result, size, top=7, depth=3, per_node=5, bonus_label=None):
    """The top of the tree as the thesis prints it: the ``top`` most visited root moves, and
    under each its ``per_node`` most visited children, ``depth`` levels deep, indented by two
    spaces a level. Root moves carry the statistics of all threads; deeper levels come from
    the tree that searched the root move most (:func:`mcgo.search.report.top_of_tree`)."""
    bonus_label = bonus_label or {}
    lines = []
    for m in [m for m in result.moves if m.visits > 0][:top]:
        lines.append(node_line(m.move, m.wins, m.visits, result.root_visits, m.bonus, size,
                               bonus_label.get(m.move)))
        _children_lines(top_of_tree(search, m.move, depth - 1, per_node), size, 1, lines)
    return "\n".join(lines)


def _children_lines(nodes, size, level, lines):
    for n in nodes:
        lines.append(TREE_INDENT * level + node_line(n.move, n.wins, n.visits, n.parent_visits,
                                                     n.bonus, size))
        _children_lines(n.children, size, level + 1, lines)


def gfx_ownership(owner, size):
    """GoGui ``INFLUENCE`` of a (size, size) ownership map (+1 black, -1 white)."""
    parts = ["INFLUENCE"]
    for row in range(size):
        for col in range(size):
            v = float(owner[row, col])
            if abs(v) >= 0.05:
                parts.append(f"{coords.to_gtp(coords.point(row, col, size), size)} {v:.2f}")
    return " ".join(parts)


def gfx_best_moves(search, result, size, color_letter, top=5):
    """GoGui labels of the best moves' win rates and the best line as a variation."""
    moves = [m for m in result.moves if m.visits > 0 and m.move != PASS][:top]
    lines = []
    if moves:
        labels = " ".join(f"{coords.to_gtp(m.move, size)} {round(m.winrate * 100)}%" for m in moves)
        lines.append(f"LABEL {labels}")
        pv = search.principal_variation(result.best_move)
        colors = []
        c = color_letter
        for p in pv:
            colors.append(f"{c} {coords.to_gtp(p, size)}")
            c = "w" if c == "b" else "b"
        lines.append("VAR " + " ".join(colors))
    rate = round(result.winrate * 100) if moves else 0
    lines.append(f"TEXT {rate}% after {result.simulations} simulations")
    return "\n".join(lines)


CHAT_PV = 10         # moves of the principal variation in a chat line


def chat_line(search, color):
    """The line OGS's gtp2ogs forwards to a game's observers (its ``MALKOVICH:`` prefix)
    about ``search``'s last search, of ``color``'s move: the win rate and score lead for
    ``color`` and the principal variation from the chosen move, or None without one.

    >>> import mcgo
    >>> from mcgo.search import Search
    >>> search = Search(seed=1)
    >>> _ = search.run(mcgo.Board(9, komi=7.0), playouts=200)
    >>> line = chat_line(search, mcgo.BLACK)
    >>> line.startswith("MALKOVICH:Win rate "), "200 simulations; PV " in line
    (True, True)
    """
    result, board = search.last_result, search.last_board
    if result is None or board is None or result.best_move is None:
        return None
    winrate = winrate_for(search, result, board, color)
    lead = score_lead_for(result, board, color)
    if winrate is None:
        return None
    pv = [result.best_move] + principal_variation_visits(search, result.best_move, CHAT_PV - 1)[0]
    words = " ".join(coords.to_gtp(p, board.size) for p in pv)
    score = "" if lead is None else f", score lead {lead:+.1f}"
    return (f"MALKOVICH:Win rate {100 * winrate:.1f}%{score}, {result.simulations} "
            f"simulations; PV {words}")
