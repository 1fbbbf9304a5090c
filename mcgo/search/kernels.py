"""The search's hot loop: selection, expansion, playout and backup, as ``kernel``s.

Nothing here allocates: the tree (``tree.py``) and the work arrays (a position copy, the
playout's work arrays, owner map, move record, the path through the tree, the AMAF map)
are made once in Python and passed in. ``run_simulations`` does a batch of simulations and
returns; Python checks the clock and the stop conditions between batches.

Tree parallel: several threads run these kernels on one tree at once, without locks, in the
manner of Enzenberger and Mueller's lock-free search (2009). Each thread allocates nodes in
its own region of the pool (its ``state`` row), writes a new node's children completely and
only then publishes them through the parent's child count; two threads expanding the same
node at once each allocate a block, and one of them wins (the children of a position are
the same moves either way). Statistics are updated without locks: a lost update now and
then costs a visit, never consistency. A *virtual loss* (``P_VIRTUAL_LOSS`` visits without
wins) is put on every node of the path on the way down and taken back on the way up, so
that threads searching at the same time spread over different lines. A thread checks that a
tree move is legal before playing it, so even a torn read cannot corrupt its position.
"""

import math

from ..board.kernels import (BLACK, EMPTIES, LEGAL, NEMPTY, PASS, PASSES, TO_MOVE, WIDTH,
                             copy_position, legality, owner_map, play_legal)
from ..jit import kernel
from ..playout.common import RECORD_COLORS, random_below
from ..playout.dispatch import run_playout
from ..playout.scoring import add_owner, black_margin, win_value
from ..tactics.eyes import is_true_eye
from .presets import (P_EXPAND_AFTER, P_EXPLORATION, P_FIRST_PLAY, P_KOMI, P_MODEL_DEPTH,
                      P_MODEL_PRIOR, P_MODEL_SHAPE, P_POLICY, P_PRIORS, P_RAVE, P_RAVE_EQUIV,
                      P_SKIP_EYES, P_TERRITORY, P_VIRTUAL_LOSS)
from .priors import PRIOR_CLOSED_PASS, set_model_priors, set_priors
from .tree import (AMAF_VISITS, AMAF_WINS, BLOCKED, BONUS, FIRST_CHILD, LIMIT,
                   MODEL_PRIORED, MOVE, NEXT_FREE, NUM_CHILDREN, PARENT, PRIOR_VISITS,
                   PRIOR_WINS, REFUSED, ROOT, SCORE, VISITS, WINS)

NEG_INF = -1e300


@kernel
def clear_node(ints, floats, n, move, parent):
    ints[MOVE, n] = move
    ints[PARENT, n] = parent
    ints[FIRST_CHILD, n] = 0
    ints[NUM_CHILDREN, n] = 0
    ints[BLOCKED, n] = 0
    ints[MODEL_PRIORED, n] = 0
    for r in range(floats.shape[0]):
        floats[r, n] = 0.0


@kernel
def expand(ints, floats, state, params, node, pts, info, zob, pat3, work, rng, model,
           forbid, child_depth):
    """Give ``node`` (whose position is ``pts, info``) one child per legal move and pass, in
    random order, with priors if the preset uses them (and the learned model's when
    ``params[P_MODEL_PRIOR]`` is set; ``model``: its tables, see ``Search``), in this
    thread's region of the pool. False when the region is full.

    ``forbid[colour, p] >= child_depth`` leaves move ``p`` out (the GUIs' ``allow`` and
    ``avoid`` until a depth; the children are at ``child_depth`` plies from the root); a
    pass is left out only when another move remains."""
    n_empty = info[NEMPTY]
    first = state[NEXT_FREE]
    if first + n_empty + 1 > state[LIMIT]:
        state[REFUSED] += 1
        return False
    color = info[TO_MOVE]
    w = info[WIDTH]
    skip_eyes = params[P_SKIP_EYES] != 0.0
    count = 0
    for i in range(n_empty):
        p = pts[EMPTIES, i]
        if legality(pts, info, p, color) != LEGAL:
            continue
        if skip_eyes and is_true_eye(pts, w, p, color):
            continue
        if forbid[color, p] >= child_depth:
            continue
        clear_node(ints, floats, first + count, p, node)
        count += 1
    if count == 0 or forbid[color, PASS] < child_depth:
        clear_node(ints, floats, first + count, PASS, node)
        count += 1
    # Shuffle, so that ties (equal values early on) do not favour one corner.
    for i in range(count - 1, 0, -1):
        j = random_below(rng, i + 1)
        tmp = ints[MOVE, first + i]
        ints[MOVE, first + i] = ints[MOVE, first + j]
        ints[MOVE, first + j] = tmp
    if params[P_MODEL_PRIOR] != 0.0 and (params[P_MODEL_DEPTH] == 0.0
                                         or child_depth <= params[P_MODEL_DEPTH]):
        pattern_lg, group_lg, spatial_keys, spatial_lg, vals = model
        set_model_priors(ints[MOVE], floats, first, count, pts, info, zob, work[1], color,
                         params[P_MODEL_PRIOR], int(params[P_MODEL_SHAPE]), pattern_lg,
                         group_lg, spatial_keys, spatial_lg, vals)
        ints[MODEL_PRIORED, node] = 1
    if params[P_PRIORS] != 0.0:
        closed_pass = PRIOR_CLOSED_PASS if params[P_TERRITORY] != 0.0 else 0.0
        set_priors(ints[MOVE], floats, first, count, pts, info, zob, pat3, work[1], color,
                   closed_pass, work[0])
    state[NEXT_FREE] = first + count
    # Publish last: another thread sees the children only once they are complete.
    ints[FIRST_CHILD, node] = first
    ints[NUM_CHILDREN, node] = count
    return True


@kernel
def child_value(floats, c, log_parent, params):
    """The selection value of child ``c``: MC win rate (with priors), blended with the AMAF
    win rate by Silver's weight when RAVE is on, plus the UCB term and the bonus."""
    n = floats[VISITS, c] + floats[PRIOR_VISITS, c]
    if n == 0.0:
        return params[P_FIRST_PLAY] + floats[BONUS, c]
    q = (floats[WINS, c] + floats[PRIOR_WINS, c]) / n
    if params[P_RAVE] != 0.0:
        an = floats[AMAF_VISITS, c]
        if an > 0.0:
            beta = an / (an + n + an * n / params[P_RAVE_EQUIV])
            q = (1.0 - beta) * q + beta * floats[AMAF_WINS, c] / an
    c_explore = params[P_EXPLORATION]
    if c_explore != 0.0:
        q += c_explore * math.sqrt(log_parent / n)
    return q + floats[BONUS, c]


@kernel
def select_child(ints, floats, params, node):
    """The child of ``node`` with the highest value (first among equals) among its children
    that are not blocked; -1 if none."""
    first = ints[FIRST_CHILD, node]
    count = ints[NUM_CHILDREN, node]
    parent_visits = floats[VISITS, node]
    log_parent = math.log(parent_visits) if parent_visits > 1.0 else 0.0
    best = -1
    best_value = NEG_INF
    for c in range(first, first + count):
        if ints[BLOCKED, c] != 0:
            continue
        v = child_value(floats, c, log_parent, params)
        if v > best_value:
            best_value = v
            best = c
    return best


@kernel
def mover_of_depth(root_to_move, d):
    """Who played the move into the node at depth ``d >= 1`` of the path."""
    return root_to_move if d % 2 == 1 else 3 - root_to_move


@kernel
def backup(ints, floats, params, path, depth, root_to_move, black_result, margin, record,
           n_record, amaf_color):
    """Add the result and Black's final ``margin`` to every node of the path (whose visit
    the virtual loss has partly counted already), and (RAVE) the result to the AMAF
    statistics of every child of a path node whose move its player made first later in
    the simulation."""
    visit = 1.0 - params[P_VIRTUAL_LOSS]
    for d in range(depth + 1):
        node = path[d]
        mover = mover_of_depth(root_to_move, d) if d > 0 else 3 - root_to_move
        floats[VISITS, node] += visit
        floats[WINS, node] += black_result if mover == BLACK else 1.0 - black_result
        floats[SCORE, node] += margin
    if params[P_RAVE] == 0.0:
        return
    for p in range(amaf_color.shape[0]):
        amaf_color[p] = 0
    # Playout moves from last to first, so the first player of a point stays.
    for i in range(n_record - 1, -1, -1):
        p = record[i] // RECORD_COLORS
        if p != PASS:
            amaf_color[p] = record[i] % RECORD_COLORS
    for d in range(depth, -1, -1):
        node = path[d]
        to_move = root_to_move if d % 2 == 0 else 3 - root_to_move
        result = black_result if to_move == BLACK else 1.0 - black_result
        first = ints[FIRST_CHILD, node]
        for c in range(first, first + ints[NUM_CHILDREN, node]):
            p = ints[MOVE, c]
            if p != PASS and amaf_color[p] == to_move:
                floats[AMAF_VISITS, c] += 1.0
                floats[AMAF_WINS, c] += result
        if d > 0:
            p = ints[MOVE, node]
            if p != PASS:
                amaf_color[p] = mover_of_depth(root_to_move, d)


@kernel
def simulate_once(ints, floats, state, params, pts0, info0, zob, pat3, pts, info, work,
                  owner, record, amaf_color, path, rng, owner_sum, model, forbid):
    """One simulation: descend from the root by ``select_child``, expand the leaf when it
    has enough visits, play out, back the result up. Returns the playout's length."""
    copy_position(pts0, info0, pts, info)
    root = state[ROOT]
    root_to_move = info0[TO_MOVE]
    expand_after = params[P_EXPAND_AFTER]
    virtual_loss = params[P_VIRTUAL_LOSS]
    node = root
    path[0] = root
    floats[VISITS, root] += virtual_loss
    depth = 0
    placed = 0          # stones black placed in the tree minus white's
    while info[PASSES] < 2 and depth + 1 < path.shape[0]:
        if ints[NUM_CHILDREN, node] == 0:
            # This simulation's own virtual loss is not a visit yet.
            if node != root and floats[VISITS, node] - virtual_loss < expand_after:
                break
            if not expand(ints, floats, state, params, node, pts, info, zob, pat3, work, rng,
                          model, forbid, depth + 1):
                break
        child = select_child(ints, floats, params, node)
        if child < 0:
            break
        move = ints[MOVE, child]
        if move != PASS and legality(pts, info, move, info[TO_MOVE]) != LEGAL:
            break       # a torn read of a node another thread is writing
        if move != PASS:
            placed += 1 if info[TO_MOVE] == BLACK else -1
        play_legal(pts, info, zob, move, info[TO_MOVE])
        floats[VISITS, child] += virtual_loss
        depth += 1
        path[depth] = child
        node = child
    n_record = 0
    policy = int(params[P_POLICY])
    territory = params[P_TERRITORY] != 0.0
    if info[PASSES] >= 2 and not territory:
        owner_map(pts, info, owner)     # area: two passes end the game, every stone counts
    else:
        if info[PASSES] >= 2:
            # Under territory scoring the dead stones come off at the count: let the
            # playout find them, as if no one had passed.
            info[PASSES] = 0
        n_record = run_playout(policy, pts, info, zob, pat3, work, rng, owner, record)
        if n_record > record.shape[0]:
            n_record = record.shape[0]
    komi = params[P_KOMI]
    if territory:
        # Territory is area less the stones placed. The playout's moves are free: most of
        # them fill territory where a real game would pass. The tree's are not, so the
        # search can tell a needed move from a point given away, and pass.
        komi += placed
    margin = black_margin(owner, komi)
    black_result = win_value(margin)
    backup(ints, floats, params, path, depth, root_to_move, black_result, margin, record,
           n_record, amaf_color)
    if owner_sum.shape[0] == owner.shape[0]:
        add_owner(owner_sum, owner)
    return n_record


@kernel
def run_simulations(ints, floats, state, params, pts0, info0, zob, pat3, pts, info, work,
                    owner, record, amaf_color, path, rng, owner_sum, n, model, forbid):
    """``n`` simulations from the root position ``(pts0, info0)``; returns the moves played
    in the playouts (for rates)."""
    moves = 0
    for _ in range(n):
        moves += simulate_once(ints, floats, state, params, pts0, info0, zob, pat3, pts, info,
                               work, owner, record, amaf_color, path, rng, owner_sum, model,
                               forbid)
    return moves


@kernel
def complete_model_priors(ints, floats, params, pts0, info0, zob, pts, info, model, ladder,
                          stack, path, saved):
    """After the root moved down a kept tree: give the learned model's prior to the children
    of every expanded node within ``params[P_MODEL_DEPTH] - 1`` plies of the root that has
    none (it was expanded deeper than the model's depth below an older root), as
    :func:`expand` would give it now. ``stack``: room for the nodes visited, the root first
    (the tree's used columns); ``path``: room for the moves from the root to a node (the
    depth); ``saved``: room for one node's children (board points + 1). Returns how many
    nodes got the prior."""
    max_depth = int(params[P_MODEL_DEPTH])
    if params[P_MODEL_PRIOR] == 0.0 or max_depth <= 0:
        return 0
    pattern_lg, group_lg, spatial_keys, spatial_lg, vals = model
    root = stack[0]
    top = 1
    done = 0
    while top > 0:
        top -= 1
        node = stack[top]
        count = ints[NUM_CHILDREN, node]
        depth = 0                       # plies from the root: walk up, then replay down
        n = node
        while n != root:
            path[depth] = ints[MOVE, n]
            depth += 1
            n = ints[PARENT, n]
        first = ints[FIRST_CHILD, node]
        if ints[MODEL_PRIORED, node] == 0:
            copy_position(pts0, info0, pts, info)
            legal = True
            for i in range(depth - 1, -1, -1):
                move = path[i]
                if move != PASS and legality(pts, info, move, info[TO_MOVE]) != LEGAL:
                    legal = False       # a line the real game made illegal (superko)
                    break
                play_legal(pts, info, zob, move, info[TO_MOVE])
            if legal:
                # set_model_priors uses PRIOR_WINS as scratch: keep the rules' priors aside.
                for c in range(first, first + count):
                    saved[c - first] = floats[PRIOR_WINS, c]
                    floats[PRIOR_WINS, c] = 0.0
                set_model_priors(ints[MOVE], floats, first, count, pts, info, zob, ladder,
                                 info[TO_MOVE], params[P_MODEL_PRIOR],
                                 int(params[P_MODEL_SHAPE]), pattern_lg, group_lg, spatial_keys,
                                 spatial_lg, vals)
                for c in range(first, first + count):
                    floats[PRIOR_WINS, c] += saved[c - first]
                ints[MODEL_PRIORED, node] = 1
                done += 1
        if depth + 2 <= max_depth:      # the children's children are within the depth
            for c in range(first, first + count):
                if ints[NUM_CHILDREN, c] > 0:
                    stack[top] = c
                    top += 1
    return done


@kernel
def expand_root(ints, floats, state, params, pts0, info0, pts, info, zob, pat3, work, rng, model,
                forbid):
    """Make sure the root has children (the Python side then hides superko moves)."""
    root = state[ROOT]
    if ints[NUM_CHILDREN, root] > 0:
        return True
    copy_position(pts0, info0, pts, info)
    return expand(ints, floats, state, params, root, pts, info, zob, pat3, work, rng, model,
                  forbid, 1)
