"""The policy net's prior in the tree (:mod:`mcgo.models.policy_net`).

Every legal move of a node gets ``V`` virtual visits, ``V * P(move) / P(best)`` of them won:
the form of the move model's prior (:mod:`.priors`), on top of it. The root gets it once per
root position (:meth:`mcgo.search.Search._add_root_priors`); with the ``policy_net_after``
setting ``N > 0`` so does each node below the root once it has ``N`` visits of its own, when
the search has shown that its replies matter (:func:`give_below`). A node gets it once: a
set of the nodes given, per tree, says which.

With a net with value heads (``--value-net``, or the policy net's own:
:attr:`mcgo.models.policy_net.PolicyNet.has_value`) and the ``value_prior`` setting
``W > 0``, each node below the root that gets the prior (so only with ``policy_net_after``)
also gets ``W`` virtual visits of its own, ``W * v`` of them won, ``v`` the net's chance that
the move into the node wins: the positions of the nodes of one look in one batch
(:func:`node_values`). So the net's value mixes with the playouts' where the search has
already spent ``N`` visits, as AlphaGo's lambda does, its share shrinking as the node's own
visits come; one forward pass a node, where valuing every child would cost one a move.
Heads on the policy net's own trunk (its file's, or a value file of heads on that trunk:
:meth:`~mcgo.models.policy_net.PolicyNet.same_policy`) give a node its priors and its value
in one trunk pass (:func:`judge`).

The net is trained for one board size; on other sizes nothing gets its prior, except where
``--policy-net default`` reads a net on that size (:data:`~mcgo.models.policy_net.SIZE_NETS`:
9x9's own, and on 13x13 the 19x19 net itself, :meth:`~mcgo.models.policy_net.PolicyNet.on_size`).
"""

import numpy as np

from ..board.kernels import LEGAL, PASS, TO_MOVE, WHITE, legality, play_legal
from ..models.policy_net import compact, planes
from .tree import MOVE, PRIOR_VISITS, PRIOR_WINS, VISITS

# Batches of simulations (mcgo.search.control.BATCH each) between two looks for nodes that
# have reached policy_net_after visits: a look walks the nodes that have, so it costs little,
# but not nothing.
SCAN_BATCHES = 4


def ratios(net, pts, info, logits=None):
    """``P(move) / P(best)`` by the net for each point of the position ``(pts, info)`` (the
    side to move's legal moves; NaN elsewhere and at the pass, which the net gives no
    chance), or None with no legal move; ``logits`` the position's when a batch computed
    them. The caller has matched the net's size to the board's
    (:meth:`mcgo.search.Search.policy_net_of`)."""
    moves, scores = net.scores(pts, info, int(info[TO_MOVE]), logits)
    if len(moves) == 1:                             # the pass alone
        return None
    out = np.full(pts.shape[1], np.nan)
    out[moves[:-1]] = np.exp(scores[:-1] - scores[:-1].max())
    return out


def give(tree, node, ratio, visits):
    """Add ``visits`` virtual visits, ``visits * r`` won, to each child of ``node`` whose move
    has a ratio, ``r`` its ratio over the best ratio among the children. The best child is the
    net's best move, unless a GUI's ``allow`` or ``avoid`` (:mod:`.movefilter`) left that move
    out of the tree: then the best move left takes the best move's prior, as KataGo
    renormalises its policy over the allowed moves. Otherwise the moves the search was told
    to read would all look lost against a move it may not play, and it would spend itself on
    the pass."""
    kids = tree.children(node)
    cols = np.arange(kids.start, kids.stop)
    r = ratio[tree.ints[MOVE, cols]]
    keep = ~np.isnan(r)
    if not keep.any():
        return
    r = r[keep] / r[keep].max()
    tree.floats[PRIOR_VISITS, cols[keep]] += visits
    tree.floats[PRIOR_WINS, cols[keep]] += visits * r


def _inputs(net, positions, komi):
    """The net's planes of ``positions`` ``(pts, info)`` (the side to move's view), the komi
    each side to move gets (``komi`` White's, one number or one a position) and whether White
    is to move."""
    stones = np.empty((len(positions), net.size, net.size), np.int8)
    liberties = np.empty_like(stones)
    last = np.empty((len(positions), 3), np.int16)
    for k, (pts, info) in enumerate(positions):
        stones[k], liberties[k], last[k] = compact(pts, info)
    white = np.array([int(info[TO_MOVE]) == WHITE for _, info in positions])
    return planes(stones, liberties, last), np.where(white, komi, -komi).astype(np.float32), white


def _judged(win, score, white):
    """``(win, black_margin)`` of the value heads' answers for the side to move: the mover's
    chance and Black's margin."""
    return 1.0 - win, np.where(white, -score, score)


def node_values(net, positions, komi):
    """``(win, black_margin)``: the chance that the player who made the last move of each
    position ``(pts, info)`` of ``positions`` wins, by the net's value head, and Black's final
    margin (komi counted) by its score head, two arrays (one batch); ``komi`` as the search
    counts it (White gets it)."""
    x, to_move, white = _inputs(net, positions, komi)
    win, score, _ = net.values(x, to_move)
    return _judged(win, score, white)


def readings(net, positions, komi):
    """Black's view of ``positions`` ``(pts, info)`` by the net's value heads, one batch:
    ``(win, margin, area)``, Black's chance by the value head, Black's final margin by the
    score head and Black's expected area less White's by the ownership head, both with the
    komi counted (``komi`` White's, one number or one a position), three arrays. For readers
    of the net outside the search (benchmarks, analysis of a whole game)."""
    x, mover_komi, white = _inputs(net, positions, komi)
    win, score, owner = net.values(x, mover_komi)
    _, margin = _judged(win, score, white)
    return (np.where(white, 1.0 - win, win), margin,
            np.where(white, -1.0, 1.0) * (owner.sum(axis=(1, 2)) + mover_komi))


def judge(net, positions, komi):
    """``(ratios, win, black_margin)`` of ``positions`` by a net with value heads on its own
    trunk, one trunk pass for the batch: each position's :func:`ratios` and
    :func:`node_values`."""
    x, to_move, white = _inputs(net, positions, komi)
    tap = net.value_tap()
    f = net.trunk(x, stop=tap)
    win, score, _ = net.heads(f, to_move)
    logits = net.policy_logits(net.trunk(f, start=tap))
    return ([ratios(net, *p, logits[k]) for k, p in enumerate(positions)],
            *_judged(win, score, white))


def value_net(own, size, net):
    """The net whose value heads value the nodes the policy net ``net`` gives its prior to
    below the root: ``own`` (``--value-net``) on its board ``size``, else ``net`` when it
    has value heads, else None."""
    if own is not None and own.size == size:
        return own
    return net if net is not None and net.has_value else None


def give_below(tree, given, net, visits, after, pts0, info0, zob, komi=0.0, value_visits=0.0,
               value_net=None, valued=None):
    """Give the prior to the children of each node below the root with at least ``after``
    visits and children, not in ``given`` (which gets them). The nodes that qualify form a
    subtree under the root (a node has at most its parent's visits), so the walk goes down
    only through them; each one's position is replayed from the root's ``(pts0, info0)``.
    With ``value_visits`` and ``value_net`` (a net with value heads), each such node also
    gets ``value_visits`` virtual visits of its own, won as the net values its position
    (:func:`node_values`; ``komi`` White's), and ``valued`` (a dict) gets ``node: (visits,
    visits * win, visits * Black's margin)``, the net's judgement as the search mixes it in,
    for the reports (:attr:`.results.MoveStats.winrate`). Returns how many nodes got the
    prior."""
    count = 0
    waiting = []                                # (node, position) for the value net
    # A value on the policy net's own trunk: the priors come with the values, one pass.
    shared = value_visits > 0 and value_net is not None and value_net.same_policy(net)
    stack = [(tree.root, ())]
    while stack:
        node, line = stack.pop()
        kids = tree.children(node)
        if not len(kids):
            continue
        visited = np.flatnonzero(tree.floats[VISITS, kids.start:kids.stop] >= after)
        for c in (kids.start + visited).tolist():
            moves = line + (int(tree.ints[MOVE, c]),)
            stack.append((c, moves))
            if c in given or not len(tree.children(c)):
                continue
            given.add(c)
            position = _replay(pts0, info0, zob, moves)
            if shared and position is not None:
                waiting.append((c, position))
                continue
            ratio = None if position is None else ratios(net, *position)
            if ratio is not None:
                give(tree, c, ratio, visits)
                count += 1
            if position is not None and value_net is not None and value_visits > 0:
                waiting.append((c, position))
    if waiting:
        nodes = np.array([c for c, _ in waiting])
        if shared:
            given_ratios, wins, margins = judge(value_net, [p for _, p in waiting], komi)
            for c, ratio in zip(nodes.tolist(), given_ratios):
                if ratio is not None:
                    give(tree, c, ratio, visits)
                    count += 1
        else:
            wins, margins = node_values(value_net, [p for _, p in waiting], komi)
        tree.floats[PRIOR_VISITS, nodes] += value_visits
        tree.floats[PRIOR_WINS, nodes] += value_visits * wins
        if valued is not None:
            for c, w, m in zip(nodes.tolist(), wins.tolist(), margins.tolist()):
                valued[c] = (value_visits, value_visits * w, value_visits * m)
    return count


def _replay(pts0, info0, zob, moves):
    """The position after ``moves`` from ``(pts0, info0)``, or None if one is illegal there
    (the tree plays under simple ko, as this does)."""
    pts, info = pts0.copy(), info0.copy()
    for move in moves:
        color = int(info[TO_MOVE])
        if move != PASS and legality(pts, info, move, color) != LEGAL:
            return None
        play_legal(pts, info, zob, move, color)
    return pts, info
