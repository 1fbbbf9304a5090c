"""The search tree as preallocated arrays: no Python object per node.

Node ``n`` is column ``n`` of two arrays:

``ints``   int32, shape ``(NI_ROWS, capacity)``: the move leading to the node, its parent,
           where its children start and how many there are, and a flag that hides a root
           child the real game forbids (positional superko).
``floats`` float64, shape ``(NF_ROWS, capacity)``: visits and wins of the playouts through
           the node, the same for AMAF (all-moves-as-first), the prior knowledge as virtual
           visits and wins, the case-base bonus of a root child, and the sum of Black's
           final margins (area minus komi) of the playouts through the node (its mean is
           the node's score, KataGo's ``scoreLead`` of a move).

Wins count from the side of the player who made the node's move (so a parent picks the
child with the most wins for itself), a jigo as half a win. The children of a node sit next
to each other, allocated in one block when the node is expanded. When the pool is full the
search keeps running without expanding.

``state`` (int64, one row per *region*) holds the root, the first free column of the region
and its end. A tree searched by several threads at once (tree parallel) has a region per
thread, so that each thread allocates nodes without locks; one searched by a single thread
has a single region. The kernels take one row.
"""

import numpy as np

# Rows of ``ints``.
MOVE = 0
PARENT = 1
FIRST_CHILD = 2
NUM_CHILDREN = 3
BLOCKED = 4
MODEL_PRIORED = 5  # 1 when the node's children have the learned model's prior
NI_ROWS = 6

# Rows of ``floats``.
VISITS = 0
WINS = 1
AMAF_VISITS = 2
AMAF_WINS = 3
PRIOR_VISITS = 4
PRIOR_WINS = 5
BONUS = 6
SCORE = 7          # Black's final margins summed over the node's playouts
NF_ROWS = 8

# Slots of a ``state`` row.
ROOT = 0
NEXT_FREE = 1
REFUSED = 2        # expansions refused because the region was full
LIMIT = 3          # end of the region (one past its last column)
NSTATE = 4

BYTES_PER_NODE = NI_ROWS * 4 + NF_ROWS * 8
MIN_CAPACITY = 1024


def capacity_for(megabytes):
    """How many nodes fit in ``megabytes`` of memory."""
    return max(MIN_CAPACITY, int(megabytes * 1024 * 1024) // BYTES_PER_NODE)


class Tree:
    """One node pool, split into ``regions`` allocation regions. ``reset`` makes it a lone
    root; NumPy allocates lazily, so a big pool costs memory only as the search fills it."""

    def __init__(self, capacity, regions=1):
        self.capacity = int(capacity)
        self.regions = int(regions)
        self.ints = np.zeros((NI_ROWS, self.capacity), dtype=np.int32)
        self.floats = np.zeros((NF_ROWS, self.capacity), dtype=np.float64)
        self.state = np.zeros((self.regions, NSTATE), dtype=np.int64)
        self.reset()

    def region_start(self, r):
        # Column 0 is the first root, outside every region's allocations.
        return max(1, r * self.capacity // self.regions)

    def reset(self):
        self.ints[:, 0] = (0, -1, 0, 0, 0, 0)
        self.floats[:, 0] = 0.0
        self.state[:] = 0
        for r in range(self.regions):
            self.state[r, NEXT_FREE] = self.region_start(r)
            self.state[r, LIMIT] = (r + 1) * self.capacity // self.regions
        self.set_root(0)

    def set_root(self, node):
        self.state[:, ROOT] = node

    @property
    def root(self):
        return int(self.state[0, ROOT])

    @property
    def used(self):
        """Columns in use, the first root's included."""
        return 1 + sum(int(self.state[r, NEXT_FREE]) - self.region_start(r)
                       for r in range(self.regions))

    @property
    def refused(self):
        return int(self.state[:, REFUSED].sum())

    @property
    def fullest(self):
        """The largest part of any region in use (0 to 1)."""
        return max((int(self.state[r, NEXT_FREE]) - self.region_start(r))
                   / max(1, int(self.state[r, LIMIT]) - self.region_start(r))
                   for r in range(self.regions))

    def children(self, node):
        """Column indices of a node's children."""
        first = int(self.ints[FIRST_CHILD, node])
        return range(first, first + int(self.ints[NUM_CHILDREN, node]))

    def child_with_move(self, node, move):
        for c in self.children(node):
            if self.ints[MOVE, c] == move:
                return c
        return -1

    def best_child(self, node):
        """The most visited child (-1 for a leaf)."""
        kids = self.children(node)
        if not len(kids):
            return -1
        visits = self.floats[VISITS, kids.start:kids.stop]
        return kids.start + int(np.argmax(visits))
