"""Seed 002's enriched common fate graph (ECFG, Ralaivola, Wu and Baldi 2005) and its path
features.

The graph is the common fate graph of :mod:`.cfg` (one node per chain, one per empty point)
with 13 node labels (Table 1 of the seed), colours taken from the side to move (the seed
switches colours so that black is to move; here ``b`` is the player's stones):

====  =====================================================================
b, w  the player's and the opponent's chains
j     an empty point whose neighbours are all empty
f, g  an empty point whose neighbours are all the player's (the opponent's) stones
f1-3  an empty point that needs 1, 2 or 3 more of the player's stones to become ``f``:
      no opponent neighbour, at least one of the player's, that many empty neighbours
g1-3  the same for the opponent
m     an empty point next to an empty point, a player's and an opponent's stone
s     an empty point next to stones of both colours and no empty point
====  =====================================================================

(neighbours on the board only). The empty labels partition every empty point.

Each node gets a weight ``sigma(sum of the stability, or the impact, of the 3x3 patterns
centred on its points)`` (eq. 2; :class:`mcgo.models.seedstats.SeedStats`), and the feature of
a label string of length up to ``d`` (a path's labels, in order) is eq. 3's
``1 / (len * |Q|) * sum over the paths t in Q of wgt(t)`` (``Q`` the paths with that label,
``wgt(t)`` the sum of its nodes' weights); the "count" features are ``|Q|``, Graepel et al.'s.
Paths are simple and directed: each undirected path counts once from each end.

>>> LABELS[:5], len(LABELS), feature_count(3)
(('b', 'w', 'j', 'f', 'g'), 13, 2379)
"""

import math

import numpy as np

from ..board import BLACK, WHITE, coords
from ..board.kernels import COLOR, EMPTY, OFFBOARD
from ..jit import allocating_kernel
from .cfg import build_cfg, next_path, start_path
from .seedstats import colors_of

LABELS = ("b", "w", "j", "f", "g", "f1", "f2", "f3", "g1", "g2", "g3", "m", "s")
B, W, J, F, G, F1, F2, F3, G1, G2, G3, M, S = range(13)
NLABELS = len(LABELS)
WEIGHTINGS = ("count", "stability", "impact")


def feature_count(d):
    return sum(NLABELS ** k for k in range(1, d + 1))


def feature_name(index):
    """The label string of feature ``index`` (``"b-j-f1"``)."""
    length, offset = 1, 0
    while index >= offset + NLABELS ** length:
        offset += NLABELS ** length
        length += 1
    digits, rest = [], index - offset
    for _ in range(length):
        digits.append(LABELS[rest % NLABELS])
        rest //= NLABELS
    return "-".join(reversed(digits))


@allocating_kernel
def empty_labels(pts, size, player):
    """The label of every point: ``b``/``w`` for stones (``player``'s are ``b``), Table 1's
    for empty points; -1 off the board."""
    w = size + 2
    out = np.full(w * w, -1, dtype=np.int8)
    for p in range(w * w):
        c = pts[COLOR, p]
        if c == OFFBOARD:
            continue
        if c != EMPTY:
            out[p] = 0 if c == player else 1
            continue
        e = 0
        mine = 0
        theirs = 0
        for q in (p - 1, p + 1, p - w, p + w):
            d = pts[COLOR, q]
            if d == EMPTY:
                e += 1
            elif d == player:
                mine += 1
            elif d != OFFBOARD:
                theirs += 1
        if mine == 0 and theirs == 0:
            out[p] = 2                      # j
        elif e == 0:
            out[p] = 3 if theirs == 0 else (4 if mine == 0 else 12)   # f, g, s
        elif theirs == 0:
            out[p] = 4 + e                  # f1..f3
        elif mine == 0:
            out[p] = 7 + e                  # g1..g3
        else:
            out[p] = 11                     # m
    return out


@allocating_kernel
def path_features(node_label, node_weight, adj_start, adj, d, n_labels):
    """``(counts, weight sums)`` over the label strings of the simple paths of 1 to ``d``
    nodes, indexed ``offset(len) + sum label_k * n_labels ** (len - 1 - k)``."""
    n_features = 0
    power = 1
    offsets = np.zeros(d + 1, dtype=np.int64)
    for k in range(1, d + 1):
        offsets[k] = n_features
        power *= n_labels
        n_features += power
    counts = np.zeros(n_features, dtype=np.float64)
    sums = np.zeros(n_features, dtype=np.float64)
    n_nodes = node_label.shape[0]
    visited = np.zeros(n_nodes, dtype=np.int8)
    stack_node = np.empty(d, dtype=np.int64)
    stack_edge = np.empty(d, dtype=np.int64)
    stack_code = np.empty(d, dtype=np.int64)
    stack_weight = np.empty(d, dtype=np.float64)
    for start in range(n_nodes):
        depth = start_path(adj_start, visited, stack_node, stack_edge, start)
        while depth >= 0:
            m = stack_node[depth]
            if depth == 0:
                stack_code[0] = node_label[m]
                stack_weight[0] = node_weight[m]
            else:
                stack_code[depth] = stack_code[depth - 1] * n_labels + node_label[m]
                stack_weight[depth] = stack_weight[depth - 1] + node_weight[m]
            index = offsets[depth + 1] + stack_code[depth]
            counts[index] += 1.0
            sums[index] += stack_weight[depth]
            depth = next_path(adj_start, adj, visited, stack_node, stack_edge, depth, d)
    return counts, sums


def sigma(x):
    return 1.0 / (1.0 + np.exp(-x))


class Ecfg:
    """The ECFG of one position for ``player`` (default: the side to move)."""

    def __init__(self, board, player=None, point_weights=None):
        self.size = board.size
        self.player = board.to_move if player is None else player
        node_of, _, self.adj_start, self.adj = build_cfg(board.pts, board.size, self.player)
        point_label = empty_labels(board.pts, board.size, self.player)
        n_nodes = len(self.adj_start) - 1
        self.node_label = np.zeros(n_nodes, dtype=np.int64)
        self.node_points = [[] for _ in range(n_nodes)]
        for p in coords.all_points(board.size):
            n = node_of[p]
            self.node_label[n] = point_label[p]
            self.node_points[n].append(p)
        self.node_weight = np.zeros(n_nodes)
        if point_weights is not None:           # per point (internal index), e.g. stability
            for n, points in enumerate(self.node_points):
                self.node_weight[n] = sigma(sum(point_weights[p] for p in points))

    def features(self, d, weighting="count"):
        """The feature vector for paths of up to ``d`` nodes (:func:`feature_count` long)."""
        counts, sums = path_features(self.node_label, self.node_weight, self.adj_start,
                                     self.adj, d, NLABELS)
        if weighting == "count":
            return counts
        lengths = np.concatenate([np.full(NLABELS ** k, k) for k in range(1, d + 1)])
        with np.errstate(invalid="ignore", divide="ignore"):
            out = np.where(counts > 0, sums / (lengths * counts), 0.0)
        return out


def point_weights(stats, board, weighting, player):
    """Per point (internal index) the stability or impact of the 3x3 pattern centred there,
    from :class:`mcgo.models.seedstats.SeedStats` (0 where the tables have none)."""
    if weighting == "count":
        return None
    plane = stats.stability_plane(board_colors(board), player) if weighting == "stability" \
        else stats.impact_plane(board_colors(board), player)
    out = np.zeros(board.pts.shape[1])
    for p in coords.all_points(board.size):
        r, c = coords.row_col(p, board.size)
        value = float(plane[r, c])
        out[p] = 0.0 if math.isnan(value) else value
    return out


def board_colors(board):
    return colors_of(board)


__all__ = ["LABELS", "Ecfg", "feature_count", "feature_name", "empty_labels", "path_features",
           "point_weights", "BLACK", "WHITE"]
