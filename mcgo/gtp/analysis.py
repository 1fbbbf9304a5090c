"""Text the analysis commands print: Leela Zero's ``lz-analyze`` lines, the thesis's tree
printout (``mcgo-tree``) and GoGui's graphics (``gfx``) answers."""

import math

from ..board import coords
from ..board.kernels import PASS
from ..search.presets import THESIS_EXPLORATION
from ..search.tree import BONUS, MOVE, VISITS, WINS

TREE_INDENT = "  "


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
    the tree that searched the root move most."""
    bonus_label = bonus_label or {}
    lines = []
    for m in [m for m in result.moves if m.visits > 0][:top]:
        lines.append(node_line(m.move, m.wins, m.visits, result.root_visits, m.bonus, size,
                               bonus_label.get(m.move)))
        tree, node = _deepest_tree(search, m.move)
        if tree is not None:
            _children_lines(tree, node, size, 1, depth, per_node, lines)
    return "\n".join(lines)


def _deepest_tree(search, move):
    best = (None, -1, -1.0)
    for t in search.trees:
        c = t.child_with_move(t.root, move)
        if c >= 0 and t.floats[VISITS, c] > best[2]:
            best = (t, c, t.floats[VISITS, c])
    return best[0], best[1]


def _children_lines(tree, node, size, level, depth, per_node, lines):
    if level >= depth:
        return
    kids = [c for c in tree.children(node) if tree.floats[VISITS, c] > 0]
    kids.sort(key=lambda c: -tree.floats[VISITS, c])
    parent_visits = tree.floats[VISITS, node]
    for c in kids[:per_node]:
        f = tree.floats
        lines.append(TREE_INDENT * level + node_line(int(tree.ints[MOVE, c]), f[WINS, c],
                                                     f[VISITS, c], parent_visits, f[BONUS, c],
                                                     size))
        _children_lines(tree, c, size, level + 1, depth, per_node, lines)


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
