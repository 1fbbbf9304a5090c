"""Seed 000's common fate graph and its relative subgraph features (Foulds 2006, after
Graepel et al. 2001).

The **common fate graph** (CFG) of a position has one node per chain of stones and one per
empty point, and an edge between two nodes whose points touch. For a candidate move ``p`` (an
empty point), the **relative subgraph features** count the simple paths of at most
:data:`MAX_LENGTH` nodes that start at a graph neighbour of ``p`` and never pass through ``p``
(Algorithm 2 of the seed: a depth-first search with ``p`` marked as visited), by the string of
their nodes' colours: ``0`` empty, ``1`` a chain of the side to move, ``2`` an opponent's chain
(colours relative to the player, so one scorer serves both sides).

A colour string never holds ``11`` or ``22``: two chains of one colour that touch are one
chain. The strings of length 1 to 6 are 406; their index is their place in **shortlex** order
(shorter strings first, then lexicographic), built here by enumeration. The seed's closed-form
index (section 4.4) disagrees with that order for most strings; its worked example agrees:

>>> SUBGRAPH_INDEX["120"], len(SUBGRAPH_STRINGS), STRINGS_UP_TO[1:]
(20, 406, [3, 10, 27, 68, 167, 406])
>>> SUBGRAPH_STRINGS[:9]
['0', '1', '2', '00', '01', '02', '10', '12', '20']

The kernels build the graph from a position's arrays (:mod:`mcgo.board.kernels`) and count
every candidate's paths in one call (:func:`relative_subgraph_features`).
"""

import numpy as np

from ..board import coords
from ..board.kernels import BLACK, COLOR, EMPTY, HEAD, OFFBOARD, WHITE
from ..jit import allocating_kernel, kernel

MAX_LENGTH = 6          # Graepel et al. and Foulds: paths of at most 6 nodes
ALPHABET = "012"        # empty, the player's chain, the opponent's chain
NO_CHILD = -1


def _enumerate_strings(max_length):
    """The colour strings of 1 to ``max_length`` nodes in shortlex order."""
    strings, layer = [], [""]
    for _ in range(max_length):
        layer = [s + c for s in layer for c in ALPHABET if not (s and c != "0" and s[-1] == c)]
        strings += layer
    return strings


SUBGRAPH_STRINGS = _enumerate_strings(MAX_LENGTH)
SUBGRAPH_INDEX = {s: i for i, s in enumerate(SUBGRAPH_STRINGS)}
NFEATURES = len(SUBGRAPH_STRINGS)
STRINGS_UP_TO = [sum(1 for s in SUBGRAPH_STRINGS if len(s) <= n) for n in range(MAX_LENGTH + 1)]


def _child_table():
    """``CHILD[i, c]``: the index of string ``i`` followed by colour ``c`` (NO_CHILD when
    that string is too long or cannot occur); row NFEATURES is the empty string."""
    table = np.full((NFEATURES + 1, 3), NO_CHILD, dtype=np.int32)
    for i, s in enumerate(SUBGRAPH_STRINGS + [""]):
        for c, letter in enumerate(ALPHABET):
            table[i, c] = SUBGRAPH_INDEX.get(s + letter, NO_CHILD)
    return table


CHILD = _child_table()
ROOT = NFEATURES        # the row of CHILD for the empty string


# --------------------------------------------------------------------------- kernels
@allocating_kernel
def build_cfg(pts, size, player):
    """The common fate graph of a position: ``(node_of, node_colour, adj_start, adj)``.

    ``node_of[p]`` is the node of point ``p`` (-1 off the board); ``node_colour`` 0 empty,
    1 ``player``'s chain, 2 the opponent's; the neighbours of node ``n`` are
    ``adj[adj_start[n]:adj_start[n + 1]]``, each once, in increasing order."""
    w = size + 2
    n_points = w * w
    node_of = np.full(n_points, -1, dtype=np.int32)
    node_colour = np.zeros(n_points, dtype=np.int8)
    n_nodes = 0
    for p in range(n_points):
        colour = pts[COLOR, p]
        if colour == OFFBOARD:
            continue
        if colour == EMPTY:
            node_of[p] = n_nodes
            node_colour[n_nodes] = 0
            n_nodes += 1
        else:
            head = pts[HEAD, p]
            if node_of[head] < 0:
                node_of[head] = n_nodes
                node_colour[n_nodes] = 1 if colour == player else 2
                n_nodes += 1
            node_of[p] = node_of[head]
    keys = np.empty(4 * n_points, dtype=np.int64)
    n_keys = 0
    for p in range(n_points):
        a = node_of[p]
        if a < 0:
            continue
        for q in (p - 1, p + 1, p - w, p + w):
            b = node_of[q]
            if b >= 0 and b != a:
                keys[n_keys] = a * n_points + b
                n_keys += 1
    keys = np.sort(keys[:n_keys])
    adj_start = np.zeros(n_nodes + 1, dtype=np.int32)
    adj = np.empty(n_keys, dtype=np.int32)
    n_adj = 0
    last = -1
    for k in range(n_keys):
        if keys[k] == last:
            continue
        last = keys[k]
        a = last // n_points
        adj[n_adj] = last % n_points
        adj_start[a + 1] += 1
        n_adj += 1
    for a in range(n_nodes):
        adj_start[a + 1] += adj_start[a]
    return node_of, node_colour[:n_nodes].copy(), adj_start, adj[:n_adj].copy()


@kernel
def start_path(adj_start, visited, stack_node, stack_edge, start):
    """Begin a walk of :func:`next_path` at the node ``start`` (marked in ``visited``): the
    path of that one node, whose last index (0) is returned."""
    visited[start] = 1
    stack_node[0] = start
    stack_edge[0] = adj_start[start]
    return 0


@kernel
def next_path(adj_start, adj, visited, stack_node, stack_edge, depth, max_nodes):
    """The next simple path, depth first, of at most ``max_nodes`` nodes from the start of
    the walk (:func:`start_path`) that avoids every node marked in ``visited``: the path
    ``stack_node[:depth + 1]`` is extended by one node (backing up as far as needed), which
    is marked, and the new path's last index is returned; -1 when every path has been met,
    the walk's nodes then unmarked again. The one search of the graph's paths, for the
    relative subgraph features here and the ECFG's (:mod:`.ecfg`)."""
    while depth >= 0:
        n = stack_node[depth]
        e = stack_edge[depth]
        if depth + 1 < max_nodes and e < adj_start[n + 1]:
            stack_edge[depth] = e + 1
            m = adj[e]
            if visited[m] == 0:
                visited[m] = 1
                depth += 1
                stack_node[depth] = m
                stack_edge[depth] = adj_start[m]
                return depth
        else:
            visited[n] = 0
            depth -= 1
    return -1


@kernel
def count_paths(node, node_colour, adj_start, adj, child, visited, stack_node, stack_edge,
                stack_index, out):
    """Add to ``out`` the colour-string counts of the simple paths of at most
    ``len(stack_node)`` nodes that start at each graph neighbour of ``node`` and avoid it and
    every node marked in ``visited`` (all zero on return, as on entry)."""
    max_length = stack_node.shape[0]
    visited[node] = 1
    for e0 in range(adj_start[node], adj_start[node + 1]):
        start = adj[e0]
        depth = start_path(adj_start, visited, stack_node, stack_edge, start)
        while depth >= 0:
            above = child.shape[0] - 1 if depth == 0 else stack_index[depth - 1]
            index = child[above, node_colour[stack_node[depth]]]
            out[index] += 1
            stack_index[depth] = index
            depth = next_path(adj_start, adj, visited, stack_node, stack_edge, depth, max_length)
    visited[node] = 0


@allocating_kernel
def features_of_points(pts, size, player, points, child, max_length):
    """``(len(points), NFEATURES)`` float32 counts, one row per empty point of ``points``."""
    node_of, node_colour, adj_start, adj = build_cfg(pts, size, player)
    n_features = child.shape[0] - 1
    out = np.zeros((points.shape[0], n_features), dtype=np.float32)
    visited = np.zeros(node_colour.shape[0], dtype=np.int8)
    stack_node = np.empty(max_length, dtype=np.int32)
    stack_edge = np.empty(max_length, dtype=np.int32)
    stack_index = np.empty(max_length, dtype=np.int32)
    for i in range(points.shape[0]):
        count_paths(node_of[points[i]], node_colour, adj_start, adj, child, visited,
                    stack_node, stack_edge, stack_index, out[i])
    return out


# --------------------------------------------------------------------------- Python face
def relative_subgraph_features(board, points=None, player=None):
    """``(points, features)``: the relative subgraph counts of each empty point of ``points``
    (default: every legal move of ``player``, ko ignored as in the seed) for ``player``
    (default: the side to move); ``features`` is float32 ``(len(points), NFEATURES)``.

    >>> from mcgo import Board
    >>> board = Board(5)
    >>> board.play("C3")
    >>> points, x = relative_subgraph_features(board, [board.point("C4")])
    >>> int(x[0, SUBGRAPH_INDEX["2"]]), int(x[0, SUBGRAPH_INDEX["0"]])   # white to move
    (1, 3)
    """
    player = board.to_move if player is None else player
    if player not in (BLACK, WHITE):
        raise ValueError(f"player must be BLACK or WHITE, got {player!r}")
    if points is None:
        points = [p for p in coords.all_points(board.size)
                  if board.pts[COLOR, p] == EMPTY and board.legality(p, player) in (None, "ko", "superko")]
    points = np.asarray([board.point(p) for p in points], dtype=np.int32)
    for p in points:
        if board.pts[COLOR, p] != EMPTY:
            raise ValueError(f"{coords.to_gtp(int(p), board.size)} is not empty")
    return points, features_of_points(board.pts, board.size, player, points, CHILD, MAX_LENGTH)
