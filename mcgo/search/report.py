"""What a search's trees show beyond its result, for the fronts that print them (GTP's
analysis commands): the root's win rate over all its visits and the top of the tree under a
root move. The trees' arrays are read here, in the search package, so that no front reads
them."""

from dataclasses import dataclass, field

from .tree import BONUS, MOVE, VISITS, WINS


@dataclass
class Node:
    """A node under a root move: its move, its wins (for the player who moved into it) and
    visits, its parent's visits, its bonus, and its most visited children (:class:`Node`)."""
    move: int
    wins: float
    visits: float
    parent_visits: float
    bonus: float
    children: list = field(default_factory=list)


def root_winrate(search):
    """The root's win rate for its side to move over all its visits (None unvisited), with
    the value net's judgement of its moves mixed in as the moves' own win rates have it
    (:attr:`mcgo.search.results.MoveStats.winrate`). The root's own statistics count wins
    of the player who moved into it, the opponent."""
    wins = visits = 0.0
    for i, t in enumerate(search.trees):
        root_visits = float(t.floats[VISITS, t.root])
        wins += root_visits - float(t.floats[WINS, t.root])
        visits += root_visits
        valued = search.net_values(i)
        if valued:
            for c in t.children(t.root):
                if c in valued:
                    visits += valued[c][0]
                    wins += valued[c][1]
    if visits <= 0:
        return None
    return min(1.0, max(0.0, wins / visits))


def top_of_tree(search, move, levels, per_node):
    """The ``per_node`` most visited children of root move ``move``, each with its own,
    ``levels`` levels deep (visited nodes only), from the tree that searched ``move`` most:
    a list of :class:`Node`, most visited first ([] where no tree holds ``move``)."""
    tree, node = _deepest_tree(search, move)
    if tree is None:
        return []
    return _children(tree, node, levels, per_node)


def _deepest_tree(search, move):
    best = (None, -1, -1.0)
    for t in search.trees:
        c = t.child_with_move(t.root, move)
        if c >= 0 and t.floats[VISITS, c] > best[2]:
            best = (t, c, t.floats[VISITS, c])
    return best[0], best[1]


def _children(tree, node, levels, per_node):
    if levels <= 0:
        return []
    f = tree.floats
    kids = [c for c in tree.children(node) if f[VISITS, c] > 0]
    kids.sort(key=lambda c: -f[VISITS, c])
    return [Node(int(tree.ints[MOVE, c]), f[WINS, c], f[VISITS, c], f[VISITS, node],
                 f[BONUS, c], _children(tree, c, levels - 1, per_node))
            for c in kids[:per_node]]
